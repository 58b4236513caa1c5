"""A scenario of the user's own: ``[Scenario "file:NAME.toml"]``, a TOML file beside the log.

The file varies a game's bundled scenario (a variant's counters, a puzzle, a test map with
hilltops and slopes).  It holds ``game = "..."``, optionally ``base`` (the bundled scenario it
varies) and ``title``, and then arrays of records (``[[units]]``, ``[[hexes]]``, ...): each
record names the record of the bundled scenario it changes by its key (``id``, or ``hexes``
for a hexside), and its fields replace that record's; a record with a key the bundled scenario
lacks is added whole.  The game decides which arrays it takes and validates the result with
its own pydantic models (``Engine.with_scenario_file``); this module reads the file and merges.

A log is untrusted, so the file is read like every file a log names (``referee.core.reading``):
a plain name inside the log's folder (no absolute path, no ``..``), its real path in that
folder, a regular file, at most ``MAX_SCENARIO_BYTES`` read.  Its SHA-256 is kept: in play by
e-mail it is sealed with the game (``[ScenarioSha256]``, docs/pbem.md).
"""

from __future__ import annotations

import hashlib
import re
import tomllib
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import field
from pathlib import Path
from typing import Any

from referee.core.errors import RefereeError
from referee.core.records import frozen, record
from referee.core.scenario import MAX_SCENARIO_BYTES, ScenarioError

PREFIX = "file:"
"""``[Scenario "file:hilltop.toml"]``: the scenario is the file ``hilltop.toml`` beside the log."""

DIGEST_TAG = "ScenarioSha256"
"""A committed game played on a scenario file carries the SHA-256 of its bytes in this tag."""

HEAD_KEYS = frozenset({"game", "base", "title", "notes"})
"""The keys of a scenario file that are not arrays of records."""


def file_name(scenario: str | None) -> str | None:
    """The file a ``[Scenario]`` tag names (``None`` for a bundled scenario or no tag)."""
    if scenario is None or not scenario.startswith(PREFIX):
        return None
    return scenario[len(PREFIX):]


@frozen
class ScenarioFile:
    """A scenario file read and parsed (not yet validated by its game)."""

    name: str
    text: str
    data: dict[str, Any]
    sha256: str


def name_refusal(name: str) -> str | None:
    """Why ``name`` may not be a scenario file's name in a log (``None``: it may)."""
    relative = Path(name)
    if (not name or relative.is_absolute() or ".." in relative.parts or "\\" in name
            or ":" in name or "\0" in name):
        return (f"[Scenario \"file:NAME.toml\"] must name a file beside the log (like "
                f"\"file:hilltop.toml\"), not '{name}'")
    if relative.suffix.casefold() != ".toml":
        return f"the scenario file '{name}' must be a TOML file, named NAME.toml"
    return None


def read_scenario_file(folder: Path, name: str) -> ScenarioFile:
    """Read the scenario file ``name`` beside a log in ``folder``; ``ScenarioError`` says why
    it cannot be (one sentence each)."""
    from referee.core.reading import contained_in, read_bounded

    refusal = name_refusal(name)
    if refusal is not None:
        raise ScenarioError([refusal])
    try:
        target = contained_in(folder, name, what="scenario file")
        data = read_bounded(target, MAX_SCENARIO_BYTES, what="scenario file",
                            shown=f"the scenario file {name}", follow=False)
    except RefereeError as error:
        raise ScenarioError([error.message]) from None
    digest = hashlib.sha256(data).hexdigest()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise ScenarioError([f"{name}: not UTF-8 text (byte {error.start + 1})"]) from None
    try:
        table = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ScenarioError([f"{name}: not valid TOML ({error})"]) from None
    except RecursionError:
        raise ScenarioError([f"{name}: not valid TOML (nested too deeply)"]) from None
    return ScenarioFile(name, text, table, digest)


def check_head(file: ScenarioFile, game: str, bases: Sequence[str],
               arrays: Sequence[str], tables: Sequence[str] = (),
               values: Sequence[str] = ()) -> list[str]:
    """What is wrong with the head of a scenario file for ``game``: its ``game``, its
    ``base`` (one of ``bases``), and keys that are none of the game's ``arrays``."""
    problems: list[str] = []
    data = file.data
    said = data.get("game")
    if said is None:
        problems.append(f"{file.name}: game is missing (a scenario file starts with "
                        f"game = \"{game}\")")
    elif said != game:
        problems.append(f"{file.name}: game is '{said}', but the log is a game of {game}")
    base = data.get("base", bases[0] if bases else None)
    if not isinstance(base, str) or base not in bases:
        problems.append(f"{file.name}: base '{base}' is not a bundled scenario of {game} "
                        f"(it has {', '.join(bases)})")
    for key in ("title", "notes"):
        if key in data and not isinstance(data[key], str):
            problems.append(f"{file.name}: {key} must be text")
    for key, value in data.items():
        if key in HEAD_KEYS:
            continue
        if key in tables or key in values:
            continue
        if key not in arrays:
            parts = [*(f"[[{a}]]" for a in arrays), *(f"[{t}]" for t in tables), *values]
            problems.append(f"{_at(file, key)}{key} is not a part of a {game} scenario file "
                            f"(it may hold {', '.join(parts)})")
        elif not isinstance(value, list):
            problems.append(f"{_at(file, key)}{key} must be an array of tables ([[{key}]])")
    return problems


Key = Callable[[Mapping[str, Any]], Hashable]


@record
class Merged:
    """Records of the bundled scenario with a file's changes, and where each change came
    from (index in the merged list -> index in the file's array)."""

    records: list[dict[str, Any]]
    origin: dict[int, int]
    new: set[int] = field(default_factory=set)
    """The merged records the bundled scenario lacks (added whole from the file)."""


def merge(file: ScenarioFile, array: str, base: Sequence[Mapping[str, Any]], key_field: str,
          key: Key, problems: list[str]) -> Merged:
    """The bundled records ``base`` with the file's ``[[array]]`` records merged in by
    ``key`` (a record naming a bundled one replaces the fields it gives; a new key is added
    whole).  What cannot be merged is added to ``problems``."""
    records = [dict(record) for record in base]
    where = {key(record): index for index, record in enumerate(records)}
    origin: dict[int, int] = {}
    changes = file.data.get(array, [])
    if not isinstance(changes, list):
        return Merged(records, origin)
    seen: set[Hashable] = set()
    merged_new: set[int] = set()
    for number, change in enumerate(changes):
        at = record_place(file, array, number)
        if not isinstance(change, dict):
            problems.append(f"{at}must be a table of fields")
            continue
        if key_field not in change:
            problems.append(f"{at}{key_field} is missing (it names the record to change)")
            continue
        try:
            wanted = key(change)
        except (TypeError, ValueError, KeyError):
            problems.append(f"{at}{key_field} cannot name a record: "
                            f"{_shown(change[key_field])}")
            continue
        if wanted in seen:
            problems.append(f"{at}{key_field} {_shown(change[key_field])} is changed twice "
                            f"in the file")
            continue
        seen.add(wanted)
        index = where.get(wanted)
        if index is None:
            records.append(dict(change))
            index = where[wanted] = len(records) - 1
            merged_new.add(index)
        else:
            records[index] = {**records[index], **change}
        origin[index] = number
    return Merged(records, origin, merged_new)


def record_key(field: str | tuple[str, ...]) -> Key:
    """How a record is named: by one field (``id``), or by a pair of places in either order
    (``hexes = ["0214", "0215"]``, or ``a`` and ``b``)."""
    def key(record: Mapping[str, Any]) -> Hashable:
        if isinstance(field, tuple):
            return frozenset(_name(record[part]) for part in field)
        value = record[field]
        if isinstance(value, list):
            return frozenset(_name(part) for part in value)
        return _name(value)

    return key


def _name(value: Any) -> str:
    if isinstance(value, (str, int)) and not isinstance(value, bool):
        return str(value)
    raise TypeError(value)


def _at_path(data: dict[str, Any], path: Sequence[str]) -> Any:
    for part in path:
        data = data[part]
    return data


def _set_path(data: dict[str, Any], path: Sequence[str], value: Any) -> None:
    for part in path[:-1]:
        data = data[part]
    data[path[-1]] = value


def _deep_merge(base: dict[str, Any], change: dict[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for key, value in change.items():
        old = out.get(key)
        out[key] = (_deep_merge(old, value) if isinstance(old, dict) and isinstance(value, dict)
                    else value)
    return out


@frozen
class Layout:
    """What a game's scenario file may change, and where it lies in the game's scenario
    data (one table validated by one pydantic model): ``arrays`` (name -> path of the list
    and the key that names a record), ``tables`` (name -> path of a table merged field by
    field), ``values`` (top-level values replaced whole)."""

    arrays: Mapping[str, tuple[tuple[str, ...], str | tuple[str, ...]]]
    tables: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    values: tuple[str, ...] = ()


def merge_data(file: ScenarioFile, base: dict[str, Any], layout: Layout,
               problems: list[str]) -> tuple[dict[str, Any], dict[str, Merged]]:
    """The game's scenario data ``base`` (not changed) with the file's changes."""
    import copy

    data = copy.deepcopy(base)
    merged: dict[str, Merged] = {}
    for array, (path, key_field) in layout.arrays.items():
        key_name = key_field if isinstance(key_field, str) else key_field[0]
        found = merge(file, array, _at_path(data, path), key_name, record_key(key_field),
                      problems)
        _set_path(data, path, found.records)
        merged[array] = found
    for table, path in layout.tables.items():
        change = file.data.get(table)
        if change is None:
            continue
        if not isinstance(change, dict):
            problems.append(f"{_at(file, table)}{table} must be a table ([{table}])")
            continue
        _set_path(data, path, _deep_merge(_at_path(data, path), change))
    for value in layout.values:
        if value in file.data:
            _set_path(data, (value,), file.data[value])
    return data, merged


def model_sentences(file: ScenarioFile, error: Any, layout: Layout,
                    merged: Mapping[str, Merged]) -> list[str]:
    """Each pydantic error of the merged data as a sentence at the file's line and field
    where the value came from the file."""
    sentences = []
    for item in error.errors():
        loc = [str(part) if not isinstance(part, int) else part for part in item["loc"]]
        message = "is missing" if item["type"] == "missing" else (
            "is not a field of this record" if item["type"] == "extra_forbidden"
            else str(item["msg"]).removeprefix("Value error, "))
        sentences.append(_model_sentence(file, loc, message, layout, merged))
    return sentences


def _model_sentence(file: ScenarioFile, loc: list[Any], message: str, layout: Layout,
                    merged: Mapping[str, Merged]) -> str:
    for array, (path, _) in layout.arrays.items():
        if tuple(loc[: len(path)]) == path:
            return located(file, array, merged[array], loc[len(path):], message, "scenario")
    for table, path in layout.tables.items():
        if tuple(loc[: len(path)]) == path and table in file.data:
            inner = [str(part) for part in loc[len(path):]]
            return f"{_table_at(file, table, inner)}{'.'.join([table, *inner])}: {message}"
    shown = ".".join(str(part) for part in loc) or "(top level)"
    if loc and loc[0] in layout.values and loc[0] in file.data:
        return f"{_at(file, str(loc[0]))}{shown}: {message}"
    return f"{file.name}: {shown}: {message}"


def _table_at(file: ScenarioFile, table: str, inner: Sequence[str]) -> str:
    """``NAME, line N: `` for a field of a table (``[kinds.inf]`` then ``fp = ...``)."""
    lines = file.text.splitlines()
    headers = [_TABLE_HEADER.match(line) for line in lines]
    named = [re.sub(r"[\s\"']", "", m.group(1)) if m else None for m in headers]
    for depth in range(len(inner), -1, -1):
        header = ".".join([table, *inner[:depth]])
        for index in range(len(lines)):
            if named[index] != header:
                continue
            if depth < len(inner):
                wanted = re.compile(rf"^\s*{re.escape(inner[depth])}\s*=")
                for inside in range(index + 1, len(lines)):
                    if _ANY_HEADER.match(lines[inside]):
                        break
                    if wanted.match(lines[inside]):
                        return f"{file.name}, line {inside + 1}: "
            return f"{file.name}, line {index + 1}: "
    return _at(file, table)


def record_place(file: ScenarioFile, array: str, number: int, part: str | None = None) -> str:
    """``NAME.toml, line 12: units[2]: `` - where a record of the file (and a field of it)
    is, to begin a sentence."""
    line = _record_line(file.text, array, number, part)
    where = f"{file.name}, line {line}: " if line else f"{file.name}: "
    return where + f"{array}[{number + 1}]: " + (f"{part}: " if part else "")


_HEADER = re.compile(r"^\s*\[\[\s*([A-Za-z0-9_-]+)\s*\]\]")
_ANY_HEADER = re.compile(r"^\s*\[")
_TABLE_HEADER = re.compile(r"^\s*\[([^\[\]]+)\]")


def _record_line(text: str, array: str, number: int, field: str | None) -> int | None:
    """The line of the ``number``-th ``[[array]]`` header (or of a field inside it)."""
    count = -1
    lines = text.splitlines()
    for index, line in enumerate(lines):
        match = _HEADER.match(line)
        if match is None or match.group(1) != array:
            continue
        count += 1
        if count != number:
            continue
        if field is None:
            return index + 1
        assign = re.compile(rf"^\s*{re.escape(field)}\s*=")
        for inner in range(index + 1, len(lines)):
            if _ANY_HEADER.match(lines[inner]):
                break
            if assign.match(lines[inner]):
                return inner + 1
        return index + 1
    return None


def _at(file: ScenarioFile, key: str) -> str:
    lines = file.text.splitlines()
    pattern = re.compile(rf"^\s*(\[\[?\s*{re.escape(key)}\s*[\].]|{re.escape(key)}\s*=)")
    for index, line in enumerate(lines):
        if pattern.match(line):
            return f"{file.name}, line {index + 1}: "
    return f"{file.name}: "


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def located(file: ScenarioFile, array: str, merged: Merged, loc: Sequence[Any],
            message: str, shown: str) -> str:
    """A validation error of a merged record as a sentence: at the file's record (line,
    field) when the record came from the file, else at the bundled file ``shown``."""
    if loc and isinstance(loc[0], int) and loc[0] in merged.origin:
        parts = [str(part) for part in loc[1:]]
        place = record_place(file, array, merged.origin[loc[0]], parts[0] if parts else None)
        if len(parts) > 1:
            place += ".".join(parts[1:]) + ": "
        if loc[0] in merged.new and message == "is missing":
            message += (" (the bundled scenario has no such record, so this one is new and "
                        "gives every field)")
        return f"{place}{message}"
    where = ".".join(str(part) for part in loc) or "(top level)"
    return f"{file.name}: with the bundled {shown}: {array}.{where}: {message}"


def folder_of(path: Path | None) -> Path | None:
    """The folder of a log's file, where its scenario file lies (``None``: no file)."""
    if path is None:
        return None
    return path.parent if str(path.parent) else Path(".")


KEPT_ENGINES = 8
"""How many engines of scenario files are kept, by game, name and SHA-256 (a batch of logs
on one file builds its board once)."""

_engines: dict[tuple[str, str, str], Any] = {}


def engine_of(file: ScenarioFile, engine: Any) -> Any:
    """The engine of ``engine``'s game on the scenario file (the game's
    ``with_scenario_file``); ``ScenarioError`` when the game takes none or the file is wrong."""
    build = getattr(engine, "with_scenario_file", None)
    if build is None:
        raise ScenarioError([f"{engine.info.title} takes no scenario file of the user's own yet "
                             f"([Scenario \"file:{file.name}\"]); a log of it plays a bundled "
                             f"scenario ({', '.join(engine.info.scenarios)})"])
    key = (engine.info.id, file.name, file.sha256)
    found = _engines.get(key)
    if found is None:
        found = build(file)
        if len(_engines) >= KEPT_ENGINES:
            _engines.pop(next(iter(_engines)))
        _engines[key] = found
    return found
