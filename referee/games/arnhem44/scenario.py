"""The Arnhem '44 scenario: sectors, borders, bridges, ferries, drop zones and forces.

The data lives in TOML files under ``scenarios/arnhem44/standard/`` and is largely a documented
reconstruction (the rulebook prints the rules, not the board or its charts; see NOTES.md
there).  The files are validated by the pydantic models of ``scenario_models.py`` (every
problem a sentence) and turned into the plain records of ``scenario_records.py``, which the
engine reads (this module gives them under their names).  The bundled scenario is shipped
compiled as these records (``tools/build_scenarios.py``), so a command on a log of the bundled
scenario imports neither the models nor pydantic; the rulebook facts the data must satisfy
are checked in ``facts.py``.
"""

from __future__ import annotations

from pathlib import Path

from referee.core.resources import scenario_dir
from referee.games.arnhem44.scenario_records import (
    FILES,
    AlliedGroup,
    Border,
    BorderKind,
    Bridge,
    Crossings,
    DropZone,
    Ferry,
    Forces,
    GermanReserve,
    Kind,
    KindInfo,
    Landing,
    Meta,
    Pool,
    Scenario,
    Sector,
    SectorType,
    SectorTypeInfo,
    SetupEntry,
    SupplyDrop,
)

__all__ = [
    "FILES",
    "AlliedGroup",
    "Border",
    "BorderKind",
    "Bridge",
    "Crossings",
    "DropZone",
    "Ferry",
    "Forces",
    "GermanReserve",
    "Kind",
    "KindInfo",
    "Landing",
    "Meta",
    "Pool",
    "Scenario",
    "Sector",
    "SectorType",
    "SectorTypeInfo",
    "SetupEntry",
    "SupplyDrop",
]


def bundled_path() -> Path:
    return scenario_dir("arnhem44") / "standard"


def load_scenario(path: Path | None = None) -> Scenario:
    """Read and validate the scenario folder ``path`` (None: the bundled one).

    Raises ``ScenarioError`` listing every problem, never a bare traceback.  The rulebook's
    facts are checked separately (``facts.check_scenario``).
    """
    folder = bundled_path() if path is None else path
    if folder == bundled_path():
        shipped = _shipped_scenario()
        if shipped is not None:
            return shipped
    return read_scenario(folder)


SHIPPED_SCENARIO = "arnhem44-standard-scenario.pickle"
"""The bundled scenario as ``compiled_form`` reads it, compiled by
``tools/build_scenarios.py`` (``referee.core.compiled``)."""


def shipped_files() -> list[Path]:
    """What the compiled scenario is made from: the bundled files, these records and the
    models that read the files (a changed one makes it stale)."""
    return [*(bundled_path() / name for name in FILES), *code_files()]


def code_files() -> list[Path]:
    """This module, the records' and the models' (``scenario_models.py``, found without
    importing it)."""
    here = Path(__file__)
    return [here, here.with_name("scenario_records.py"), here.with_name("scenario_models.py")]


def compiled_form() -> Scenario:
    """The bundled scenario read from its files, with no folder (the folder is where the
    package is installed, given when the compiled form is loaded)."""
    return read_scenario(bundled_path())._replace(folder="")


def _shipped_scenario() -> Scenario | None:
    from referee.core.compiled import load_compiled

    found = load_compiled(SHIPPED_SCENARIO, shipped_files())
    if not isinstance(found, Scenario):
        return None
    return found._replace(folder=str(bundled_path()))


def read_scenario(folder: Path) -> Scenario:
    """The scenario in folder ``folder``, read from its TOML files and validated by the
    models (``scenario_models.read_scenario``)."""
    from referee.games.arnhem44.scenario_models import read_scenario as read_and_validate

    return read_and_validate(folder)
