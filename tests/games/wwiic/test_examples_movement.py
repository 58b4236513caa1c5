"""The worked examples of rule sections 4-6 of the WWII Commander rulebook, as logs.

Each log in ``examples/movement/`` sets up one example's situation with ``setup:`` lines, tries
the moves the example calls impossible (each must be refused, citing the rule section below),
plays the moves it allows, and states the outcome with ``expect`` lines.  The tests here
replay every log through the public API and check:

* exactly the lines listed in ``REFUSED`` are refused, as illegal moves citing those sections,
  and there is no other problem (so every other line was legal and every ``expect`` held);
* every other action line was applied, and was among the legal moves just before it;
* the places the example says units can (or cannot) reach, from ``legal_moves``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache
from pathlib import Path

import pytest

from referee.api import legal_moves, replay_file
from referee.core.replay import Report

EXAMPLES = Path(__file__).parent / "examples" / "movement"

# For each log: every line the referee must refuse, in log order, written as in the log
# (without its comment), with the rule section it must cite.  A text the log also plays
# legally later (or earlier) is matched to its occurrences in order.
REFUSED: dict[str, dict[str, str]] = {
    "4.0-unit-activation.log": {
        "allied: activate 21G/5G Zon->St. Oedenrode, 2HC Zon->St. Oedenrode": "4",
        "allied: activate 502/101 Best->Zon, 501/101 Doerhoek->St. Oedenrode": "4",
        "allied: activate 502/101 Best, 501/101 Doerhoek": "4",
        # Doerhoek does not touch Eindhoven: the referee names that first (section 6).
        "allied: activate 502/101 Best->Eindhoven, 501/101 Doerhoek->Eindhoven": "6",
    },
    "4.0-passage-of-time-end-box.log": {},
    "4.0-passage-of-time-two-passes.log": {
        "allied: pass": "4",
    },
    "5.0-space-control.log": {},
    "6.0-general-movement-mook.log": {
        "allied: activate 505/82 Mook->Cuyk": "6.3",
        "allied: activate B/504/82 Mook->Cuyk": "6.3",
        "allied: activate 505/82 Mook->St. Anna": "6.2",
        "allied: activate 505/82 Mook->Over Asselt, B/504/82 Mook->Over Asselt": "6.3",
    },
    "6.0-two-space-movement-st-anna.log": {
        "allied: activate 21G/5G St. Anna->Mook->Over Asselt": "6.3",
        "allied: activate 2HC St. Anna->Mook->Over Asselt": "6.3",
        "allied: activate 21G/5G St. Anna->Neerbosch->Ewijk": "6",
        "allied: activate 2HC St. Anna->Weurt->Ewijk": "6.3",
        "allied: activate 21G/5G St. Anna->Weurt->Slijk-Ewijk": "6.3",
        "allied: activate 2HC St. Anna->Nijmegen->Hengstal": "6.1",
        "allied: activate 21G/5G St. Anna->Mook->Hengstal, 2HC St. Anna->Mook->Hengstal": "6.2",
    },
    "6.1-movement-from-different-spaces.log": {
        "allied: activate 2HC Appeltern->Hernen->Wijchen, 44RT Appeltern->Hernen->Wijchen": "6",
        "allied: activate 44RT Appeltern->Hernen->Wijchen": "6",
        "allied: activate 21G/5G St. Anna->Neerbosch->Wijchen, 32G St. Anna->Neerbosch->Wijchen":
            "6",
        "allied: activate 32G St. Anna->Neerbosch->Wijchen": "6",
        "allied: activate 2HC Appeltern->Hernen->Wijchen, 1GG/5G Zeeland->Grave->Wijchen": "6.3",
        "allied: activate 21G/5G St. Anna->Neerbosch->Wijchen, A/504/82 Over Asselt->Wijchen":
            "4",
    },
    "6.1-contested-and-enemy-controlled-spaces.log": {
        "allied: activate B/504/82 Reithoven->Eersel": "6.1",
        "allied: activate B/504/82 Reithoven->Vessem": "6.1",
        "allied: activate B/504/82 Reithoven->Dommelen": "6.1",
        "allied: activate A/504/82 Dommelen->Reithoven": "6.1",
        "allied: activate A/504/82 Dommelen->Veldhoven": "6.1",
        "allied: activate A/504/82 Dommelen->Waalre": "6.1",
        "allied: activate A/508/82 Dommelen->Valkenswaard": "6.1",
    },
    "6.3-german-ferry.log": {
        "german: activate KG-Spindler Duiven->Pannerden Ferry, "
        "KG-Walther Duiven->Pannerden Ferry": "6.3",
        "german: activate KG-Spindler Duiven->Pannerden Ferry->Doornenburg": "6.3",
        "german: activate KG-Walther Duiven->Pannerden Ferry": "6.3",
        "german: activate KG-Spindler Pannerden Ferry->Doornenburg->Gendt": "6.3",
    },
    "6.3-allied-special-river-crossing-slijk-ewijk.log": {
        "allied: activate 32G Weurt->Slijk-Ewijk": "6.3",
        "allied: activate B/504/82 Weurt->Slijk-Ewijk->Oosterhaut": "6",
    },
    "6.3-allied-special-river-crossing-oosterhaut.log": {},
    "6.4-strategic-movement.log": {
        "allied: activate 32G Zon->St. Oedenrode->Doerhoek->Veghel->Uden->Zeeland strategic":
            "6.4",
        "allied: activate 21G/5G Eindhoven->Zon->St. Oedenrode strategic": "6.4",
        "german: activate 6FR Zeeland->Mill strategic": "6.4",
        "german: activate 59 Best->Oirschot strategic": "6.4",
        "german: activate KG-Walther Oeffelt->Haps->Mill->Zeeland->Grave strategic": "6.4",
        "allied: activate 2W/G Heeze->Geldorp->Eindhoven strategic": "6.4",
        "allied: activate 501/101 Nederwetten->St. Oedenrode strategic": "6.4",
        "allied: activate 44RT Waalre->Eindhoven->Zon->St. Oedenrode->Doerhoek->Veghel->Uden "
        "strategic": "6.4",
    },
    "6.5-german-off-map-boxes.log": {
        # The rulebook's reason is 6.5 ("did not start its move adjacent"); the referee cites
        # 6 ("not adjacent").  Pinned here; test_6_5_hengstal_refusal_cites_6_5 expects 6.5.
        "german: activate KG-Walther Hengstal->E4": "6.5",
        "german: activate 16/7F Groesbeek->Wyler": "6.1",
        "german: activate 16/7F Groesbeek->Hengstal": "6.1",
        "german: activate 406 E4->Wyler->Hengstal": "6",
    },
}

ACTION = re.compile(r"^(?:(?:allied|german|referee):\s*)?(?:activate|move-out|pass|attack|no "
                    r"attack|weather)\b", re.IGNORECASE)


def path_of(name: str) -> Path:
    return EXAMPLES / name


def text_lines(name: str) -> list[str]:
    """The log's lines without comments or surrounding blanks (index 0 is line 1)."""
    raw = path_of(name).read_text(encoding="utf-8").splitlines()
    return [line.split("#", 1)[0].strip() for line in raw]


def action_lines(name: str) -> dict[int, str]:
    """Line number -> text of every action line of the log."""
    return {n: t for n, t in enumerate(text_lines(name), start=1) if ACTION.match(t)}


def line_of(name: str, text: str) -> int:
    """The number of the first line of the log that reads ``text`` (comment aside)."""
    found = [n for n, t in enumerate(text_lines(name), start=1) if t == text]
    assert found, f"{name}: no line reads {text!r}"
    return found[0]


def refused_lines(name: str) -> dict[int, str]:
    """Line number -> rule section of each line ``REFUSED`` lists, matched in log order."""
    actions = sorted(action_lines(name).items())
    out: dict[int, str] = {}
    position = 0
    for text, rule in REFUSED[name].items():
        while position < len(actions) and actions[position][1] != text:
            position += 1
        assert position < len(actions), f"{name}: {text!r} not found in order"
        out[actions[position][0]] = rule
        position += 1
    return out


def command_key(text: str) -> frozenset[str]:
    """A command as a set of unit moves (the side prefix dropped, unit order ignored)."""
    body = text.split(":", 1)[1] if re.match(r"^(allied|german|referee):", text) else text
    body = " ".join(body.split())
    if body.casefold().startswith("activate "):
        parts = body[len("activate "):].split(", ")
        return frozenset(["activate"] + [p.strip() for p in parts])
    return frozenset([body])


@cache
def replayed(name: str, upto: int | None = None) -> Report:
    """The log replayed to its end, or through line ``upto`` (read only: shared by tests)."""
    return replay_file(path_of(name), upto=upto)


@cache
def moves_after(name: str, upto: int) -> tuple[str, ...]:
    """The legal commands once the log is replayed through line ``upto``."""
    return tuple(legal_moves(replayed(name, upto), limit=None))


def moves_before(name: str, text: str) -> tuple[str, ...]:
    """The legal commands just before the first line reading ``text``."""
    return moves_after(name, line_of(name, text) - 1)


def keys(moves: Iterable[str]) -> set[frozenset[str]]:
    return {command_key(m) for m in moves}


def destinations(moves: Iterable[str], unit: str, *, strategic: bool | None = None) -> set[str]:
    """Where ``unit`` may end an activation of itself alone (not counting staying put)."""
    out: set[str] = set()
    for move in moves:
        if ", " in move or not move.startswith(f"activate {unit} "):
            continue
        is_strategic = move.endswith(" strategic")
        if strategic is not None and strategic != is_strategic:
            continue
        path = move[len(f"activate {unit} "):].removesuffix(" strategic")
        if "->" in path:
            out.add(path.rsplit("->", 1)[1])
    return out


def joint(moves: Iterable[str], *units: str) -> list[str]:
    """The two-unit activations that include every one of ``units``."""
    return [m for m in moves if ", " in m and all(f" {u} " in f" {m}" for u in units)]


def report_of(name: str) -> Report:
    return replayed(name)


# -- every log: the refused lines, the legal lines, the expectations --------------------------


def test_every_log_in_the_folder_is_listed() -> None:
    assert sorted(p.name for p in EXAMPLES.glob("*.log")) == sorted(REFUSED)


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_exactly_the_listed_lines_are_refused_with_their_sections(name: str) -> None:
    report = report_of(name)
    expected = {(line, "illegal-move", rule) for line, rule in refused_lines(name).items()}
    found = {(p.line, p.kind.value, p.rule) for p in report.problems}
    assert found == expected, [str(p) for p in report.problems]


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_every_other_action_line_is_applied(name: str) -> None:
    report = report_of(name)
    refused = set(refused_lines(name))
    applied = {e.line for e in report.events if e.line is not None}
    legal = set(action_lines(name)) - refused
    assert legal, f"{name} plays no legal move"
    assert legal <= applied


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_every_legal_activation_was_listed_by_legal_moves(name: str) -> None:
    refused = set(refused_lines(name))
    for number, text in action_lines(name).items():
        if number in refused or "activate" not in text:
            continue
        assert command_key(text) in keys(moves_after(name, number - 1)), f"line {number}: {text}"


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_every_refused_line_is_absent_from_legal_moves(name: str) -> None:
    lines = action_lines(name)
    for number in refused_lines(name):
        moves = moves_after(name, number - 1)
        assert moves, f"no legal move before line {number}"
        assert command_key(lines[number]) not in keys(moves), lines[number]


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_every_log_states_outcomes(name: str) -> None:
    expects = [t for t in text_lines(name) if t.startswith("expect ")]
    assert expects, f"{name} has no expect line"
    assert not [p for p in report_of(name).problems if p.kind.value == "assertion"]


# -- 4 Unit Activation Example ----------------------------------------------------------------

ACTIVATION = "4.0-unit-activation.log"
FIRST_ACTIVATION = "allied: activate 21G/5G Zon->St. Oedenrode, 2HC Zon->St. Oedenrode"


def test_4_unit_activation_every_listed_option_is_legal() -> None:
    moves = keys(moves_before(ACTIVATION, FIRST_ACTIVATION))
    options = [
        # both units in Best, to attack the German unit there (staying)
        "activate 502/101 Best, 506/101 Best",
        # both units in Best move out: into one space, or into two
        "activate 502/101 Best->Eindhoven, 506/101 Best->Eindhoven",
        "activate 502/101 Best->Eindhoven, 506/101 Best->Wintelre",
        # one moves out, the other stays to attack
        "activate 502/101 Best->Wintelre, 506/101 Best",
        # one moves out, the other is not activated
        "activate 506/101 Best->Eindhoven",
        # the unit in Nederwetten, to move and possibly attack
        "activate 32G Nederwetten->St. Oedenrode",
        # the armor in Zon alone
        "activate 21G/5G Zon->St. Oedenrode",
        # the 30 Corps units of Nederwetten and Zon, both into St. Oedenrode
        "activate 21G/5G Zon->St. Oedenrode, 32G Nederwetten->St. Oedenrode",
        # the unit in Doerhoek
        "activate 501/101 Doerhoek->St. Oedenrode",
    ]
    for option in options:
        assert command_key(option) in moves, option


def test_4_unit_activation_the_two_impossible_options() -> None:
    moves = moves_before(ACTIVATION, FIRST_ACTIVATION)
    assert not [m for m in moves if "2HC" in m]  # spent
    for best in ("502/101", "506/101"):
        assert joint(moves, best, "501/101") == []  # no common space to end in
    assert joint(moves, "21G/5G", "32G")  # whereas the 30 Corps pair is allowed


def test_4_unit_activation_the_pair_must_attack_in_st_oedenrode() -> None:
    report = report_of(ACTIVATION)
    state = report.state_json()
    assert state is not None
    assert state["combat"]["mandatory"] == ["St. Oedenrode"]
    pending = report.pending()
    assert pending is not None and pending["side"] == "allied"


# -- 4 Passage of Time Example ----------------------------------------------------------------


@pytest.mark.parametrize("name", ["4.0-passage-of-time-end-box.log",
                                  "4.0-passage-of-time-two-passes.log"])
def test_4_passage_of_time_the_game_turn_ends(name: str) -> None:
    report = report_of(name)
    state = report.state_json()
    assert state is not None and state["turn"] == 4
    pending = report.pending()
    assert pending is not None and pending["side"] == "referee"  # Game-turn 4's weather roll


def test_4_passage_of_time_the_allied_pass_after_the_german_pass_is_legal() -> None:
    name = "4.0-passage-of-time-two-passes.log"
    numbers = [n for n, t in action_lines(name).items() if t == "allied: pass"]
    first, second = numbers
    assert "pass" not in moves_after(name, first - 1)
    assert "pass" in moves_after(name, second - 1)


# -- 6 General Movement Example (Mook) --------------------------------------------------------

MOOK = "6.0-general-movement-mook.log"


def test_6_general_movement_mook_where_the_units_can_go() -> None:
    moves = moves_before(MOOK, "allied: activate 505/82 Mook->Cuyk")
    for unit in ("505/82", "B/504/82"):
        reach = destinations(moves, unit)
        assert {"Groesbeek", "Over Asselt"} <= reach
        assert not {"Cuyk", "St. Anna"} & reach
    assert command_key("activate 505/82 Mook->Groesbeek, B/504/82 Mook->Groesbeek") in keys(
        moves
    )


# -- 6 Two-space Movement Example (St. Anna) ------------------------------------------------

ST_ANNA = "6.0-two-space-movement-st-anna.log"


def test_6_two_space_movement_st_anna_the_allowed_options() -> None:
    moves = keys(moves_before(ST_ANNA, "allied: activate 21G/5G St. Anna->Mook->Over Asselt"))
    options = [
        "activate 21G/5G St. Anna->Neerbosch->Wijchen, 2HC St. Anna->Neerbosch->Wijchen",
        "activate 21G/5G St. Anna->Neerbosch->Over Asselt, 2HC St. Anna->Neerbosch->Over Asselt",
        "activate 2HC St. Anna->Neerbosch->Ewijk",
        "activate 21G/5G St. Anna->Weurt, 2HC St. Anna->Weurt",
        "activate 21G/5G St. Anna->Nijmegen, 2HC St. Anna->Nijmegen",
        "activate 21G/5G St. Anna->Mook->Groesbeek, 2HC St. Anna->Mook->Groesbeek",
        "activate 2HC St. Anna->Mook->Hengstal",
        "activate 21G/5G St. Anna->Mook->Hengstal",
    ]
    for option in options:
        assert command_key(option) in moves, option


def test_6_two_space_movement_st_anna_the_armor_never_ends_in_ewijk() -> None:
    moves = moves_before(ST_ANNA, "allied: activate 21G/5G St. Anna->Mook->Over Asselt")
    assert "Ewijk" not in destinations(moves, "21G/5G")
    assert "Ewijk" in destinations(moves, "2HC")


# -- 6.1 Movement from different spaces example ----------------------------------------------

WIJCHEN = "6.1-movement-from-different-spaces.log"


def test_6_1_different_spaces_who_can_reach_wijchen() -> None:
    moves = moves_before(
        WIJCHEN,
        "allied: activate 2HC Appeltern->Hernen->Wijchen, 44RT Appeltern->Hernen->Wijchen",
    )
    assert "Wijchen" in destinations(moves, "2HC")
    assert "Wijchen" in destinations(moves, "21G/5G")
    for unit in ("44RT", "32G", "1GG/5G"):
        assert "Wijchen" not in destinations(moves, unit), unit
    # The airborne unit in Over Asselt may enter Wijchen alone, but not with a 30 Corps unit.
    assert "Wijchen" in destinations(moves, "A/504/82")
    assert not [m for m in joint(moves, "A/504/82") if m.count("->Wijchen") == 2]


def test_6_1_different_spaces_the_valid_pair_must_attack() -> None:
    state = report_of(WIJCHEN).state_json()
    assert state is not None
    assert state["combat"]["mandatory"] == ["Wijchen"]


# -- 6.1 Effects of contested and enemy-controlled spaces example ---------------------------

CONTESTED = "6.1-contested-and-enemy-controlled-spaces.log"


def test_6_1_contested_where_each_unit_can_go() -> None:
    moves = moves_before(CONTESTED, "allied: activate B/504/82 Reithoven->Eersel")
    # Reithoven, friendly-controlled and contested: the Allied-controlled spaces only.
    assert destinations(moves, "B/504/82") == {"Bergeijk", "Veldhoven", "Westerhoven"}
    # Dommelen, German-controlled and contested: uncontested Allied-controlled spaces only.
    assert destinations(moves, "A/504/82") == {"Westerhoven"}
    assert destinations(moves, "A/508/82") == {"Westerhoven"}


def test_6_1_contested_westerhoven_goes_anywhere() -> None:
    # Westerhoven, friendly-controlled and uncontested: every adjacent space, once Dommelen
    # holds a single Allied unit (before that its two Allied units fill it, 6.2).
    moves = moves_before(CONTESTED, "allied: activate 505/82 Westerhoven->Dommelen")
    assert destinations(moves, "505/82") == {
        "Bergeijk", "Borkel", "De Groote", "Dommelen", "Reithoven", "Valkenswaard",
    }


# -- 6.3 German movement by ferry example ---------------------------------------------------

FERRY = "6.3-german-ferry.log"


def test_6_3_ferry_where_the_units_can_go() -> None:
    first = moves_before(FERRY, "german: activate KG-Spindler Duiven->Pannerden Ferry")
    assert "Pannerden Ferry" in destinations(first, "KG-Spindler")
    assert "Pannerden Ferry" in destinations(first, "KG-Walther")
    # Game-turn 4: out of the box only to a bank, as the whole move.
    later = moves_before(FERRY, "german: activate KG-Spindler Pannerden Ferry->Doornenburg")
    assert destinations(later, "KG-Spindler") == {"Doornenburg", "Duiven"}
    assert "Pannerden Ferry" not in destinations(later, "KG-Walther")  # still occupied


# -- 6.3 Allied infantry special river crossing example --------------------------------------


@pytest.mark.parametrize("log", ["6.3-allied-special-river-crossing-slijk-ewijk.log",
                                 "6.3-allied-special-river-crossing-oosterhaut.log"])
def test_6_3_special_crossing_both_banks_are_open_to_the_airborne_unit_only(log: str) -> None:
    first = next(iter(action_lines(log).values()))
    moves = moves_before(log, first)
    assert {"Slijk-Ewijk", "Oosterhaut"} <= destinations(moves, "B/504/82")
    assert not {"Slijk-Ewijk", "Oosterhaut"} & destinations(moves, "32G")


def test_6_3_special_crossing_into_oosterhaut_brings_a_mandatory_attack() -> None:
    state = report_of("6.3-allied-special-river-crossing-oosterhaut.log").state_json()
    assert state is not None
    assert state["combat"]["mandatory"] == ["Oosterhaut"]


# -- 6.4 Strategic movement example ---------------------------------------------------------

STRATEGIC = "6.4-strategic-movement.log"


def test_6_4_strategic_b_only_the_motorized_unit_moves_strategically() -> None:
    moves = moves_before(STRATEGIC, "german: activate 6FR Zeeland->Mill strategic")
    assert "Zeeland" in destinations(moves, "KG-Walther", strategic=True)
    assert "Grave" not in destinations(moves, "KG-Walther", strategic=True)
    for unit in ("6FR", "59"):
        assert destinations(moves, unit, strategic=True) == set(), unit


def test_6_4_strategic_c_the_armor_in_waalre_reaches_veghel_not_uden() -> None:
    moves = moves_before(STRATEGIC, "allied: activate 2W/G Heeze->Geldorp->Eindhoven strategic")
    reach = destinations(moves, "44RT", strategic=True)
    assert "Veghel" in reach
    assert "Uden" not in reach
    for unit in ("2W/G", "501/101"):
        assert destinations(moves, unit, strategic=True) == set(), unit


# -- 6.5 German off-map boxes example --------------------------------------------------------

BOXES = "6.5-german-off-map-boxes.log"


def test_6_5_off_map_boxes_where_each_unit_can_go() -> None:
    moves = moves_before(BOXES, "german: activate KG-Walther Hengstal->E4")
    assert destinations(moves, "406") == {"E3", "Groesbeek", "Zijfflich", "Wyler"}
    # 107Pz (armor) stands in for the example's mechanized infantry.  The example names these
    # places; on the reconstructed map it can reach a few more (R25).
    assert {"E3", "Groesbeek", "Wyler", "Zijfflich", "Hengstal", "Leuth"} <= destinations(
        moves, "107Pz"
    )
    assert destinations(moves, "16/7F") == {"E4"}
    assert "E4" not in destinations(moves, "KG-Walther")


def test_6_5_hengstal_refusal_cites_6_5() -> None:
    """The rulebook's reason: the unit did not start its move adjacent to the box (6.5)."""
    line = line_of(BOXES, "german: activate KG-Walther Hengstal->E4")
    (problem,) = [p for p in report_of(BOXES).problems if p.line == line]
    assert problem.rule == "6.5"
