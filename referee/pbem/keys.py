"""Secrets, commitments and the byte encoding every play-by-email digest is taken over.

A secret is 32 random bytes from the operating system (``secrets.token_hex``), kept as 64
lowercase hex digits; the HMAC key is that text, UTF-8 encoded (as a v1 dice seed is).  The
commitment written into the header is ``SHA-256(frame("commit", party, secret))``.

``frame`` is the one domain-separated encoding: a fixed prefix naming the protocol and its
version, then every field as a 4-byte big-endian length and its UTF-8 bytes, the first
field naming the purpose.  No two different field lists encode to the same bytes, and no
digest of one purpose can stand for another.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets as system_random
from pathlib import Path

from referee.core.files import write_new_file
from referee.core.records import frozen
from referee.pbem.errors import SecretFileError

PROTOCOL = "v1"
PREFIX = b"market-garden-referee/pbem/v1\x00"
SECRET_MAGIC = "mgr-secret"
MAX_SECRET_FILE = 4096
_HEX64 = re.compile(r"[0-9a-f]{64}")
_PARTY = re.compile(r"[a-z][a-z0-9-]{0,31}")


def frame(purpose: str, *fields: str | bytes) -> bytes:
    """The domain-separated encoding of ``purpose`` and ``fields``."""
    out = bytearray(PREFIX)
    for item in (purpose, *fields):
        data = item.encode("utf-8") if isinstance(item, str) else item
        out += len(data).to_bytes(4, "big") + data
    return bytes(out)


def commitment(party: str, secret: str) -> str:
    """The hex SHA-256 commitment of ``party``'s ``secret``."""
    return hashlib.sha256(frame("commit", party, secret)).hexdigest()


def mac(secret: str, purpose: str, *fields: str | bytes) -> bytes:
    """HMAC-SHA256 keyed by ``secret`` over ``frame(purpose, *fields)``."""
    return hmac.new(secret.encode("utf-8"), frame(purpose, *fields), hashlib.sha256).digest()


def same(a: str, b: str) -> bool:
    """Constant-time comparison of two hex strings (commitments, seals)."""
    return hmac.compare_digest(a.encode("ascii", "replace"), b.encode("ascii", "replace"))


@frozen
class Secret:
    """One party's secret, and the file it came from."""

    party: str
    value: str
    source: str = ""

    def __repr__(self) -> str:  # never print the secret itself by accident
        return f"Secret(party={self.party!r}, source={self.source!r})"

    @property
    def commitment(self) -> str:
        return commitment(self.party, self.value)


def new_secret(party: str) -> Secret:
    """A fresh secret for ``party`` from the operating system's secure random source."""
    if not _PARTY.fullmatch(party):
        raise SecretFileError(f"'{party}' cannot name a side in a secret file")
    return Secret(party, system_random.token_hex(32))


def secret_file_text(secret: Secret, game: str, log: str) -> str:
    return (
        "# Market-Garden Referee: a play-by-email secret.  Keep this file to yourself until\n"
        "# the game is over; then send it to the other players so 'referee verify' can\n"
        "# prove every roll.  Anyone who has it before then can foresee your dice.\n"
        f"# game: {game}   side: {secret.party}   log: {log}\n"
        f"{SECRET_MAGIC} {PROTOCOL} {secret.party} {secret.value}\n"
    )


def write_secret(path: Path, secret: Secret, game: str, log: str) -> None:
    """Write a secret file (readable by its owner only); never over an existing file."""
    write_new_file(path, secret_file_text(secret, game, log), secret=True)


def read_secret(path: Path) -> Secret:
    """Read a secret file, or raise ``SecretFileError`` saying what is wrong with it."""
    from referee.core.errors import LogLimitError, RefereeError
    from referee.core.reading import read_bounded

    try:  # a regular file only, never more than the limit: not a FIFO, not /dev/zero
        data = read_bounded(path, MAX_SECRET_FILE, what="secret file")
    except LogLimitError:
        raise SecretFileError(f"{path} is too large to be a secret file") from None
    except RefereeError as error:
        raise SecretFileError(error.message) from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise SecretFileError(f"{path} is not a secret file (it is not text)") from None
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        words = line.split()
        if len(words) != 4 or words[0] != SECRET_MAGIC:
            break
        _, version, party, value = words
        if version != PROTOCOL:
            raise SecretFileError(
                f"{path} is a secret of protocol {version}; this referee knows {PROTOCOL}"
            )
        if not _PARTY.fullmatch(party) or not _HEX64.fullmatch(value):
            break
        return Secret(party, value, str(path))
    raise SecretFileError(
        f"{path} is not a secret file: it needs a line '{SECRET_MAGIC} {PROTOCOL} SIDE "
        f"<64 hex digits>', as 'referee new --commit' writes it"
    )
