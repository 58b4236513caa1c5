"""The work a batch sends to a worker: a chunk of log paths in, one result row per log out.

Workers receive paths, never log texts, and read the files themselves, so a job is a few
hundred bytes whatever the size of the logs.  The parsers are built once per worker process:
``referee.core.grammar.game_parser`` caches them per process and ``warm_up`` (the pool's
initializer, or ``Client.run`` on Dask workers) builds them before the first log arrives.

Every log gives exactly one row, whatever is wrong with it: a missing file, a binary file or
a log the referee itself fails on is a row saying so, never an exception that would stop the
whole batch.
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
import time
from collections import Counter
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from referee.core import envelope
from referee.core.envelope import problem_json
from referee.core.errors import Problem
from referee.core.parsing import read_log
from referee.core.replay import Report, replay

LEGAL = "legal"
ILLEGAL = "illegal"
UNREADABLE = "unreadable"
ERROR = "error"
OVER_BUDGET = "over-budget"
STATUSES = (LEGAL, ILLEGAL, UNREADABLE, ERROR, OVER_BUDGET)
"""What became of a log: it keeps the rules, breaks them, cannot be read, the referee
failed on it (a bug in the referee, reported as a row so the batch goes on), or it needed
more time or memory than its budget (or its worker process was killed while replaying it)."""

SECONDS_PER_LOG = 120.0
"""The default time budget of one log (``--log-seconds``)."""
MEGABYTES_PER_LOG = 2048
"""The default memory budget of one log (``--log-megabytes``): how much the worker's address
space may grow while it replays the log."""

_STATUS_OF_EXIT = {0: LEGAL, 1: ILLEGAL, 2: UNREADABLE}

TIMING_FIELDS = frozenset({"ms"})
"""Row keys that measure time: they differ between runs, everything else must not."""


@dataclass(frozen=True)
class Target:
    """One thing to replay: a path as the user gave or the walk found it.

    ``note`` is set when there is nothing to read (a glob that matched no file, a folder
    without logs): the row carries the note as its problem.
    """

    path: str
    note: str | None = None
    shown: str | None = None
    """How the row names the log, when not by ``path`` (``bundled:GAME/NAME.log``)."""


@dataclass(frozen=True)
class Chunk:
    """One job: a few targets, the folder relative paths start from, and the --seed."""

    targets: tuple[Target, ...]
    root: str
    seed: str | None = None
    seconds: float | None = SECONDS_PER_LOG
    megabytes: int | None = MEGABYTES_PER_LOG


@dataclass(frozen=True)
class LogResult:
    """The result row of one log; ``to_json`` gives it with stable keys in a stable order."""

    path: str
    status: str
    exit_code: int
    game: str | None = None
    problems: int = 0
    by_kind: dict[str, int] = field(default_factory=dict)
    by_rule: dict[str, int] = field(default_factory=dict)
    first_problem: str | None = None
    result: str | None = None
    winner: str | None = None
    reason: str | None = None
    vp: dict[str, Any] | None = None
    turn: int | None = None
    ms: float = 0.0
    listed: tuple[dict[str, Any], ...] = ()
    """The problems as the envelope's problem objects (``problems`` is their count)."""
    pending: dict[str, Any] | None = None
    outcome: dict[str, Any] | None = None
    """The envelope's pending and outcome objects (null when the log cannot be replayed)."""

    @property
    def ok(self) -> bool:
        return self.status == LEGAL

    def to_json(self) -> dict[str, Any]:
        vp = _flat(self.vp) if self.vp else _NO_VP
        listed = [problem_json(p) for p in self.listed] if self.listed else [
            problem_json({"kind": kind, "message": self.first_problem})
            for kind in self.by_kind][:1]
        return {
            # The envelope (docs/schema/envelope.json), its state left out of a table row:
            # ``referee replay --json`` gives it.
            "schema": ROW_SCHEMA,
            "source": self.path,
            "game": self.game,
            "ok": self.ok,
            "exit_code": self.exit_code,
            "problems": listed,
            "state": None,
            "pending": self.pending,
            "outcome": self.outcome,
            # The row's own columns, flat and of the same types for every game.
            "path": self.path,
            "status": self.status,
            "problem_count": self.problems,
            "problems_by_kind": dict(self.by_kind),
            "problems_by_rule": dict(self.by_rule),
            "first_problem": self.first_problem,
            "result": self.result,
            "winner": self.winner,
            "reason": self.reason,
            **{column: _int_or_none(vp.get(column)) for column in VP_COLUMNS},
            "turn": self.turn,
            "ms": self.ms,
        }


ROW_SCHEMA = "referee/1"
"""The version of a result row (docs/schema/batch-row.json), the envelope's version."""

VP_COLUMNS = ("vp_objective", "vp_eliminated", "vp_total")
"""The victory points of a game that counts them, one column each (null otherwise), so a
row has the same columns of the same types whatever the game."""


_NO_VP: dict[str, Any] = {}


def _flat(data: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    flat: dict[str, Any] = {}
    for key, value in data.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict):
            flat.update(_flat(value, name + "_"))
        else:
            flat[name] = value
    return flat


def _int_or_none(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def warm_up() -> None:
    """Import every implemented engine and build its parser, once in this process."""
    from referee.core.grammar import game_parser
    from referee.games import GAMES, engine_for

    for entry in GAMES.values():
        if entry.module is None:
            continue
        try:
            game_parser(engine_for(entry.id).grammar)
        except Exception:  # a broken engine is reported by each of its logs
            continue


def replay_chunk(chunk: Chunk) -> list[LogResult]:
    """Replay every log of ``chunk``, in order: one row each.  The budget's signal handler
    and the process's memory limits are set up once for the chunk, each log's own timer and
    cap when it starts (``budget``)."""
    here = os.getcwd()
    base = None if os.path.abspath(chunk.root) == here else Path(chunk.root)
    held = budget(chunk.seconds, chunk.megabytes)
    held.open()
    try:
        return [replay_target(target, base, chunk.seed, seconds=chunk.seconds,
                              megabytes=chunk.megabytes, held=held)
                for target in chunk.targets]
    finally:
        held.close()


def replay_target(target: Target, base: Path | None = None, seed: str | None = None, *,
                  seconds: float | None = None, megabytes: int | None = None,
                  held: budget | None = None) -> LogResult:
    """Read and replay one log; ``base`` is the folder a relative path starts from when it
    is not this process's working folder (a Dask worker on another machine).

    ``seconds`` and ``megabytes`` are the log's budget (``budget``): a log that needs more
    is an ``over-budget`` row.  ``held``: that budget, opened already for a whole chunk
    (``replay_chunk``); without it the log opens and closes its own."""
    start = time.perf_counter()
    if target.note is not None:
        return LogResult(target.path, UNREADABLE, 2, problems=1, by_kind={"header": 1},
                         first_problem=f"header: {target.note}", ms=_ms_since(start))
    path = Path(target.path)
    if base is not None and not path.is_absolute():
        path = base / path
    try:
        if held is None:
            with budget(seconds, megabytes):
                report = replay(read_log(path), seed=seed)
        else:
            held.start()
            try:
                report = replay(read_log(path), seed=seed)
            finally:
                held.stop()
        return row_of(target.shown or target.path, report, start)
    except OverTime:
        return over_budget(target.shown or target.path, f"replaying it took more than its "
                                                        f"budget of {seconds:g} s", start)
    except MemoryError:
        if held is not None:
            held.release()  # the row is made with the process's own limits
        limit = f"its budget of {megabytes:,} MB" if megabytes else "the memory there is"
        return over_budget(target.shown or target.path,
                           f"replaying it needed more memory than {limit}", start)
    except Exception as error:  # one log the referee fails on is one row
        message = f"the referee failed on this log ({type(error).__name__}: {error})"
        return LogResult(target.shown or target.path, ERROR, 2, problems=1, by_kind={"internal": 1},
                         first_problem=message, ms=_ms_since(start))


def over_budget(path: str, why: str, start: float | None = None) -> LogResult:
    """The row of a log that needed more than its budget (or killed its worker)."""
    return LogResult(path, OVER_BUDGET, 2, problems=1, by_kind={"limit": 1},
                     first_problem=f"limit: {why}",
                     ms=_ms_since(start) if start is not None else 0.0)


class OverTime(BaseException):
    """Raised in the worker when a log's time budget runs out."""


def _over_time(signum: int, frame: object) -> None:
    raise OverTime


class budget:
    """Limit the work inside to ``seconds`` of wall time (``OverTime``) and to ``megabytes``
    of growth of this process's address space (``MemoryError``).

    Both work only in the main thread of a process on a system with ``setitimer`` and
    ``RLIMIT_AS`` (Linux, macOS): the serial batch and the local pool's workers.  Dask runs
    tasks in worker threads, where neither can be set: there the budget is not enforced.
    A class rather than a generator: it is entered once per log, and a batch of small logs
    feels every microsecond of it.

    ``with budget(...)`` limits its block.  A chunk of logs (``replay_chunk``) instead
    ``open``s it once (the signal handler set, the process's limits read), ``start``s and
    ``stop``s each log (its timer, and its cap: the address space then plus ``megabytes``),
    and ``close``s it (the handler and the limits put back).
    """

    __slots__ = ("limits", "megabytes", "previous", "seconds", "timer")

    def __init__(self, seconds: float | None, megabytes: int | None) -> None:
        self.seconds = seconds
        self.megabytes = megabytes
        self.timer = False
        self.previous: Any = None
        self.limits: tuple[int, int] | None = None
        """The process's own memory limits, while a cap is set (None: none set)."""

    def open(self) -> None:
        main = threading.current_thread() is threading.main_thread()
        if main and self.seconds and hasattr(signal, "setitimer"):
            self.timer = True
            self.previous = signal.signal(signal.SIGALRM, _over_time)
        if main and self.megabytes:
            self.limits = _memory_limits()

    def start(self) -> None:
        """One log begins: its timer, and its memory cap."""
        if self.timer:
            signal.setitimer(signal.ITIMER_REAL, float(self.seconds or 0))
        if self.limits is not None and self.megabytes:
            _limit_memory(self.megabytes, self.limits)

    def stop(self) -> None:
        """One log ends: its timer is cancelled (its cap stays until the next log's)."""
        if self.timer:
            signal.setitimer(signal.ITIMER_REAL, 0)

    def release(self) -> None:
        """The process's own memory limits put back."""
        if self.limits is not None:
            import resource

            resource.setrlimit(resource.RLIMIT_AS, self.limits)

    def close(self) -> None:
        if self.timer:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, self.previous)
            self.timer = False
        self.release()
        self.limits = None

    def __enter__(self) -> None:
        self.open()
        self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()


def _memory_limits() -> tuple[int, int] | None:
    """This process's address-space limits (soft, hard), or None where the system has none."""
    try:
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        _address_space()  # a system without /proc/self/statm sets no cap
    except (ImportError, OSError, ValueError):
        return None
    return soft, hard


def _limit_memory(megabytes: int, limits: tuple[int, int]) -> None:
    """Cap the address space at its present size plus ``megabytes``, within ``limits`` (the
    process's own, read by ``_memory_limits``: ``resource`` is there)."""
    soft, hard = limits
    try:
        cap = _address_space() + megabytes * 1024 * 1024
        if hard != _RESOURCE.RLIM_INFINITY:
            cap = min(cap, hard)
        if soft != _RESOURCE.RLIM_INFINITY:
            cap = min(cap, soft)
        _RESOURCE.setrlimit(_RESOURCE.RLIMIT_AS, (cap, hard))
    except (OSError, ValueError):
        return


with contextlib.suppress(ImportError):  # not on Windows: ``_memory_limits`` gives None
    import resource as _RESOURCE


_statm: tuple[int, int] | None = None
"""This process's id and its open ``/proc/self/statm`` (read again for each log with one
``pread``: opening it costs more than the rest of a log's budget)."""


def _address_space() -> int:
    """The bytes of address space this process uses now (Linux's ``/proc/self/statm``;
    ``OSError`` where there is none)."""
    global _statm
    pid = os.getpid()
    if _statm is None or _statm[0] != pid:  # a forked worker opens its own
        if _statm is not None:
            os.close(_statm[1])
        _statm = (pid, os.open("/proc/self/statm", os.O_RDONLY))
    pages = int(os.pread(_statm[1], 128, 0).split()[0])
    return pages * _PAGE


_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


def row_of(path: str, report: Report, start: float) -> LogResult:
    """The row of a replayed log."""
    problems = report.problems
    exit_code = report.exit_code
    if problems:
        kinds = dict(sorted(Counter(str(p.kind) for p in problems).items()))
        rules = dict(sorted(Counter(p.rule for p in problems if p.rule).items()))
        first: str | None = _describe(problems[0])
        listed = tuple(envelope.problems_json([p.to_json() for p in problems]))
    else:  # a legal log: nothing to count
        kinds, rules, first, listed = {}, {}, None, ()
    ended = report.outcome()
    outcome = ended or {}
    turn = _turn(report)
    vp = {k: v for k, v in outcome.items() if "vp" in k.casefold()}
    ended_json = envelope.outcome_json(ended)
    # The frozen row's fields put in place without its checked ``__setattr__`` (its
    # constructor was a tenth of the batch's own work on a Battle Card log).
    row: LogResult = _new(LogResult)
    row.__dict__.update(
        path=path,
        status=_STATUS_OF_EXIT.get(exit_code, UNREADABLE),
        exit_code=exit_code,
        game=report.game,
        problems=len(problems),
        by_kind=kinds,
        by_rule=rules,
        first_problem=first,
        result=_text(outcome.get("result")),
        winner=_text(outcome.get("winner")),
        reason=_text(outcome.get("reason")),
        vp=vp or None,
        turn=turn if isinstance(turn, int) else None,
        ms=_ms_since(start),
        listed=listed,
        pending=envelope.pending_json(report, ended_json),
        outcome=ended_json,
    )
    return row


_new = object.__new__
_ROW_FIELDS = frozenset(f.name for f in fields(LogResult))
"""Every field of a row (``row_of`` sets each; tests/batch/test_worker.py checks it)."""


def _turn(report: Report) -> Any:
    """The ``turn`` of the state's JSON, without making the whole JSON where the engine can
    give that one value (``turn_of``, else ``json_parts`` as ``expect`` asks for it)."""
    turn_of = getattr(report.engine, "turn_of", None)
    if turn_of is not None and report.state is not None:
        return turn_of(report.state)
    parts = getattr(report.engine, "json_parts", None)
    if parts is not None and report.state is not None:
        get = parts(report.state).get("turn")
        if get is not None:
            return get()
    return (report.state_json() or {}).get("turn")


def _describe(problem: Problem) -> str:
    where = ""
    if problem.line is not None:
        where = f"line {problem.line}"
        if problem.column is not None:
            where += f":{problem.column}"
        where += ": "
    rule = f" [{problem.rule}]" if problem.rule else ""
    return f"{where}{problem.kind}{rule}: {problem.message}"


def _text(value: Any) -> str | None:
    return None if value is None else str(value)


def _ms_since(start: float) -> float:
    return round((time.perf_counter() - start) * 1000, 3)
