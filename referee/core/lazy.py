"""A module imported on first use, so a command loads only what it needs (``referee
--version`` and ``--help`` load no engine, ``referee check`` of a legal log loads no rich),
and the ``referee`` command's start-up without the garbage collector's passes over what it
imports.

What a command imports (click, Lark, the engines, their tables) lives until the process
exits.  The collector would walk all of it again and again while it loads (each full
collection visits every object made so far) and once more at exit, for nothing: about 15 ms
of a 120 ms ``referee check`` (bench/check_startup.py).  So the command started by
``referee.startup.run`` (the console script and ``python -m referee``) loads its modules with
the collector paused and then freezes them (``gc.freeze``: the collector no longer looks at
them) before it resumes.  A program that imports ``referee.cli`` (the tests, a script) is
left as it is.
"""

from __future__ import annotations

import gc
import importlib
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from types import ModuleType
from typing import Any

_command = False
"""Whether this process is the ``referee`` command (``start`` was called)."""


def start() -> None:
    """The ``referee`` command starts: its modules load from now on with the collector
    paused (``loading``)."""
    global _command
    _command = True


@contextmanager
def loading() -> Iterator[None]:
    """Modules load here: in the ``referee`` command, with the collector paused, and what
    they made frozen afterwards (see the module's docstring); elsewhere as usual."""
    if not _command or not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        gc.enable()


def import_module(name: str) -> ModuleType:
    """``importlib.import_module``; a module not loaded yet loads as ``loading`` says (so a
    long command, a batch of thousands of logs, freezes nothing after its first loads)."""
    module = sys.modules.get(name)
    if module is not None:
        return module
    with loading():
        return importlib.import_module(name)


class LazyModule(ModuleType):
    """Stands for the module ``name`` and imports it when an attribute is first read."""

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self._module: ModuleType | None = None

    def __getattr__(self, attribute: str) -> Any:
        if self._module is None:
            self._module = import_module(self.__name__)
        return getattr(self._module, attribute)
