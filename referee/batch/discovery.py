"""Turning the PATH arguments of ``referee batch`` into the logs to replay, lazily.

A file is itself (even a missing one: its row says it cannot be read).  A folder is every
``*.log`` below it, walked one folder at a time with each folder's names sorted.  A pattern
with ``*``, ``?`` or ``[`` that names no existing file is a glob (``**`` descends into
folders): it gives the files it matches, sorted, whatever their names, and skips the
folders it matches (``logs/**`` is every file below ``logs``, once).  ``bundled:GAME`` (or
``bundled:GAME/NAME.log``) names the logs shipped with the referee, as elsewhere on the
command line.  An argument that finds nothing still gives one row, so a typo in a path is
seen rather than silently skipped.

A file whose name is not UTF-8 is a row like any other, named with its odd bytes escaped
(``x\\xff.log``).

Nothing is listed ahead of time but one folder's names (or one glob's matches): a million
logs in ten thousand folders never sit in memory at once.
"""

from __future__ import annotations

import glob
import os
from collections.abc import Iterable, Iterator
from dataclasses import replace

from referee.batch.worker import Target
from referee.core.resources import BUNDLED_PREFIX, bundled_name, escaped_name, resolve

LOG_SUFFIX = ".log"


def discover(arguments: Iterable[str]) -> Iterator[Target]:
    """Every log the arguments name, in argument order."""
    for argument in arguments:
        yield from _expand(argument)


def count_logs(arguments: Iterable[str]) -> int:
    """How many rows the arguments give (for a progress bar's total and its ETA): one walk
    of the folders, holding nothing but the count."""
    return sum(1 for _ in discover(arguments))


def _expand(argument: str) -> Iterator[Target]:
    if argument.startswith(BUNDLED_PREFIX):
        try:
            argument = str(resolve(argument, "logs"))
        except ValueError as error:
            yield Target(argument, str(error))
            return
        for target in _expand(argument):  # rows name bundled logs bundled:GAME/NAME.log
            yield replace(target, shown=bundled_name(target.path))
        return
    if os.path.isdir(argument):
        yield from _folder(argument)
    elif glob.has_magic(argument) and not os.path.lexists(argument):
        matches = sorted(m for m in glob.iglob(argument, recursive=True) if not os.path.isdir(m))
        if not matches:
            yield Target(argument, f"no file matches {argument}")
        for match in matches:
            yield _target(match)
    else:
        yield _target(argument)


def _target(path: str) -> Target:
    """The target of a file; a name that is not UTF-8 is shown escaped in its row (the
    file itself is read by its real name)."""
    shown = escaped_name(path)
    return Target(path, shown=shown if shown != path else None)


def _folder(root: str) -> Iterator[Target]:
    found = False
    for path in walk_logs(root):
        found = True
        yield _target(path)
    if not found:
        yield Target(root, f"no {LOG_SUFFIX} files in the folder {root}")


def walk_logs(root: str) -> Iterator[str]:
    """The ``*.log`` files below ``root``, depth first, names sorted within each folder.

    Links to folders are not followed (a link loop cannot trap the walk); links to files are.
    A folder that cannot be listed is yielded as if it were a log, so that its row says why.
    """
    try:
        with os.scandir(root) as listing:
            entries = sorted(
                ((entry.name, entry.is_dir(follow_symlinks=False)) for entry in listing),
            )
    except OSError:
        yield root
        return
    for name, is_dir in entries:
        path = os.path.join(root, name)
        if is_dir:
            yield from walk_logs(path)
        elif name.casefold().endswith(LOG_SUFFIX):
            yield path
