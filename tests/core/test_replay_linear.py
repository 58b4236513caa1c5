"""Replay does a bounded amount of work per line, whatever the log's length (issue 11: the
guaranteed cost per line, docs/log-format.md "Cost per line").

Not a timed test: it counts the lines of Python the referee executes (``sys.settrace``) to
read and replay a log of N lines of one kind and of 10N, and requires at most 11 times as
many for 10 times the lines.  A scan over the rest of the log at every line (as
``_next_action`` once did) or a whole-state copy per assertion that grows with the log fails.
"""

from __future__ import annotations

import sys
from types import FrameType
from typing import Any

import pytest

from referee.core.parsing import parse_log
from referee.core.replay import replay

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[2] / "bench"))
from replay_scaling import KINDS, log_text  # bench/replay_scaling.py: the same logs

SMALL = 60


def executed_lines(text: str) -> int:
    count = 0

    def tracer(frame: FrameType, event: str, arg: Any) -> Any:
        nonlocal count
        if event == "line":
            count += 1
        return tracer

    sys.settrace(tracer)
    try:
        replay(parse_log(text, "linear.log"))
    finally:
        sys.settrace(None)
    return count


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_ten_times_the_lines_cost_at_most_eleven_times_the_work(kind: str) -> None:
    lines = len(KINDS[kind][0].splitlines()) + 3  # the header and the lines before the run
    small = executed_lines(log_text(kind, lines + SMALL))
    large = executed_lines(log_text(kind, lines + 10 * SMALL))
    assert large <= 11 * small, f"{kind}: {small} -> {large} lines executed"
