"""Issue 28, section 4: ``expect`` states that a thing is absent or zero where the state
leaves empty counts out, and the result of the last command as a player notes it at the
table (``expect last.result = …``), in one vocabulary across games (docs/log-format.md)."""

from __future__ import annotations

import pytest

from referee.api import replay_text

ARNHEM = ('[Game "arnhem44"]\nsetup: clear; round 9; phase 4.1\n'
          "setup: place 2 tank/UK, 1 inf/UK Best; place 1 inf Eindhoven\n")


@pytest.mark.parametrize("line", [
    "expect eliminated.allied = 0",  # a table of counts without its zeros
    "expect sectors.Best.units.german = 0",  # Best holds no German figure
    "expect sectors.Best.units.allied.UK.art = none",
    "expect sectors.Eindhoven.units.allied = absent",  # another sector's units have 'allied'
])
def test_expect_zero_of_an_empty_count_the_state_leaves_out(line: str) -> None:
    assert replay_text(ARNHEM + line + "\n").problems == []


@pytest.mark.parametrize("line", [
    "expect eliminated.germna = 0",  # misspelt: not a name of the state
    "expect sectors.Best.units.allied.UK.tank = 0",  # present: 2
    "expect sectors.Nowhere.units.german = 0",  # the path stops before its last key
    "expect eliminated.allied = 1",  # absent is 0, not 1
])
def test_expect_zero_is_still_checked(line: str) -> None:
    [problem] = replay_text(ARNHEM + line + "\n").problems
    assert str(problem.kind) == "assertion"


EINDHOVEN = '[Game "koenig-eindhoven"]\nturn 1\nartillery {d6: 3}\n'


def test_expect_last_says_what_the_table_saw_in_eindhoven_bridge() -> None:
    """6.1: the German Artillery Points roll; the Artillery Points table gives 2 for a 3
    (the bundled tabletop log's first roll says "3 gives 2")."""
    report = replay_text(EINDHOVEN + "expect last.command = artillery\nexpect last.roll = 3\n"
                         "expect last.points = 2\nexpect last.hits = 0\n")
    assert report.problems == []
    [problem] = replay_text(EINDHOVEN + "expect last.roll = 4\n").problems
    assert problem.message == "the log expects last.roll = 4, but it is 3."


BATTLE = ('[Game "battle-card"]\nsetup: turn 1; step combat; german Eindhoven strength 2; '
          "place 101st Eindhoven strength 4\n")


@pytest.mark.parametrize(("command", "result"), [
    # Attack, row All (the Allied unit higher), roll 5-6: "Set Allied control; Germany -1".
    ("attack Eindhoven {d6: 6}", "Germany -1; Allied control"),
    # Attack, row All, roll 1: "Allies -1".
    ("attack Eindhoven {d6: 1}", "Allies -1"),
    # Defense, row All, roll 2-4: "NE".
    ("defend Eindhoven {d6: 3}", "no effect"),
])
def test_expect_last_result_of_a_battle_card_combat(command: str, result: str) -> None:
    """Turn step 1, the Combat Results Tables: the cell is the result a player notes."""
    log = BATTLE + command + "\n"
    assert replay_text(log + f"expect last.result = {result}\n").problems == []
    [problem] = replay_text(log + "expect last.result = Allies -3\n").problems
    assert problem.message == f"the log expects last.result = Allies -3, but it is {result}."


def test_expect_last_before_any_command() -> None:
    [problem] = replay_text('[Game "battle-card"]\nexpect last.result = miss\n').problems
    assert "no line of the log has applied one yet" in problem.message


def test_expect_last_is_the_command_a_line_applied_not_a_refused_one() -> None:
    """A refused line changes nothing: ``last`` is still the command before it."""
    report = replay_text(EINDHOVEN + "artillery {d6: 5}\nexpect last.roll = 3\n")
    assert [str(p.kind) for p in report.problems] == ["illegal-move"]


def test_expect_last_hits_of_a_wwii_commander_attack() -> None:
    """7 and 7.4: KG-Henke attacks at Nijmegen with hit chance 2 and rolls 5 7 10 ("a unit
    with a hit chance of 3 will hit an enemy unit on a die result of 1, 2 or 3"): no hit on
    the defender; A/508/82 defends with hit chance 3 and rolls 1 8: one hit on the attacker.
    ``last.hits`` is what the attack scores on the defender, not both sides' fire summed."""
    from referee.core.resources import bundled

    lines = (bundled("logs") / "wwiic" / "full-game-draw.log").read_text().splitlines()
    head = "\n".join(lines[:20]) + "\n"
    assert lines[19] == "german: attack Nijmegen"
    report = replay_text(head + "expect last.roll = 5 7 10 1 8\nexpect last.hits = 0\n"
                         "expect last.attacker_hits = 1\n")
    assert report.problems == []
    [problem] = replay_text(head + "expect last.hits = 1\n").problems
    assert problem.message == "the log expects last.hits = 1, but it is 0."
