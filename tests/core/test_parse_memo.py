"""``parse_log`` takes a remembered action line straight from the line memo (issue 31): the
log it gives is the one read with an empty memo, line for line, and each entry is its own."""

from __future__ import annotations

import pytest

from referee.core import parsing
from referee.core.log import ActionLine, ParsedLog, SetupLine
from referee.core.parsing import parse_log
from referee.core.selfplay import play_game, random_policy
from referee.games import engine_for
from tests.core.replay_digests import bundled_logs
from tests.quick_reading import mangled


def parsed(log: ParsedLog) -> tuple[object, ...]:
    return (log.tags, log.tag_lines, log.options, log.entries, log.problems, log.unreadable)


def texts() -> list[tuple[str, str]]:
    found = [(path.name, path.read_text(encoding="utf-8")) for path in bundled_logs()]
    for game in ("battle-card", "wwiic", "koenig-eindhoven", "arnhem44"):
        record = play_game(engine_for(game), "memo-0", random_policy, keep_log=True,
                           check=False)
        assert record.log is not None
        log = record.log
        lines = log.splitlines()
        found.append((game, log))
        # The same lines again and again, with blank lines, comments, CR LF, a line too
        # long, a tag after the moves, and lines mangled one character at a time.
        actions = [line for line in lines if line and not line.startswith("[")]
        odd = [*lines, "", "# " + actions[0], "   ", actions[0] + "  # a remark",
               *actions[:5], "x" * (parsing.MAX_LINE_CHARS + 1), '[Seed "late"]',
               *mangled(actions, "abcxyz0123456789 {}:;|-#>", 60, seed=31), *actions[:5]]
        found.append((game + "-odd", "\r\n".join(odd) + "\r\n"))
    return found


TEXTS = texts()


@pytest.mark.parametrize(("name", "text"), TEXTS, ids=[name for name, _ in TEXTS])
def test_a_log_read_from_the_memo_is_the_log_read_afresh(name: str, text: str) -> None:
    parsing._memos.clear()
    fresh = parse_log(text, name)
    again = parse_log(text, name)  # every line remembered now
    assert parsed(again) == parsed(fresh)
    third = parse_log(text, name)
    for one, other in zip(again.entries, third.entries, strict=True):
        assert one is not other  # each log has its own entries
        if isinstance(one, ActionLine | SetupLine):
            assert isinstance(other, ActionLine | SetupLine)
            assert one.items is not other.items
    assert parsed(third) == parsed(fresh)


def test_a_line_too_long_is_refused_even_when_remembered(
        monkeypatch: pytest.MonkeyPatch) -> None:
    engine = engine_for("battle-card")
    text = '[Game "battle-card"]\n[Seed "7"]\nairdrop\nattack Arnhem\n'
    parsing._memos.clear()
    assert not parse_log(text, engine=engine).problems
    monkeypatch.setattr(parsing, "MAX_LINE_CHARS", 12)
    again = parse_log(text, engine=engine)
    assert [p.line for p in again.problems] == [1, 4]
