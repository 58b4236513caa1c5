"""Protocol v2: which line each revealed chain value was for, kept beside the secret file.

Once a value ``x_i`` of a party's chain is in a mailed log, anyone can work out the dice it
would give any other line.  A player who takes a move back after seeing its dice (deletes the
roll, writes another move in its place) would then ask the roller for the same value again,
for a move chosen knowing its dice.  So the roller's ``play`` remembers, in
``GAME.PARTY.secret.rolled`` beside its secret file, the seal of the line each value was
revealed for, and refuses to reveal a value for any other line: the cheat is found at the
roller's next ``play``, with no older copy of the log needed (docs/pbem.md, "What each side
can and cannot do").
"""

from __future__ import annotations

import re
from pathlib import Path

from referee.core.errors import RefereeError
from referee.core.files import write_atomic
from referee.core.reading import read_bounded
from referee.core.records import frozen
from referee.pbem.errors import NotAllowed, PbemError
from referee.pbem.keys import Secret
from referee.pbem.mode import who

SUFFIX = ".rolled"
MAX_LEDGER = 8 * 1024 * 1024
_ENTRY = re.compile(r"(\d{1,7}) ([0-9a-f]{16}) ([0-9a-f]{16})")
HEADER = ("# Market-Garden Referee: the chain values this secret has revealed, one line each: "
          "value, the line's seal, the game's commitment (first 16 hex digits).\n")


@frozen
class Revealed:
    """One chain value ``play`` is about to reveal: its number and the line it is for."""

    index: int
    seal: str
    line: int
    text: str


def ledger_path(secret: Secret) -> Path | None:
    """``game.keeper.secret`` -> ``game.keeper.secret.rolled`` (``None``: no secret file)."""
    return Path(secret.source + SUFFIX) if secret.source else None


def _read(path: Path) -> list[tuple[int, str, str]]:
    if not path.exists() and not path.is_symlink():
        return []
    try:
        data = read_bounded(path, MAX_LEDGER, what="record of revealed chain values")
    except RefereeError as error:
        raise PbemError(error.message) from None
    out = []
    for raw in data.decode("utf-8", "replace").splitlines():
        found = _ENTRY.fullmatch(raw.strip())
        if found:
            out.append((int(found.group(1)), found.group(2), found.group(3)))
    return out


def check_and_record(secret: Secret, commitment: str, revealed: list[Revealed], *,
                     dry_run: bool = False) -> None:
    """Refuse to reveal a chain value that was revealed before for another line; then (unless
    ``dry_run``) remember the ones revealed now."""
    path = ledger_path(secret)
    if path is None or not revealed:
        return
    game = commitment[:16]
    entries = _read(path)
    known = {index: seal for index, seal, of in entries if of == game}
    name = who(secret.party)
    for item in revealed:
        before = known.get(item.index)
        if before is not None and before != item.seal:
            raise NotAllowed(
                f"line {item.line} ('{item.text}') asks for value {item.index} of {name}'s "
                f"chain, which {name} revealed before for another line (sealed {before}): "
                f"a move was taken back after its dice were seen and another written in its "
                f"place; nothing was written (compare the log with the copy you mailed: "
                f"'referee verify LOG --since MAILED')"
            )
    fresh = [item for item in revealed if item.index not in known]
    if dry_run or not fresh:
        return
    if path.is_symlink():
        raise PbemError(f"{path} is a link; the record of revealed chain values is written "
                        f"only to a plain file")
    kept = [(index, seal, of) for index, seal, of in entries]
    kept += [(item.index, item.seal, game) for item in fresh]
    text = HEADER + "".join(f"{index} {seal} {of}\n" for index, seal, of in kept)
    try:
        write_atomic(path, text, secret=True)
    except OSError as error:
        raise PbemError(f"cannot write {path}: {error.strerror or error}; nothing was "
                        f"written") from None
