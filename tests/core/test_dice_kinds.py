"""Die face ranges (a d10 read 0-9) and chits drawn from a cup: core capabilities every game
may use.  The v1 stream itself never changes: both are readings of its faces."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

import pytest

from referee.core.dice import DiceStream, DiceTray, Roll, record_text
from referee.core.engine import REFEREE, Event, GameInfo, RollNeed
from referee.core.errors import DiceFaceError, DiceMissing, ProblemKind
from referee.core.log import ActionLine, CommandItem, DiceRecord, ParsedLog
from referee.core.replay import replay
from referee.core.selfplay import StreamDice

from .test_dice import PINNED_D10_SEED_17091944

CUP = ("501", "502", "506", "327")
# Pinned once and never changed: the chits seed "42" draws from CUP, draw by draw.
PINNED_CUP_SEED_42 = ["501", "506", "327", "502", "502", "502", "502", "502", "506", "502"]


def test_a_d10_read_from_0_is_the_v1_face_minus_one() -> None:
    tray = DiceTray(DiceStream("17091944"))
    faces = tray.roll(10, 10, "fire", low=0)
    assert list(faces) == [face - 1 for face in PINNED_D10_SEED_17091944]
    assert tray.rolls == [Roll(10, faces, "fire", 0)]
    assert tray.rolls[0].to_json()["low"] == 0


def test_the_default_range_keeps_the_v1_stream() -> None:
    tray = DiceTray(DiceStream("17091944"))
    assert list(tray.roll(10, 10)) == PINNED_D10_SEED_17091944
    assert "low" not in tray.rolls[0].to_json()


def test_recorded_faces_are_checked_against_the_dies_range() -> None:
    assert DiceTray(None, recorded=(0, 9), recorded_sides=10).roll(10, 2, low=0) == (0, 9)
    with pytest.raises(DiceFaceError, match="no face 0"):
        DiceTray(None, recorded=(0,), recorded_sides=10).roll(10)
    with pytest.raises(DiceFaceError, match="read 0-9"):
        DiceTray(None, recorded=(10,), recorded_sides=10).roll(10, low=0)


def test_pinned_cup_draws() -> None:
    stream = DiceStream("42")
    tray = DiceTray(stream)
    assert [tray.draw(CUP) for _ in range(10)] == PINNED_CUP_SEED_42
    # A draw is one die with as many sides as the cup holds chits.
    assert [CUP[stream.face(i, len(CUP)) - 1] for i in range(10)] == PINNED_CUP_SEED_42
    assert tray.position == 10


def test_a_cup_of_one_is_drawn_without_a_die() -> None:
    tray = DiceTray(DiceStream("42"))
    assert tray.draw(["506"], "command cup") == "506"
    assert tray.position == 0
    assert tray.rolls[0].to_json() == {"die": "cup", "chit": "506", "for": "command cup"}


def test_a_recorded_chit_is_matched_by_name_and_must_be_in_the_cup() -> None:
    tray = DiceTray(None, recorded_chits=("Kg-Walther",))
    assert tray.draw(["506", "KG Walther"]) == "KG Walther"
    assert tray.unused == 0
    with pytest.raises(DiceFaceError, match="'935' is not in it"):
        DiceTray(None, recorded_chits=("935",)).draw(CUP)


def test_a_draw_without_seed_or_record_is_refused_with_the_fix() -> None:
    with pytest.raises(DiceMissing, match=r"\{cup: 501\}"):
        DiceTray(None).draw(CUP, "the command cup")


def test_a_seeded_draw_compares_the_recorded_chit() -> None:
    tray = DiceTray(DiceStream("42"), recorded_chits=("327",))
    assert tray.draw(CUP) == "501"
    assert tray.mismatches == [(1, "327", "501")]


def test_a_chit_record_is_no_die_and_dice_are_no_chit() -> None:
    with pytest.raises(DiceFaceError, match="records a chit"):
        DiceTray(None, recorded_chits=("506",)).roll(6)
    with pytest.raises(DiceFaceError, match="draws a chit"):
        DiceTray(None, recorded=(4,), recorded_sides=6).draw(CUP)


def test_self_play_dice_agree_with_the_tray() -> None:
    ours, tray = StreamDice(DiceStream("42")), DiceTray(DiceStream("42"))
    assert ours.roll(10, 4, low=0) == tray.roll(10, 4, low=0)
    assert ours.draw(CUP) == tray.draw(CUP)
    assert ours.position == tray.position == 5
    assert record_text(ours.rolls[1:]) == "{cup: " + ours.rolls[1].drawn + "}"
    assert record_text(ours.rolls[:1]).startswith("{d10: ")


# A tiny game whose chance step draws a chit and then rolls as many d10 (read 0-9) as the
# chit's place in the cup: a roll whose length depends on an earlier result.


@dataclass(frozen=True)
class Draw:
    chance: ClassVar[bool] = True

    def __str__(self) -> str:
        return "draw"


@dataclass
class CupState:
    drawn: list[str]
    fire: list[int]


class CupGame:
    info = GameInfo("cup", "Cup", "-", ("a",), ("standard",), "test engine")
    grammar = "-"

    def setup(self, scenario: str | None, options: Any) -> CupState:
        return CupState([], [])

    def copy(self, state: CupState) -> CupState:
        return CupState(list(state.drawn), list(state.fire))

    def to_act(self, state: CupState) -> str | None:
        return REFEREE if len(state.drawn) < 2 else None

    def legal(self, state: CupState) -> list[Draw]:
        return [Draw()]

    def forced(self, state: CupState) -> Draw | None:
        return Draw() if len(state.drawn) < 2 else None

    def decision(self, state: CupState) -> str:
        return "the draw"

    def rolls_needed(self, state: CupState, command: Draw | None) -> list[RollNeed]:
        if len(state.drawn) >= 2:
            return []
        return [RollNeed("cup", 1, "command cup", then="1 d10 per place of the chit in the cup")]

    def apply(self, state: CupState, command: Draw, dice: Any) -> list[Event]:
        chit = dice.draw(CUP, "command cup")
        state.drawn.append(chit)
        state.fire.extend(dice.roll(10, CUP.index(chit) + 1, f"{chit} fires", low=0))
        return [Event("draw", f"{chit} drawn")]

    def outcome(self, state: CupState) -> dict[str, Any]:
        return {"result": None if len(state.drawn) < 2 else "done"}

    def to_json(self, state: CupState) -> dict[str, Any]:
        return {"drawn": state.drawn, "fire": state.fire}

    def invariants(self, state: CupState) -> list[str]:
        return []


def _log(*records: DiceRecord) -> ParsedLog:
    log = ParsedLog("cup.log", tags={"Game": "cup"})
    for number, record in enumerate(records, start=1):
        line = ActionLine(number, "draw", side=None)
        line.items.append(CommandItem(Draw(), record, 1))
        log.entries.append(line)
    return log


def test_a_tabletop_log_records_the_chit_then_the_dice_it_decides() -> None:
    """``draw {cup: 502}`` then ``{d10: 0 9}``: the chit decides how many dice follow."""
    game = CupGame()
    log = _log(DiceRecord(0, (), 6, ("502",)), DiceRecord(0, (), 6, ("501",)))
    report = replay(log, game)  # type: ignore[arg-type]
    kinds = {p.kind for p in report.problems}
    # The record holds the chit only, so the d10 that follows is missing: named as such.
    assert ProblemKind.DICE_FACE in kinds
    assert report.state.drawn == []


def test_a_seeded_log_draws_and_rolls_from_one_stream() -> None:
    game = CupGame()
    log = _log(DiceRecord(0, (), 6, ()), DiceRecord(0, (), 6, ()))
    log.entries = []
    log.tags["Seed"] = "42"
    report = replay(log, game)  # type: ignore[arg-type]
    assert report.problems == []
    assert report.state.drawn == ["501", "327"]
    assert report.state.fire[0] == DiceStream("42").face(1, 10) - 1
    assert len(report.state.fire) == 1 + 4


def test_a_cup_record_parses_in_every_game_and_is_checked_by_its_rules() -> None:
    from referee.api import replay_text

    report = replay_text('[Game "battle-card"]\n[Seed "1"]\nairdrop {cup: 506 | 1034/59}\n')
    assert [(p.line, p.kind) for p in report.problems] == [(3, ProblemKind.DICE_FACE)]
    assert "records a chit" in report.problems[0].message
