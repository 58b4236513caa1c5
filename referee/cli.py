"""The ``referee`` command: click commands only.  Each parses its options, calls the library
(``referee.api`` and the core) and hands the result to ``referee.core.output``."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, NoReturn

import click

from referee import api
from referee.core import output
from referee.core.errors import RefereeError
from referee.core.files import write_new_file
from referee.core.resources import resolve
from referee.core.scenario import ScenarioError


class LogPath(click.ParamType):  # type: ignore[type-arg]
    """A log file, or ``bundled:GAME/NAME.log`` for one shipped with the referee."""

    name = "log"

    def __init__(self, folder: str = "logs") -> None:
        self.folder = folder

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Path:
        if isinstance(value, Path):
            return value
        try:
            return resolve(str(value), self.folder)
        except ValueError as error:
            self.fail(str(error), param, ctx)


def _fail(message: str, code: int = 2) -> NoReturn:
    console = output.make_console(stderr=True)
    console.print(f"[bold red]error:[/] {output.markup_free(message)}")
    sys.exit(code)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="market-garden-referee", prog_name="referee")
def main() -> None:
    """Referee and game-log processor for Operation Market-Garden board wargames.

    Exit codes: 0 the log is legal, 1 it breaks the rules, 2 it (or the command line) cannot
    be read.
    """


@main.command()
@click.option("--json", "as_json", is_flag=True, help="One JSON document instead of tables.")
def games(as_json: bool) -> None:
    """The games and scenarios the referee knows, and which rules are covered."""
    from referee.games import game_infos

    infos = game_infos()
    if as_json:
        output.print_json([
            {"id": i.id, "title": i.title, "rulebook": i.rulebook, "sides": list(i.sides),
             "scenarios": list(i.scenarios), "coverage": i.coverage,
             "implemented": i.implemented}
            for i in infos
        ])
        return
    output.print_games(output.make_console(), infos)


_seed_option = click.option("--seed", help="Roll with this seed when the log has no [Seed] tag.")


@main.command()
@click.argument("log", type=LogPath())
@_seed_option
@click.option(
    "--json", "as_json", is_flag=True, help="One JSON document (keys: docs/log-format.md)."
)
@click.option("--events", is_flag=True, help="Show what every line did, with its dice.")
@click.option("--strict", is_flag=True, help="Stop at the first problem.")
@click.option("--upto", type=click.IntRange(min=1), help="Replay only up to this line.")
def replay(log: Path, seed: str | None, as_json: bool, events: bool, strict: bool,
           upto: int | None) -> None:
    """Replay LOG: check every line, roll or check the dice, print the resulting state."""
    report = api.replay_file(log, seed=seed, strict=strict, upto=upto)
    if as_json:
        output.print_json(report.to_json())
    else:
        output.print_report(output.make_console(), report, events=events)
    sys.exit(report.exit_code)


@main.command()
@click.argument("logs", nargs=-1, required=True, type=LogPath())
@_seed_option
@click.option("--strict", is_flag=True, help="Stop each log at its first problem.")
def check(logs: tuple[Path, ...], seed: str | None, strict: bool) -> None:
    """Check one or more logs quietly: problems only, and the exit code."""
    worst = 0
    console = output.make_console()
    for path in logs:
        report = api.replay_file(path, seed=seed, strict=strict)
        output.print_problems(console, report)
        worst = max(worst, report.exit_code)
    sys.exit(worst)


@main.command()
@click.argument("log", type=LogPath())
@_seed_option
@click.option("--upto", type=click.IntRange(min=1), help="The moves after this line.")
@click.option(
    "--json", "as_json", is_flag=True, help="The side, the decision and the moves as JSON."
)
def moves(log: Path, seed: str | None, upto: int | None, as_json: bool) -> None:
    """The legal commands at the end of LOG (or after line --upto)."""
    report = api.replay_file(log, seed=seed, upto=upto)
    console = output.make_console()
    if report.unreadable or report.engine is None:
        output.print_problems(output.make_console(stderr=True), report)
        sys.exit(2)
    pending = report.pending()
    if as_json:
        output.print_json(pending)
    else:
        output.print_moves(console, pending)
    sys.exit(0)


@main.command()
@click.argument("game")
@click.option("--scenario", help="The scenario (default: the game's standard one).")
@click.option("--seed", help="The seed the dice are rolled from.")
@click.option("--random-seed", is_flag=True, help="Make a fresh random seed.")
@click.option("-o", "--output", "out", type=click.Path(path_type=Path, dir_okay=False),
              help="Write the new log here (never over an existing file).")
def new(game: str, scenario: str | None, seed: str | None, random_seed: bool,
        out: Path | None) -> None:
    """The header of a new log of GAME."""
    if seed is not None and random_seed:
        raise click.UsageError("give --seed or --random-seed, not both")
    if random_seed:
        seed = api.new_seed()
    try:
        text = api.new_log(game, scenario, seed)
    except (RefereeError, ScenarioError) as error:
        _fail(str(error))
    if out is None:
        click.echo(text, nl=False)
        return
    try:
        write_new_file(out, text)
    except FileExistsError:
        _fail(f"{out} exists already; 'referee new' never writes over a file")
    except OSError as error:
        _fail(f"cannot write {out}: {error.strerror}")
    click.echo(f"wrote {out}")


@main.command()
def examples() -> None:
    """The logs shipped with the referee; replay one with 'referee replay bundled:NAME'."""
    from referee.core.resources import bundled

    root = bundled("logs")
    for path in sorted(root.rglob("*.log")):
        click.echo(f"bundled:{path.relative_to(root).as_posix()}")


@main.group()
def scenario() -> None:
    """Scenario data: check a file, show what a scenario holds."""


@scenario.command("check")
@click.argument("path", type=LogPath("scenarios"))
def scenario_check(path: Path) -> None:
    """Validate the scenario file or folder PATH; every problem in a sentence."""
    from referee.scenarios import check_path

    problems = check_path(path)
    console = output.make_console()
    for problem in problems:
        console.print(output.markup_free(problem))
    if problems:
        sys.exit(1)
    console.print(f"{path}: the scenario is valid")


@main.command()
@click.argument("game")
@click.option("--games", "count", type=click.IntRange(min=1, max=10_000_000), default=1000,
              show_default=True, help="How many games to play.")
@click.option("--policy", default="random", show_default=True,
              help="How the player chooses: random, or a policy of the game (greedy).")
@click.option("--seed", default="selfplay", show_default=True, help="Game i uses seed SEED-i.")
@click.option("--save-logs", type=click.Path(path_type=Path, file_okay=False),
              help="Write every game's log into this folder.")
@click.option("--json", "as_json", is_flag=True, help="The summary as JSON.")
def simulate(game: str, count: int, policy: str, seed: str, save_logs: Path | None,
             as_json: bool) -> None:
    """Play COUNT games of GAME by a policy; print the win rate and how games ended."""
    from referee.simulate import run_simulation

    try:
        summary = run_simulation(game, count, policy, seed, save_logs,
                                 progress=output.make_console(stderr=True))
    except (RefereeError, ValueError) as error:
        _fail(str(error))
    except OSError as error:
        _fail(f"cannot write the logs: {error}")
    data: dict[str, Any] = output.summary_json(game, policy, summary)
    if as_json:
        output.print_json(data)
    else:
        output.print_summary(output.make_console(), data)
    sys.exit(1 if summary.broken else 0)


if __name__ == "__main__":  # pragma: no cover
    main()
