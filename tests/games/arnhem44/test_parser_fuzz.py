"""Hypothesis: any Arnhem '44 text gets entries and clean problems, never a crash."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.core.errors import Problem
from referee.core.parsing import parse_log
from referee.core.replay import replay
from referee.games.arnhem44.engine import ENGINE

HEADER = '[Game "arnhem44"]\n[Seed "7"]\n'
PIECES = st.sampled_from([
    "deploy", "move", "invade", "from", ":", "fall-back", "support", "no", "end", "setup",
    "movement", "combat", "first", "withdraw", "withdraw-order", "resign", "barrage",
    "landing", "rig", "joker", "reserve-order", "allied:", "german:", "referee:", "setup:",
    "place", "moved", "mp", "intruded", "clear", "round", "phase", "4.1", "5.2", "control",
    "Joes-bridge", "Oosterbeek", "Arnhem", "Start-Centre", "De Groote", "s-Hertogenbosch",
    "inf", "tank", "art", "inf/82", "tank/UK", "art/DE", "inf/XX", "0", "1", "2", "9", "10",
    "99999", "->", ",", ";", "{d10:", "{d6:", "}", "|", "#", " ", "\n", "allied", "german",
])


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(PIECES, max_size=30))
def test_any_text_gets_clean_problems(pieces: list[str]) -> None:
    text = HEADER + " ".join(pieces) + "\n"
    log = parse_log(text, "fuzz.log", engine=ENGINE)
    assert all(isinstance(p, Problem) for p in log.problems)
    report = replay(log, ENGINE)
    assert all(isinstance(p, Problem) for p in report.problems)
    assert report.exit_code in (0, 1, 2)
