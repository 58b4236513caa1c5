"""Issue 28 (sections 2-3) in Eindhoven Bridge: the line the player wrote is judged as the
answer to the decision it answers, and a refusal out of turn cites the sequence of play."""

from __future__ import annotations

from referee.api import replay_text

NIGHT = (
    "setup: clear; turn 3; phase redeployment\n"
    "setup: place 1/935 0215; place 3/506 0214\n"
    "german: redeploy 1/935 0215->0216\n"
)


def test_issue_26_case_4_a_written_redeploy_is_judged_by_4_0_before_the_referee_ends_the_phase(
) -> None:
    """[4.0] German Redeployment Phase: "The German Player (only) may move any or all of his
    units that are not adjacent to enemy units, up to 1/2 of their Movement Allowance."

    1/935 is the only German unit and stands next to 3/506: the phase has one legal answer
    (end), which the referee would apply by itself, ending the night and asking for the
    German Artillery Points roll.  The German wrote a redeploy instead: that line answers the
    Redeployment decision and is refused by 4.0, in a tabletop log and in a seeded one."""
    for head in ('[Game "koenig-eindhoven"]\n', '[Game "koenig-eindhoven"]\n[Seed "7"]\n'):
        report = replay_text(head + NIGHT)
        problem = report.problems[0]
        assert (str(problem.kind), problem.rule, problem.line) == (
            "illegal-move", "4.0", 3 + head.count("\n"))
        assert "adjacent to the enemy unit in 0214" in problem.message
        assert problem.column == len("german: ") + 1  # under the command


def test_4_0_the_referee_still_ends_a_phase_a_later_line_does_not_answer() -> None:
    """[4.0] "Night turns only!": with nothing to redeploy, a line of the next turn's first
    decision (the Allied side's, after the referee's rolls) is not an answer to the
    Redeployment Phase, so the referee ends it by itself and the line is judged after."""
    report = replay_text('[Game "koenig-eindhoven"]\n[Seed "7"]\n'
                         "setup: clear; turn 3; phase redeployment\n"
                         "setup: place 1/935 0215; place 3/506 0214\n"
                         "expect turn = 4\n")
    assert report.problems == []


def test_4_0_a_line_by_the_side_not_to_act_cites_the_sequence_of_play() -> None:
    """[4.0] Sequence of Play: a German line while the Allied side must act is refused
    citing 4.0 (issue 28: ``rule`` was empty for missing-decision and wrong-side)."""
    report = replay_text('[Game "koenig-eindhoven"]\n[Seed "17091944"]\n'
                         "allied: move 1/506 0114->0214\n")
    problem = report.problems[0]
    assert str(problem.kind) in ("missing-decision", "wrong-side")
    assert problem.rule == "4.0"
