"""The batch's per-log shortcuts against the long way (issue 31): the row made without its
frozen constructor, its outcome made once and its turn from ``turn_of``; the JSON line by one
C encoder; the budget set up once per chunk."""

from __future__ import annotations

import json
import math
import signal
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from referee.batch import worker
from referee.batch.results import row_json, row_line
from referee.batch.worker import (
    _STATUS_OF_EXIT,
    UNREADABLE,
    Chunk,
    LogResult,
    Target,
    budget,
    replay_chunk,
    row_of,
)
from referee.core import envelope
from referee.core.parsing import parse_log, read_log
from referee.core.replay import Report, replay
from referee.core.selfplay import play_game, random_policy
from referee.games import engine_for
from referee.games.battle_card import ENGINE
from tests.batch.helpers import ILLEGAL, SYNTAX, legal_log
from tests.core.replay_digests import bundled_logs, with_a_line_twice


def long_row(path: str, report: Report) -> LogResult:
    """The row as ``row_of`` made it before the shortcuts: the constructor, the outcome
    made twice, the turn from the whole state's JSON."""
    problems = report.problems
    kinds = Counter(str(p.kind) for p in problems) if problems else {}
    rules = Counter(p.rule for p in problems if p.rule) if problems else {}
    ended = report.outcome()
    outcome = ended or {}
    turn = (report.state_json() or {}).get("turn")
    vp = {k: v for k, v in outcome.items() if "vp" in k.casefold()}
    return LogResult(
        path,
        _STATUS_OF_EXIT.get(report.exit_code, UNREADABLE),
        report.exit_code,
        game=report.game,
        problems=len(report.problems),
        by_kind=dict(sorted(kinds.items())),
        by_rule=dict(sorted(rules.items())),
        first_problem=worker._describe(report.problems[0]) if report.problems else None,
        result=worker._text(outcome.get("result")),
        winner=worker._text(outcome.get("winner")),
        reason=worker._text(outcome.get("reason")),
        vp=vp or None,
        turn=turn if isinstance(turn, int) else None,
        ms=0.0,
        listed=tuple(envelope.problems_json([p.to_json() for p in report.problems])),
        pending=envelope.pending_json(report),
        outcome=envelope.outcome_json(ended),
    )


def reports() -> list[tuple[str, Report]]:
    """Every bundled log, self-played logs of every game (as played, with a line twice, cut
    short), and Battle Card logs that break the rules or cannot be read."""
    found = [(path.name, replay(read_log(path))) for path in bundled_logs()]
    for game in ("battle-card", "wwiic", "koenig-eindhoven", "arnhem44"):
        engine = engine_for(game)
        for index in range(3 if game == "battle-card" else 1):
            record = play_game(engine, f"rows-{index}", random_policy, keep_log=True,
                               check=False)
            assert record.log is not None
            lines = record.log.splitlines()
            for text in (record.log, with_a_line_twice(record.log),
                         "\n".join(lines[: len(lines) // 2]) + "\n"):
                found.append((f"{game}-{index}", replay(parse_log(text, "x.log", engine=engine),
                                                        engine)))
    for text in (ILLEGAL, SYNTAX, legal_log("rows") + "attack Arnhem {d6: 9}\n"):
        found.append(("bc.log", replay(parse_log(text, "bc.log"))))
    return found


ROWS = reports()


@pytest.mark.parametrize(("path", "report"), ROWS, ids=[path for path, _ in ROWS])
def test_the_row_is_the_one_the_long_way_makes(path: str, report: Report) -> None:
    fast = row_of(path, report, 0.0)
    long = long_row(path, report)
    assert set(vars(fast)) == worker._ROW_FIELDS
    assert vars(fast) | {"ms": 0.0} == vars(long)
    assert fast.to_json() | {"ms": 0.0} == long.to_json()
    assert row_json(fast.to_json()) == json.dumps(fast.to_json(), ensure_ascii=False)
    assert row_line(fast) == json.dumps(fast.to_json(), ensure_ascii=False)


@pytest.mark.parametrize("row", [
    LogResult("a “b” \\ \"c\"\n\u2028.log", "legal", 0, game="battle-card", result="win",
              winner="allied", reason="30th Corps reached Arnhem", turn=6, ms=4.5,
              pending={"side": None, "text": "é"}, outcome={"over": True, "score": {}}),
    LogResult("a.log", "legal", 0, ms=0.0),
    LogResult("a.log", "legal", 0, turn=True, ms=1.0),  # a bool turn: the long way
    LogResult("a.log", "legal", 0, ms=3),  # an int ms (a row read back): the long way
    LogResult("a.log", "legal", 0, ms=math.nan),
    LogResult("a.log", "legal", 0, ms=1e-7, vp={"vp": {"total": 3}}),
    LogResult("b.log", "illegal", 1, problems=1, by_kind={"illegal-move": 1},
              by_rule={"6.3": 1}, first_problem="line 4:1: no", ms=2.0),
    LogResult("c.log", "unreadable", 2, problems=1, by_kind={"encoding": 1}, ms=2.0,
              listed=({"kind": "encoding", "message": "binary"},)),
])
def test_a_row_line_is_the_row_json_dumps_writes(row: LogResult) -> None:
    assert row_line(row) == json.dumps(row.to_json(), ensure_ascii=False)


def test_turn_of_is_the_turn_of_the_state_json() -> None:
    engine = ENGINE
    for index in range(20):
        record = play_game(engine, f"turns-{index}", random_policy, keep_log=True)
        assert record.log is not None
        lines = record.log.splitlines()
        for end in range(3, len(lines) + 1, 4):
            report = replay(parse_log("\n".join(lines[:end]) + "\n", "t.log", engine=engine),
                            engine)
            assert ENGINE.turn_of(report.state) == engine.to_json(report.state)["turn"]


@pytest.mark.parametrize("value", [
    {"a": "Café “quoted” \\ \"x\"\n\t\u2028", "b": [1, 2.5, -0.0, 1e300, True, None],
     "c": {"d": {}, "e": []}},
    {"nan": math.nan, "inf": math.inf, "-inf": -math.inf, "big": 10**30, "ms": 27.442},
    {"ms": 0, "turn": False, "tuple": (1, "two")},
])
def test_a_row_line_is_what_json_dumps_writes(value: dict[str, Any]) -> None:
    assert row_json(value) == json.dumps(value, ensure_ascii=False)


def test_a_row_line_refuses_what_json_dumps_refuses() -> None:
    with pytest.raises(TypeError):
        row_json({"path": Path("x")})


def test_a_chunk_budgets_each_log_and_puts_everything_back(tmp_path: Path) -> None:
    resource = pytest.importorskip("resource")
    for index in range(3):
        (tmp_path / f"game-{index}.log").write_text(legal_log(f"chunk-{index}"),
                                                    encoding="utf-8")
    targets = tuple(Target(str(tmp_path / f"game-{index}.log")) for index in range(3))
    limits = resource.getrlimit(resource.RLIMIT_AS)
    handler = signal.getsignal(signal.SIGALRM)
    rows = replay_chunk(Chunk(targets, str(tmp_path), seconds=60, megabytes=1024))
    assert [row.status for row in rows] == ["legal"] * 3
    over = replay_chunk(Chunk(targets, str(tmp_path), seconds=1e-6, megabytes=1024))
    assert [row.status for row in over] == ["over-budget"] * 3
    assert resource.getrlimit(resource.RLIMIT_AS) == limits
    assert signal.getsignal(signal.SIGALRM) == handler
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


def test_a_log_over_its_memory_budget_in_a_chunk_leaves_the_next_one_whole(
        tmp_path: Path) -> None:
    resource = pytest.importorskip("resource")
    (tmp_path / "game.log").write_text(legal_log("memory"), encoding="utf-8")
    limits = resource.getrlimit(resource.RLIMIT_AS)
    held = budget(60, 32)
    held.open()
    try:
        held.start()
        with pytest.raises(MemoryError):
            bytearray(256 * 1024 * 1024)
        held.stop()
        held.release()
        held.start()  # the next log has its own cap, from the size of the process now
        assert len(bytearray(16 * 1024 * 1024)) > 0
        held.stop()
    finally:
        held.close()
    assert resource.getrlimit(resource.RLIMIT_AS) == limits
    assert len(bytearray(96 * 1024 * 1024)) > 32 * 1024 * 1024  # the limit is put back
