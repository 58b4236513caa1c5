"""``referee play`` and ``undo`` replay the log and then each text with a line more (or less);
with a public seed or dice written at the table each such replay starts from the last
position kept before the change (``Table.kept``).  They give what the long way gives, every
replay from the first line: the same lines written, the same text, next step, notes and
advice, or the same refusal, on bundled and self-played logs cut at many places, with a
legal move, a refused one, an unreadable one, and no move."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import pairwise
from typing import Any

import pytest

from referee.core.errors import RefereeError
from referee.core.log import ActionLine
from referee.core.selfplay import play_game, random_policy
from referee.games import engine_for
from referee.pbem import table as table_module
from referee.pbem.mode import DiceMode
from referee.pbem.play import play, undo
from referee.pbem.table import Table, open_text

from ..conftest import LOGS

GAMES = ("battle-card", "wwiic", "koenig-eindhoven", "arnhem44")


def _logs(game: str) -> Iterator[tuple[str, str]]:
    """(name, text) of the game's bundled logs in a dice mode that resumes, and of one
    self-played game."""
    for path in sorted((LOGS / game).glob("*.log")):
        yield path.name, path.read_text(encoding="utf-8")
    record = play_game(engine_for(game), f"resume-{game}", random_policy, keep_log=True,
                       check=False)
    assert record.log is not None
    yield "self-played", record.log


def _cuts(text: str, places: int) -> Iterator[str]:
    """``text`` cut before ``places`` of its action lines, spread over the log."""
    lines = text.splitlines()
    actions = [i for i, line in enumerate(lines)
               if line.strip() and not line.lstrip().startswith(("#", "[", "turn ", "expect "))]
    if not actions:
        return
    step = max(1, len(actions) // places)
    for index in actions[step // 2::step][:places]:
        yield "\n".join(lines[:index]) + "\n"


def _resuming_tables(game: str) -> Iterator[tuple[str, str, Table]]:
    """(name, cut text, table) of each of the game's logs cut at three places, opened, in a
    dice mode whose replays resume (a public seed, or dice written at the table)."""
    for name, text in _logs(game):
        for cut in _cuts(text, 3):
            try:
                table = open_text(cut, name)
            except RefereeError:
                continue
            if table.mode.kind in (DiceMode.SEEDED, DiceMode.TABLE):
                yield name, cut, table


def _moves(table: Table) -> list[str | None]:
    """A legal move (the first listed), a refused one (another side's or a listed move with
    its last word changed), an unreadable one, and none."""
    step = table.replay(settle=False).next
    moves: list[str | None] = [None, "attack )(", "pass"]
    if step.choices:
        first = step.choices[0]
        moves += [first, f"{step.party}: {first}" if step.party else first,
                  first.rsplit(" ", 1)[0] + " Nowhere" if " " in first else first + " x"]
    return moves


def _outcome(text: str, move: str | None, undoing: bool = False) -> tuple[Any, ...]:
    try:
        table = open_text(text, "test.log")
        if undoing:
            done = undo(table, dry_run=True)
            return ("undone", done.removed, done.text, done.next)
        result = play(table, move, dry_run=True)
    except RefereeError as error:
        problem = getattr(error, "problem", None)
        return ("refused", type(error).__name__, str(error), problem,
                getattr(error, "choices", None))
    return ("played", result.written, result.text, result.next, result.notes, result.then)


@pytest.mark.parametrize("game", GAMES)
def test_play_and_undo_resumed_give_what_the_long_way_gives(
        game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    replays = {"resumed": 0}
    resumed = Table._resumed

    def counting(self: Table, *args: Any) -> Any:
        replays["resumed"] += 1
        return resumed(self, *args)

    monkeypatch.setattr(Table, "_resumed", counting)
    cases = []
    for _, cut, table in _resuming_tables(game):
        cases += [(cut, move, False) for move in _moves(table)] + [(cut, None, True)]
    assert len(cases) >= 30
    fast = [_outcome(*case) for case in cases]
    assert replays["resumed"] > len(cases)
    original = Table.replay

    def long_way(self: Table, **options: Any) -> Any:
        self.kept = None  # every replay from the first line
        return original(self, **options)

    monkeypatch.setattr(table_module.Table, "replay", long_way)
    for case, outcome in zip(cases, fast, strict=True):
        assert _outcome(*case) == outcome, case[1:]
    assert any(outcome[0] == "played" for outcome in fast)
    assert any(outcome[0] == "refused" for outcome in fast)


@pytest.mark.parametrize("game", GAMES)
def test_each_later_replay_of_play_replays_only_the_new_lines(
        game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The first replay keeps the position after the log's last line, and only a few
    positions among its last lines (``KeepingReplayer(keep_end=True, tail=...)``): each
    replay of a text with lines more replays those lines alone (and the last line again once
    its dice are written into it), and a long log is not copied every ``KEEP_EVERY`` lines."""
    from referee.core.replay import Replayer
    from referee.core.resume import KEEP_EVERY, KeepingReplayer

    counts = {"entries": 0, "kept": 0}
    entry, keep, resumed = Replayer._entry, KeepingReplayer._keep, Table._resumed

    def counting_entry(self: Replayer, *args: Any) -> None:
        counts["entries"] += 1
        entry(self, *args)

    def counting_keep(self: KeepingReplayer) -> None:
        counts["kept"] += 1
        keep(self)

    replays: list[tuple[int, int]] = []  # (entries of the text, entries replayed)

    def counting_resumed(self: Table, *args: Any) -> Any:
        before = counts["entries"]
        report = resumed(self, *args)
        replays.append((len(self.log.entries), counts["entries"] - before))
        return report

    monkeypatch.setattr(Replayer, "_entry", counting_entry)
    monkeypatch.setattr(KeepingReplayer, "_keep", counting_keep)
    monkeypatch.setattr(Table, "_resumed", counting_resumed)
    played = 0
    for name, _, table in _resuming_tables(game):
        step = table.replay(settle=False).next
        last = table.log.entries[-1] if table.log.entries else None
        if step.kind != "move" or not step.choices or not isinstance(last, ActionLine):
            continue  # a position is kept after a line, not after a turn or expect line
        replays.clear()
        counts["kept"] = 0
        try:
            play(table, f"{step.party}: {step.choices[0]}", dry_run=True)
        except RefereeError:
            continue
        played += 1
        assert len(replays) >= 2
        for (before, _), (entries, replayed) in pairwise(replays):
            # the new lines, and the last line again when its dice were written into it
            assert replayed <= entries - before + 1, (name, replays)
        assert counts["kept"] <= 2 + len(replays), (name, KEEP_EVERY, counts)
    assert played >= 3
