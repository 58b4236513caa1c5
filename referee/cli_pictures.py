"""The pictures of ``referee``: map, render (one board) and view (a page to step through)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from referee.cli_shared import (
    LogPath,
    _complete_game,
    _fail,
    _force_option,
    _refuse_output,
    _refused,
    _seed_option,
    _table,
    _write_failure,
    api,
    output,
    progress,
)
from referee.core.errors import RefereeError
from referee.core.scenario import ScenarioError


@click.command("map")
@click.argument("game", shell_complete=_complete_game)
@click.option("-o", "--output", "out", required=True,
              type=click.Path(path_type=Path, dir_okay=False),
              help="The picture: FILE.svg, or FILE.png with the 'png' extra.")
@click.option("--log", "log", type=LogPath(), help="Draw the units and control of this log.")
@click.option(
    "--upto", type=click.IntRange(min=1), help="With --log: the position after this line."
)
@_force_option
def map_command(game: str, out: Path, log: Path | None, upto: int | None,
                force: bool = False) -> None:
    """Draw GAME's map as SVG (with --log, the position of a log on it)."""
    from referee.core.svg import write_picture
    from referee.scenarios import draw_map

    _refuse_output(out, force, [log], picture=True)
    try:
        svg = draw_map(game, log, upto)
        write_picture(out, svg, replace=force, inputs=[log])
    except FileExistsError:
        _fail(f"{out} exists already; give --force to write over it")
    except (RefereeError, ScenarioError) as error:
        _fail(str(error))
    except OSError as error:
        _fail(_write_failure(out, error))
    click.echo(f"wrote {out}")


@click.command()
@click.argument("log", type=LogPath())
@click.option("-o", "--output", "out", type=click.Path(path_type=Path, dir_okay=False),
              required=True, help="The page to write: FILE.html.")
@_seed_option
@click.option("--force", is_flag=True, help="Write over FILE if it exists (never over LOG).")
def view(log: Path, out: Path, seed: str | None, force: bool) -> None:
    """Write LOG as one self-contained HTML page to step through: every position's board,
    the events and dice of each line, the problems, the outcome."""
    from referee.core.files import write_output
    from referee.viewer import ViewError, view_page

    if out.suffix.lower() not in (".html", ".htm"):
        _fail(f"{out}: the page is HTML; name it FILE.html")
    _refuse_output(out, force, [log])
    errors = output.make_console(stderr=True)
    try:
        # A long game takes seconds: a progress bar with its total on a terminal (standard
        # error; standard output stays clean), nothing on a pipe.
        with progress.progress_bar(errors, total=0) as bar:
            task = bar.add_task("replaying", total=None)

            def step(what: str, done: int, total: int) -> None:
                bar.update(task, description=what, completed=done, total=total)

            page = view_page(api.read_source(log), seed, None if bar.disable else step)
    except ViewError as error:
        _fail(error.message)
    except RefereeError as error:
        _refused(error)
    try:
        write_output(out, page.html, replace=force, inputs=[log])
    except FileExistsError:
        _fail(f"{out} exists already; give --force to write over it")
    except OSError as error:
        _fail(_write_failure(out, error))
    problems = f"; {page.problems} problems" if page.problems else ""
    click.echo(f"wrote {out} ({page.positions} positions{problems})")
    sys.exit(page.exit_code)


@click.command()
@click.argument("log", type=LogPath())
@click.option("-o", "--output", "out", type=click.Path(path_type=Path, dir_okay=False),
              help="The picture: FILE.svg, or FILE.png with the 'png' extra (default: SVG "
              "on standard output).")
@click.option("--upto", type=click.IntRange(min=1), help="The board after this line.")
@_force_option
def render(log: Path, out: Path | None, upto: int | None, force: bool = False) -> None:
    """Draw the board of LOG (after line --upto), the last action highlighted."""
    from referee.core.svg import write_picture
    from referee.pbem.board import board_svg

    if out is not None:
        _refuse_output(out, force, [log], picture=True)
    try:
        svg = board_svg(_table(log), upto)
        if out is None:
            click.echo(svg, nl=False)
            return
        write_picture(out, svg, replace=force, inputs=[log])
    except FileExistsError:
        _fail(f"{out} exists already; give --force to write over it")
    except RefereeError as error:
        _refused(error)
    except OSError as error:
        _fail(_write_failure(out, error))
    click.echo(f"wrote {out}")
