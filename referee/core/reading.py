"""Reading a file the user or a log names: regular files only, never more than a bound.

Every file the referee reads on behalf of a log (the log itself, a ``[Position]`` file, a
scenario, a secret file) comes through ``read_bounded``:

- only a regular file is opened for reading: a folder, a FIFO, a device (``/dev/zero``) or a
  socket is refused with a sentence before anything is read from it.  The file is opened
  with ``O_NONBLOCK``, so even a FIFO swapped in after the first check cannot block the
  open, and the kind is checked again on the open descriptor;
- at most ``limit + 1`` bytes are read, whatever size the file claims, so a file that grows
  while it is read, or lies about its size, costs no more memory than the limit;
- ``contained_in`` resolves the real path (every symlink followed) and refuses a file whose
  real path is outside a folder: a log may name files beside it, never ``/etc/passwd``
  through a link.

Errors are ``FileRefused`` (a ``RefereeError`` whose message names the file and says why),
or ``LogLimitError`` for a file over the limit.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from referee.core.errors import HeaderError, LogLimitError

_CHUNK = 1 << 20


class FileRefused(HeaderError):
    """A file that is not read: missing, not a regular file, outside its folder, unreadable."""


def _kind(mode: int) -> str | None:
    """What a file that is not a regular file is, in words (None for a regular file)."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a pipe (FIFO)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def _reason(error: OSError | ValueError) -> str:
    if isinstance(error, ValueError):  # a NUL byte in the name
        return "the name holds a NUL character"
    if error.errno == errno.ENAMETOOLONG:
        return "the name is too long"
    if error.errno == errno.ELOOP:
        return "it is a loop of symbolic links"
    return error.strerror or str(error)


def read_bounded(
    path: Path, limit: int, *, what: str = "file", shown: str | None = None, follow: bool = True
) -> bytes:
    """The bytes of the regular file ``path`` (symlinks followed), at most ``limit`` of them.

    ``what`` names the file in sentences ("log", "position file").  Raises ``FileRefused``
    for anything but a readable regular file, ``LogLimitError`` for one over ``limit``; the
    sentence starts "cannot read PATH: " (``shown`` instead of the path, when given).
    ``follow=False`` opens with ``O_NOFOLLOW``: for a path already resolved by
    ``contained_in``, a link put in its place since is refused rather than followed.
    """
    name = shown if shown is not None else str(path)
    try:
        before = os.stat(path, follow_symlinks=follow)
    except FileNotFoundError:
        raise FileRefused(f"cannot read {name}: there is no {what} there") from None
    except (OSError, ValueError) as error:
        raise FileRefused(f"cannot read {name}: {_reason(error)}") from None
    _check_kind(name, before.st_mode, what)  # before opening it: opening a device can act
    _check_size(name, before.st_size, limit, what)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    flags |= getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
    if not follow:
        flags |= getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(path, flags)
    except OSError as error:
        raise FileRefused(f"cannot read {name}: {_reason(error)}") from None
    try:
        opened = os.fstat(fd)
        _check_kind(name, opened.st_mode, what)  # swapped between the check and the open
        _check_size(name, opened.st_size, limit, what)
        parts: list[bytes] = []
        total = 0
        while total <= limit:
            try:
                block = os.read(fd, min(_CHUNK, limit + 1 - total))
            except OSError as error:
                raise FileRefused(f"cannot read {name}: {_reason(error)}") from None
            if not block:
                break
            parts.append(block)
            total += len(block)
    finally:
        os.close(fd)
    _check_size(name, total, limit, what, grew=True)
    return b"".join(parts)


def _check_kind(path: str, mode: int, what: str) -> None:
    kind = _kind(mode)
    if kind == "a folder":
        raise FileRefused(f"cannot read {path}: it is a folder, not a {what}")
    if kind is not None:
        raise FileRefused(f"cannot read {path}: it is {kind}, not a {what}; the referee reads "
                          f"only regular files")


def _check_size(path: str, size: int, limit: int, what: str, *, grew: bool = False) -> None:
    if size <= limit:
        return
    amount = f"over {limit:,}" if grew else f"{size:,}"
    raise LogLimitError(f"cannot read {path}: it is {amount} bytes; the referee reads a "
                        f"{what} of up to {limit:,} bytes")


def contained_in(folder: Path, name: str, *, what: str = "file") -> Path:
    """The real path of ``name`` (relative to ``folder``), every symlink followed; it must lie
    inside ``folder``'s own real path (``FileRefused`` otherwise)."""
    try:
        root = Path(os.path.realpath(folder if str(folder) else Path(".")))
        target = Path(os.path.realpath(root / name))
    except (OSError, ValueError) as error:
        raise FileRefused(f"cannot read the {what} {name}: {_reason(error)}") from None
    if target == root or not target.is_relative_to(root):
        raise FileRefused(f"cannot read the {what} {name}: it lies outside the log's folder "
                          f"(through a link, or a path that leaves it); a log names only "
                          f"files beside it")
    return target
