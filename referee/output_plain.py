"""The pieces of the output that are plain text, without rich: shared by the terminal output
(``referee.output``, which styles them) and the play-by-email text (``referee.output_mail``),
so that ``referee status`` and ``referee play`` print without loading rich."""

from __future__ import annotations

import os
import re
import sys
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


def moves_lines(pending: Mapping[str, Any] | None) -> list[tuple[str, bool]]:
    """``referee moves``' lines for one pending decision: (text, bold)."""
    if pending is None:
        return [("the game is over: nobody moves", False)]
    lines = [(printable(pending["text"]), True)]
    if pending["dice"]:
        lines.append((printable("  " + dice_line(pending["dice"])), False))
    lines += [(printable(f"  {choice}"), False) for choice in pending["choices"]]
    return lines


def unit_moves_lines(side_title: str, decision: str, units: Sequence[Mapping[str, Any]],
                     others: Sequence[str] = (), more: bool = False) -> list[tuple[str, bool]]:
    """``referee moves``' lines for games that group activations by unit: (text, bold)."""
    lines = [(f"awaiting {side_title}: {decision}", True)]
    for unit in units:
        commands = unit.get("commands", [])
        lines.append((printable(f"{unit['unit']} ({unit.get('type', '')}) in "
                                f"{unit['from']}: {len(commands)} "
                                f"command{'' if len(commands) == 1 else 's'}"), True))
        lines += [(printable(f"  {command}"), False) for command in commands]
    if others:
        lines.append((f"other commands: {len(others)}{' and more' if more else ''}", True))
        lines += [(printable(f"  {command}"), False) for command in others]
    return lines


PLAIN_WIDTH = 10_000
"""``referee.output.UNWRAPPED_WIDTH``: rich wraps no line shorter than this."""


def plain_stdout(color: str) -> bool:
    """Whether rich would print to standard output without any style (``--color auto``, not
    a terminal, and neither ``TTY_COMPATIBLE=1`` nor ``FORCE_COLOR`` makes rich take it for
    one): such output can be written without loading rich."""
    if color != "auto" or os.environ.get("TTY_COMPATIBLE") == "1" \
            or os.environ.get("FORCE_COLOR"):
        return False
    isatty = getattr(sys.stdout, "isatty", None)
    try:
        return not (callable(isatty) and isatty())
    except ValueError:  # a closed stream
        return True


def write_plain(lines: Sequence[tuple[str, bool]]) -> bool:
    """Write ``lines`` to standard output as rich prints them when ``plain_stdout`` (each
    line's spaces at its end dropped, as ``output.TrimmedLines`` does); False, writing
    nothing, when a line holds what rich would change (a tab, a line too long to stay
    whole)."""
    if any("\t" in text or len(text) >= PLAIN_WIDTH for text, _ in lines):
        return False
    sys.stdout.write("".join(text.rstrip(" ") + "\n" for text, _ in lines))
    sys.stdout.flush()
    return True
