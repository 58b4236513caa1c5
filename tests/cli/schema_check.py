"""A validator for the part of JSON Schema (2020-12) that docs/schema/ uses: ``type``,
``const``, ``enum``, ``properties``, ``required``, ``additionalProperties``, ``items``,
``minimum``, ``allOf``, ``oneOf`` and ``$ref`` (to a file of docs/schema/ and/or a
``#/$defs/...`` inside it).  A keyword it does not know is an error, so a schema can never
claim more than this checks."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

SCHEMAS = Path(__file__).resolve().parents[2] / "docs" / "schema"

_KNOWN = {"$schema", "$id", "$defs", "title", "description", "type", "const", "enum",
          "properties", "required", "additionalProperties", "items", "minimum", "allOf",
          "oneOf", "$ref"}

_TYPES: dict[str, Any] = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, int | float) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
}


def load(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((SCHEMAS / name).read_text(encoding="utf-8"))
    return data


def errors(value: Any, schema: dict[str, Any], root: dict[str, Any], where: str = "$"
           ) -> list[str]:
    """Every way ``value`` fails ``schema`` (``root``: the file its ``#`` refers to)."""
    unknown = set(schema) - _KNOWN
    if unknown:
        raise ValueError(f"{where}: schema keywords this validator does not check: {unknown}")
    found: list[str] = []
    if "$ref" in schema:
        target, root_of = _resolve(schema["$ref"], root)
        found += errors(value, target, root_of, where)
    for part in schema.get("allOf", []):
        found += errors(value, part, root, where)
    if "oneOf" in schema:
        matching = [p for p in schema["oneOf"] if not errors(value, p, root, where)]
        if len(matching) != 1:
            found.append(f"{where}: matches {len(matching)} of oneOf, not exactly 1")
    if "type" in schema:
        types = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        if not any(_TYPES[t](value) for t in types):
            found.append(f"{where}: {value!r:.60} is not of type {types}")
            return found
    if "const" in schema and value != schema["const"]:
        found.append(f"{where}: {value!r:.60} is not {schema['const']!r}")
    if "enum" in schema and value not in schema["enum"]:
        found.append(f"{where}: {value!r:.60} is not one of {schema['enum']}")
    if "minimum" in schema and _TYPES["number"](value) and value < schema["minimum"]:
        found.append(f"{where}: {value} is below {schema['minimum']}")
    if isinstance(value, dict):
        properties = schema.get("properties", {})
        for key in schema.get("required", []):
            if key not in value:
                found.append(f"{where}: the key {key!r} is missing")
        extra = schema.get("additionalProperties", True)
        for key, item in value.items():
            if key in properties:
                found += errors(item, properties[key], root, f"{where}.{key}")
            elif extra is False:
                found.append(f"{where}: the key {key!r} is not allowed")
            elif isinstance(extra, dict):
                found += errors(item, extra, root, f"{where}.{key}")
    if isinstance(value, list) and "items" in schema:
        for index, item in enumerate(value):
            found += errors(item, schema["items"], root, f"{where}[{index}]")
    return found


def _resolve(ref: str, root: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    name, _, fragment = ref.partition("#")
    document = load(name) if name else root
    target = document
    for part in [p for p in fragment.split("/") if p]:
        target = target[part]
    return target, document


def validate(value: Any, name: str) -> list[str]:
    """Every way ``value`` fails the schema file ``name`` of docs/schema/."""
    schema = load(name)
    return errors(value, schema, schema)
