"""`expect` lines in WWII Commander logs: what state they see, and values the grammar must
read (negative numbers, words that are also keywords).  docs/log-format.md, "Assertions"."""

from __future__ import annotations

import pytest

from referee.core.parsing import parse_log
from referee.core.replay import Report, replay
from referee.games.wwiic.engine import ENGINE

# 2HC attacks KG-Walther (strength 2) in Geldorp, every space around Allied-controlled: the
# two hits eliminate KG-Walther, the German player's only answer (7.5; no retreat, 7.6).
POSITION = """[Game "wwiic"]
setup: clear; turn 3; weather clear; initiative allied; time 0; impulse allied
setup: place 2HC Geldorp; place KG-Walther Geldorp strength 2; control Geldorp german
setup: control Eindhoven allied; control Heeze allied; control Mierlo allied
setup: control Nuenen allied; control Waalre allied
allied: activate 2HC; attack Geldorp {d10: 1 1 | 10 10}
"""


def run(text: str) -> Report:
    return replay(parse_log(POSITION + text, "<test>", engine=ENGINE), ENGINE)


@pytest.mark.parametrize("after", ["german: hits KG-Walther KG-Walther", "allied: no breakthrough",
                                   ""])
def test_7_5_expect_sees_a_single_answer_decision_applied_whatever_line_follows(
    after: str,
) -> None:
    """7.3/7.5: the German hits have one legal allocation, which the referee applies by itself;
    an assertion between the attack and that decision sees it applied, whether the next line
    writes it, writes the Allied decision that follows, or the log ends."""
    report = run("expect vp.eliminated = 1\nexpect units.KG-Walther.status = eliminated\n"
                 + after + "\n")
    assert report.problems == [], report.problems


def test_expect_reads_a_negative_number() -> None:
    report = run("expect vp.eliminated = -5\nexpect vp.eliminated = 1\n")
    (problem,) = report.problems
    assert str(problem.kind) == "assertion"
    assert problem.message == "the log expects vp.eliminated = -5, but it is 1."


def test_expect_reads_a_value_that_holds_keywords() -> None:
    text = """[Game "wwiic"]
expect units.P/1P.status = due turn 7   # a comment after the value
expect units.P/1P.status = due turn 4
"""
    report = replay(parse_log(text, "<test>", engine=ENGINE), ENGINE)
    units = ENGINE.to_json(ENGINE.setup(None, {}))["units"]
    assert next(u for u in units if u["id"] == "P/1P")["status"] == "due turn 7"
    (problem,) = [p for p in report.problems if p.line == 3]
    assert problem.message == ("the log expects units.P/1P.status = due turn 4, but it is due "
                               "turn 7.")
    assert [p for p in report.problems if p.line == 2] == []


def test_7_7_a_line_for_the_same_sides_next_decision_comes_after_its_single_answer() -> None:
    """The attacker's hits have one answer (hits 2HC), which the referee applies; the Allied
    line that follows writes the breakthrough (7.7), the decision after it, not those hits."""
    text = POSITION.replace("{d10: 1 1 | 10 10}", "{d10: 1 1 | 1 10}")
    text += "allied: breakthrough 2HC->Heeze\nexpect units.2HC.space = Heeze\n"
    report = replay(parse_log(text, "<test>", engine=ENGINE), ENGINE)
    assert report.problems == [], report.problems
    autos = [e.command for e in report.events if e.auto]
    assert "hits KG-Walther KG-Walther" in autos and "hits 2HC" in autos


def test_expect_without_a_value_and_stray_text_elsewhere_read_plainly() -> None:
    """The value terminal takes the rest of a line only after ``expect KEY =``; elsewhere a
    stray character is named alone, and a missing value is asked for as "a value"."""
    report = run("expect vp.eliminated =\nallied: hits 2HC ! x\n")
    messages = [p.message for p in report.problems]
    assert messages[0] == "the line ends too soon; expected a value."
    assert messages[1].startswith("unexpected '!'; expected")
