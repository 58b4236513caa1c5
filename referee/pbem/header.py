"""The header of a committed game: ``referee new --commit`` and ``referee join``."""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from pathlib import Path

from referee.core.dice import CURRENT_DICE_VERSION
from referee.core.files import write_atomic, write_new_file
from referee.core.names import normalise
from referee.core.parsing import find_game
from referee.pbem.errors import CommitmentError, NotAllowed, PbemError
from referee.pbem.keys import PROTOCOL, Secret, new_secret, secret_file_text
from referee.pbem.mode import (
    MODERATOR,
    PROTOCOL_TAG,
    DiceMode,
    commit_tag,
    parties_of,
    tag_lines,
    who,
)
from referee.pbem.table import hold, open_text, read_text


def _party(side: str, parties: tuple[str, ...], game: str) -> str:
    wanted = normalise(side)
    for party in parties:
        if normalise(party) == wanted:
            return party
    raise CommitmentError(
        f"'{side}' is not a side of {game}; its two-secret parties are {', '.join(parties)}"
    )


def committed_header(game: str, scenario: str | None, side: str | None) -> tuple[str, Secret]:
    """The header of a new committed game and the secret behind its commitment.

    Without ``side``: a moderated game (``[SeedCommit]``).  With it: a two-secret game that
    ``side`` opens; the other parties add theirs with ``join``.
    """
    from referee.games import engine_for, game_entry

    entry = game_entry(game)
    engine = engine_for(entry.id)
    engine.setup(scenario, {})
    party = MODERATOR if side is None else _party(side, parties_of(engine), entry.id)
    secret = new_secret(party)
    lines = [f'[Game "{entry.id}"]']
    if scenario:
        lines.append(f'[Scenario "{scenario}"]')
    lines += [
        f'[Dice "{CURRENT_DICE_VERSION}"]',
        f'[{PROTOCOL_TAG} "{PROTOCOL}"]',
        f'[{commit_tag(party)} "{secret.commitment}"]',
    ]
    return "\n".join(lines) + "\n", secret


def joined_header(text: str, source: str, side: str | None) -> tuple[str, Secret]:
    """``text`` with one more party's commitment, and that party's secret."""
    table = open_text(text, source)
    mode = table.mode
    if mode.kind is not DiceMode.TWO_SECRET:
        raise NotAllowed(f"{source} is not a two-secret game ({mode.describe()}); only a "
                         f"game made with 'referee new GAME --commit --side SIDE' is joined")
    if table.log.actions:
        raise NotAllowed(f"{source} has moves already: a party joins before the first move")
    if not mode.missing:
        raise NotAllowed(f"every party of {source} has committed already "
                         f"({', '.join(mode.parties)})")
    if side is None:
        if len(mode.missing) > 1:
            raise PbemError(f"say which side joins: --side {' or --side '.join(mode.missing)}")
        party = mode.missing[0]
    else:
        party = _party(side, mode.parties, table.engine.info.id)
        if party not in mode.missing:
            raise NotAllowed(f"{who(party)} has committed already")
    secret = new_secret(party)
    lines = text.splitlines()
    last_tag = max(tag_lines(text).values())
    lines.insert(last_tag, f'[{commit_tag(party)} "{secret.commitment}"]')
    return "\n".join(lines) + "\n", secret


def default_secret_path(log: Path, party: str) -> Path:
    """``game.log`` -> ``game.secret`` (moderator) or ``game.allied.secret``."""
    name = log.stem if log.suffix else log.name
    middle = "" if party == MODERATOR else f".{party}"
    return log.with_name(f"{name}{middle}.secret")


@dataclass(frozen=True)
class Created:
    log: Path | None
    secret_path: Path
    party: str
    header: str


def create(game: str, scenario: str | None, side: str | None, out: Path | None,
           secret_out: Path | None) -> Created:
    """Make a committed game: the secret file first, then the log (neither over a file)."""
    header, secret = committed_header(game, scenario, side)
    if secret_out is None:
        if out is None:
            raise PbemError("the secret must go to a file: give --secret-out FILE (or -o LOG)")
        secret_out = default_secret_path(out, secret.party)
    for path in (out, secret_out):
        if path is not None and path.exists():
            raise PbemError(f"{path} exists already; 'referee new' never writes over a file")
    log_name = str(out) if out is not None else "(standard output)"
    _write_secret(secret_out, secret, game, log_name)
    if out is not None:
        try:
            write_new_file(out, header)
        except OSError as error:
            with contextlib.suppress(OSError):
                secret_out.unlink()
            raise PbemError(f"cannot write {out}: {error.strerror or error}") from None
    return Created(out, secret_out, secret.party, header)


def join(log: Path, side: str | None, secret_out: Path | None) -> Created:
    """Add a party's commitment to ``log`` and write that party's secret file (holding the
    log's lock)."""
    with hold(log, "join"):
        return _join(log, side, secret_out)


def _join(log: Path, side: str | None, secret_out: Path | None) -> Created:
    text = read_text(log)
    joined, secret = joined_header(text, str(log), side)
    secret_out = secret_out or default_secret_path(log, secret.party)
    if secret_out.exists():
        raise PbemError(f"{secret_out} exists already; a secret file is never written over")
    _write_secret(secret_out, secret, find_game(text.splitlines()) or "-", str(log))
    try:
        if read_text(log) != text:
            raise PbemError(f"{log} changed while the referee worked on it; run it again")
        write_atomic(log, joined)
    except (OSError, PbemError) as error:
        with contextlib.suppress(OSError):
            secret_out.unlink()
        if isinstance(error, PbemError):
            raise
        raise PbemError(f"cannot write {log}: {error.strerror or error}") from None
    return Created(log, secret_out, secret.party, joined)


def _write_secret(path: Path, secret: Secret, game: str, log: str) -> None:
    try:
        write_new_file(path, secret_file_text(secret, game, log), secret=True)
    except FileExistsError:
        raise PbemError(f"{path} exists already; a secret file is never written over") from None
    except OSError as error:
        raise PbemError(f"cannot write the secret to {path}: {error.strerror or error}") from None
