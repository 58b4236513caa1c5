"""Issue 28 (section 2) and issue 25 (item 6, "Citations and messages") in Arnhem '44: a
line illegal whatever the dice is refused with its rule before any die is asked for, and a
line out of turn names the player whose turn it is and the sequence of play."""

from __future__ import annotations

from referee.api import replay_text

THREE = '[Game "arnhem44"]\n[Option "three-players"]\n'
UK_PART = (
    "setup: clear; round 9; phase 4.1; part uk\n"
    "setup: place 1 tank/UK, 1 inf/US Best; place 1 inf Eindhoven\n"
)


def test_veterans_3_a_combined_action_is_refused_before_its_dice() -> None:
    """Veterans Only, option 3: "Allied players CANNOT move or fight but with their own units:
    so NO combined actions."  A tabletop invasion by UK and US figures together records no
    dice: it is refused by Veterans/3, not asked for the German defender's hit dice."""
    report = replay_text(THREE + UK_PART
                         + "uk: invade Eindhoven from Best: 1 tank/UK, 1 inf/US\n")
    [problem] = report.problems
    assert (str(problem.kind), problem.rule, problem.line) == ("illegal-move", "Veterans/3", 5)
    assert "no combined actions" in problem.message
    assert problem.column == len("uk: ") + 1


def test_veterans_3_a_refused_line_leaves_the_state_exactly_as_it_was() -> None:
    """The refused combined invasion (Veterans/3, "so NO combined actions") changes nothing:
    the engine works on the state itself and the replay driver's copy before the line is the
    undo (issue 31), so the position is the one before the line, figure for figure, and the
    next legal line applies to it."""
    without = replay_text(THREE + UK_PART)
    refused = replay_text(THREE + UK_PART
                          + "uk: invade Eindhoven from Best: 1 tank/UK, 1 inf/US\n")
    assert refused.state_json() == without.state_json()
    after = replay_text(THREE + UK_PART + "uk: invade Eindhoven from Best: 1 tank/UK, 1 inf/US\n"
                        + "uk: move 1 tank/UK Best->Son\n")
    moved = replay_text(THREE + UK_PART + "uk: move 1 tank/UK Best->Son\n")
    assert [str(p.kind) for p in after.problems] == ["illegal-move"]
    assert after.state_json() == moved.state_json()


def test_veterans_3_an_invasion_of_ones_own_figures_still_asks_for_its_dice() -> None:
    """The same invasion by the UK figure alone is legal: without a seed it needs the dice
    rolled at the table (a dice-missing problem, not a refusal by a rule)."""
    report = replay_text(THREE + UK_PART + "uk: invade Eindhoven from Best: 1 tank/UK\n")
    assert [str(p.kind) for p in report.problems] == ["dice-missing"]


def test_a_single_round_a_us_line_in_the_uk_part_names_the_uk_player() -> None:
    """A Single Round: "The order of play is the same in each and every round and must be
    followed in a strict way"; Veterans/3: "The Allied turn is split up into a UK and a US
    part, to be played separately. UK goes first."  A ``us:`` line in the UK part is out of
    turn: the refusal names the UK player (a player of this game, not "not a side") and cites
    the sequence of play."""
    report = replay_text(THREE + UK_PART + "us: move 1 inf/US Best->Son\n")
    [problem] = report.problems
    assert problem.rule == "A Single Round"
    assert "not a side" not in problem.message
    assert problem.message.startswith("awaiting UK:") and "this line is US's" in problem.message
