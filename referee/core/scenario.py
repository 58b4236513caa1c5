"""Loading scenario TOML through pydantic models, with errors as plain sentences."""

from __future__ import annotations

import os
import tomllib
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:  # pydantic is imported only when a file is validated: it is slow to load
    from pydantic import BaseModel, ValidationError

M = TypeVar("M", bound="BaseModel")


class ScenarioError(ValueError):
    """A scenario file that cannot be used; ``problems`` says why, one sentence each."""

    def __init__(self, problems: Sequence[str]) -> None:
        self.problems = list(problems)
        super().__init__("\n".join(self.problems))


MAX_SCENARIO_BYTES = 4 * 1024 * 1024
"""The largest scenario file the referee reads (the bundled ones are a few kilobytes)."""


def scenario_text(path: Path) -> str:
    """The text of a scenario file, read by ``read_bounded`` (a regular file of at most
    ``MAX_SCENARIO_BYTES``): ``FileNotFoundError`` when there is none, ``ScenarioError``
    saying why it cannot be read otherwise."""
    from referee.core.errors import RefereeError
    from referee.core.reading import read_bounded

    try:
        data = read_bounded(path, MAX_SCENARIO_BYTES, what="scenario file")
    except RefereeError as error:
        if not os.path.lexists(path):
            raise FileNotFoundError(path) from None
        raise ScenarioError([error.message]) from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise ScenarioError([f"{path}: not UTF-8 text (byte {error.start + 1})"]) from None


def read_toml(path: Path) -> dict[str, Any]:
    """The TOML table in ``path``, or ``ScenarioError`` saying what is wrong with the file."""
    try:
        return tomllib.loads(scenario_text(path))
    except FileNotFoundError:
        raise ScenarioError([f"{path}: no such file"]) from None
    except tomllib.TOMLDecodeError as error:
        raise ScenarioError([f"{path}: not valid TOML ({error})"]) from None
    except RecursionError:
        raise ScenarioError([f"{path}: not valid TOML (nested too deeply)"]) from None


def gather_toml(path: Path, problems: list[str]) -> dict[str, Any]:
    """The TOML table in ``path``; what is wrong with the file is added to ``problems`` (a
    sentence naming the file) and an empty table returned, so a loader reports every file's
    problems at once."""
    try:
        return tomllib.loads(scenario_text(path))  # a regular file, of bounded size
    except ScenarioError as error:
        problems.extend(error.problems)
    except FileNotFoundError:
        problems.append(f"{path.name}: the file is missing from {path.parent}")
    except tomllib.TOMLDecodeError as error:
        problems.append(f"{path.name}: not valid TOML: {error}")
    except RecursionError:
        problems.append(f"{path.name}: not valid TOML: nested too deeply")
    except OSError as error:
        problems.append(f"{path.name}: cannot be read: {error.strerror}")
    return {}


def validation_sentences(error: ValidationError, where: str) -> list[str]:
    """One sentence per pydantic error: the file, the field path and what is wrong."""
    sentences = []
    for item in error.errors():
        location = ".".join(str(part) for part in item["loc"]) or "(top level)"
        message = item["msg"]
        if item["type"] == "missing":
            message = "is missing"
        elif item["type"] == "extra_forbidden":
            message = "is not a field this file may have"
        sentences.append(f"{where}: {location}: {message}")
    return sentences


def load_model(model: type[M], path: Path) -> M:
    """Read ``path`` and validate it as ``model``; ``ScenarioError`` lists every problem."""
    from pydantic import ValidationError

    data = read_toml(path)
    try:
        return model.model_validate(data)
    except ValidationError as error:
        raise ScenarioError(validation_sentences(error, path.name)) from None
