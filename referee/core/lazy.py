"""A module imported on first use, so a command loads only what it needs (``referee
--version`` and ``--help`` load no engine, ``referee check`` of a legal log loads no rich)."""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any


class LazyModule(ModuleType):
    """Stands for the module ``name`` and imports it when an attribute is first read."""

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self._module: ModuleType | None = None

    def __getattr__(self, attribute: str) -> Any:
        if self._module is None:
            self._module = importlib.import_module(self.__name__)
        return getattr(self._module, attribute)
