"""``referee fmt --fix``: the repairs a log can take without anyone deciding anything.

- A log **quoted** by a mail client (``> `` before its lines, ``mail.quoted``) loses the
  quoting, level by level, and the reply's attribution line just above it ("On ..., Bob
  wrote:").
- A log **wrapped** by a mail client (``mail.broken_lines``) has each line the wrapping
  broke off joined back to the line before it, with the one space the wrapping took.
- A **misspelt name** with exactly one did-you-mean suggestion (``UnknownName``) is replaced
  by it; a name with none, or with several, is left for the player.  Never in a play-by-
  e-mail log: its seals cover each line's text.

Each repair is a ``Fix`` (line, old, new, why) that ``fmt`` prints; the line numbers of the
name repairs are those of the log after the mail repairs.  Nothing here applies a rule.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from referee.core.errors import Problem, ProblemKind, RefereeError, UnknownName
from referee.core.mail import broken_lines, quoted

MAX_FIXES_PER_LINE = 20
"""A line with more misspelt names than this is left with the rest (a guard, not a limit a
real log reaches)."""


@dataclass(frozen=True)
class Fix:
    """One repair: at ``line``, ``old`` became ``new``, because ``why``."""

    line: int
    old: str
    new: str
    why: str

    def __str__(self) -> str:
        return f"line {self.line}: '{self.old}' -> '{self.new}' ({self.why})"


def unquote(lines: list[str]) -> tuple[list[str], list[Fix]]:
    """The lines without a mail client's ``>`` quoting (every level), and what was removed."""
    fixes: list[Fix] = []
    while quoted(lines) is not None:
        marked = [n for n, line in enumerate(lines, 1) if line.lstrip().startswith(">")]
        stripped = []
        for line in lines:
            rest = line.lstrip()
            if rest.startswith(">"):
                rest = rest[1:]
                line = rest[1:] if rest.startswith(" ") else rest
            stripped.append(line)
        fixes.append(Fix(marked[0], lines[marked[0] - 1], stripped[marked[0] - 1],
                         f"a mail client's quoting '>', removed from {len(marked)} lines"))
        lines = stripped
        above = _attribution(lines, marked[0])
        if above is not None:
            fixes.append(Fix(above, lines[above - 1], "",
                             "the mail reply's attribution line above the quoted log"))
            lines = [*lines[: above - 1], "", *lines[above:]]
    return lines, fixes


def _attribution(lines: list[str], first: int) -> int | None:
    """The line just above the first quoted one that a mail reply writes ("... wrote:")."""
    index = first - 2
    while index >= 0 and not lines[index].strip():
        index -= 1
    if index >= 0 and lines[index].rstrip().endswith("wrote:") and not lines[index].startswith(
            ("[", "#")):
        return index + 1
    return None


def unwrap(lines: list[str], engine: Any) -> tuple[list[str], list[Fix]]:
    """The lines with what a mail client's wrapping broke off joined back (line numbers in
    the fixes are the wrapped log's)."""
    broken = broken_lines(lines, _syntax_problems(lines, engine))
    if not broken:
        return lines, []
    fixes: list[Fix] = []
    out = list(lines)
    for number in sorted(broken, reverse=True):  # from the bottom: a chain joins whole
        above = number - 2
        while above >= 0 and not out[above].strip():
            above -= 1
        joined = out[above].rstrip() + " " + out[number - 1].strip()
        fixes.append(Fix(above + 1, out[above], joined,
                         f"a mail client's wrapping: line {number} joined back to it"))
        out[above] = joined
        del out[number - 1]
    fixes.reverse()
    return out, fixes


def _syntax_problems(lines: list[str], engine: Any) -> list[Problem]:
    from referee.core.grammar import game_parser
    from referee.core.parsing import _parse_line

    parser = game_parser(engine.grammar)
    problems = []
    for number, line in enumerate(lines, 1):
        if not line.strip() or line.strip().startswith("#"):
            continue
        try:
            _parse_line(parser, engine, number, line)
        except RefereeError as error:
            if error.kind is ProblemKind.SYNTAX:
                problems.append(error.to_problem(line=number, text=line))
    return problems


def respell(lines: list[str], engine: Any) -> tuple[list[str], list[Fix]]:
    """The lines with each misspelt name that has exactly one suggestion replaced by it."""
    from referee.core.grammar import game_parser
    from referee.core.parsing import _parse_line

    parser = game_parser(engine.grammar)
    fixes: list[Fix] = []
    out = list(lines)
    for index, line in enumerate(out):
        if not line.strip() or line.strip().startswith("#"):
            continue
        for _ in range(MAX_FIXES_PER_LINE):
            try:
                _parse_line(parser, engine, index + 1, line)
            except UnknownName as error:
                at = (error.column or 0) - 1
                if len(error.suggestions) != 1 or at < 0 or (
                        line[at: at + len(error.name)] != error.name):
                    break
                new = error.suggestions[0]
                fixes.append(Fix(index + 1, error.name, new, "did you mean"))
                line = line[:at] + new + line[at + len(error.name):]
                continue
            except RefereeError:
                break
            break
        out[index] = line
    return out, fixes


def sealed(lines: list[str]) -> bool:
    """A play-by-e-mail log: its seals cover each line's text, so no name in it is changed
    (undoing a mail client's damage gives back the text that was sealed)."""
    return any(line.lstrip().startswith(SEALED_TAG) for line in lines)


SEALED_TAG = '[Pbem "'
"""The tag of a play-by-e-mail log (docs/pbem.md)."""


def repair(text: str, engine_of: Any) -> tuple[str, list[Fix]]:
    """``text`` with every repair this module makes, and the repairs.  ``engine_of(lines)``
    gives the engine the log's lines are read with (``None``: the game is unknown, and only
    the quoting is repaired)."""
    ends_with_newline = text.endswith("\n")
    lines = text.splitlines()
    lines, fixes = unquote(lines)
    engine = engine_of(lines)
    if engine is not None:
        lines, unwrapped = unwrap(lines, engine)
        fixes += unwrapped
        if not sealed(lines):
            lines, respelt = respell(lines, engine)
            fixes += respelt
    repaired = "\n".join(lines) + ("\n" if ends_with_newline else "")
    return (repaired if fixes else text), fixes
