"""The worked examples of rule sections 7-11, each a log in ``examples/rules/``.

A log sets up the example's situation with ``setup:`` lines, plays it with the dice the
example states (``{d10: ...}``) and asserts the outcome with ``expect`` lines.  A comment line
``# RULE: why`` just before an action line says that line is illegal under RULE; every other
line must replay cleanly.  The dice, modified hit chances and modifiers of each unit are
checked here against the numbers the rulebook prints.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from referee.core.parsing import parse_log
from referee.core.replay import Report, replay
from referee.games.wwiic.engine import ENGINE

FOLDER = Path(__file__).parent / "examples" / "rules"
LOGS = sorted(FOLDER.glob("*.log"))
MARK = re.compile(r"^# (\d+(?:\.\d+)?(?:\.[A-Z])?): ")


def replayed(path: Path) -> Report:
    return replay(parse_log(path.read_text(encoding="utf-8"), path.name, engine=ENGINE), ENGINE)


def marked(path: Path) -> set[tuple[int, str]]:
    lines = path.read_text(encoding="utf-8").splitlines()
    found = set()
    for number, line in enumerate(lines[1:], 2):
        match = MARK.match(lines[number - 2])
        if match and not line.startswith("#"):
            found.add((number, match.group(1)))
    return found


@pytest.mark.parametrize("path", LOGS, ids=lambda p: p.stem)
def test_example_log_replays_as_the_rulebook_says(path: Path) -> None:
    report = replayed(path)
    found = {(p.line, p.rule) for p in report.problems}
    assert all(str(p.kind) == "illegal-move" for p in report.problems), report.problems
    assert found == marked(path)


def fire(path: Path) -> dict[str, tuple[int, int, list[int]]]:
    """Each firing unit of the log's first combat: dice, modified hit chance, modifiers."""
    out: dict[str, tuple[int, int, list[int]]] = {}
    for entry in replayed(path).events:
        event = entry.event
        if event.kind == "combat-fire" and event.data["unit"] not in out:
            out[event.data["unit"]] = (
                event.data["dice"], event.data["hit_chance"],
                [m["value"] for m in event.data["modifiers"]],
            )
    return out


def test_7_2_example_1_hit_chances() -> None:
    assert fire(FOLDER / "7.2-example-1.log") == {
        "21G/5G": (4, 5, [1, -1]),       # base 5, +1 30 Corps in clear weather, -1 armor
        "506/101": (5, 2, [-1]),         # base 3, -1 defending armor
        "107Pz": (2, 3, [-1]),           # lower (defending) base 4, -1 attacking armor
    }


def test_7_2_example_2_hit_chances() -> None:
    assert fire(FOLDER / "7.2-example-2.log") == {
        "32G": (6, 8, [1, 1, 2]),        # base 4, +1 30 Corps, +1 clear, +2 all defenders OOS
        "KG-Henke": (3, 3, [1]),         # base 2 out of supply, +1 clear
    }


def test_7_2_example_3_hit_chances() -> None:
    assert fire(FOLDER / "7.2-example-3.log") == {
        "21G/5G": (2, 3, [1, -2]),       # 2 dice in polder; base 4, +1, -2 crossed the canal
        "32G": (6, 3, [1, -2]),
        "KG-Krafft": (2, 4, [-1, 2]),    # base 3, -1 attacking armor, +2 all crossed
    }


@pytest.mark.parametrize("name", ["7.5-german-combat-example-1.log",
                                  "7.5-german-combat-example-2.log"])
def test_7_5_german_combat_examples_hit_chances(name: str) -> None:
    table = fire(FOLDER / name)
    assert table["280"] == (2, 5, [-1])          # elite armor attacking at 6, -1 elite defender
    assert table["1P/1AB"] == (5, 2, [-1])       # base 3, -1 attacking armor
    other = "9SS" if "1" in name.split("-")[-1] else "KG-Spindler"
    assert table[other] == (5, 3, [-1])


def test_7_4_combat_requirements_who_takes_part() -> None:
    report = replayed(FOLDER / "7.4-combat-requirements.log")
    attacks = [e.event.data for e in report.events if e.event.kind == "attack"]
    assert attacks[0]["attackers"] == ["107Pz", "59"] and attacks[0]["joining"] == ["107Pz"]
    assert attacks[1]["attackers"] == ["245"]    # KG-Walther, spent, does not attack


def test_7_4_terrain_reduction_and_city_limit() -> None:
    hits = {}
    for name in ("7.6-outcome-1-hit.log", "7.6-outcome-2-hits.log", "7.6-outcome-3-hits.log",
                 "7.5-german-combat-example-2.log", "7.6-retreat-options.log"):
        report = replayed(FOLDER / name)
        data = next(e.event.data for e in report.events if e.event.kind == "combat-hits")
        hits[name] = (data["defender_hits"], data["terrain_reduction"],
                      data["defender_hits_applied"])
    assert hits["7.6-outcome-1-hit.log"] == (1, 1, 0)     # city, defender strength 1: -1
    assert hits["7.6-outcome-2-hits.log"] == (2, 1, 1)
    assert hits["7.6-outcome-3-hits.log"] == (3, 1, 2)
    assert hits["7.5-german-combat-example-2.log"] == (4, 2, 2)   # city -2
    assert hits["7.6-retreat-options.log"] == (3, 1, 2)           # woods -1


def test_7_6_two_hits_offer_the_retreat_to_nuenen_only() -> None:
    text = (FOLDER / "7.6-outcome-2-hits.log").read_text(encoding="utf-8")
    head = text.split("# 7.6: Zon")[0]
    report = replay(parse_log(head, "head", engine=ENGINE), ENGINE)
    pending = report.pending()
    assert pending is not None and pending["side"] == "german"
    assert sorted(pending["choices"]) == ["hits 107Pz", "retreat 107Pz->Nuenen"]


def test_7_6_retreat_options_listed() -> None:
    text = (FOLDER / "7.6-retreat-options.log").read_text(encoding="utf-8")
    head = text.split("# 7.6: Cuyk")[0]
    report = replay(parse_log(head, "head", engine=ENGINE), ENGINE)
    pending = report.pending()
    assert pending is not None and pending["side"] == "allied"
    assert set(pending["choices"]) == {
        "hits 505/82 B/504/82", "hits 505/82", "hits B/504/82",
    }
    state = report.state
    assert state is not None
    after = ENGINE.copy(state)
    from .positions import play

    play(after, "allied: hits 505/82")
    assert {str(c) for c in ENGINE.legal(after)} == {
        "retreat 505/82->Groesbeek, B/504/82->Groesbeek",
        "retreat 505/82->Groesbeek, B/504/82->Over Asselt",
        "retreat 505/82->Over Asselt, B/504/82->Groesbeek",
        "retreat 505/82->Over Asselt, B/504/82->Over Asselt",
        "hits B/504/82",
    }
