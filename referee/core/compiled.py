"""Bundled scenarios read once at build time and shipped in a compiled form.

Reading a bundled scenario's TOML files and validating them costs a picture command a tenth of
its time at every start (``render`` of one WWII Commander position: the TOML twice, the
pydantic models' schemas built, the cross-checks).  ``tools/build_scenarios.py`` reads each
bundled scenario as the referee would and stores what it read as a pickle under
``referee/core/compiled/``, together with the digest of the files it came from; the referee
loads it instead of the files whenever that digest is still the files' digest (otherwise, or
when the pickle cannot be read, it reads the files as before: a stale compiled form is never
used).  ``tests/core/test_compiled_scenarios.py`` fails until a stale one is rebuilt and checks
that each one equals what the TOML files give.

A game names what it ships by ``(name, files, stamp)``: ``name`` a file name under
``COMPILED``, ``files`` the scenario files and code the value is made from, ``stamp`` the
version of pydantic when the value holds its models (a model pickled by another version is
not trusted).  Only the package's own files are ever unpickled here; a scenario file a user
gives is always read as TOML.
"""

from __future__ import annotations

import hashlib
import pickle
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

COMPILED = Path(__file__).resolve().parent / "compiled"
"""Where the compiled forms are shipped (package data)."""

MAX_COMPILED_BYTES = 8 * 1024 * 1024
"""The largest compiled form read (the bundled ones are tens of kilobytes)."""


def files_digest(files: Sequence[Path], stamp: str = "") -> str:
    """The SHA-256 of the files' names and bytes, in the order given, with the Python
    version the compiled form is for (a pickle of another minor version is not trusted) and
    ``stamp`` (the version of a library whose objects it holds: ``pydantic 2.14.4``)."""
    digest = hashlib.sha256(f"python {sys.version_info[0]}.{sys.version_info[1]}\n"
                            f"{stamp}\n".encode())
    for path in files:
        data = path.read_bytes()
        digest.update(f"{path.name} {len(data)}\n".encode())
        digest.update(data)
    return digest.hexdigest()


def compiled_path(name: str) -> Path:
    return COMPILED / name


def compiled_blob(files: Sequence[Path], value: Any, stamp: str = "") -> bytes:
    """The bytes of a compiled form of ``value``, made from ``files`` (and ``stamp``)."""
    return pickle.dumps({"digest": files_digest(files, stamp), "value": value},
                        protocol=pickle.HIGHEST_PROTOCOL)


def load_compiled(name: str, files: Sequence[Path], stamp: str = "") -> Any | None:
    """The value shipped as ``name``, or ``None`` when there is none, it cannot be read, or
    ``files`` (or ``stamp``) are no longer those it was made from (then the caller reads the
    files)."""
    path = compiled_path(name)
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_COMPILED_BYTES + 1)
        if len(data) > MAX_COMPILED_BYTES:
            return None
        blob = pickle.loads(data)  # the package's own file, written by tools/build_scenarios.py
        if not isinstance(blob, dict) or blob.get("digest") != files_digest(files, stamp):
            return None
        return blob["value"]
    except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ImportError,
            KeyError, TypeError, ValueError, IndexError):
        return None


def pydantic_stamp() -> str:
    """The ``stamp`` of a compiled form holding pydantic models (imports pydantic)."""
    from pydantic.version import VERSION

    return f"pydantic {VERSION}"
