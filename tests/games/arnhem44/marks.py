"""The illegal logs' marks: each illegal line follows a comment ``# illegal [RULE]: why``."""

from __future__ import annotations

import re
from pathlib import Path

MARK = re.compile(r"^# illegal \[([^\]]+)\]: ")


def marked_lines(path: Path) -> set[tuple[int, str]]:
    """(line number, rule) of every line an ``# illegal [RULE]:`` comment marks."""
    lines = path.read_text(encoding="utf-8").splitlines()
    marked = set()
    for number, line in enumerate(lines[1:], 2):
        match = MARK.match(lines[number - 2])
        if match and not line.startswith("#"):
            marked.add((number, match.group(1)))
    return marked
