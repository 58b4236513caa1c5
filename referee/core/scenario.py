"""Loading scenario TOML through pydantic models, with errors as plain sentences."""

from __future__ import annotations

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


def read_toml(path: Path) -> dict[str, Any]:
    """The TOML table in ``path``, or ``ScenarioError`` saying what is wrong with the file."""
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
    except FileNotFoundError:
        raise ScenarioError([f"{path}: no such file"]) from None
    except IsADirectoryError:
        raise ScenarioError([f"{path}: is a directory, not a TOML file"]) from None
    except OSError as error:
        raise ScenarioError([f"{path}: cannot be read ({error.strerror})"]) from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        raise ScenarioError([f"{path}: not valid TOML ({error})"]) from None


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
