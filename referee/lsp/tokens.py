"""Semantic tokens: the highlighting of a log by the server, so that no editor needs a
grammar or plugin of its own for the log language.

Read from the shape of a line alone (docs/log-format.md, "A line"), the same for every
game: a comment from ``#``, a tag's name and value, the side before ``:``, each command's
first word, the names after it, the dice in braces.  Nothing here knows a game's commands.
"""

from __future__ import annotations

import re

from referee.lsp.documents import utf16_column

TYPES = ("comment", "namespace", "function", "variable", "number", "string", "keyword")
"""The token types, in the order of the legend the server announces."""

COMMENT, SIDE, COMMAND, NAME, DICE, STRING, KEYWORD = range(len(TYPES))

_TAG = re.compile(r'\s*\[\s*([A-Za-z][\w-]*)\s*("(?:[^"\\]|\\.)*")?')
_PREFIX = re.compile(r"\s*([A-Za-z][\w-]*)\s*:")
_WORD = re.compile(r"[^\s;{}#]+")
_ASSERTIONS = ("turn", "expect", "impulse")

MAX_TOKENS_PER_LINE = 200
"""A line (of up to 2,000 characters) gives at most this many tokens."""


def line_tokens(line: str) -> list[tuple[int, int, int]]:
    """The tokens of one line: (start, length, type), in characters, in order."""
    out: list[tuple[int, int, int]] = []
    body, comment = _split_comment(line)
    tag = _TAG.match(body)
    if tag and body.lstrip().startswith("["):
        out.append((tag.start(1), len(tag.group(1)), KEYWORD))
        if tag.group(2):
            out.append((tag.start(2), len(tag.group(2)), STRING))
    elif body.strip():
        out += _action_tokens(body)
    if comment is not None:
        out.append((comment, len(line) - comment, COMMENT))
    return out[:MAX_TOKENS_PER_LINE]


def _split_comment(line: str) -> tuple[str, int | None]:
    """The line before its comment, and where the comment starts (a ``#`` outside quotes
    and braces)."""
    quoted = False
    depth = 0
    for index, ch in enumerate(line):
        if ch == '"':
            quoted = not quoted
        elif not quoted and ch == "{":
            depth += 1
        elif not quoted and ch == "}":
            depth = max(0, depth - 1)
        elif ch == "#" and not quoted and not depth:
            return line[:index], index
    return line, None


def _action_tokens(body: str) -> list[tuple[int, int, int]]:
    out: list[tuple[int, int, int]] = []
    at = 0
    prefix = _PREFIX.match(body)
    if prefix:
        kind = KEYWORD if prefix.group(1).lower() == "setup" else SIDE
        out.append((prefix.start(1), len(prefix.group(1)), kind))
        at = prefix.end()
    for item_start, item in _items(body, at):
        brace = item.find("{")
        words = item if brace < 0 else item[:brace]
        first = True
        for match in _WORD.finditer(words):
            start = item_start + match.start()
            word = match.group()
            if first:
                out.append((start, len(word),
                            KEYWORD if word.lower() in _ASSERTIONS else COMMAND))
                first = False
            else:
                out.append((start, len(word), DICE if word.isdigit() else NAME))
        if brace >= 0:
            close = item.find("}", brace)
            end = len(item) if close < 0 else close + 1
            out.append((item_start + brace, end - brace, DICE))
    return out


def _items(body: str, at: int) -> list[tuple[int, str]]:
    """The ``;``-separated items of an action line from ``at``: (start, text)."""
    out: list[tuple[int, str]] = []
    start = at
    depth = 0
    for index in range(at, len(body) + 1):
        ch = body[index] if index < len(body) else ";"
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth = max(0, depth - 1)
        elif ch == ";" and not depth:
            out.append((start, body[start:index]))
            start = index + 1
    return out


def encode(lines: list[str]) -> list[int]:
    """The tokens of a document in the protocol's relative form (line delta, start delta,
    length, type, no modifiers), columns in UTF-16 code units."""
    data: list[int] = []
    previous_line = 0
    previous_start = 0
    for number, line in enumerate(lines):
        for start, length, kind in line_tokens(line):
            if length <= 0:
                continue
            column = utf16_column(line, start)
            width = utf16_column(line, start + length) - column
            delta_line = number - previous_line
            delta_start = column - previous_start if delta_line == 0 else column
            data += [delta_line, delta_start, width, kind, 0]
            previous_line, previous_start = number, column
    return data
