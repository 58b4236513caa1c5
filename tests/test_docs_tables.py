"""Issue 32: every table of the docs and the README is well formed — each row has the
header's number of cells (a ``|`` inside a cell is written ``\\|``, as GitHub needs even in
code), and no row stands twice in one table."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = [*sorted((ROOT / "docs").rglob("*.md")), ROOT / "README.md"]
_RULE = re.compile(r"^\|(\s*:?-+:?\s*\|)+\s*$")


def cells(row: str) -> list[str]:
    """The cells of a table row: split at every ``|`` that is not escaped."""
    parts = re.split(r"(?<!\\)\|", row.strip())
    return [part.strip() for part in parts[1:-1]]


def tables(text: str) -> Iterator[tuple[int, list[tuple[int, str]]]]:
    """Each table as (line of its header, [(line, row), ...]) with the header first."""
    lines = text.splitlines()
    index = 0
    while index < len(lines):
        if (lines[index].startswith("|") and index + 1 < len(lines)
                and _RULE.match(lines[index + 1])):
            rows = [(index + 1, lines[index])]
            index += 2
            while index < len(lines) and lines[index].startswith("|"):
                rows.append((index + 1, lines[index]))
                index += 1
            yield rows[0][0], rows
        else:
            index += 1


@pytest.mark.parametrize("path", DOCS, ids=lambda p: p.name)
def test_every_table_is_well_formed(path: Path) -> None:
    wrong: list[str] = []
    for _, rows in tables(path.read_text(encoding="utf-8")):
        width = len(cells(rows[0][1]))
        seen: dict[str, int] = {}
        for number, row in rows[1:]:
            if len(cells(row)) != width:
                wrong.append(f"{path.name}:{number}: {len(cells(row))} cells, the header has "
                             f"{width}")
            if row.strip() in seen:
                wrong.append(f"{path.name}:{number}: the row of line {seen[row.strip()]} again")
            seen.setdefault(row.strip(), number)
    assert not wrong, "\n".join(wrong)


def test_the_checker_finds_a_broken_table() -> None:
    text = "| a | b |\n|---|---|\n| 1 | 2 |\n| 1 | `x|y` |\n| 1 | 2 |\n"
    (_, rows), = tables(text)
    assert [len(cells(row)) for _, row in rows] == [2, 2, 3, 2]
    assert cells("| `x\\|y` | z |") == ["`x\\|y`", "z"]
