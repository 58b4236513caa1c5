"""Arnhem '44 refusals that must say what is true of the round they are given in."""

from __future__ import annotations

from referee.core.parsing import parse_log
from referee.core.replay import Report, replay
from referee.games.arnhem44.engine import ENGINE


def replay_text(text: str) -> Report:
    return replay(parse_log(text, "messages.log", engine=ENGINE), ENGINE)


def barrage_refusal(round_: int) -> str:
    report = replay_text(
        '[Game "arnhem44"]\n'
        f"setup: clear; round {round_}; phase 4.1\n"
        "setup: place 1 art/UK Grave; place 1 inf Wijchen\n"
        "allied: barrage 1 art/UK Grave->Wijchen\n")
    (problem,) = report.problems
    assert problem.rule == "Phase 1"
    return problem.message


def test_the_1st_round_no_phase_1_is_said_only_in_round_1() -> None:
    """The 1st Round: "ROUND 1 starts with the landing of the airborne troops, so there's NO
    barrage fire the first round"; Phase 1: "There is no phase 1 in the first round!"  A
    barrage written out of phase 1 in round 1 is told so; in any later round the remark is
    false (every round from 2 on has its phase 1) and is left out."""
    assert "(there is no phase 1 in the first round)" in barrage_refusal(1)
    later = barrage_refusal(9)
    assert "first round" not in later
    assert later.startswith("barrage fire is given in phase 1 only, at the start of a round; "
                            "now: Phase 4.1, round 9")
