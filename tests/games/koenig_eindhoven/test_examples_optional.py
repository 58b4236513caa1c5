"""Optional rule 14.3.1, US Machine Gun Units, behind ``[Option "us-machine-guns"]``: a
named test of its example log, the same fire refused without the option, the option under the
PBEM seal and in a saved position."""

from __future__ import annotations

import pytest

from referee.api import position_text, replay_text
from referee.core.errors import HeaderError
from referee.core.parsing import parse_log
from referee.games.koenig_eindhoven.commands import Fire
from referee.games.koenig_eindhoven.engine import ENGINE
from referee.pbem.chain import genesis
from referee.pbem.mode import mode_of

from ...conftest import LOGS
from .conftest import HERE, expected, problems, run

LOG = HERE / "examples" / "14.3.1-us-machine-guns.log"
OPTION = '[Option "us-machine-guns"]\n'


def test_14_3_1_us_machine_gun_full_fire_across_a_river_at_half_cs() -> None:
    report = run(LOG)
    assert problems(report) == expected(LOG)
    fire = next(e.event for e in report.events if e.event.kind == "fire")
    assert fire.data["af"] == 3  # CS 3 halved (fractions up) to 2, clear target +1
    assert "MG/506 across a River hexside, half (14.3.1): 2" in fire.data["modifiers"]
    state = report.state_json()
    assert state is not None and state["options"] == ["us-machine-guns"]
    assert {u["id"]: u["hits"] for u in state["units"]}["1/935"] == 1


def test_14_3_1_refused_under_9_1_without_the_option() -> None:
    text = LOG.read_text(encoding="utf-8").replace(OPTION, "")
    report = replay_text(text)
    line = next(n for n, t in enumerate(text.splitlines(), 1)
                if t.startswith("allied: full-fire 0213 with MG/506"))
    refusal = next(p for p in report.problems if p.line == line)
    assert refusal.rule == "9.1"
    assert "14.3.1" in refusal.message and "not in play" in refusal.message


@pytest.mark.parametrize("option", [True, False])
def test_14_3_1_full_fire_across_the_canal_is_listed_only_with_the_option(option: bool) -> None:
    text = LOG.read_text(encoding="utf-8").split("allied: full-fire")[0]
    report = replay_text(text if option else text.replace(OPTION, ""))
    assert report.state is not None
    legal = set(ENGINE.legal(report.state))
    assert (Fire("full-fire", "0213", ("MG/506",)) in legal) is option
    assert Fire("mobile-fire", "0213", ("MG/506",)) not in legal
    assert Fire("full-fire", "0213", ("3/506",)) not in legal


def test_unknown_option_is_refused_with_the_known_ones() -> None:
    with pytest.raises(HeaderError, match=r"us-machine-guns \(14\.3\.1\)"):
        ENGINE.setup(None, {"machine-guns": "on"})


def test_14_3_1_option_kept_in_a_saved_position_and_sealed_in_pbem() -> None:
    report = run(LOG)
    saved = position_text(report)
    assert OPTION in saved
    again = replay_text(saved)
    assert again.problems == [] and again.state_json() == report.state_json()


def test_14_3_1_option_is_under_the_pbem_seal() -> None:
    text = (LOGS / "koenig-eindhoven" / "pbem-pending-support.log").read_text(encoding="utf-8")
    with_option = text.replace("\n", "\n" + OPTION, 1)
    base, optioned = parse_log(text, "t.log"), parse_log(with_option, "t.log")
    mode = mode_of(base, ENGINE, text)
    assert genesis(base, mode) != genesis(optioned, mode_of(optioned, ENGINE, with_option))
