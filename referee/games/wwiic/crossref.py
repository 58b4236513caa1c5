"""Cross-reference checks of the scenario and plain sentences for pydantic errors.

Kept apart from the models so ``scenario.py`` stays readable; every problem is one sentence
that names the TOML file it comes from.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from referee.core.names import normalise

if TYPE_CHECKING:
    from referee.games.wwiic.scenario import Border, Scenario

FILES: dict[str, str] = {
    "scenario": "scenario.toml",
    "spaces": "spaces.toml",
    "borders": "borders.toml",
    "boxes": "boxes.toml",
    "ferry": "boxes.toml",
    "units": "units.toml",
    "tracks": "tracks.toml",
}
"""Which file holds each top-level key of the scenario."""


def _unique_names(
    what: str, file: str, entries: Sequence[tuple[str, Sequence[str]]]
) -> list[str]:
    problems: list[str] = []
    owner: dict[str, str] = {}
    for ident, names in entries:
        for name in dict.fromkeys(normalise(n) for n in names):
            if not name:
                problems.append(f"{file}: {what} '{ident}' has an empty name")
            elif name in owner and owner[name] != ident:
                problems.append(
                    f"{file}: {what} '{ident}' and '{owner[name]}' share the name "
                    f"'{name}' once case, spaces, dots and hyphens are ignored"
                )
            else:
                owner.setdefault(name, ident)
    return problems


def cross_check(scenario: Scenario) -> list[str]:
    """References between records: every problem as one sentence naming its file."""
    problems: list[str] = []
    spaces = {space.id: space for space in scenario.spaces}
    boxes = {box.id: box for box in scenario.boxes}
    places = set(spaces) | set(boxes) | {scenario.ferry.id}
    if len(spaces) != len(scenario.spaces):
        problems.append("spaces.toml: two spaces share an id")
    problems += _unique_names(
        "place",
        "spaces.toml",
        [(s.id, (s.id, s.name, *s.aliases)) for s in scenario.spaces]
        + [(b.id, (b.id, b.name)) for b in scenario.boxes]
        + [(scenario.ferry.id, (scenario.ferry.id, scenario.ferry.name))],
    )
    problems += _unique_names(
        "unit", "units.toml", [(u.id, (u.id, u.name, *u.aliases)) for u in scenario.units]
    )
    seen: dict[frozenset[str], Border] = {}
    for border in scenario.borders:
        label = f"borders.toml: border {border.a}-{border.b}"
        unknown = [end for end in (border.a, border.b) if end not in spaces]
        for end in unknown:
            problems.append(f"{label}: '{end}' is not a space in spaces.toml")
        key = frozenset((border.a, border.b))
        if key in seen:
            first = seen[key]
            same = first.model_dump(exclude={"a", "b", "notes"}) == border.model_dump(
                exclude={"a", "b", "notes"}
            )
            problems.append(
                f"{label} is listed twice"
                + ("" if same else " with different kind, road or bridge (adjacency is "
                   "one border, the same seen from either side)")
            )
        seen[key] = border
    for space in scenario.spaces:
        allied = set(scenario.formations("allied"))
        for formation in space.supply_source:
            if formation not in allied:
                problems.append(
                    f"spaces.toml: space '{space.id}': supply source for '{formation}', "
                    "which is not an Allied formation in units.toml"
                )
    orders = [s.club_route for s in scenario.spaces if s.club_route is not None]
    if sorted(orders) != list(range(1, len(orders) + 1)):
        problems.append("spaces.toml: club_route numbers must run 1, 2, 3 ... without gaps")
    for box in scenario.boxes:
        label = f"boxes.toml: box {box.id}"
        for link in box.adjoins:
            if link.space not in spaces:
                problems.append(f"{label}: adjoins '{link.space}', which is not a space")
        for other in box.links:
            if other not in boxes:
                problems.append(f"{label}: links to '{other}', which is not a box")
            elif box.id not in boxes[other].links:
                problems.append(f"{label}: links to {other} but {other} does not link back")
        if box.units_move_to is not None and box.units_move_to not in boxes:
            problems.append(f"{label}: units_move_to '{box.units_move_to}' is not a box")
    for end in scenario.ferry.adjoins:
        if end not in spaces:
            problems.append(f"boxes.toml: the ferry adjoins '{end}', which is not a space")
    for unit in scenario.units:
        label = f"units.toml: unit '{unit.id}'"
        if unit.start is not None and unit.start not in places:
            problems.append(f"{label}: start '{unit.start}' is not a space or box")
        if unit.start in boxes and boxes[unit.start].formation != unit.formation:
            problems.append(f"{label}: starts in box {unit.start} of another formation")
        if unit.reinforcement is not None:
            for entry in unit.reinforcement.entry:
                if entry not in places:
                    problems.append(f"{label}: entry '{entry}' is not a space or box")
                elif entry in boxes and boxes[entry].formation != unit.formation:
                    problems.append(f"{label}: enters in box {entry} of another formation")
    numbers = [turn.number for turn in scenario.tracks.turns]
    if numbers != list(range(1, len(numbers) + 1)):
        problems.append("tracks.toml: turns must be numbered 1, 2, 3 ... in order")
    for turn in scenario.tracks.turns:
        for box_id in turn.closes_boxes:
            if box_id not in boxes:
                problems.append(f"tracks.toml: turn {turn.number} closes unknown box '{box_id}'")
    setup = scenario.tracks.setup
    for space_id in [*setup.unprepared, setup.objective_marker]:
        if space_id not in spaces:
            problems.append(f"tracks.toml: setup names '{space_id}', which is not a space")
    return problems


def _describe(data: Mapping[str, Any], loc: tuple[int | str, ...]) -> tuple[str, str]:
    """File name and a readable place ("space 'Mook': terrain") for an error location."""
    if not loc:
        return "scenario", ""
    top = str(loc[0])
    file = FILES.get(top, FILES["scenario"])
    rest = list(loc[1:])
    where = ""
    if rest and isinstance(rest[0], int) and top in ("spaces", "borders", "boxes", "units"):
        records = data.get(top)
        record: Any = records[rest[0]] if isinstance(records, list) else None
        if top == "borders" and isinstance(record, dict):
            where = f"border {record.get('a', '?')}-{record.get('b', '?')}"
        elif isinstance(record, dict) and "id" in record:
            where = f"{top[:-1]} '{record['id']}'"
        else:
            where = f"{top[:-1]} number {rest[0] + 1}"
        rest = rest[1:]
    elif top == "tracks" and rest[:1] == ["turns"] and len(rest) > 1 and isinstance(rest[1], int):
        where = f"turn number {rest[1] + 1}"
        rest = rest[2:]
    elif top not in ("spaces", "borders", "boxes", "units", "tracks"):
        rest = list(loc)
    field = ".".join(str(part) for part in rest)
    return file, f"{where}: {field}" if where and field else where or field


def sentences(error: ValidationError, data: Mapping[str, Any]) -> list[str]:
    sentences: list[str] = []
    for item in error.errors(include_url=False):
        loc = tuple(item["loc"])
        file, where = _describe(data, loc)
        kind, message = item["type"], str(item["msg"])
        value = item.get("input")
        if kind == "missing":
            field = where.rsplit(": ", 1)
            text = f"{field[0]}: field '{field[-1]}' is missing" if len(field) > 1 else (
                f"field '{where}' is missing"
            )
            sentences.append(f"{file}: {text}")
            continue
        if kind == "extra_forbidden":
            sentences.append(f"{file}: {where} is not a known field")
            continue
        if kind == "literal_error":
            expected = str(item.get("ctx", {}).get("expected", "")).replace("'", "")
            expected = expected.replace(" or ", ", ")
            sentences.append(f"{file}: {where} '{value}' is not one of {expected}")
            continue
        if kind == "value_error":
            message = message.removeprefix("Value error, ")
            if not loc:
                sentences.extend(message.splitlines())
                continue
        prefix = f"{file}: {where}: " if where else f"{file}: "
        sentences.append(prefix + message[0].lower() + message[1:])
    return sentences
