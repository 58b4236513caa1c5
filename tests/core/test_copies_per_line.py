"""How often the replay driver copies a game's state, line by line (issue 31: no state is
copied more than once per command, a line that cannot be illegal copies nothing;
docs/log-format.md, "Cost per line").

Every copy the driver asks of the engine is counted against the entry being replayed, apart
from the trials: where the referee has steps of its own pending (a forced answer, a roll it
makes), an assertion looks at the state after them and an action line asks whether it answers
them, each on a copy that is then dropped (``_settled``, ``_answers_now``).  Besides those, a
line copies at most once per command it applies, the referee's own steps applied before it
included, and an action line once more (the line's undo, which a statement such as a reveal
also takes; then the state before each command whose dice are written or not rolled, to judge
a refusal for its dice by): a tag, ``turn`` or ``expect`` line that applies nothing copies
nothing, and comments and blank lines are not entries and add nothing.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from referee.core.log import ActionLine, CommandItem, Entry, Expectation, TagLine, TurnAssertion
from referee.core.parsing import parse_log
from referee.core.replay import Replayer
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
            assert copies <= 1 + commands, (entry.number, entry.text, copies, commands)


def test_comments_and_blank_lines_add_no_copy() -> None:
    text = (LOGS / "wwiic" / "full-game-draw.log").read_text(encoding="utf-8")
    plain, _, _ = _copies(text)
    noted = "\n".join(f"{line}\n# a remark\n" for line in text.splitlines())
    with_remarks, _, _ = _copies(noted)
    assert sum(with_remarks.values()) == sum(plain.values()) > 300
