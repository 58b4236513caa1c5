"""The header of a committed game: ``referee new --commit`` and ``referee join``."""

from __future__ import annotations

import contextlib
import hashlib
import os
from pathlib import Path

from referee.core.dice import CURRENT_DICE_VERSION
from referee.core.files import write_atomic, write_new_file
from referee.core.names import normalise
from referee.core.parsing import find_game
from referee.core.records import frozen
from referee.pbem.chain import POSITION_DIGEST_TAG, start_checks, start_seal, start_seal_tag
from referee.pbem.errors import CommitmentError, NotAllowed, PbemError
from referee.pbem.hashchain import CURRENT_PROTOCOL, commitment_for
from referee.pbem.keys import Secret, new_secret, secret_file_text
from referee.pbem.mode import (
    MODERATOR,
    PROTOCOL_TAG,
    DiceMode,
    commit_tag,
    parties_of,
    tag_lines,
    who,
)
from referee.pbem.scenario_seal import scenario_tags
from referee.pbem.table import hold, open_text, read_text


def _party(side: str, parties: tuple[str, ...], game: str) -> str:
    wanted = normalise(side)
    for party in parties:
        if normalise(party) == wanted:
            return party
    raise CommitmentError(
        f"'{side}' is not a side of {game}; its two-secret parties are {', '.join(parties)}"
    )


def committed_header(game: str, scenario: str | None, side: str | None,
                     position: Path | None = None, out: Path | None = None,
                     scenario_file: Path | None = None) -> tuple[str, Secret]:
    """The header of a new committed game and the secret behind its commitment, with the
    committer's seal over the start (``[AlliedSeal]``).

    Without ``side``: a moderated game (``[SeedCommit]``).  With it: a two-secret game that
    ``side`` opens; the other parties add theirs with ``join``.  ``position``: the game starts
    from this position file, which lies beside the log ``out``; its SHA-256 goes in the header.
    """
    from referee.games import engine_for, game_entry

    entry = game_entry(game)
    engine = engine_for(entry.id)
    if scenario_file is None:
        engine.setup(scenario, {})
    elif scenario is not None:
        raise PbemError("give --scenario or --scenario-file, not both")
    party = MODERATOR if side is None else _party(side, parties_of(engine), entry.id)
    secret = new_secret(party)
    lines = [f'[Game "{entry.id}"]']
    if scenario:
        lines.append(f'[Scenario "{scenario}"]')
    if scenario_file is not None:  # its SHA-256 sealed with the start (scenario_seal.py)
        lines += scenario_tags(scenario_file, out)
    if position is not None:
        lines += _position_tags(position, out)
    lines += [
        f'[Dice "{CURRENT_DICE_VERSION}"]',
        f'[{PROTOCOL_TAG} "{CURRENT_PROTOCOL}"]',
        f'[{commit_tag(party)} "{commitment_for(secret, CURRENT_PROTOCOL)}"]',
    ]
    text = "\n".join(lines) + "\n"
    return _sealed(text, str(out or "the new log"), out, secret, len(lines)), secret


def _position_tags(position: Path, out: Path | None) -> list[str]:
    """``[Position]`` and ``[PositionSha256]`` for a position file beside the log ``out``."""
    if out is None:
        raise PbemError("a game from a position file is written to a file: give -o LOG")
    beside = os.path.realpath(out.parent if str(out.parent) else ".")
    if os.path.realpath(position.parent if str(position.parent) else ".") != beside:
        raise PbemError(f"the position file {position} must lie in the log's folder {beside}")
    from referee.core.errors import RefereeError
    from referee.core.parsing import MAX_BYTES
    from referee.core.reading import read_bounded

    try:  # a regular file only, never more than a log may be
        data = read_bounded(position, MAX_BYTES, what="position file")
    except RefereeError as error:
        raise PbemError(error.message) from None
    digest = hashlib.sha256(data).hexdigest()
    return [f'[Position "{position.name}"]', f'[{POSITION_DIGEST_TAG} "{digest}"]']


def _sealed(text: str, source: str, path: Path | None, secret: Secret, after: int) -> str:
    """``text`` with ``secret``'s party's seal over the start inserted after line ``after``
    (the party's commitment), once the start is known to be sound."""
    lines = text.splitlines()
    lines.insert(after, f'[{start_seal_tag(secret.party)} "{"0" * 16}"]')
    table = open_text("\n".join(lines) + "\n", source, path=path)
    first = table.log.actions[0].number if table.log.actions else None
    problems = list(table.log.problems) + [
        p for p in table.replay().report.problems
        if p.line is not None and (first is None or p.line < first)
    ]
    if problems:
        raise NotAllowed(f"{source}: the start of the game is not sound: {problems[0].message}")
    _, visible = start_checks(table.log, table.mode)
    if visible:
        line, _, reason = visible[0]
        raise NotAllowed(f"{source}, line {line}: {reason}")
    seal = start_seal(secret.value, table.log, table.mode, secret.party)
    lines[after] = f'[{start_seal_tag(secret.party)} "{seal}"]'
    return "\n".join(lines) + "\n"


def joined_header(text: str, source: str, side: str | None,
                  path: Path | None = None) -> tuple[str, Secret]:
    """``text`` with one more party's commitment and seal over the start, and that party's
    secret."""
    table = open_text(text, source, path=path)
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
    # The joiner commits as the log's protocol says (a v1 game stays v1).
    lines.insert(last_tag, f'[{commit_tag(party)} "{commitment_for(secret, mode.protocol)}"]')
    return _sealed("\n".join(lines) + "\n", source, path, secret, last_tag + 1), secret


def default_secret_path(log: Path, party: str) -> Path:
    """``game.log`` -> ``game.secret`` (moderator) or ``game.allied.secret``."""
    name = log.stem if log.suffix else log.name
    middle = "" if party == MODERATOR else f".{party}"
    return log.with_name(f"{name}{middle}.secret")


@frozen
class Created:
    log: Path | None
    secret_path: Path
    party: str
    header: str


def create(game: str, scenario: str | None, side: str | None, out: Path | None,
           secret_out: Path | None, position: Path | None = None,
           scenario_file: Path | None = None) -> Created:
    """Make a committed game: the secret file first, then the log (neither over a file)."""
    header, secret = committed_header(game, scenario, side, position, out, scenario_file)
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
    joined, secret = joined_header(text, str(log), side, log)
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
