"""What the ``referee`` commands share: the log argument, the common options, writing a new
file or refusing one, the one way a command fails, and opening a log for play by e-mail.
The commands are in ``referee.cli`` (reading a log), ``referee.cli_pbem`` (play by e-mail)
and ``referee.cli_pictures`` (boards and pages)."""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

import click

from referee.core.errors import RefereeError
from referee.core.resources import resolve

if TYPE_CHECKING:
    from referee import api as api
    from referee import output as output
    from referee.core import envelope as envelope
    from referee.core import progress as progress
else:  # imported on first use: --help and --version load no engine, check no rich
    from referee.core.lazy import LazyModule

    api = LazyModule("referee.api")
    output = LazyModule("referee.output")
    envelope = LazyModule("referee.core.envelope")
    progress = LazyModule("referee.core.progress")

F = TypeVar("F", bound=Callable[..., Any])

STDIN = "-"
"""A log named ``-`` is read from standard input (``referee.api.STDIN``)."""
STDIN_SOURCE = "<stdin>"


def _complete_game(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[Any]:
    from referee.completion import complete_game

    return complete_game(ctx, param, incomplete)


class LogPath(click.ParamType):  # type: ignore[type-arg]
    """A log file, ``bundled:GAME/NAME.log`` for one shipped with the referee, or ``-`` for
    standard input (logs only)."""

    name = "log"

    def __init__(self, folder: str = "logs") -> None:
        self.folder = folder

    def shell_complete(self, ctx: click.Context, param: click.Parameter, incomplete: str
                       ) -> list[Any]:
        from referee.completion import complete_bundled

        return complete_bundled(self.folder, incomplete)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Path:
        if isinstance(value, Path):
            return value
        if value == STDIN and self.folder == "logs":
            return Path(STDIN)
        try:
            return resolve(str(value), self.folder)
        except ValueError as error:
            self.fail(str(error), param, ctx)


def _executor_options(work: str) -> Callable[[F], F]:
    """``--jobs``, ``--executor`` and ``--scheduler``, shared by ``simulate`` and ``batch``."""

    def decorate(command: F) -> F:
        for option in reversed([
            click.option("--jobs", type=click.IntRange(min=1), help="Worker processes "
                         "(default: 1 for serial, one per core otherwise)."),
            click.option("--executor", type=click.Choice(["serial", "local", "dask"]),
                         help=f"Where {work}: here, a local process pool, or Dask "
                         "(default: serial, or local with --jobs above 1)."),
            click.option("--scheduler", metavar="tcp://HOST:PORT",
                         help="A running Dask scheduler (implies --executor dask)."),
        ]):
            command = option(command)
        return command

    return decorate


def _emit_new_file(text: str, out: Path | None, command: str,
                   inputs: Sequence[Path | None] = ()) -> None:
    """Print ``text``, or write it to a new file ``out`` (never over an existing one)."""
    if out is None:
        click.echo(text, nl=False)
        return
    try:
        from referee.core.files import write_new_file  # tempfile: only when writing

        write_new_file(out, text, inputs=inputs)
    except FileExistsError:
        _fail(f"{out} exists already; 'referee {command}' never writes over a file")
    except OSError as error:
        _fail(_write_failure(out, error))
    click.echo(f"wrote {out}")


def _write_failure(out: Path | None, error: OSError) -> str:
    """The sentence of a file that could not be written (a refusal says its own)."""
    from referee.core.files import OutputRefused

    if isinstance(error, OutputRefused):
        return error.message
    return f"cannot write {out or 'the results'}: {error.strerror or error}"


_force_option = click.option("--force", is_flag=True,
                             help="Write over an existing output file (never over the input).")


def _refuse_output(out: Path, force: bool, inputs: list[Path | None], *,
                   picture: bool = False) -> None:
    """Stop with a sentence when ``out`` must not be written (see ``output_refusal``)."""
    from referee.core.files import output_refusal
    from referee.core.svg import PICTURE_SUFFIXES

    refusal = output_refusal(out, force=force, inputs=inputs,
                             suffixes=PICTURE_SUFFIXES if picture else (), what="picture")
    if refusal is not None:
        _fail(refusal)


def same_folder(a: Path, b: Path) -> bool:
    """``a`` and ``b`` lie in one folder (links followed)."""
    import os

    return os.path.realpath(a.parent if str(a.parent) else ".") == os.path.realpath(
        b.parent if str(b.parent) else ".")


def _fail(message: str, code: int = 2) -> NoReturn:
    console = output.make_console(stderr=True)
    console.print(f"[bold red]error:[/] {output.markup_free(message)}")
    sys.exit(code)


def _fail_all(problems: Sequence[str], code: int = 2) -> NoReturn:
    """Every problem (of a scenario file) as an error line of its own, then exit."""
    console = output.make_console(stderr=True)
    for problem in problems[:-1]:
        console.print(f"[bold red]error:[/] {output.markup_free(problem)}")
    _fail(problems[-1] if problems else "the scenario cannot be used", code)


_seed_option = click.option("--seed", help="Roll with this seed when the log has no [Seed] tag.")
_all_option = click.option(
    "--all", "everything", is_flag=True,
    help="Print every problem (the text shows the first 100, then counts the rest).")
_CHECK_ALL = "'referee check --all' shows them"


# -- play by e-mail: the secret option and the log opened with it (docs/pbem.md) ---------

_secret_option = click.option(
    "--secret", "secret_files", multiple=True, type=click.Path(path_type=Path, dir_okay=False),
    help="A secret file ('referee new --commit' wrote it); give it once per secret.")


def _table(log: Path, secret_files: tuple[Path, ...] = ()) -> Any:
    """The log opened for play-by-email; ``-`` reads it from standard input."""
    from referee.pbem.table import open_log, open_text

    if str(log) != STDIN:
        return open_log(log, secret_files)
    from referee.pbem.keys import read_secret

    secrets = [read_secret(p) for p in secret_files]
    return open_text(api.stdin_text(), STDIN_SOURCE, secrets)


def _refused(error: RefereeError) -> NoReturn:
    """A play-by-email error as a sentence, with its exit code (2 unless it says 1)."""
    _fail(error.message, int(getattr(error, "exit_code", 2)))


def _unreadable_json(log: Path, error: RefereeError, **own: Any) -> NoReturn:
    """``status --json`` or ``verify --json`` of a log it cannot use: the envelope all the
    same, as ``replay`` and ``moves`` print one, with the refusal as its problem and the
    command's own keys (``own``) empty."""
    code = int(getattr(error, "exit_code", 2))
    source = STDIN_SOURCE if str(log) == STDIN else str(log)
    output.print_json(envelope.envelope(
        source=source, game=None, exit_code=code,
        problems=[{"kind": "header" if code == 2 else "protocol", "message": error.message,
                   "text": ""}],
        **own,
    ))
    sys.exit(code)
