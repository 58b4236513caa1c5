"""Logs that went through a mail client's hands: quoted with ``> `` or wrapped at 72-78
columns.  Such a log is named for what happened to it, in one problem, instead of a syntax
error for every broken line."""

from __future__ import annotations

from referee.core.errors import LogSyntaxError, Problem, ProblemKind

ADVICE = "send the log as an attachment (or save the original file) and try again"

WRAP_WIDTHS = range(60, 81)
"""The widths mail clients wrap at (72 to 78 mostly; a little either side)."""


def quoted(lines: list[str]) -> Problem | None:
    """A log whose lines are quoted with ``>`` as a mail reply quotes them."""
    # A line without '>' is not marked (``in`` is cheaper than stripping every line).
    marked = [n for n, line in enumerate(lines, 1)
              if ">" in line and line.lstrip().startswith(">")]
    if len(marked) < 2:
        return None
    body = [line for line in lines if line.strip()]
    if len(marked) * 2 < len(body):
        return None
    return LogSyntaxError(
        f"this log looks quoted by a mail client ({len(marked)} lines start with '>'); "
        f"{ADVICE}"
    ).to_problem(line=marked[0], text=lines[marked[0] - 1])


def wrapped(lines: list[str], problems: list[Problem]) -> Problem | None:
    """A log wrapped by a mail client: at least two lines that cannot be read each follow a
    line that ends near the wrap width, just where the next word would have crossed it."""
    broken = broken_lines(lines, problems)
    if not broken:
        return None
    longest = max((len(line.rstrip()) for line in lines), default=0)
    shown = ", ".join(str(n) for n in broken[:5]) + (", ..." if len(broken) > 5 else "")
    return LogSyntaxError(
        f"this log looks wrapped by a mail client: no line is longer than {longest} "
        f"characters, and {len(broken)} lines (lines {shown}) continue the line before "
        f"them; {ADVICE}"
    ).to_problem(line=broken[0], text=lines[broken[0] - 1])


def broken_lines(lines: list[str], problems: list[Problem]) -> list[int]:
    """The lines a mail client's wrapping broke off the line before them (numbers from 1),
    when the log looks wrapped (``wrapped``); empty otherwise."""
    syntax = [p for p in problems if p.kind is ProblemKind.SYNTAX and p.line]
    if len(syntax) < 2:
        return []
    longest = max((len(line.rstrip()) for line in lines), default=0)
    if longest not in WRAP_WIDTHS:
        return []
    broken = []
    for problem in syntax:
        assert problem.line is not None
        before = _previous(lines, problem.line)
        if before is None:
            continue
        first_word = lines[problem.line - 1].split(maxsplit=1)[0]
        width = len(before.rstrip())
        if width >= WRAP_WIDTHS.start and width + 1 + len(first_word) > longest:
            broken.append(problem.line)
    if len(broken) < 2 or len(broken) * 2 < len(syntax):
        return []
    return broken


def _previous(lines: list[str], number: int) -> str | None:
    index = number - 2
    while index >= 0 and not lines[index].strip():
        index -= 1
    return lines[index] if index >= 0 else None


def explain(lines: list[str], problems: list[Problem]) -> list[Problem]:
    """``problems`` with the syntax errors a mail client caused replaced by one problem
    that says so (unchanged when the log does not look mangled)."""
    found = wrapped(lines, problems)
    if found is None:
        return problems
    return [found, *(p for p in problems if p.kind is not ProblemKind.SYNTAX)]


# -- writing for a mail body: at most MAIL_WIDTH columns, nothing a mail client rewrites ---

MAIL_WIDTH = 72
"""The widest line a mail body has: mail clients wrap plain text at 72 to 78 columns."""

_MANGLED = (">", "From ")
"""Line starts a mail client rewrites: ``>`` reads as a quote, ``From `` is escaped as
``>From `` by mbox."""


def mail_safe(line: str) -> str:
    """``line`` with a space before it when a mail client would rewrite its start."""
    return " " + line if line.startswith(_MANGLED) else line


def wrap(text: str, indent: str = "", more: str = "    ", width: int = MAIL_WIDTH
         ) -> list[str]:
    """``text`` wrapped at ``width`` columns (``indent`` first, ``more`` on the lines that
    continue it); a word longer than a line is split, never cut."""
    import textwrap

    words = " ".join(text.split())
    if not words:
        return [indent.rstrip()]
    lines = textwrap.wrap(words, width=width, initial_indent=indent,
                          subsequent_indent=indent + more, break_long_words=True,
                          break_on_hyphens=False)
    return [mail_safe(line) for line in lines]


def wrap_command(command: str, indent: str = "  ", width: int = MAIL_WIDTH) -> list[str]:
    """A shell command laid out at ``width`` columns that runs as written: each line but
    the last ends with `` \\`` (a shell line continuation, inside quotes too: the move then
    holds a few more spaces, which the referee reads as one).  A word longer than a line is
    split with a ``\\`` at its end and the rest at the start of the next line."""
    room = width - 2  # for " \"
    lines: list[str] = []
    current = indent
    for word in command.split(" "):
        while len(indent) + 4 + len(word) > room:  # a word longer than any line
            if current.strip():
                lines.append(current + " \\")
                current = indent + "    "
            cut = room - len(current)
            while word[cut:].startswith(_MANGLED) and cut > 1:
                cut -= 1
            lines.append(current + word[:cut] + "\\")
            current, word = "", word[cut:]
        if not current.strip():
            current += word
        elif len(current) + 1 + len(word) <= room:
            current += " " + word
        else:
            lines.append(current + " \\")
            current = indent + "    " + word
    lines.append(current)
    return lines
