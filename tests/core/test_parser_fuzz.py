"""Hypothesis: the parser answers any text with entries and clean problems, never a crash."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.core.errors import Problem
from referee.core.parsing import decode_log, parse_log
from referee.core.replay import replay

HEADER = '[Game "battle-card"]\n[Seed "7"]\n'

# Text built from the pieces of the log language, so that the fuzzing reaches deep into the
# grammar instead of stopping at the first character.
PIECES = st.sampled_from(
    [
        "attack",
        "defend",
        "move",
        "pass",
        "airdrop",
        "landing",
        "turn",
        "expect",
        "allied:",
        "german:",
        "referee:",
        "Eindhoven",
        "Grave",
        "Nijmegen",
        "Arnhem",
        "Belgium",
        "30-corps",
        "82nd",
        "101st",
        "1st",
        "->",
        "-",
        ";",
        "{",
        "}",
        "d6:",
        "d10:",
        "|",
        "#",
        "[",
        "]",
        '"',
        "=",
        "0",
        "1",
        "6",
        "7",
        "99999999999999",
        " ",
        "\n",
        "\t",
        "é",
        "\u202e",
    ]
)
LOGLIKE = st.lists(PIECES, max_size=40).map("".join)


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(st.text(max_size=300))
def test_any_text_parses_to_clean_problems(text: str) -> None:
    log = parse_log(HEADER + text)
    assert all(isinstance(p, Problem) and p.message for p in log.problems)


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(LOGLIKE)
def test_loglike_text_replays_without_crashing(text: str) -> None:
    report = replay(parse_log(HEADER + text))
    assert report.exit_code in (0, 1, 2)
    assert all(p.message for p in report.problems)


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=200))
def test_any_bytes_decode_or_give_a_reason(data: bytes) -> None:
    try:
        decode_log(data)
    except Exception as error:  # only our own errors may come out
        from referee.core.errors import RefereeError

        assert isinstance(error, RefereeError)
        assert error.message
