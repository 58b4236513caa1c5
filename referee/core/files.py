"""Writing files safely: the one atomic writer of the package, and the lock of a log.

``write_atomic`` writes the new text to a temporary file beside the target (named
``.NAME.referee-tmp-HOST-PID-XXXXXXXX``, so anyone can tell what it is; HOST is six hex
digits naming the machine), flushes it to disk and
renames it over the target: the old file is never truncated, either it stays as it was or
the new text replaces it whole.  The file keeps the mode it had; a new file gets the mode
any new file gets under the user's umask; a secret is readable by its owner only.  A
temporary file left by an earlier write of the same file that was killed (its process on this
machine is gone, or it is a day old) is removed by the next rewrite of that file.

``locked`` holds an exclusive lock on a file while a command reads, checks and rewrites it:
the lock is a file beside it, ``.NAME.lock``, put in place atomically with its holder already
written in it (a temporary file hard-linked to the lock's name, which fails like ``O_EXCL``
when the name exists), saying which process holds it and since when.  A lock left by a
process of this machine that no longer runs (a ``kill -9``, a power cut) is stale and is broken
by the next command, and so is an empty one older than a second; any other lock is waited
for a few seconds, then refused with a sentence naming the lock file.

``output_file`` (and ``write_output``, ``write_new_file``) write every file a command writes
on request (``-o``, ``--out`` and its partial file, a secret): never through a symbolic link
(a link there, even a dangling one, is refused with a sentence), never into a FIFO, a device
or a folder, never over one of the command's inputs.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import os
import stat
import time
from collections.abc import Iterator, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import IO

TEMP_MARK = ".referee-tmp-"
LOCK_SUFFIX = ".lock"
LOCK_WAIT = 5.0
"""Seconds a command waits for another one's lock before it refuses."""
STALE_TEMP_SECONDS = 24 * 3600
"""A temporary file this old is stray even if a process of its number runs."""
EMPTY_LOCK_SECONDS = 1.0
"""An empty lock file this old was left by a process killed as it made the lock.  The lock is
put in place whole (its holder written first, then linked to its name), so an empty one comes
only from a kill in an older referee, or a file system without hard links, where the holder
is written a moment after the file is made: a second is ample for that moment."""
STALE_GUARD_SECONDS = 60.0
"""A guard of the breaking of a stale lock this old was left by a killed process."""


class LockHeld(OSError):
    """Another process holds the lock of a file."""

    def __init__(self, message: str, lock: Path) -> None:
        super().__init__(errno.EBUSY, message)
        self.message = message
        self.lock = lock

    def __str__(self) -> str:
        return self.message


def _stem(name: str) -> str:
    """The target's name as it appears in its temporary and lock files (a long name is
    shortened, with a digest, so the temporary name still fits the file system)."""
    if len(name) <= 120:
        return name
    digest = hashlib.sha256(name.encode("utf-8", "surrogateescape")).hexdigest()
    return name[:100] + "~" + digest[:12]


def temp_prefix(path: Path) -> str:
    """The start of the name of every temporary file written for ``path``."""
    return f".{_stem(path.name)}{TEMP_MARK}"


def lock_path(path: Path) -> Path:
    """The lock file of ``path``: ``game.log`` -> ``.game.log.lock`` beside it."""
    return path.with_name(f".{_stem(path.name)}{LOCK_SUFFIX}")


def _target(path: Path) -> Path:
    """The file really written: a symbolic link's target (the link itself stays a link)."""
    return Path(os.path.realpath(path)) if path.is_symlink() else path


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _alive(pid: int) -> bool:
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # it runs, as another user
        return True
    except OSError:
        return True
    return True


def _hostname() -> str:
    import socket  # only when a file is written or locked: a command that reads loads none

    return socket.gethostname()


def _mkstemp(*, prefix: str, dir: Path) -> tuple[int, str]:
    import tempfile  # as ``_hostname``

    return tempfile.mkstemp(prefix=prefix, dir=dir)


def _host_mark() -> str:
    """Six hex digits naming this machine in a temporary file's name (a shared folder may be
    written from several)."""
    return hashlib.sha256(_hostname().encode("utf-8", "replace")).hexdigest()[:6]


def clean_stray_temps(path: Path) -> list[Path]:
    """Remove the temporary files an earlier, killed write of ``path`` left beside it: those
    of this machine whose process no longer runs, and any older than a day.  Returns what was
    removed."""
    directory = path.parent if str(path.parent) else Path(".")
    prefix = temp_prefix(path)
    removed: list[Path] = []
    try:
        names = [n for n in os.listdir(directory) if n.startswith(prefix)]
    except OSError:
        return removed
    now = time.time()
    here = _host_mark()
    for name in names:
        host, _, rest = name[len(prefix):].partition("-")
        pid_text = rest.split("-", 1)[0]
        candidate = directory / name
        try:
            old = now - candidate.lstat().st_mtime > STALE_TEMP_SECONDS
            pid = int(pid_text) if pid_text.isdigit() else 0
            ours = host == here
            if old or (ours and pid != os.getpid() and not _alive(pid)):
                candidate.unlink()
                removed.append(candidate)
        except OSError:
            continue
    return removed


def write_atomic(path: Path, text: str | bytes, *, replace: bool = True,
                 secret: bool = False) -> None:
    """Write ``text`` (or bytes) to ``path`` atomically.  With ``replace=False`` an existing
    file is left alone and ``FileExistsError`` raised.  ``secret``: readable by its owner only
    (mode 0600), whatever the umask; otherwise a rewritten file keeps its mode and a new one
    gets the umask's."""
    data = text.encode("utf-8") if isinstance(text, str) else text
    with atomic_file(path, replace=replace, secret=secret) as handle:
        handle.write(data)


@contextlib.contextmanager
def atomic_file(path: Path, *, replace: bool = True, secret: bool = False,
                follow: bool = True) -> Iterator[IO[bytes]]:
    """A binary file to write ``path``'s new content into; when the block ends normally it is
    flushed to disk and renamed over ``path`` (see ``write_atomic``), and when the block
    raises, it is removed and ``path`` is left as it was.  ``follow``: a link at ``path`` is
    rewritten at its target (a log rewritten in place); outputs pass ``False`` through
    ``output_file``, which refuses a link instead."""
    if follow:
        path = _target(path)
    directory = path.parent if str(path.parent) else Path(".")
    if secret:
        mode = 0o600
    else:
        try:
            mode = path.stat().st_mode & 0o7777
        except OSError:
            mode = 0o666 & ~_umask()
    if not replace or path.exists():  # a rewrite (or a new name claimed): tidy up first
        clean_stray_temps(path)
    fd, temp = _mkstemp(prefix=f"{temp_prefix(path)}{_host_mark()}-{os.getpid()}-",
                        dir=directory)
    try:
        os.fchmod(fd, mode)
        with os.fdopen(fd, "wb") as handle:
            yield handle
            handle.flush()
            os.fsync(fd)
        if replace:
            os.replace(temp, path)
        else:
            _link_new(temp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temp)
        raise
    _sync_folder(directory)


def _link_new(temp: str, path: Path) -> None:
    """Give the written ``temp`` the name ``path``, which must not exist yet."""
    try:
        os.link(temp, path)  # fails with FileExistsError instead of replacing
    except FileExistsError:
        raise
    except OSError:  # a file system without hard links: claim the name, then rename over it
        os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
        os.replace(temp, path)
        return
    os.unlink(temp)


def _sync_folder(directory: Path) -> None:
    """Flush the folder's entry of the renamed file (best effort: not every system can)."""
    with contextlib.suppress(OSError):
        fd = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def write_new_file(path: Path, text: str | bytes, *, secret: bool = False,
                   inputs: Sequence[Path | None] = ()) -> None:
    """Write a file that must not exist yet (``FileExistsError`` if it does; a link or a
    FIFO there is ``OutputRefused``)."""
    write_output(path, text, replace=False, secret=secret, inputs=inputs)


def same_file(a: Path, b: Path) -> bool:
    """True when ``a`` and ``b`` are one file (the same path, a link to it, a hard link)."""
    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.realpath(a) == os.path.realpath(b)


# -- the lock of a file ---------------------------------------------------------------------

def _holder(lock: Path) -> tuple[str, int, str, str]:
    """``(text, pid, host, since)`` written in a lock file (empty when unreadable)."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:  # at most 400 bytes of a regular file: a lock planted as a link or a FIFO is empty
        fd = os.open(lock, flags)
        try:
            data = os.read(fd, 400) if stat.S_ISREG(os.fstat(fd).st_mode) else b""
        finally:
            os.close(fd)
    except OSError:
        return "", 0, "", ""
    text = data.decode("utf-8", errors="replace")
    text = "".join(c if c.isascii() and (c.isalnum() or c in "=._:- ") else " " for c in text)
    fields = dict(part.split("=", 1) for part in text.split() if "=" in part)
    pid = fields.get("pid", "")
    return text, int(pid) if pid.isdigit() else 0, fields.get("host", ""), fields.get(
        "since", "")


def _stale(lock: Path) -> bool:
    """The lock was left by a process of this machine that no longer runs."""
    text, pid, host, _ = _holder(lock)
    if not text:  # a process killed between making the lock and writing into it
        try:
            return time.time() - lock.stat().st_mtime > EMPTY_LOCK_SECONDS
        except OSError:
            return False
    return host == _hostname() and not _alive(pid)


def _break_stale(lock: Path) -> bool:
    """Remove a stale lock, one process at a time (a second lock guards the breaking, so two
    commands can never both remove a lock and both take it).  True when it was removed."""
    guard = lock.with_name(lock.name + ".break")
    try:
        fd = os.open(guard, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
    except FileExistsError:
        with contextlib.suppress(OSError):  # a guard left by a process killed while breaking
            if time.time() - guard.stat().st_mtime > STALE_GUARD_SECONDS:
                guard.unlink()
        return False
    except OSError:
        return False
    try:
        os.close(fd)
        if _stale(lock):
            with contextlib.suppress(FileNotFoundError):
                lock.unlink()
            return True
        return False
    finally:
        with contextlib.suppress(OSError):
            guard.unlink()


@contextlib.contextmanager
def locked(path: Path, *, command: str = "referee", wait: float | None = None) -> Iterator[Path]:
    """Hold the exclusive lock of ``path`` (``.NAME.lock`` beside it) for the block."""
    target = _target(path)
    lock = lock_path(target)
    deadline = time.monotonic() + (LOCK_WAIT if wait is None else wait)
    since = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    record = (f"pid={os.getpid()} host={_hostname()} since={since} "
              f"command={command.replace(' ', '-')}\n")
    while True:
        try:
            _claim(lock, record)
            break
        except FileExistsError:
            if _stale(lock) and _break_stale(lock):
                continue
            if time.monotonic() >= deadline:
                text, pid, host, held_since = _holder(lock)
                found = [w for w in text.split() if w.startswith("command=")]
                if found:
                    command = found[0].removeprefix("command=").replace("-", " ")[:40]
                holder = f"pid {pid}" if pid else "another process"
                if host and host != _hostname():
                    holder += f" on {host}"
                raise LockHeld(
                    f"another {command} holds {path} ({holder}"
                    + (f" since {held_since}" if held_since else "")
                    + f"); if no other {command} is running, delete {lock}", lock,
                ) from None
            time.sleep(0.05)
    try:
        yield lock
    finally:
        with contextlib.suppress(FileNotFoundError):
            lock.unlink()


def _claim(lock: Path, record: str) -> None:
    """Make the lock file holding ``record``, or ``FileExistsError`` if there is one.

    The holder is written into a temporary file first, which is then hard-linked to the
    lock's name (a link, like ``O_EXCL``, fails when the name exists): the lock appears with
    its holder in it, never empty, so a kill at any moment leaves either no lock or one that
    names a process that no longer runs.  On a file system without hard links the lock is
    made with ``O_CREAT|O_EXCL`` and written at once (an empty lock is then stale after
    ``EMPTY_LOCK_SECONDS``)."""
    directory = lock.parent if str(lock.parent) else Path(".")
    fd, temp = _mkstemp(prefix=f"{temp_prefix(lock)}{_host_mark()}-{os.getpid()}-",
                        dir=directory)
    try:
        try:
            os.fchmod(fd, 0o644)
            os.write(fd, record.encode("utf-8"))
        finally:
            os.close(fd)
        try:
            os.link(temp, lock)
            clean_stray_temps(lock)  # those of a process killed while it claimed the lock
            return
        except FileExistsError:
            raise
        except OSError:  # no hard links here
            pass
        fd = os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
        try:
            os.write(fd, record.encode("utf-8"))
        finally:
            os.close(fd)
    finally:
        with contextlib.suppress(OSError):
            os.unlink(temp)


# -- files a command writes on request (-o, --out) ------------------------------------------

class OutputRefused(OSError):
    """A file the referee will not write: a link, a FIFO, a device, a folder, an input."""

    def __init__(self, *args: object) -> None:
        # (message), or (errno, message) as an OSError comes back from a worker process
        message = str(args[-1]) if args else "the file is refused"
        super().__init__(errno.EPERM, message)
        self.message = message

    def __str__(self) -> str:
        return self.message


def check_output(path: Path, *, replace: bool, inputs: Sequence[Path | None] = ()) -> None:
    """Refuse to write ``path`` (``OutputRefused``, a sentence) when its last component is a
    symbolic link (even a dangling one: it would create a file wherever the link points), a
    FIFO, a device, a socket or a folder, or when it is one of the ``inputs`` (a hard link
    too); ``FileExistsError`` when it is a file and ``replace`` is not given.  The writers
    (``output_file``) then create the file by a rename or a link of a new temporary file,
    neither of which follows a link put there since: the check and the write agree."""
    try:
        found = os.lstat(path)
    except FileNotFoundError:
        return
    except (OSError, ValueError) as error:
        reason = error.strerror if isinstance(error, OSError) else "the name holds a NUL"
        raise OutputRefused(f"cannot write {path}: {reason}") from None
    if stat.S_ISLNK(found.st_mode):
        raise OutputRefused(f"{path} is a symbolic link: the referee writes no file through a "
                            f"link; remove it or name another file")
    if stat.S_ISDIR(found.st_mode):
        raise OutputRefused(f"{path} is a folder")
    if not stat.S_ISREG(found.st_mode):
        kind = ("a pipe (FIFO)" if stat.S_ISFIFO(found.st_mode) else "a socket"
                if stat.S_ISSOCK(found.st_mode) else "a device")
        raise OutputRefused(f"{path} is {kind}: the referee writes only regular files")
    for source in inputs:
        if source is not None and same_file(path, source):
            raise OutputRefused(f"{path} is the input {source}: the referee never writes over "
                                f"its input")
    if not replace:
        raise FileExistsError(errno.EEXIST, "File exists", str(path))


@contextlib.contextmanager
def output_file(path: Path, *, replace: bool = False, secret: bool = False,
                inputs: Sequence[Path | None] = ()) -> Iterator[IO[bytes]]:
    """The one way the referee writes a file on request (``-o``, ``--out``, a secret): the
    checks of ``check_output``, then the atomic writer without following a link (a new
    temporary file renamed, or linked when nothing may be replaced, onto ``path``)."""
    check_output(path, replace=replace, inputs=inputs)
    with atomic_file(path, replace=replace, secret=secret, follow=False) as handle:
        yield handle


def write_output(path: Path, text: str | bytes, *, replace: bool = False,
                 secret: bool = False, inputs: Sequence[Path | None] = ()) -> None:
    """Write ``text`` to the output ``path`` through ``output_file``."""
    data = text.encode("utf-8") if isinstance(text, str) else text
    with output_file(path, replace=replace, secret=secret, inputs=inputs) as handle:
        handle.write(data)


def open_to_append(path: Path) -> int:
    """A descriptor to append to (and read back) the regular file ``path``, opened without
    following a link and without blocking on a FIFO (``OutputRefused`` for anything but a
    regular file)."""
    flags = os.O_RDWR | os.O_APPEND | getattr(os, "O_NOFOLLOW", 0)
    flags |= getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except OSError as error:
        if error.errno in (errno.ELOOP, errno.EMLINK):
            raise OutputRefused(f"{path} is a symbolic link: the referee writes no file "
                                f"through a link; remove it or name another file") from None
        if error.errno == errno.ENXIO:
            raise OutputRefused(f"{path} is a pipe (FIFO): the referee writes only regular "
                                f"files") from None
        raise
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise OutputRefused(f"{path} is not a regular file: the referee writes only regular "
                            f"files")
    if hasattr(os, "O_NONBLOCK"):
        os.set_blocking(fd, True)
    return fd


def output_refusal(out: Path, *, force: bool, inputs: Sequence[Path | None] = (),
                   suffixes: Sequence[str] = (), what: str = "file") -> str | None:
    """Why ``out`` must not be written (a sentence), or ``None``: the name does not end in one
    of ``suffixes``, it is one of the ``inputs`` (even through a link, even with --force), or
    it exists and ``force`` is not given."""
    for source in inputs:
        if source is not None and (out.exists() or out.is_symlink()) and same_file(out, source):
            return f"{out} is the input {source}: the referee never writes over its input"
    if suffixes and out.suffix.casefold() not in suffixes:
        names = " or ".join(f"FILE{s}" for s in suffixes)
        return f"cannot tell the format of {out}: name the {what} {names}"
    try:
        check_output(out, replace=force, inputs=inputs)
    except OutputRefused as refusal:
        return refusal.message
    except FileExistsError:
        return f"{out} exists already; give --force to write over it"
    return None
