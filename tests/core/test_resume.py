"""A replay started from a kept position reports exactly what a replay of the whole log
reports (``referee.core.resume``, the language server's incremental replay, issue 33)."""

from __future__ import annotations

import pytest

from referee.api import replay_text
from referee.core.log import ActionLine, SetupLine
from referee.core.parsing import parse_log
from referee.core.resources import bundled
from referee.core.resume import replay_keeping

LOGS = ("battle-card/illegal.log", "wwiic/illegal-combat-and-turns.log",
        "koenig-eindhoven/illegal-turns.log", "arnhem44/illegal-ground-war.log",
        "arnhem44/tabletop.log")


def whole(report: object) -> object:
    from referee.core.replay import Report

    assert isinstance(report, Report)
    return ([p.to_json() for p in report.problems], report.state_json(), report.pending(),
            [e.to_json() for e in report.events], report.draws)


def edits(lines: list[str]) -> list[tuple[int, list[str]]]:
    """Some changes a player makes while typing: a line deleted, one inserted, one doubled,
    a remark added to one (the positions after it are kept: a comment changes nothing)."""
    out = []
    for n in range(1, len(lines), max(1, len(lines) // 5)):
        out.append((n, lines[:n] + lines[n + 1:]))
        out.append((n, [*lines[:n], "# a remark", *lines[n:]]))
        out.append((n, [*lines[:n], lines[n], *lines[n:]]))
        out.append((n, [*lines[:n], lines[n] + "  # a remark typed", *lines[n + 1:]]))
    return out


@pytest.mark.parametrize("name", LOGS)
def test_resumed_replay_equals_the_whole_replay(name: str) -> None:
    text = (bundled("logs") / name).read_text(encoding="utf-8")
    report, kept = replay_keeping(parse_log(text), every=3)
    assert whole(report) == whole(replay_text(text))
    assert len(kept) > 1
    for n, lines in edits(text.splitlines()):
        changed = "\n".join(lines) + "\n"
        again, held = replay_keeping(parse_log(changed), kept, every=3)
        assert whole(again) == whole(replay_text(changed)), (name, n)
        upto, _ = replay_keeping(parse_log(changed), held, every=3, upto=n + 2)
        assert whole(upto) == whole(replay_text(changed, upto=n + 2)), (name, n)


def test_a_change_at_line_n_replays_from_the_position_kept_before_it() -> None:
    """Never from the start: the replay of a log changed at its end begins at the last kept
    position, and replays only the entries after it."""
    from referee.core import resume

    text = (bundled("logs") / "arnhem44/complete-game.log").read_text(encoding="utf-8")
    _, kept = replay_keeping(parse_log(text), every=16)
    changed = text + "# one more remark\nturn 99\n"
    log = parse_log(changed)
    start = resume.latest(kept, log)
    assert start is not None and len(log.entries) - start.index <= 17
    seen: list[int] = []

    class Counting(resume.KeepingReplayer):
        def _entry(self, entry: object) -> None:
            if self._start is None or self._done >= self._start.index:
                seen.append(self._done)
            super()._entry(entry)  # type: ignore[arg-type]

    assert log.engine is None
    from referee.games import engine_for

    Counting(log, engine_for("arnhem44"), start=start).run()
    assert len(seen) <= 17


def test_a_changed_header_keeps_nothing() -> None:
    text = (bundled("logs") / "battle-card/illegal.log").read_text(encoding="utf-8")
    _, kept = replay_keeping(parse_log(text), every=2)
    other = text.replace("[Game", '[Annotator "someone"]\n[Game', 1)
    from referee.core.resume import latest

    assert latest(kept, parse_log(other)) is None


def test_a_keystroke_taken_back_starts_from_the_far_positions_of_the_text_before() -> None:
    """Issue 33: a letter typed into a command near the top and taken back returns to the
    text before it; the positions of that text are kept one change longer (alternates), so
    the replay starts from the last of them, not from the change, and reports exactly what
    a whole replay reports.  A third text drops the alternates of the first."""
    from referee.core import resume

    text = (bundled("logs") / "arnhem44/complete-game.log").read_text(encoding="utf-8")
    lines = text.splitlines()
    n = next(i for i, line in enumerate(lines)
             if i > 15 and line.startswith("german: ") and "#" not in line)
    typed = "\n".join([*lines[:n], lines[n] + "x", *lines[n + 1:]]) + "\n"
    _, kept = replay_keeping(parse_log(text), every=16)
    far = max(k.index for k in kept)
    broken, kept = replay_keeping(parse_log(typed), kept, every=16)
    assert whole(broken) == whole(replay_text(typed))
    assert any(k.alternate and k.index == far for k in kept)
    log = parse_log(text)
    start = resume.latest(kept, log)
    assert start is not None and start.index == far  # not the position before line n
    back, kept = replay_keeping(log, kept, every=16)
    assert whole(back) == whole(replay_text(text))
    assert any(not k.alternate and k.index == far for k in kept)
    # the broken text's positions beyond line n are now the alternates, and only they
    chain = resume.digests(resume.entry_keys(log))
    assert all(k.alternate == (not resume.matches(k, chain)) for k in kept)
    other = "\n".join([*lines[:n + 1], lines[n + 1] + "x", *lines[n + 2:]]) + "\n"
    _, kept = replay_keeping(parse_log(other), kept, every=16)
    typed_keys = resume.entry_keys(parse_log(typed))
    other_keys = resume.entry_keys(parse_log(other))
    differ = next(i for i, (a, b) in enumerate(zip(typed_keys, other_keys, strict=False))
                  if a != b)
    assert not any(k.index > differ and resume.matches(k, resume.digests(typed_keys)) for k in kept)
    assert any(k.alternate for k in kept)  # the text before, the one taken back to


def test_the_positions_of_one_replay_share_their_keys() -> None:
    """Nothing quadratic in a log's length: the positions one replay keeps read one list of
    the entries' keys (each its first ``index``), not a copy each, and a log may start from
    one of them by one comparison of digests."""
    from referee.core import resume

    text = (bundled("logs") / "arnhem44/complete-game.log").read_text(encoding="utf-8")
    log = parse_log(text)
    _, kept = replay_keeping(log, every=16)
    assert len(kept) > 10 and all(k.keys is kept[0].keys for k in kept)
    chain = resume.digests(resume.entry_keys(log))
    assert all(resume.matches(k, chain) for k in kept)
    assert all(k.keys[:k.index] == resume.entry_keys(log)[:k.index] for k in kept)


@pytest.mark.parametrize("name", LOGS)
def test_a_longer_text_replays_from_the_position_after_the_last_line(name: str) -> None:
    """``keep_end``: a replay keeps the position after its last entry when that is an action
    or setup line (``referee play`` appends lines); a longer text started from it reports
    exactly what a whole replay reports, whatever the prefix ends with (a turn or expect
    line, a remark, a refused line)."""
    from referee.core import resume
    from referee.games import engine_for

    text = (bundled("logs") / name).read_text(encoding="utf-8")
    lines = text.splitlines()
    full = parse_log(text)
    engine = engine_for(full.game or "")
    expected = whole(replay_text(text))
    from_end = 0
    for n in range(1, len(lines)):
        prefix = parse_log("\n".join(lines[:n]) + "\n")
        replayer = resume.KeepingReplayer(prefix, engine, keep_end=True, tail=20)
        replayer.run()
        assert all(k.index >= len(prefix.entries) - 20 for k in replayer.kept)
        start = resume.latest(replayer.kept, full)
        if start is not None and start.index == len(prefix.entries):
            from_end += 1
            last = prefix.entries[-1]
            assert isinstance(last, ActionLine | SetupLine), (name, n)
        again = resume.KeepingReplayer(full, engine, start=start).run()
        assert whole(again) == expected, (name, n)
    assert from_end > len(lines) // 4
