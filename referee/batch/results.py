"""Writing result rows as JSON Lines or CSV, and reading them back.

The format follows the file's suffix: ``.jsonl`` (or ``.ndjson``) for JSON Lines, ``.csv``
for CSV.  A results file is written atomically: rows go to a temporary file beside it, which
replaces the target only when the batch has finished, so an interrupted batch never leaves a
half-written file in place of the old one.  Without a file, rows go to standard output as
JSON Lines, one per log as soon as it is known.

In CSV the nested values (problem counts by kind and by rule, VPs) are compact JSON in their
cell, and an empty cell is ``null``.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any, Protocol

from referee.batch.worker import LogResult
from referee.core.files import atomic_file

FIELDS = tuple(LogResult("", "legal", 0).to_json())
"""The columns of a CSV results file, in order (the keys of a JSON Lines row)."""

JSON_CELLS = frozenset({"problems_by_kind", "problems_by_rule"})
INT_CELLS = frozenset({"exit_code", "problems", "turn", "vp_objective", "vp_eliminated",
                       "vp_total"})
FLOAT_CELLS = frozenset({"ms"})
BOOL_CELLS = frozenset({"ok"})

FORMATS = {".jsonl": "jsonl", ".ndjson": "jsonl", ".csv": "csv"}


class Sink(Protocol):
    def write(self, row: LogResult) -> None: ...


class JsonLinesSink:
    """One compact JSON object per line."""

    def __init__(self, handle: IO[str], *, flush: bool = False) -> None:
        self.handle = handle
        self.flush = flush

    def write(self, row: LogResult) -> None:
        self.handle.write(json.dumps(row.to_json(), ensure_ascii=False) + "\n")
        if self.flush:
            self.handle.flush()


class CsvSink:
    """A header, then one line per log."""

    def __init__(self, handle: IO[str]) -> None:
        self.writer = csv.DictWriter(handle, FIELDS, lineterminator="\n")
        self.writer.writeheader()

    def write(self, row: LogResult) -> None:
        self.writer.writerow({key: _cell(key, value) for key, value in row.to_json().items()})


def _cell(key: str, value: Any) -> Any:
    if value is None:
        return ""
    if key in JSON_CELLS:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    if isinstance(value, bool):
        return "true" if value else "false"
    return value


def format_of(path: Path) -> str:
    """``jsonl`` or ``csv`` for a results file name; ``ValueError`` for anything else."""
    fmt = FORMATS.get(path.suffix.casefold())
    if fmt is None:
        raise ValueError(
            f"cannot tell the format of {path}: name it with .jsonl (JSON Lines) or .csv"
        )
    return fmt


@contextlib.contextmanager
def open_results(path: Path | None, *, replace: bool = True) -> Iterator[Sink]:
    """A sink for the rows: JSON Lines on standard output, or an atomically written file
    (``replace=False``: never over an existing one, ``FileExistsError``)."""
    if path is None:
        yield JsonLinesSink(sys.stdout, flush=True)
        return
    fmt = format_of(path)
    with atomic_file(path, replace=replace) as raw:
        handle = io.TextIOWrapper(raw, encoding="utf-8", newline="", write_through=True)
        try:
            yield CsvSink(handle) if fmt == "csv" else JsonLinesSink(handle)
            handle.flush()
        finally:
            handle.detach()  # the atomic writer syncs and closes the file itself


def read_results(path: Path) -> list[dict[str, Any]]:
    """The rows of a results file (either format) as the JSON Lines dictionaries."""
    if format_of(path) == "jsonl":
        with path.open(encoding="utf-8") as handle:
            return [json.loads(line) for line in handle if line.strip()]
    with path.open(encoding="utf-8", newline="") as handle:
        return [_from_cells(row) for row in csv.DictReader(handle)]


def _from_cells(cells: dict[str, str]) -> dict[str, Any]:
    row: dict[str, Any] = {}
    for key in FIELDS:
        text = cells.get(key, "")
        if text == "":
            row[key] = {} if key in ("problems_by_kind", "problems_by_rule") else None
        elif key in JSON_CELLS:
            row[key] = json.loads(text)
        elif key in INT_CELLS:
            row[key] = int(text)
        elif key in FLOAT_CELLS:
            row[key] = float(text)
        elif key in BOOL_CELLS:
            row[key] = text == "true"
        else:
            row[key] = text
    return row
