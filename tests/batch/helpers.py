"""Logs and helpers shared by the batch tests."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from referee.batch import TIMING_FIELDS
from referee.core.selfplay import play_game, random_policy
from referee.games import engine_for

ILLEGAL = '[Game "battle-card"]\n[Seed "7"]\nairdrop\nattack Arnhem\nattack Arnhem\n'
"""Arnhem fights twice in turn 1: one illegal move, rule 'Turn step 1'."""

SYNTAX = '[Game "battle-card"]\n[Seed "7"]\nairdrop\n@@@ charge!\n'
BINARY = b"\x00\x01\x02binary\x00"
LATIN1 = '[Game "battle-card"]\n# “Café de la Paix”\n'.encode("cp1252")
"""Windows-1252 curly quotes: bytes that are neither UTF-8 nor Latin-1 text."""


def legal_log(seed: str) -> str:
    """A whole Battle Card game played by the random policy, as a log."""
    record = play_game(engine_for("battle-card"), seed, random_policy, keep_log=True)
    assert record.log is not None
    return record.log


def without_timing(rows: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Rows without the fields that measure time, which differ from run to run."""
    return [{k: v for k, v in row.items() if k not in TIMING_FIELDS} for row in rows]


KILLER = "kill-my-worker.log"
"""A log whose name makes ``replay_or_die`` kill the worker process replaying it, as the
out-of-memory killer would."""


def replay_or_die(chunk: Any) -> Any:
    """``replay_chunk``, except that a chunk holding ``KILLER`` kills its own process."""
    import os
    import signal

    from referee.batch.worker import replay_chunk

    if any(target.path.endswith(KILLER) for target in chunk.targets):
        os.kill(os.getpid(), signal.SIGKILL)
    return replay_chunk(chunk)
