"""The replay driver's own rules, on a two-side test engine built for the purpose.

Side ``a`` decides (``go``), side ``b`` then has one legal answer (``ack``, a forced
decision), then the referee rolls a d6 (``roll``, a chance step), and it is ``a``'s turn
again.  The engine is tiny so that each driver rule is seen alone.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from referee.core.dice import Dice
from referee.core.engine import REFEREE, Event, GameInfo, RollNeed
from referee.core.errors import IllegalMove
from referee.core.log import ActionLine, CommandItem, DiceRecord, Expectation, ParsedLog
from referee.core.replay import replay


@dataclass(frozen=True)
class Cmd:
    name: str
    chance: ClassVar[bool] = False

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class Roll(Cmd):
    chance: ClassVar[bool] = True


@dataclass
class State:
    phase: str = "a"  # a -> b -> roll -> a
    rolls: list[int] = field(default_factory=list)
    log: list[str] = field(default_factory=list)


class Relay:
    info = GameInfo("relay", "Relay", "-", ("a", "b"), ("standard",), "test engine")
    grammar = "-"

    def setup(self, scenario: str | None, options: Any) -> State:
        return State()

    def copy(self, state: State) -> State:
        return State(state.phase, list(state.rolls), list(state.log))

    def to_act(self, state: State) -> str | None:
        return REFEREE if state.phase == "roll" else state.phase

    def legal(self, state: State) -> list[Cmd]:
        return {"a": [Cmd("go")], "b": [Cmd("ack")], "roll": [Roll("roll")]}[state.phase]

    def forced(self, state: State) -> Cmd | None:
        return None if state.phase == "a" else self.legal(state)[0]

    def decision(self, state: State) -> str:
        return {"a": "go", "b": "acknowledge", "roll": "the roll"}[state.phase]

    def rolls_needed(self, state: State, command: Cmd | None) -> list[RollNeed]:
        if state.phase != "roll" or (command is not None and str(command) != "roll"):
            return []
        return [RollNeed("d6", 1, "the roll")]

    def apply(self, state: State, command: Cmd, dice: Dice) -> list[Event]:
        if str(command) not in [str(c) for c in self.legal(state)]:
            raise IllegalMove("R1", f"'{command}' is not possible now")
        if state.phase == "roll":
            state.rolls.append(dice.roll(6)[0])
        state.log.append(str(command))
        state.phase = {"a": "b", "b": "roll", "roll": "a"}[state.phase]
        return [Event(str(command), f"{command} done")]

    def outcome(self, state: State) -> dict[str, Any]:
        return {"result": None}

    def to_json(self, state: State) -> dict[str, Any]:
        return {"turn": 1, "phase": state.phase, "done": len(state.log)}

    def invariants(self, state: State) -> list[str]:
        return []


def action(number: int, side: str | None, name: str, faces: tuple[int, ...] = ()) -> ActionLine:
    command: Cmd = Roll(name) if name == "roll" else Cmd(name)
    dice = DiceRecord(6, (faces,), 1) if faces else None
    text = (f"{side}: " if side else "") + name
    return ActionLine(number, text, side=side, items=[CommandItem(command, dice, 1)])


def log_of(*entries: Any, seed: str | None = "s") -> ParsedLog:
    log = ParsedLog("<test>", tags={"Game": "relay", **({"Seed": seed} if seed else {})})
    log.entries = list(entries)
    return log


def test_forced_answer_and_seeded_roll_are_applied_by_the_referee() -> None:
    report = replay(log_of(action(1, "a", "go"), action(2, "a", "go")), Relay())  # type: ignore[arg-type]
    assert report.ok, report.problems
    assert report.state.log == ["go", "ack", "roll", "go", "ack", "roll"]
    assert [e.auto for e in report.events] == [False, True, True, False, True, True]


def test_a_written_forced_answer_is_taken_from_the_log() -> None:
    report = replay(log_of(action(1, "a", "go"), action(2, "b", "ack")), Relay())  # type: ignore[arg-type]
    assert report.ok, report.problems
    assert [(e.line, e.auto) for e in report.events[:2]] == [(1, False), (2, False)]


def test_an_assertion_sees_the_same_state_whether_or_not_the_next_line_writes_the_answer() -> None:
    """An assertion sees the single-answer decision (and the seeded roll after it) applied,
    whether the next line writes that answer or not (docs/log-format.md, "Assertions")."""
    expect = Expectation(2, "expect done = 3", key="done", value="3")
    for after in (action(3, "b", "ack"), action(3, "a", "go")):
        report = replay(log_of(action(1, "a", "go"), expect, after), Relay())  # type: ignore[arg-type]
        assert report.ok, (after.text, report.problems)


def test_an_assertion_before_a_written_roll_sees_the_state_before_it() -> None:
    expect = Expectation(2, "expect phase = roll", key="phase", value="roll")
    for seed, faces in (("s", ()), (None, (5,))):
        report = replay(
            log_of(action(1, "a", "go"), expect, action(3, None, "roll", faces), seed=seed),
            Relay(),  # type: ignore[arg-type]
        )
        assert report.ok, report.problems


def test_an_assertion_sees_the_forced_steps_when_the_next_line_is_the_other_side() -> None:
    expect = Expectation(2, "expect phase = a", key="phase", value="a")
    report = replay(log_of(action(1, "a", "go"), expect, action(3, "a", "go")), Relay())  # type: ignore[arg-type]
    assert report.ok, report.problems


def test_without_a_seed_the_roll_must_be_written() -> None:
    missing = replay(log_of(action(1, "a", "go"), action(2, "a", "go"), seed=None), Relay())  # type: ignore[arg-type]
    assert [str(p.kind) for p in missing.problems] == ["missing-decision"]
    written = replay(
        log_of(
            action(1, "a", "go"), action(2, None, "roll", (5,)), action(3, "a", "go"), seed=None
        ),
        Relay(),  # type: ignore[arg-type]
    )
    assert written.ok, written.problems
    assert written.state.rolls == [5]


def test_a_rejected_line_gives_back_its_state_and_dice() -> None:
    report = replay(
        log_of(action(1, "a", "go"), action(2, "b", "go"), action(3, "a", "go")),
        Relay(),  # type: ignore[arg-type]
    )
    assert [(p.line, str(p.kind)) for p in report.problems] == [(2, "illegal-move")]
    clean = replay(log_of(action(1, "a", "go"), action(3, "a", "go")), Relay())  # type: ignore[arg-type]
    assert report.state.rolls == clean.state.rolls
    assert report.draws == clean.draws
