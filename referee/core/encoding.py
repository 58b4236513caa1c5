"""Bytes to text for a log: UTF-8 (with or without a byte-order mark), UTF-16 with its
byte-order mark, or Latin-1 when that is the only reading; and the typographic forms word
processors and mail clients put in (no-break spaces, curly quotes, arrows) back to the ASCII
the log language is written in."""

from __future__ import annotations

import codecs
import re

from referee.core.errors import LogEncodingError

_UTF16_BOMS = (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)

_CONTROL_BYTES = re.compile(rb"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
"""Bytes that are control characters in Latin-1 (the tab, line feed and carriage return
apart): a file holding them is not Latin-1 text, so it is not read as such."""

_SPACES = str.maketrans({"\u00a0": " ", "\u2007": " ", "\u202f": " ", "\u3000": " ",
                         "\u2018": "'", "\u2019": "'", "\u2192": "->"})
_DOUBLE_QUOTES = str.maketrans({"\u201c": '"', "\u201d": '"', "\u201e": '"'})


def decode(data: bytes) -> str:
    """The text of a log's bytes, or ``LogEncodingError`` naming the encoding tried and the
    line and column where it fails."""
    if data.startswith(_UTF16_BOMS):
        try:
            text = data.decode("utf-16")
        except UnicodeDecodeError as error:
            raise LogEncodingError(
                f"the log starts as UTF-16 text but byte {error.start + 3} cannot be read as "
                f"UTF-16; save it as UTF-8"
            ) from None
        if "\x00" in text:
            raise LogEncodingError("this is a binary file, not a text log")
        return ascii_forms(text.removeprefix("\ufeff"))
    if b"\x00" in data:
        raise LogEncodingError("this is a binary file (or UTF-16 text without its byte-order "
                               "mark), not a text log; save it as UTF-8")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        if _CONTROL_BYTES.search(data):
            line = data.count(b"\n", 0, error.start) + 1
            column = error.start - (data.rfind(b"\n", 0, error.start) + 1) + 1
            raise LogEncodingError(
                f"the log is not UTF-8 text: byte 0x{data[error.start]:02X} at line {line}, "
                f"column {column} cannot be read as UTF-8 (and the file is not Latin-1 text "
                f"either); save it as UTF-8"
            ) from None
        text = data.decode("latin-1")  # every byte is a printable Latin-1 character
    return ascii_forms(text.removeprefix("\ufeff"))


def ascii_forms(text: str) -> str:
    """``text`` with no-break and other wide spaces, curly quotes and arrows (``→``,
    ``\\u2013>``) written as the ASCII the log language uses.  Curly double quotes become ``"``
    only on a line with no straight one (a quotation inside a tag's value stays as it is)."""
    if text.isascii():
        return text
    lines = text.split("\n")
    for index, line in enumerate(lines):
        if line.isascii():
            continue
        line = line.replace("\u2013>", "->").replace("\u2014>", "->").translate(_SPACES)
        if '"' not in line:
            line = line.translate(_DOUBLE_QUOTES)
        lines[index] = line
    return "\n".join(lines)
