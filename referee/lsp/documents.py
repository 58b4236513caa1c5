"""The logs an editor has open: their text as the editor holds it, changed by its edits, and
what the referee found in them, re-checked incrementally (``referee.api.replay_kept``).

Nothing here speaks the protocol or applies a rule: it keeps text, line numbers and
reports.  Positions given by the editor count UTF-16 code units (the protocol's default);
``utf16_column`` and ``char_index`` translate between those and Python's characters.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

from referee import api
from referee.core.log import ParsedLog
from referee.core.parsing import MAX_BYTES
from referee.core.replay import Report


def utf16_column(line: str, index: int) -> int:
    """The UTF-16 column of the character at ``index`` of ``line``."""
    head = line[: max(0, index)]
    return len(head) + sum(1 for ch in head if ord(ch) > 0xFFFF)


def char_index(line: str, column: int) -> int:
    """The index in ``line`` of the character at UTF-16 ``column`` (clamped to the line)."""
    units = 0
    for index, ch in enumerate(line):
        if units >= column:
            return index
        units += 2 if ord(ch) > 0xFFFF else 1
    return len(line)


def folder_of(uri: str) -> Path | None:
    """The folder a document lies in, for ``file:`` documents (others have none)."""
    parsed = urlparse(uri)
    if parsed.scheme != "file":
        return None
    path = Path(unquote(parsed.path))
    return path.parent if path.name else None


def offset_of(text: str, line: int, column: int) -> int:
    """The index in ``text`` of an editor position (line, UTF-16 column), lines split as
    the protocol splits them (``\\n``, ``\\r\\n``, ``\\r``); past the end: the end."""
    at = 0
    for _ in range(line):
        found = _next_break(text, at)
        if found is None:
            return len(text)
        at = found
    end = _next_break(text, at)
    stop = len(text) if end is None else end
    return at + char_index(text[at:stop].rstrip("\r\n"), column)


def _next_break(text: str, at: int) -> int | None:
    """The start of the line after the one that starts at ``at``, if any."""
    newline, ret = text.find("\n", at), text.find("\r", at)
    if newline < 0 and ret < 0:
        return None
    if ret >= 0 and (newline < 0 or ret < newline):
        return ret + 2 if text.startswith("\r\n", ret) else ret + 1
    return newline + 1


@dataclass
class Document:
    """One open log: its text, the log read from it, the report, and the kept positions."""

    uri: str
    text: str
    version: int | None = None
    lines: list[str] = field(default_factory=list)
    log: ParsedLog | None = None
    report: Report | None = None
    kept: list[Any] = field(default_factory=list)
    sealed: bool = False

    @property
    def source(self) -> str:
        parsed = urlparse(self.uri)
        return Path(unquote(parsed.path)).name or self.uri if parsed.scheme == "file" else self.uri

    def check(self) -> Report:
        """Read the text again and replay it from the last kept position it allows."""
        # A text larger than the referee reads is refused whole (api.read_text), unsplit.
        self.lines = self.text.splitlines() if len(self.text) <= MAX_BYTES else []
        self.sealed = api.is_sealed(self.lines)
        self.log = api.read_text(self.text, self.source, folder_of(self.uri))
        self.report, self.kept = api.replay_kept(self.log, self.kept)
        return self.report

    def after(self, line: int) -> Report | None:
        """The report of the replay up to (1-based) ``line``: the position after it, from the
        kept position before it.  ``line`` 0: the position before the first line."""
        if self.log is None:
            return None
        report, _ = api.replay_kept(self.log, self.kept, upto=max(0, line))
        return report

    def line(self, number: int) -> str:
        """The text of 0-based line ``number`` ('' past the end)."""
        return self.lines[number] if 0 <= number < len(self.lines) else ""


class Documents:
    """The open documents by URI."""

    def __init__(self) -> None:
        self.open: dict[str, Document] = {}

    def opened(self, uri: str, text: str, version: int | None) -> Document:
        document = Document(uri, text, version)
        self.open[uri] = document
        document.check()
        return document

    def changed(self, uri: str, changes: list[tuple[tuple[int, int, int, int] | None, str]],
                version: int | None) -> Document | None:
        """Apply the editor's changes in order: each a range (start line, start column, end
        line, end column; ``None``: the whole text) and its new text."""
        document = self.open.get(uri)
        if document is None:
            return None
        text = document.text
        for where, new in changes:
            if where is None:
                text = new
            else:
                start = offset_of(text, where[0], where[1])
                end = max(start, offset_of(text, where[2], where[3]))
                text = text[:start] + new + text[end:]
        document.text = text
        document.version = version
        document.check()
        return document

    def closed(self, uri: str) -> None:
        self.open.pop(uri, None)

    def get(self, uri: str) -> Document | None:
        return self.open.get(uri)
