"""The engine's plain scenario records (``scenario_records.py``) mirror the pydantic models that
validate the files (``scenario_models.py``), and a command on a log of the bundled scenario
imports neither the models nor pydantic."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from pydantic import BaseModel

from referee.games.arnhem44 import scenario_models as models
from referee.games.arnhem44 import scenario_records as records
from referee.games.arnhem44.scenario import bundled_path, read_scenario

ROOT = Path(__file__).resolve().parents[3]
MODELS = sorted(
    (value for value in vars(models).values()
     if isinstance(value, type) and issubclass(value, BaseModel)
     and value.__module__ == models.__name__ and not value.__name__.startswith("_")),
    key=lambda model: model.__name__,
)


def test_every_model_has_its_record() -> None:
    assert len(MODELS) == 16
    record_names = {name for name, value in vars(records).items()
                    if isinstance(value, type) and issubclass(value, tuple)
                    and value.__module__ == records.__name__}
    assert record_names == {model.__name__ for model in MODELS}


@pytest.mark.parametrize("model", MODELS, ids=lambda model: model.__name__)
def test_a_record_has_its_models_fields_in_order(model: type[BaseModel]) -> None:
    """The same fields in the same order, and no defaults: ``scenario_models.plain`` gives
    every field, so a field the models gain and the records lack fails there."""
    record = getattr(records, model.__name__)
    assert list(record._fields) == list(model.model_fields)
    assert record._field_defaults == {}


def test_the_records_hold_what_the_models_validated() -> None:
    """Each record, field by field, holds the model's value (a list or dict of records for a
    list or dict of models), so the engine reads what pydantic read."""
    folder = bundled_path()
    read = read_scenario(folder)
    assert type(read) is records.Scenario

    def same(record: object, model: object) -> None:
        if isinstance(model, BaseModel):
            assert type(record).__name__ == type(model).__name__
            for name in type(model).model_fields:
                same(getattr(record, name), getattr(model, name))
        elif isinstance(model, list):
            assert isinstance(record, list) and len(record) == len(model)
            for a, b in zip(record, model, strict=True):
                same(a, b)
        elif isinstance(model, dict):
            assert isinstance(record, dict) and list(record) == list(model)
            for key in model:
                same(record[key], model[key])
        else:
            assert type(record) is type(model) and record == model

    import tomllib

    data = {name: tomllib.loads((folder / name).read_text(encoding="utf-8"))
            for name in records.FILES}
    validated = models.Scenario(
        meta=models.Meta.model_validate(data["scenario.toml"]),
        sectors=[models.Sector.model_validate(s) for s in data["sectors.toml"]["sectors"]],
        borders=[models.Border.model_validate(b) for b in data["borders.toml"]["borders"]],
        crossings=models.Crossings.model_validate(data["crossings.toml"]),
        forces=models.Forces.model_validate(data["forces.toml"]),
        folder=str(folder),
    )
    same(read, validated)


def test_a_status_of_a_bundled_log_imports_no_pydantic() -> None:
    """The bundled scenario comes shipped as records: ``referee status`` (and ``moves``) of a
    bundled Arnhem '44 log import neither pydantic nor the models (a fresh interpreter)."""
    for command in ("status", "moves"):
        code = (
            "import sys\n"
            f"sys.argv = ['referee', '{command}', 'bundled:arnhem44/three-players.log']\n"
            "from referee.startup import run\n"
            "try:\n"
            "    run()\n"
            "except SystemExit as done:\n"
            "    assert not done.code, done.code\n"
            "print(sorted(m for m in sys.modules if m.startswith('pydantic')\n"
            "             or m == 'referee.games.arnhem44.scenario_models'))\n"
        )
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                              check=True, cwd=ROOT)
        assert done.stdout.strip().splitlines()[-1] == "[]", (command, done.stdout[-300:])
