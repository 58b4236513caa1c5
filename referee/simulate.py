"""``referee simulate``: many self-played games, summarised, their logs saved on request."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console

from referee.batch.executors import open_runner
from referee.batch.runner import LARGEST_CHUNK, ramped
from referee.core.files import write_output
from referee.core.progress import progress_bar
from referee.core.selfplay import GameRecord, Policy, Summary, play_game, random_policy, summarise
from referee.games import engine_for, game_entry


def policy_for(game: str, name: str) -> Policy:
    engine = engine_for(game)
    policies: dict[str, Policy] = {"random": random_policy, **getattr(engine, "policies", {})}
    if name not in policies:
        raise ValueError(f"unknown policy '{name}'; {game} has {', '.join(policies)}")
    return policies[name]


@dataclass(frozen=True)
class GameRange:
    """One job of a simulation: games ``first`` to ``stop - 1`` (game i uses seed SEED-i)."""

    game: str
    policy: str
    seed: str
    first: int
    stop: int
    save_logs: str | None = None
    """The folder the worker writes each game's log into (absolute), or ``None``."""
    check_every: int = 1
    """Game i is checked after every command when i is a multiple of this (every game is
    checked at its end)."""
    options: tuple[str, ...] = ()
    """The game's [Option]s."""


def play_range(job: GameRange) -> list[GameRecord]:
    """Play the games of ``job`` where it runs; their logs are written there, not sent back."""
    engine = engine_for(job.game)
    chooser = policy_for(job.game, job.policy)
    records: list[GameRecord] = []
    for i in range(job.first, job.stop):
        record = play_game(engine, f"{job.seed}-{i}", chooser, keep_log=job.save_logs is not None,
                           check=i % job.check_every == 0,
                           options=dict.fromkeys(job.options, "on"))
        if job.save_logs is not None and record.log is not None:
            write_output(Path(job.save_logs) / f"{job.game}-{job.seed}-{i:06d}.log", record.log,
                         replace=True)
            record.log = None
        records.append(record)
    return records


def add_summary(total: Summary, part: Summary) -> None:
    """Fold the summary of later games into ``total`` (the same as summarising them all)."""
    total.games += part.games
    total.results.update(part.results)
    total.reasons.update(part.reasons)
    total.broken.extend(part.broken)


def run_simulation(
    game: str,
    games: int,
    policy: str,
    seed: str,
    save_logs: Path | None = None,
    progress: Console | None = None,
    *,
    executor: str = "serial",
    jobs: int = 1,
    scheduler: str | None = None,
    check_every: int = 1,
    options: Sequence[str] = (),
) -> Summary:
    """Play ``games`` games; every invariant is checked at the end of every game, and after
    every command of one game in ``check_every`` (1: all of them).

    ``executor`` (``serial``, ``local`` or ``dask``) says where they are played; the summary
    is the same wherever they are.
    """
    entry = game_entry(game)
    engine_for(entry.id).setup(None, dict.fromkeys(options, "on"))  # options checked at once
    policy_for(entry.id, policy)
    folder = None
    if save_logs is not None:
        save_logs.mkdir(parents=True, exist_ok=True)
        folder = str(save_logs.resolve())
    ranges = (
        GameRange(entry.id, policy, seed, group[0], group[-1] + 1, folder, check_every,
                  tuple(options))
        for group in ramped(range(games), LARGEST_CHUNK)
    )
    total = Summary(0, Counter(), Counter(), [])
    with (
        progress_bar(progress, total=games) as bar,
        open_runner(executor, jobs, scheduler) as runner,
    ):
        task = bar.add_task(f"{entry.id}: playing", total=games)
        for records in runner.map(play_range, ranges):
            add_summary(total, summarise(records))
            bar.update(task, completed=total.games)
    return total
