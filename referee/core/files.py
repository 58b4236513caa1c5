"""Writing files safely: to a temporary file beside the target, then an atomic rename.

The old file is never truncated: either it stays as it was or the new text replaces it whole.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path


def write_atomic(path: Path, text: str | bytes, *, replace: bool = True) -> None:
    """Write ``text`` (or bytes) to ``path`` atomically.  With ``replace=False`` an existing
    file is left alone and ``FileExistsError`` raised."""
    directory = path.parent if str(path.parent) else Path(".")
    data = text.encode("utf-8") if isinstance(text, str) else text
    fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        if replace:
            os.replace(temp, path)
        else:
            os.link(temp, path)  # fails with FileExistsError instead of replacing
            os.unlink(temp)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temp)
        raise


def write_new_file(path: Path, text: str) -> None:
    """Write a file that must not exist yet (``FileExistsError`` if it does)."""
    if path.exists():
        raise FileExistsError(path)
    write_atomic(path, text, replace=False)
