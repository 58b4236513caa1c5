"""The commands of ``referee`` that run many games: simulate (self-play) and batch (many logs
replayed on a process pool or Dask)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from referee.cli_shared import (
    STDIN,
    _complete_game,
    _executor_options,
    _fail,
    _force_option,
    _refuse_output,
    _seed_option,
    _write_failure,
    envelope,
    output,
    progress,
)
from referee.core.errors import RefereeError


@click.command()
@click.argument("game", shell_complete=_complete_game)
@click.option("--games", "count", type=click.IntRange(min=1, max=10_000_000), default=1000,
              show_default=True, metavar="COUNT", help="How many games to play.")
@click.option("--policy", default="random", show_default=True,
              help="How the player chooses: random, or a policy of the game (greedy).")
@click.option("--seed", default="selfplay", show_default=True, help="Game i uses seed SEED-i.")
@click.option("--save-logs", type=click.Path(path_type=Path, file_okay=False),
              help="Write every game's log into this folder.")
@click.option("--json", "as_json", is_flag=True, help="The summary as JSON.")
@click.option("--check-every", type=click.IntRange(min=1), default=10, show_default=True,
              help="Check every invariant after every command in one game of N (1: all); "
              "every game is checked at its end.")
@click.option("--option", "options", multiple=True, metavar="NAME",
              help="Play with this [Option] of the game (repeatable).")
@_executor_options("games are played")
def simulate(game: str, count: int, policy: str, seed: str, save_logs: Path | None,
             as_json: bool, check_every: int, options: tuple[str, ...], jobs: int | None,
             executor: str | None, scheduler: str | None) -> None:
    """Play COUNT games of GAME by a policy; print the win rate and how games ended."""
    from referee.batch.executors import ExecutorUnavailable, choose_executor
    from referee.simulate import run_simulation

    try:
        kind, workers = choose_executor(executor, jobs, scheduler)
        summary = run_simulation(game, count, policy, seed, save_logs,
                                 progress=output.make_console(stderr=True),
                                 executor=kind, jobs=workers, scheduler=scheduler,
                                 check_every=check_every, options=options)
    except (RefereeError, ValueError, ExecutorUnavailable) as error:
        _fail(str(error))
    except OSError as error:
        _fail(f"cannot write the logs: {error}")
    data: dict[str, Any] = output.summary_json(game, policy, summary)
    code = 1 if summary.broken else 0
    if as_json:
        head = envelope.envelope(source=f"simulate:{game}", game=game, problems=[],
                                 exit_code=code)
        output.print_json({**head, **{k: v for k, v in data.items() if k not in head}})
    else:
        output.print_summary(output.make_console(), data)
    sys.exit(code)


def _paths_with_stdin(paths: tuple[str, ...]) -> tuple[str, ...]:
    """``batch -``: the paths read from standard input, one a line (as ``find`` or ``ls``
    print them), in place of the ``-``; blank lines are passed over.  A name that is not
    UTF-8 keeps its bytes (``os.fsdecode``)."""
    import os

    listed = [os.fsdecode(line.rstrip(b"\r\n")) for line in sys.stdin.buffer
              if line.strip()]
    out: list[str] = []
    for path in paths:
        out.extend(listed if path == STDIN else [path])
    return tuple(out)


@click.command()
@click.argument("paths", nargs=-1, required=True, metavar="PATH...")
@_executor_options("logs are replayed")
@click.option("--out", type=click.Path(path_type=Path, dir_okay=False),
              help="Write the rows to FILE.jsonl or FILE.csv (default: JSON Lines on stdout).")
@click.option("--fail-fast", is_flag=True, help="Stop at the first log that is not legal.")
@_seed_option
@_force_option
@click.option("--log-seconds", type=click.FloatRange(min=0), default=120.0, show_default=True,
              help="Each log's time budget (0: none); a log over it is an over-budget row.")
@click.option("--log-megabytes", type=click.IntRange(min=0), default=2048, show_default=True,
              help="Each log's memory budget (0: none); a log over it is an over-budget row.")
@click.option("--resume", is_flag=True, help="Go on from FILE.partial, the rows an earlier "
              "--out FILE batch of the same PATHs wrote before it stopped.")
def batch(paths: tuple[str, ...], jobs: int | None, executor: str | None,
          scheduler: str | None, out: Path | None, fail_fast: bool, seed: str | None,
          force: bool = False, log_seconds: float = 120.0, log_megabytes: int = 2048,
          resume: bool = False) -> None:
    """Replay many logs: files, folders (every *.log below them) or globs.

    One result row per log (JSON Lines on stdout, or --out FILE.jsonl / FILE.csv), then a
    summary table (on stderr when the rows go to stdout).  A log that cannot be read is a
    row, not an error.  Exit codes: 0 every log is legal, 1 a log breaks the rules, 2 a log
    (or the command line) cannot be read.
    """
    import time

    from referee.batch import ExecutorUnavailable, open_results, open_runner, run_batch
    from referee.batch.discovery import count_logs
    from referee.batch.executors import choose_executor
    from referee.batch.results import PartialExists, format_of, partial_path, read_partial

    done: list[Any] = []
    if STDIN in paths:
        paths = _paths_with_stdin(paths)
    try:
        kind, workers = choose_executor(executor, jobs, scheduler)
        if resume and out is None:
            raise ValueError("--resume goes on from the partial file of --out FILE: give --out")
        if out is not None:
            format_of(out)
            _refuse_output(out, force, [Path(p) for p in paths])
            if resume:
                done = read_partial(out)
    except ValueError as error:
        _fail(str(error))
    except (PartialExists, OSError) as error:
        _fail(f"cannot resume from {partial_path(out or Path())}: {error}")
    errors = output.make_console(stderr=True)
    start = time.perf_counter()
    try:
        with (
            open_results(out, replace=force, resume=resume,
                         inputs=[Path(p) for p in paths]) as sink,
            progress.progress_bar(errors, total=0) as bar,
            open_runner(kind, workers, scheduler) as runner,
        ):
            total = count_logs(paths) if not bar.disable else None
            if total is not None:
                total -= min(total, len(done))
            task = bar.add_task("replaying", total=total)
            summary = run_batch(
                paths, runner, seed=seed, fail_fast=fail_fast, on_row=sink.write,
                on_chunk=lambda n: bar.advance(task, n), seconds=log_seconds or None,
                megabytes=log_megabytes or None, done=done,
            )
    except PartialExists as error:
        _fail(f"{error} is left from a batch that did not finish: give --resume to go on "
              "from it, or --force to start again")
    except (ExecutorUnavailable, ValueError) as error:
        kept = f"; the rows done so far are in {partial_path(out)}" if out is not None else ""
        _fail(f"{error}{kept}")
    except FileExistsError:
        _fail(f"{out} exists already; give --force to write over it")
    except OSError as error:
        _fail(_write_failure(out, error))
    seconds = time.perf_counter() - start
    console = output.make_console() if out is not None else errors
    output.print_batch_summary(console, summary.to_json(), seconds)
    sys.exit(summary.exit_code)
