"""How often the replay driver copies a game's state, line by line (issue 31: no state is
copied more than once per command, a line that cannot be illegal copies nothing;
docs/log-format.md, "Cost per line").

Every copy the driver asks of the engine is counted against the entry being replayed, apart
from the trials: where the referee has steps of its own pending (a forced answer, a roll it
makes), an assertion looks at the state after them and an action line asks whether it answers
them, each on a copy that is then dropped (``_settled``, ``_answers_now``).  Besides those, a
an action line copies the state once (the line's undo, taken when it first changes the state;
a later command refused for its dice is judged by that copy with the line's changes made again,
``DiceChecks._state_before``); a ``turn`` or ``expect`` line copies only for the referee's own
steps it applies before it (the state before each, where dice are written or none rolled); a
tag line copies nothing, and comments and blank lines are not entries and add nothing.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from referee.core.log import ActionLine, CommandItem, Entry, Expectation, TagLine, TurnAssertion
from referee.core.parsing import parse_log
from referee.core.replay import Replayer
from referee.core.replay_dice import LATER
from referee.games import engine_for

LOGS = Path(__file__).resolve().parents[2] / "logs"
BUNDLED = sorted(LOGS.rglob("*.log"))


class _Counting(Replayer):
    """A replayer that notes which entry it is replaying when the engine copies the state."""

    entry: Entry | None = None
    trial = False

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.applied: Counter[int] = Counter()

    def _entry(self, entry: Entry) -> None:
        self.entry = entry
        super()._entry(entry)
        self.entry = None

    def _apply(self, line: ActionLine | None, item: CommandItem | None, command: Any = None,
               auto: bool = False) -> None:
        if self.entry is not None:
            self.applied[self.entry.number] += 1
        super()._apply(line, item, command, auto)

    def _settled(self) -> Any:
        self.trial = True
        try:
            return super()._settled()
        finally:
            self.trial = False

    def _answers_now(self, line: ActionLine, actor: str, *, chance: bool) -> bool:
        self.trial = True
        try:
            return super()._answers_now(line, actor, chance=chance)
        finally:
            self.trial = False


def _copies(text: str) -> tuple[Counter[int | None], Counter[int], list[Entry]]:
    log = parse_log(text)
    engine = log.engine or engine_for(log.game or "")
    counted: Counter[int | None] = Counter()
    replayer = _Counting(log, engine)
    real = engine.copy

    def copy(state: Any) -> Any:
        entry = replayer.entry
        if not replayer.trial:
            counted[entry.number if entry is not None else None] += 1
        return real(state)

    engine.copy = copy  # type: ignore[method-assign]
    try:
        replayer.run()
    finally:
        del engine.copy
    return counted, replayer.applied, log.entries


@pytest.mark.parametrize("path", BUNDLED, ids=lambda path: str(path.relative_to(LOGS)))
def test_each_line_copies_at_most_once_a_command_it_applies(path: Path) -> None:
    counted, applied, entries = _copies(path.read_text(encoding="utf-8"))
    for entry in entries:
        copies, commands = counted.get(entry.number, 0), applied.get(entry.number, 0)
        if isinstance(entry, TagLine):
            assert copies == 0, (entry.number, entry.text)
        elif isinstance(entry, (TurnAssertion, Expectation)):
            assert copies <= commands, (entry.number, entry.text, copies, commands)
        elif isinstance(entry, ActionLine):
            assert copies <= 1, (entry.number, entry.text, copies)


def test_comments_and_blank_lines_add_no_copy() -> None:
    text = (LOGS / "wwiic" / "full-game-draw.log").read_text(encoding="utf-8")
    plain, _, _ = _copies(text)
    noted = "\n".join(f"{line}\n# a remark\n" for line in text.splitlines())
    with_remarks, _, _ = _copies(noted)
    assert sum(with_remarks.values()) == sum(plain.values()) > 300


class _Checking(Replayer):
    """A replayer that keeps the JSON of the state before each command it applies, and checks
    that the state made again for a later command of a line (``_state_before``) is that one."""

    rebuilt = 0

    def _apply(self, line: ActionLine | None, item: CommandItem | None, command: Any = None,
               auto: bool = False) -> None:
        self.expected = self.engine.to_json(self.report.state)
        super()._apply(line, item, command, auto)

    def _state_before(self, before: Any) -> Any:
        state = super()._state_before(before)
        if before is LATER:
            assert self.engine.to_json(state) == self.expected
            type(self).rebuilt += 1
        return state


def _dice_changed(text: str, rng: random.Random) -> Iterator[str]:
    """The log with the dice of a later command of one of its lines cut, padded, dropped or
    changed, once for each line of several commands with dice; with and without its seed."""
    lines = text.splitlines()
    for index, line in enumerate(lines):
        code = line.split("#", 1)[0]
        if code.count(";") < 1 or code.count("{") < 2:
            continue
        for variant in range(4):
            parts = code.split(";")
            later = rng.randrange(1, len(parts))
            found = re.search(r"\{(d\d+):([^}]*)\}", parts[later])
            if found is None:
                continue
            faces = found.group(2).split()
            written = {0: faces[:-1], 1: [*faces, "3"], 3: ["99", *faces[1:]]}.get(variant)
            parts[later] = parts[later].replace(
                found.group(0), "" if written is None else f"{{{found.group(1)}: "
                f"{' '.join(written)}}}")
            changed = [*lines[:index], ";".join(parts), *lines[index + 1:]]
            if variant % 2:
                changed = [kept for kept in changed if not kept.startswith("[Seed")]
            yield "\n".join(changed) + "\n"


def test_a_later_command_refused_for_its_dice_is_judged_by_the_state_before_it() -> None:
    """The state made again from the line's copy equals the state the command met, on every
    line of several commands with dice in the bundled logs, its dice changed four ways."""
    rng = random.Random(5)
    _Checking.rebuilt = 0
    for path in BUNDLED:
        for text in _dice_changed(path.read_text(encoding="utf-8"), rng):
            log = parse_log(text)
            engine = log.engine or engine_for(log.game or "")
            _Checking(log, engine).run()
    assert _Checking.rebuilt > 10
