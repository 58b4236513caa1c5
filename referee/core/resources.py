"""Where the bundled grammars, scenarios and logs are.

In an installed wheel they live inside the package (``referee/_bundled/...``, put there by the
build's force-include); in a source checkout they are the top-level folders beside ``referee/``.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent.parent


@cache
def bundled(folder: str) -> Path:
    """The directory of a bundled folder: ``grammar``, ``scenarios`` or ``logs``."""
    installed = _PACKAGE / "_bundled" / folder
    if installed.is_dir():
        return installed
    checkout = _PACKAGE.parent / folder
    if checkout.is_dir():
        return checkout
    raise FileNotFoundError(f"the bundled folder '{folder}' is missing from this installation")


def grammar_path(name: str) -> Path:
    return bundled("grammar") / name


def scenario_dir(game: str) -> Path:
    return bundled("scenarios") / game


def logs_dir(game: str) -> Path:
    return bundled("logs") / game


BUNDLED_PREFIX = "bundled:"


def resolve(argument: str, folder: str) -> Path:
    """A path from the command line; ``bundled:GAME/NAME`` names a file shipped with the
    referee (in ``logs/`` or ``scenarios/``), so examples work from any directory."""
    if not argument.startswith(BUNDLED_PREFIX):
        return Path(argument)
    relative = Path(argument[len(BUNDLED_PREFIX) :])
    if relative.is_absolute() or ".." in relative.parts:
        raise ValueError(f"'{argument}' must name a file inside the bundled {folder}")
    path = bundled(folder) / relative
    _SHOWN[str(path)] = BUNDLED_PREFIX + relative.as_posix()
    return path


_SHOWN: dict[str, str] = {}
"""The bundled paths ``resolve`` gave, each with the ``bundled:`` name the user wrote."""


def forget_shown() -> None:
    """Forget the bundled names given so far (each command line starts afresh)."""
    _SHOWN.clear()


def shown(path: Path | str) -> str:
    """A path as the user named it: ``bundled:battle-card/win.log`` for a log shipped with
    the referee (not where the installation keeps it), else the path itself."""
    text = str(path)
    return _SHOWN.get(text, escaped_name(text))


def escaped_name(text: str) -> str:
    """A file name as text that any output can hold: a byte of the name that is not UTF-8
    (which Python keeps as a lone surrogate) is written ``\\xff``; any other name is itself."""
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        raw = text.encode("utf-8", "surrogateescape") if _escapable(text) else None
    if raw is None:
        return text.encode("utf-8", "backslashreplace").decode("utf-8")
    return raw.decode("utf-8", "backslashreplace")


def _escapable(text: str) -> bool:
    """Every surrogate of ``text`` stands for one byte of a name (U+DC80 to U+DCFF)."""
    return all(not 0xD800 <= ord(c) <= 0xDFFF or 0xDC80 <= ord(c) <= 0xDCFF for c in text)


def bundled_name(path: Path | str, folder: str = "logs") -> str | None:
    """``bundled:GAME/NAME`` for a file inside the bundled ``folder``, else ``None``."""
    try:
        relative = Path(path).relative_to(bundled(folder))
    except (ValueError, FileNotFoundError):
        return None
    return BUNDLED_PREFIX + relative.as_posix()
