"""The play-by-e-mail commands of ``referee``: play, undo, status, verify, mail, join
(docs/pbem.md), and the committed start of ``referee new``."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from referee.cli_shared import (
    STDIN,
    LogPath,
    _all_option,
    _fail,
    _fail_all,
    _refuse_output,
    _refused,
    _secret_option,
    _table,
    _unreadable_json,
    envelope,
    output,
    same_folder,
)
from referee.core import lazy
from referee.core.errors import RefereeError

if TYPE_CHECKING:
    from referee import output_mail
else:  # imported on first use, as the other output (referee.cli_shared)
    from referee.core.lazy import LazyModule

    output_mail = LazyModule("referee.output_mail")
from referee.core.scenario import ScenarioError


def new_committed(game: str, scenario: str | None, side: str | None, out: Path | None,
                   secret_out: Path | None, position: Path | None = None,
                   scenario_file: Path | None = None) -> None:
    from referee.pbem.header import create

    try:
        created = create(game, scenario, side, out, secret_out, position, scenario_file)
    except ScenarioError as error:
        _fail_all(error.problems)
    except RefereeError as error:
        _refused(error)
    output_mail.print_created(sys.stdout, created)


@click.command()
@click.argument("log", type=click.Path(path_type=Path, dir_okay=False))
@click.argument("move", required=False)
@_secret_option
@click.option("--dry-run", is_flag=True, help="Show what would happen; write nothing.")
def play(log: Path, move: str | None, secret_files: tuple[Path, ...], dry_run: bool) -> None:
    """Play MOVE on LOG ("allied: attack Grave"): check it, roll its dice, append it.

    Without MOVE, roll what LOG waits for (with --secret).  An illegal move changes nothing
    (exit 1).  The file is replaced atomically: never half written.
    """
    with lazy.loading():  # the library, loaded as the referee command loads its modules
        from referee.pbem.play import IllegalPlay, play_file

    out = sys.stdout
    try:
        result = play_file(log, move, secret_files, dry_run=dry_run)
    except IllegalPlay as refusal:
        output_mail.print_refusal(sys.stderr, refusal, str(log))  # a refusal: standard error
        sys.exit(1)
    except RefereeError as error:
        _refused(error)
    output_mail.print_play(out, result, dry_run=dry_run)


@click.command()
@click.argument("log", type=click.Path(path_type=Path, dir_okay=False))
@_secret_option
@click.option("--dry-run", is_flag=True, help="Show what would be removed; write nothing.")
def undo(log: Path, secret_files: tuple[Path, ...], dry_run: bool) -> None:
    """Take back the last move of LOG, if it rolled no dice and revealed nothing."""
    from referee.pbem.play import undo_file

    try:
        result = undo_file(log, secret_files, dry_run=dry_run)
    except RefereeError as error:
        _refused(error)
    output_mail.print_undo(sys.stdout, result, dry_run=dry_run)


@click.command()
@click.argument("log", type=LogPath())
@click.option("--json", "as_json", is_flag=True, help="The same as one JSON document.")
@_all_option
def status(log: Path, as_json: bool, everything: bool) -> None:
    """Where LOG's game stands, as plain text for an e-mail: whose move, the choices."""
    with lazy.loading():  # as in play
        from referee.pbem.status import status_of

    try:
        state = status_of(_table(log))
    except RefereeError as error:
        if as_json:
            _unreadable_json(log, error, title=None, scenario=None, dice=None, players=[],
                             turn=None, last=None, next=None,
                             result=envelope.outcome_words(None))
        _refused(error)
    code = state.exit_code
    if as_json:
        own = state.to_json()
        assert state.report is not None  # status_of always keeps its replay
        output.print_json(envelope.report_json(
            state.report, problems=state.problems, exit_code=code,
            **{k: v for k, v in own.items() if k not in envelope.ENVELOPE_KEYS}))
    else:
        output_mail.print_status(sys.stdout, state, everything=everything)
    sys.exit(code)



@click.command()
@click.argument("log", type=LogPath())
@_secret_option
@click.option("--since", type=LogPath(), help="A copy of LOG mailed earlier: LOG must only "
              "add to it.")
@click.option("--json", "as_json", is_flag=True, help="The verdict as one JSON document.")
def verify(log: Path, secret_files: tuple[Path, ...], since: Path | None,
           as_json: bool) -> None:
    """Recheck LOG: every move, every die against the committed secrets, every seal."""
    from referee.pbem.verify import verify as verify_log

    try:
        table = _table(log, secret_files) if str(log) == STDIN else None
        verdict = verify_log(log, secret_files, since, table=table)
    except RefereeError as error:
        if as_json:
            _unreadable_json(log, error, mode="unknown", complete=False, proved=[],
                             unchecked=[], next=None)
        _refused(error)
    if as_json:
        output.print_json(output_mail.verdict_json(verdict))
    else:
        output_mail.print_verdict(sys.stdout, verdict)
    sys.exit(verdict.exit_code)


@click.command()
@click.argument("log", type=LogPath())
@click.option("--since", type=LogPath(),
              help="The copy of LOG the other side mailed last (or you mailed): the mail "
              "tells what was added since, and LOG must only add to it.")
@click.option("--board", type=click.Path(path_type=Path, dir_okay=False),
              help="Write the board beside LOG as FILE.svg (or FILE.png with the 'png' "
              "extra) to attach to the mail; never over an existing file.")
@_secret_option
@click.option("--json", "as_json", is_flag=True, help="The mail as one JSON document.")
def mail(log: Path, since: Path | None, board: Path | None, secret_files: tuple[Path, ...],
         as_json: bool) -> None:
    """The body of the next e-mail of LOG: what happened since THEIR copy, proved, whose
    turn it is and the exact command they run; plain text, at most 72 columns."""
    from referee.core.svg import write_picture
    from referee.pbem.board import board_svg
    from referee.pbem.mail import mail_of_table

    if board is not None:
        if board.name == str(board):
            board = log.parent / board  # a bare name: beside the log
        _refuse_output(board, False, [log, since], picture=True)
        if not same_folder(board, log):
            _fail(f"{board}: the board is written beside the log, in {log.parent}")
    try:
        table = _table(log, secret_files)
        letter = mail_of_table(table, log.name, since)
        if board is not None:
            write_picture(board, board_svg(table), replace=False)
            letter.board = board.name
    except FileExistsError:
        _fail(f"{board} exists already; 'referee mail' never writes over a file")
    except RefereeError as error:
        _refused(error)
    except OSError as error:
        _fail(f"cannot write {board}: {error.strerror or error}")
    if as_json:
        output.print_json(output_mail.mail_json(letter))
    else:
        output_mail.print_mail(sys.stdout, letter)
    sys.exit(letter.exit_code)


@click.command()
@click.argument("log", type=click.Path(path_type=Path, dir_okay=False))
@click.option("--side", help="The side that joins (default: the one that has not yet).")
@click.option("--secret-out", type=click.Path(path_type=Path, dir_okay=False),
              help="The new secret's file (default: LOG.SIDE.secret beside LOG).")
def join(log: Path, side: str | None, secret_out: Path | None) -> None:
    """Join a two-secret game: add your side's commitment to LOG, keep the secret."""
    from referee.pbem.header import join as join_game

    try:
        created = join_game(log, side, secret_out)
    except RefereeError as error:
        _refused(error)
    output_mail.print_created(sys.stdout, created, joined=True)
