"""Errors that lead to the fix: did-you-mean by the game's own names first."""

from __future__ import annotations

from referee.api import replay_text

HEADER = '[Game "wwiic"]\n[Seed "1"]\n'


def suggestion(line: str) -> str:
    report = replay_text(HEADER + line + "\n")
    assert report.problems and report.problems[0].kind == "unknown-name"
    return report.problems[0].message


def test_did_you_mean_ranks_the_name_the_typed_one_begins() -> None:
    assert "did you mean '1P/1AB'" in suggestion("allied: move-out 1P Heelsum->Renkum")
    assert "did you mean 'B/504/82' or 'A/504/82'" in suggestion(
        "allied: move-out 504 Heelsum->Renkum")


def test_did_you_mean_finds_a_unit_by_words_of_its_full_name() -> None:
    assert "did you mean '21G/5G'" in suggestion("allied: move-out Irish Heelsum->Renkum")
