"""The files of a WWII Commander scenario folder, read as they are (no pydantic), and the
name of the bundled scenario's compiled form of them (``referee.core.compiled``).

Shared by the board (``board.py``, the rules' fast path) and the validating loader
(``loader.py``), which import it; it imports neither.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

SCENARIO_FILES = ("scenario", "spaces", "borders", "boxes", "units", "tracks")
"""The TOML files of a scenario folder, without their ``.toml``."""

SHIPPED_DATA = "wwiic-market-garden-data.pickle"
"""The bundled scenario's files as ``read_files`` reads them, compiled by
``tools/build_scenarios.py`` (``referee.core.compiled``)."""


def scenario_files(folder: Path) -> list[Path]:
    return [folder / f"{name}.toml" for name in SCENARIO_FILES]


def read_files(folder: Path) -> dict[str, Any]:
    """The TOML files of a scenario folder merged into the one table a ``Board`` is made of
    (no pydantic: ``KeyError`` and the like when the data is not as the board needs it)."""
    data: dict[str, Any] = {}
    for name in SCENARIO_FILES:
        with (folder / f"{name}.toml").open("rb") as handle:
            data[name] = tomllib.load(handle)
    return {
        **data["scenario"],
        "spaces": data["spaces"]["spaces"],
        "borders": data["borders"]["borders"],
        "boxes": data["boxes"]["boxes"],
        "ferry": data["boxes"]["ferry"],
        "units": data["units"]["units"],
        "tracks": data["tracks"],
    }
