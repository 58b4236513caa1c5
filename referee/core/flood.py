"""A flood of problems, capped as a compiler caps it: the first ones in full, then one line
that counts the rest by kind and rule (DESIGN.md, "Problems").  A log of 99,990 mistaken
lines is then read in a page, and printing it costs no more than replaying it.

Only the text output is capped: ``--json`` lists every problem, and ``--all`` prints every
one as text too.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from referee.core.errors import Problem

SHOWN = 100
"""How many problems the text output prints in full (follow-on lines included)."""


def rest_line(rest: Iterable[Problem], shows: str = "--all shows them") -> str:
    """``and 99,890 more: illegal-move [Turn step 1] x99,890; --all shows them``: the
    problems left out, counted by kind and rule, the most frequent first (ties in the order
    they first come).  ASCII only: it goes into e-mails and any terminal."""
    counts: Counter[tuple[str, str | None]] = Counter(
        (str(problem.kind), problem.rule) for problem in rest
    )
    total = sum(counts.values())
    kinds = ", ".join(
        f"{kind}{f' [{rule}]' if rule else ''} x{count:,}"
        for (kind, rule), count in counts.most_common()
    )
    return f"and {total:,} more: {kinds}; {shows}"
