"""``referee simulate``: many self-played games, summarised, their logs saved on request."""

from __future__ import annotations

from pathlib import Path

from rich.console import Console
from rich.progress import Progress

from referee.core.files import write_atomic
from referee.core.selfplay import GameRecord, Policy, Summary, play_game, random_policy, summarise
from referee.games import engine_for, game_entry


def policy_for(game: str, name: str) -> Policy:
    engine = engine_for(game)
    policies: dict[str, Policy] = {"random": random_policy, **getattr(engine, "policies", {})}
    if name not in policies:
        raise ValueError(f"unknown policy '{name}'; {game} has {', '.join(policies)}")
    return policies[name]


def run_simulation(
    game: str,
    games: int,
    policy: str,
    seed: str,
    save_logs: Path | None = None,
    progress: Console | None = None,
) -> Summary:
    """Play ``games`` games; every invariant is checked after every command."""
    entry = game_entry(game)
    engine = engine_for(entry.id)
    chooser = policy_for(entry.id, policy)
    if save_logs is not None:
        save_logs.mkdir(parents=True, exist_ok=True)
    records: list[GameRecord] = []
    with Progress(console=progress, transient=True, disable=progress is None) as bar:
        task = bar.add_task(f"{entry.id}: playing", total=games)
        for i in range(games):
            record = play_game(
                engine, f"{seed}-{i}", chooser, keep_log=save_logs is not None or False
            )
            if save_logs is not None and record.log is not None:
                write_atomic(save_logs / f"{entry.id}-{seed}-{i:06d}.log", record.log)
            records.append(record)
            if i % 256 == 0 or i == games - 1:
                bar.update(task, completed=i + 1)
    return summarise(records)
