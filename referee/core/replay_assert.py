"""The replay driver's assertions: ``turn`` and ``expect`` lines, judged against the
state the lines above them left (``referee.core.replay``)."""

from __future__ import annotations

from typing import Any

from referee.core.dice import DiceTray
from referee.core.errors import Problem, ProblemKind, RefereeError
from referee.core.log import Expectation, TurnAssertion
from referee.core.names import normalise
from referee.core.noting import left_out, lookup, noted
from referee.core.replay_state import ReplayState


class Assertions(ReplayState):
    """The replay driver's judgement of ``turn`` and ``expect`` lines."""

    def _settled(self) -> Any:
        """The state an assertion sees: a copy with the referee's own steps still to come
        applied, as if the next line did not write them; a roll stays unrolled when the next
        line records it or there is no seed.  The replay itself is not changed."""
        engine = self.engine
        upcoming = self._next_action
        written_roll = upcoming is not None and any(
            getattr(item.command, "chance", False) for item in upcoming.items
        )
        view = self.report.state
        position = self.position
        for _ in range(10_000):
            forced = engine.forced(view) if engine.to_act(view) is not None else None
            if forced is None:
                break
            chance = getattr(forced, "chance", False)
            if chance and (written_roll or self.dice is None or not self.dice.auto_chance):
                break
            at = self.dice.dice_for(None, position, 0) if chance and self.dice else None
            tray = DiceTray(at.stream if at else None, position, subject=forced)
            trial = engine.copy(view)
            try:
                engine.apply(trial, forced, tray)
            except RefereeError:
                break
            position = tray.position
            view = trial
        return view

    def _value(self, key: str, view: Any) -> tuple[bool, Any]:
        """One top-level value of the state's JSON (or ``outcome``), matched regardless of
        case.  An engine with ``json_parts`` computes only the value named; otherwise the
        whole state JSON is made once and kept until the state changes, so a run of
        assertions costs one lookup each."""
        wanted = normalise(key)
        state = view
        if wanted == "outcome":
            return True, self.engine.outcome(state)
        parts = getattr(self.engine, "json_parts", None)
        if parts is not None:
            for name, get in parts(state).items():
                if normalise(name) == wanted:
                    return True, get()
        if state is not self.report.state:  # the settled view: a copy, not cached
            return lookup(self.engine.to_json(state), [key])
        if self._json is None:
            self._json = self.engine.to_json(state)
        return lookup(self._json, [key])

    def _turn(self, entry: TurnAssertion, view: Any) -> None:
        actual = self._value("turn", view)[1]
        half = self._value("half", view)[1]
        wrong_half = entry.half is not None and (
            half is None or normalise(str(half)) != normalise(entry.half)
        )
        if actual != entry.turn or wrong_half:
            said = f"turn {entry.turn}" + (f" {entry.half}" if entry.half else "")
            real = f"turn {actual}" + (f" {half}" if half and entry.half else "")
            self._problem(Problem(
                ProblemKind.ASSERTION, f"the log says {said}, but it is {real}",
                line=entry.number, column=entry.column, text=entry.text,
            ))

    def _expect(self, entry: Expectation, view: Any) -> None:
        head, *rest = entry.key.split(".")
        if normalise(head) == "last":
            last = self._last
            if last is None:
                self._problem(Problem(
                    ProblemKind.ASSERTION,
                    f"'{entry.key}' is the result of the last command, and no line of the log "
                    f"has applied one yet",
                    line=entry.number, column=entry.column, text=entry.text,
                ))
                return
            said = noted(*last, engine=self.engine)
            found, value = lookup(said, rest) if rest else (True, said["command"])
        else:
            found, value = self._value(head, view)
            if found:
                found, value = lookup(value, rest)
            if not found and left_out(self._value(head, view)[1], rest,
                                      self.engine.to_json(view), entry.value):
                return  # left out because it is empty, as the log says
        if not found:
            self._problem(Problem(
                ProblemKind.ASSERTION, f"the state has no value '{entry.key}'",
                line=entry.number, column=entry.column, text=entry.text,
            ))
            return
        if value is None:
            shown = "null"
        else:
            shown = str(value).lower() if isinstance(value, bool) else str(value)
        if normalise(shown) != normalise(entry.value):
            self._problem(Problem(
                ProblemKind.ASSERTION,
                f"the log expects {entry.key} = {entry.value}, but it is {shown}",
                line=entry.number, column=entry.column, text=entry.text,
            ))

