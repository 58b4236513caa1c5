"""The pieces of the output that are plain text, without rich: shared by the terminal output
(``referee.output``, which styles them) and the play-by-email text (``referee.output_mail``),
so that ``referee status`` and ``referee play`` print without loading rich."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from referee.core.engine import RollNeed, needs_text
from referee.core.errors import Problem

_UNPRINTABLE = re.compile(
    r"[\x00-\x08\x0a-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]"
)
"""Control characters (C0 but the tab, DEL, C1) and the line and bidirectional-override
marks: a log holding them could move the cursor, recolour or reorder what a player reads."""


def _escaped(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: str) -> str:
    """``text`` with every control character written as an escape (``\\x1b``), so text
    from a log can never act on the terminal (or spoof a status e-mail)."""
    return _UNPRINTABLE.sub(_escaped, text)


def problem_parts(problem: Problem, source: str = "") -> list[tuple[str, str | None]]:
    """A problem as a player reads it, in pieces of text each with its style (rich's style
    name, or ``None``): where, what, the line with a caret, the way out."""
    where = source
    if problem.line is not None:
        where += f":{problem.line}"
        if problem.column is not None:
            where += f":{problem.column}"
    rule = f" [{problem.rule}]" if problem.rule else ""
    parts: list[tuple[str, str | None]] = [
        (f"{printable(where)}: " if where else "", "bold"),
        (f"{problem.kind}{printable(rule)}", "bold red"),
        (f": {printable(problem.message)}", None),
    ]
    if problem.text:
        raw = problem.text.expandtabs(1)
        line = printable(raw)
        parts.append((f"\n    {line}", "dim"))
        if problem.column is not None and problem.column <= len(raw) + 1:
            # Under the column's character, wherever the escapes before it moved it.
            offset = len(printable(raw[: problem.column - 1]))
            parts.append(("\n    " + " " * offset + "^", "bold red"))
    if problem.hint:
        parts.append((f"\n    {printable(problem.hint)}", "cyan"))
    return parts


def problem_plain(problem: Problem, source: str = "") -> str:
    """``problem_parts`` as plain text (what ``referee.output.problem_text`` shows, without
    its styles)."""
    return "".join(text for text, _ in problem_parts(problem, source))


def dice_line(dice: Sequence[Mapping[str, Any]]) -> str:
    """The pending roll in words (``pending.dice``, as the engine described it): ``roll: 4
    d10 for 406 at Wyler (strength 4), then 1 d10 per hit for the distribution``."""
    needs = [RollNeed(d["die"], d["count"], d["for"], d.get("then")) for d in dice]
    return "roll: " + needs_text(needs)
