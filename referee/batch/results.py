"""Writing result rows as JSON Lines or CSV, and reading them back.

The format follows the file's suffix: ``.jsonl`` (or ``.ndjson``) for JSON Lines, ``.csv``
for CSV.  A results file is complete or absent: rows go, as each log finishes, to
``FILE.partial`` beside it, and only when the batch has finished are they written to the
file itself (atomically) and the partial file removed.  A batch that is killed or fails
half-way leaves the partial file with every row it had; ``--resume`` goes on from it.
Without a file, rows go to standard output as JSON Lines, one per log as soon as it is known.

A row is the envelope every ``--json`` command shares (its ``state`` left out: null), then
the row's own flat columns.  In CSV the nested values (the problem objects, pending, outcome,
problem counts by kind and by rule) are compact JSON in their cell, and an empty cell is
``null``.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import math
import os
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import IO, Any, Protocol

from referee.batch.worker import ROW_SCHEMA, LogResult
from referee.core.files import check_output, open_to_append, output_file

FIELDS = tuple(LogResult("", "legal", 0).to_json())
"""The columns of a CSV results file, in order (the keys of a JSON Lines row)."""

JSON_CELLS = frozenset({"problems", "state", "pending", "outcome", "problems_by_kind",
                        "problems_by_rule"})
INT_CELLS = frozenset({"exit_code", "problem_count", "turn", "vp_objective", "vp_eliminated",
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
        self.handle.write(row_line(row) + "\n")
        if self.flush:
            self.handle.flush()


def _refuse(value: Any) -> Any:
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


_C_ENCODER = getattr(json.encoder, "c_make_encoder", None)
_ENCODE_ROW = None if _C_ENCODER is None else _C_ENCODER(
    None, _refuse, json.encoder.encode_basestring, None, ": ", ", ", False, False, True)
"""The C encoder ``json.dumps(row, ensure_ascii=False)`` makes for every call, made once
(a row is never circular: no check for it); None where the C accelerator is missing."""


def row_json(row: dict[str, Any]) -> str:
    """``json.dumps(row, ensure_ascii=False)``: a row as one JSON Lines line (its text
    compared with ``json.dumps`` in tests/batch/test_results.py)."""
    if _ENCODE_ROW is None:
        return json.dumps(row, ensure_ascii=False)
    return "".join(_ENCODE_ROW(row, 0))


_STRING = json.encoder.encode_basestring
"""A string as JSON with ``ensure_ascii=False`` (the C function ``json.dumps`` uses)."""
_SCHEMA = _STRING(ROW_SCHEMA)


def _nested(value: Any) -> str:
    return "null" if value is None else row_json(value)


def _words(value: str | None) -> str:
    return "null" if value is None else _STRING(value)


def row_line(row: LogResult) -> str:
    """``json.dumps(row.to_json(), ensure_ascii=False)``.  A legal row (no problems, no
    victory points, its values of the plain types) is written from a template, each value
    encoded as ``json`` encodes it; any other row the long way.  A batch writes one line per
    log, and the encoder went through every key of the row."""
    ms, turn, game = row.ms, row.turn, row.game
    if (row.listed or row.by_kind or row.by_rule or row.vp is not None
            or type(ms) is not float or not math.isfinite(ms)
            or type(row.exit_code) is not int or type(row.problems) is not int
            or (turn is not None and type(turn) is not int)):
        return row_json(row.to_json())
    source = _STRING(row.path)
    return (
        f'{{"schema": {_SCHEMA}, "source": {source}, "game": {_words(game)}, '
        f'"ok": {"true" if row.ok else "false"}, "exit_code": {int.__repr__(row.exit_code)}, '
        f'"problems": [], "state": null, "pending": {_nested(row.pending)}, '
        f'"outcome": {_nested(row.outcome)}, "path": {source}, '
        f'"status": {_STRING(row.status)}, "problem_count": {int.__repr__(row.problems)}, '
        f'"problems_by_kind": {{}}, "problems_by_rule": {{}}, '
        f'"first_problem": {_words(row.first_problem)}, "result": {_words(row.result)}, '
        f'"winner": {_words(row.winner)}, "reason": {_words(row.reason)}, '
        f'"vp_objective": null, "vp_eliminated": null, "vp_total": null, '
        f'"turn": {"null" if turn is None else int.__repr__(turn)}, '
        f'"ms": {float.__repr__(ms)}}}'
    )


class CsvSink:
    """A header, then one line per log."""

    def __init__(self, handle: IO[str], *, header: bool = True) -> None:
        self.writer = csv.DictWriter(handle, FIELDS, lineterminator="\n")
        if header:
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


PARTIAL_SUFFIX = ".partial"
MAX_PARTIAL_BYTES = 1024**3
"""The largest partial file ``--resume`` reads (a row is a few hundred bytes)."""


def partial_path(path: Path) -> Path:
    """The file the rows of ``--out PATH`` are written to as they finish: ``PATH.partial``."""
    return path.with_name(path.name + PARTIAL_SUFFIX)


class PartialExists(Exception):
    """``PATH.partial`` is there from an earlier batch that did not finish."""


@contextlib.contextmanager
def open_results(path: Path | None, *, replace: bool = True, resume: bool = False,
                 inputs: Sequence[Path | None] = ()) -> Iterator[Sink]:
    """A sink for the rows: JSON Lines on standard output, or the file ``path``.

    A file's rows go, as each finishes, to ``PATH.partial`` beside it (flushed row by row,
    so a batch killed half-way keeps every row it had); when the batch ends the rows are
    written to ``path`` by the atomic writer and the partial file is removed, so ``path``
    is complete or absent, never half-written.  When the block raises, the partial file
    stays: ``resume=True`` goes on from it (``read_partial`` gives its rows), and without
    ``resume`` an existing partial file is ``PartialExists`` unless ``replace``.
    ``replace=False``: never over an existing ``path`` (``FileExistsError``).

    Both files are written as every output is (``output_file``): never through a link, never
    into a FIFO or a device, never over one of the ``inputs``.  The partial file is made new
    (a temporary file renamed into place) and only appended to: resuming writes its kept rows
    into a new partial file and renames it over the old one, so a kill at any moment leaves
    every kept row on the disk.
    """
    if path is None:
        yield JsonLinesSink(sys.stdout, flush=True)
        return
    fmt = format_of(path)
    partial = partial_path(path)
    kept = ""
    if resume:
        kept = _complete_part(partial)
    else:
        try:
            check_output(partial, replace=replace, inputs=inputs)
        except FileExistsError:
            raise PartialExists(partial) from None
    with output_file(partial, replace=True, inputs=inputs) as fresh:
        fresh.write(kept.encode("utf-8", "backslashreplace"))
    fd = open_to_append(partial)
    # A file name that is not UTF-8 is escaped in the row already; ``backslashreplace`` keeps
    # any other stray surrogate from stopping the batch.
    handle = os.fdopen(fd, "a", encoding="utf-8", newline="", errors="backslashreplace")
    with handle:
        sink: Sink = CsvSink(handle, header=not kept) if fmt == "csv" else JsonLinesSink(handle)
        yield _Flushed(sink, handle)
        handle.flush()
        os.fsync(fd)
        os.lseek(fd, 0, os.SEEK_SET)
        with output_file(path, replace=replace, inputs=inputs) as raw:
            while block := os.read(fd, 1 << 20):
                raw.write(block)
    partial.unlink()


class _Flushed:
    """A sink whose every row reaches the operating system at once (not the disk: ``fsync``
    per row would cost more than the replay)."""

    def __init__(self, sink: Sink, handle: IO[str]) -> None:
        self.sink = sink
        self.handle = handle

    def write(self, row: LogResult) -> None:
        self.sink.write(row)
        self.handle.flush()


def _complete_part(partial: Path) -> str:
    """The text of a partial file up to its last whole row (a row cut short by a kill is
    dropped: its log is replayed again)."""
    from referee.core.errors import RefereeError
    from referee.core.reading import read_bounded

    try:  # a regular file only: a FIFO put in its place must not hang the batch
        text = read_bounded(partial, MAX_PARTIAL_BYTES, what="partial file",
                            follow=False).decode("utf-8", errors="replace")
    except RefereeError as error:
        raise PartialExists(error.message) from None
    if format_of(partial.with_name(partial.name.removesuffix(PARTIAL_SUFFIX))) == "csv":
        reader = csv.reader(io.StringIO(text, newline=""))
        end = 0
        with contextlib.suppress(csv.Error):
            for _ in reader:
                line_end = _offset_of_line(text, reader.line_num)
                if line_end is None:  # the last row has no end of line: cut short
                    break
                end = line_end
        return text[:end]
    return text[: text.rfind("\n") + 1]


def _offset_of_line(text: str, number: int) -> int | None:
    """The offset just after the ``number``-th end of line of ``text`` (None: there is none)."""
    offset = -1
    for _ in range(number):
        offset = text.find("\n", offset + 1)
        if offset < 0:
            return None
    return offset + 1


def read_partial(path: Path) -> list[LogResult]:
    """The whole rows of ``--out PATH``'s partial file, as rows, to resume the batch from."""
    partial = partial_path(path)
    text = _complete_part(partial)
    if format_of(path) == "jsonl":
        rows = [json.loads(line) for line in text.splitlines() if line.strip()]
    else:
        rows = [_from_cells(cells) for cells in csv.DictReader(io.StringIO(text, newline=""))]
    return [_row_of(row) for row in rows]


def _row_of(data: dict[str, Any]) -> LogResult:
    return LogResult(
        data["path"], data["status"], int(data["exit_code"]), game=data.get("game"),
        problems=int(data.get("problem_count") or 0),
        by_kind=dict(data.get("problems_by_kind") or {}),
        by_rule=dict(data.get("problems_by_rule") or {}), first_problem=data.get("first_problem"),
        result=data.get("result"), winner=data.get("winner"), reason=data.get("reason"),
        vp=data.get("vp"), turn=data.get("turn"), ms=float(data.get("ms") or 0.0),
        listed=tuple(data.get("problems") or ()), pending=data.get("pending"),
        outcome=data.get("outcome"),
    )


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
            row[key] = ({} if key in ("problems_by_kind", "problems_by_rule")
                        else [] if key == "problems" else None)
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
