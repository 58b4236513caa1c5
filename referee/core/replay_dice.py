"""The replay driver's checks of the dice a line records against those the rules rolled:
too many, too few, changed, or none where the rules need some (``referee.core.replay``)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import MISSING, fields
from typing import Any

from referee.core.dice import CUP, DiceTray, FaceSource
from referee.core.engine import RollNeed, needs_count, needs_text
from referee.core.errors import DiceExtra, IllegalMove, Problem, ProblemKind, RefereeError
from referee.core.log import ActionLine, DiceRecord
from referee.core.noting import HIGHEST, LOWEST, face_column
from referee.core.replay_report import DiceAt
from referee.core.replay_state import ReplayState

LATER = object()
"""The state before a later command of a line, not copied: made again from the line's copy
when a message needs it (``DiceChecks._state_before``)."""


_TRAY = vars(DiceTray(None))
"""A tray's fields and their defaults (``_tray``)."""
_TRAY_LISTS = tuple((field.name, field.default_factory) for field in fields(DiceTray)
                    if field.default_factory is not MISSING)
"""The fields each tray has a fresh value of (its lists)."""


def _tray(stream: FaceSource | None, start: int, command: Any,
          record: DiceRecord | None) -> DiceTray:
    """``DiceTray(stream, start, subject=command)`` with the dice ``record`` writes (faces,
    or chits), its fields put in place without the record's compiled ``__init__``, which sets
    each of its ten with ``object.__setattr__`` (2.5 us a command, a tenth of a Battle Card
    line; tests/core/test_replay_tray.py compares the two)."""
    made: DiceTray = object.__new__(DiceTray)
    held = made.__dict__
    held.update(_TRAY)
    for name, factory in _TRAY_LISTS:
        held[name] = factory()
    held["stream"] = stream
    held["position"] = start
    held["subject"] = command
    if record is not None:
        if record.chits:
            held["recorded_chits"] = record.chits
        else:
            held["recorded"] = record.faces
            held["recorded_sides"] = record.sides
    return made


class DiceChecks(ReplayState):
    """The replay driver's checks of recorded dice (the cold path of ``Replayer._apply``)."""

    def _state_before(self, before: Any) -> Any:
        """The state ``before`` stands for: itself, or for ``LATER`` a copy of the line's copy
        with the line's changes so far made again, each as it was made (the same command on
        the same dice, the same statement): the state before the command being applied."""
        if before is not LATER:
            return before
        start = self._line_start
        assert start is not None and start[0] is not None
        engine = self.engine
        state = engine.copy(start[0])
        for command, source, first, record in self._redo:
            if first < 0:  # a statement: source is the side that made it
                assert self._confirm is not None
                self._confirm(state, source, command)
            elif record is None:
                engine.apply(state, command, DiceTray(source, first, subject=command))
            elif record.chits:
                engine.apply(state, command, DiceTray(source, first, recorded_chits=record.chits,
                                                      subject=command))
            else:
                engine.apply(state, command, DiceTray(source, first, recorded=record.faces,
                                                      recorded_sides=record.sides,
                                                      subject=command))
        return state

    def _described(self, command: Any, before: Any,
                   stated: list[RollNeed] | None) -> list[RollNeed]:
        """The roll of ``command`` as the engine describes it: from the state before it, or
        the description made already (``stated``, after a statement of the line)."""
        if stated is not None:
            return stated
        assert before is not None  # a line described is one whose dice may be refused
        return self.engine.rolls_needed(self._state_before(before), command)

    def _check_record(self, line: ActionLine | None, command: Any, record: DiceRecord,
                      tray: DiceTray, at: DiceAt, before: Any,
                      stated: list[RollNeed] | None) -> None:
        """The dice a line records against those the rules rolled: too many, too few, or
        changed."""
        rolled = 0
        for roll in tray.rolls:
            rolled += len(roll.faces)  # len(tray.faces), without making them
        unused = tray.unused
        if not unused and not (at.stream is not None and record.count < rolled) and (
            not tray.mismatches
        ):
            return
        number = line.number if line is not None else None
        text = line.text if line is not None else ""
        verb, die = ("drew", "chit") if record.chits else ("rolled", "die")
        needed = ""
        if unused or (at.stream is not None and record.count < rolled):
            needs = self._described(command, before, stated)  # a message names the roll
            needed = f"'{command}' needs {needs_text(needs)}; " if needs else (
                f"'{command}' rolls no dice; " if not rolled else "")
        if unused:
            raise DiceExtra(
                f"{needed}{record.count} {record.noun} recorded, {unused} too many "
                f"(the rules {verb} {rolled})" if needed else
                f"{record.count} {record.noun} recorded for '{command}', but the rules "
                f"{verb} {rolled}{_breakdown(tray.rolls)}",
                column=face_column(text, record.column, record.count - unused),
            )
        if at.stream is not None and record.count < rolled:
            self._problem(Problem(
                ProblemKind.DICE_MISSING,
                f"{needed}{record.count} {record.noun} recorded for '{command}', but the "
                f"rules {verb} {rolled}: {' '.join(map(str, tray.faces))}",
                line=number, column=record.column, text=text,
            ))
        for n, recorded, rolled_face in tray.mismatches:
            self._problem(Problem(
                ProblemKind.DICE_MISMATCH,
                f"{die} {n} of '{command}' is recorded as {recorded}, but {at.source} "
                f"{verb} {rolled_face}: the dice were changed after they were rolled",
                line=number, column=face_column(text, record.column, n - 1), text=text,
                hint="the referee used the seeded die",
            ))

    def _judge_without_dice(self, command: Any, state: Any) -> None:
        """A command refused for its dice (too few recorded, or of another kind) is first
        judged as if any dice had come: when the rules forbid it with the lowest faces and
        with the highest alike (the same rule, the same sentence), it is illegal whatever the
        dice, and that refusal is raised instead: the player reads the rule broken, not a
        request for dice that would not make the line legal.  ``state``: the state before
        the command."""
        refusals: list[IllegalMove] = []
        for face in (LOWEST, HIGHEST):
            trial = self.engine.copy(state)
            tray = DiceTray(face, 0, subject=command)
            try:
                self.engine.apply(trial, command, tray)
            except IllegalMove as refusal:
                refusals.append(refusal)
            except RefereeError:
                return
            else:
                return
        first, second = refusals
        if (first.rule, first.message) == (second.rule, second.message):
            raise first


def _missing_text(command: Any, needs: Sequence[RollNeed], record: DiceRecord | None) -> str:
    """The dice a tabletop line lacks, as the engine describes them: ``'attack 406 Wyler'
    needs 4 d10 for 406 at Wyler (strength 4); 3 dice recorded, 1 short``."""
    needed = f"'{command}' needs {needs_text(needs)}"
    first = needs[0]
    chits = first.die == CUP
    if record is None:
        example = (f"{{{CUP}: NAME}}" if chits
                   else "{" + first.die + ": " + " ".join(["4"] * min(first.count, 6)) + "}")
        what = "no draw" if chits else "no dice"
        return (f"{needed}; the log has no [Seed] tag and this line records {what}; write "
                f"{'the chit drawn' if chits else 'the dice rolled'} at the table (for example "
                f"{example}) or give a seed (--seed)")
    count = needs_count(needs)
    short = (f", {count - record.count} short" if count > record.count
             else ", too few for the dice that follow")
    noun = "die" if record.count == 1 and not record.chits else record.noun
    return f"{needed}; {record.count} {noun} recorded{short}"


_CITES_RULE = re.compile(r"\b\d+\.\d+\)$")
"""A dice label that ends citing a rule section, as ``(... 7.1)``: it says why."""


def _breakdown(rolls: list[Any]) -> str:
    """How the dice a command rolled came about, roll by roll, when there are several (or
    the engine gave a reason): ``: 2 for 21G/5G at Borkel (armor in woods...), 4 for ...``."""
    labelled = [roll for roll in rolls if roll.label]
    if not labelled or (len(labelled) == 1 and not _CITES_RULE.search(labelled[0].label)):
        return ""
    return ": " + ", ".join(f"{len(roll.faces)} for {roll.label}" for roll in labelled)

