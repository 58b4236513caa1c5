"""``referee fmt``: a log rewritten in its canonical form, meaning unchanged.

Every action line is written as the referee writes commands (names as the game spells them,
one space apart, ``->`` arrows, ``; `` between commands, each command's dice record right
after it), tags as ``[Name "value"]``, assertion and setup lines with single spaces.  A line
without a comment gets one with its results, as ``referee play`` writes them; a comment the
log already has is kept, so formatting a formatted log changes nothing.  Blank lines and
comment lines stay where they are.
"""

from __future__ import annotations

from dataclasses import dataclass

from referee.core.errors import HeaderError, RefereeError
from referee.core.log import ActionLine, Entry, ParsedLog, TagLine
from referee.core.replay import Report, replay

RESULT_CHARS = 120
"""Each command's part of a results comment is shortened to this many characters."""

_QUIET = frozenset({"spent"})
"""Event kinds a results comment leaves out (the activation cubes of every activation)."""


class CannotFormat(RefereeError):
    """The log cannot be formatted without risking its meaning."""

    kind = HeaderError.kind


@dataclass(frozen=True)
class Formatted:
    text: str
    report: Report
    changed: int
    """How many lines differ from the original."""


def format_log(text: str, log: ParsedLog) -> Formatted:
    """The canonical text of ``log`` (parsed from ``text``)."""
    if log.unreadable or log.problems:
        first = log.problems[0] if log.problems else None
        where = f" (line {first.line}: {first.message})" if first and first.line else (
            f" ({first.message})" if first else "")
        raise CannotFormat(f"the log must be read without problems before it is formatted"
                           f"{where}; fix that first ('referee check' lists them all)")
    if "Pbem" in log.tags:
        raise CannotFormat("a play-by-email log is sealed line by line: formatting it would "
                           "break its seals ('referee play' writes it canonically already)")
    report = replay(log)
    entries: dict[int, Entry] = {entry.number: entry for entry in log.entries}
    for name, number in log.tag_lines.items():
        entries[number] = TagLine(number, "", name=name, value=log.tags[name])
    lines = text.split("\n")
    out: list[str] = []
    changed = 0
    for number, raw in enumerate(lines, 1):
        entry = entries.get(number)
        line = raw.rstrip() if entry is None else _canonical(entry, raw, report)
        changed += line != raw
        out.append(line)
    return Formatted("\n".join(out), report, changed)


def _canonical(entry: Entry, raw: str, report: Report) -> str:
    code, hash_, comment = _split_comment(raw, entry)
    if isinstance(entry, TagLine):
        value = entry.value.replace("\\", "\\\\").replace('"', '\\"')
        body = f'[{entry.name} "{value}"]'
    elif isinstance(entry, ActionLine):
        parts = [str(item.command) + (f" {item.dice}" if item.dice is not None else "")
                 for item in entry.items]
        body = (f"{entry.side}: " if entry.side else "") + "; ".join(parts)
        if not hash_:
            results = _results(report, entry.number)
            if results:
                return f"{body}  # {results}"
    else:
        body = " ".join(code.split())
    return f"{body}  #{comment.rstrip()}" if hash_ and comment.strip() else body


def _split_comment(raw: str, entry: Entry) -> tuple[str, bool, str]:
    """The code and the comment of a line; a tag's value may hold a ``#``."""
    if isinstance(entry, TagLine):
        end = raw.rfind("]")
        code, rest = raw[: end + 1], raw[end + 1 :]
        _, hash_, comment = rest.partition("#")
        return code, bool(hash_), comment
    code, hash_, comment = raw.partition("#")
    return code, bool(hash_), comment


def _results(report: Report, number: int) -> str:
    """Each command's results on line ``number``, commands apart by ``;``."""
    by_command: dict[str, list[str]] = {}
    for item in report.events:
        if item.line == number and item.event.kind not in _QUIET:
            by_command.setdefault(item.command, []).append(item.event.text)
    return "; ".join(_shorten(", ".join(texts)) for texts in by_command.values())


def _shorten(text: str) -> str:
    text = " ".join(text.replace("#", "no.").replace(";", ",").split())
    return text if len(text) <= RESULT_CHARS else text[: RESULT_CHARS - 3].rstrip() + "..."
