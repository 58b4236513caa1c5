"""Issue 13's last items: ``hits none`` as a statement, full unit names written shorter,
an unusual character named by its code point, and the comment ``play`` writes on a WWII
Commander combat line."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from referee.api import replay_text
from referee.cli import main
from referee.core.errors import sentence

from ..conftest import LOGS

FULL_GAME = (LOGS / "wwiic" / "full-game-draw.log").read_text(encoding="utf-8").splitlines()


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def upto(line: int, *extra: str) -> str:
    """The bundled full game to ``line`` (1-based, included), then ``extra`` lines."""
    return "\n".join([*FULL_GAME[:line], *extra]) + "\n"


def test_7_5_hits_none_after_a_combat_the_terrain_emptied_is_a_statement() -> None:
    # Line 25: A/508/82 attacks Nijmegen; its one hit is taken away by the city (7.4).
    assert "allied: attack Nijmegen" in FULL_GAME[24]
    report = replay_text(upto(25, "german: hits none", *FULL_GAME[25:30]))
    assert report.problems == []
    stated = [e for e in report.events if e.event.kind == "statement"]
    assert [(e.line, e.event.text) for e in stated] == [
        (26, "German states no hits: none are waiting (7.5)")]
    # The statement changes nothing: the same state as the log without it.
    assert report.state == replay_text(upto(25, *FULL_GAME[25:30])).state


def test_7_5_hits_none_from_the_side_not_to_act_is_still_a_statement() -> None:
    # After the German's pass on line 26 the Allies act; the attacker states its 0 hits.
    report = replay_text(upto(26, "allied: hits none", *FULL_GAME[26:30]))
    assert report.problems == []


def test_7_5_hits_none_while_hits_are_due_is_refused_with_the_hits_to_apply() -> None:
    # Line 20: KG-Henke attacks Nijmegen and owes one hit (line 21 applies it).
    report = replay_text(upto(20, "german: hits none"))
    (problem,) = report.problems
    assert problem.rule == "7.5" and "1 hit to apply, not 0" in problem.message


def test_a_decision_not_pending_names_the_one_that_is() -> None:
    # Line 20's one hit was applied by the referee (a single answer): no combat waits.
    report = replay_text(upto(20, "allied: retreat 2HC->Grave"))
    (problem,) = report.problems
    assert problem.rule == "7.6"
    assert "no combat waiting for 'retreat 2HC->Grave'; now: Allied impulse 4" in problem.message


def test_full_unit_names_are_written_shorter_at_the_table() -> None:
    header = '[Game "wwiic"]\n[Seed "1"]\nallied: move-out 1P/1AB Heelsum->Renkum\nturn 1 PM\n'
    by_id = replay_text(header + "allied: activate 21G/5G De Groote->Westerhoven\n")
    for name in ("Irish Guards", "2nd Battalion Irish Guards", "irish-guards"):
        report = replay_text(header + f"allied: activate {name} De Groote->Westerhoven\n")
        assert report.problems == [], name
        assert report.state == by_id.state
    # A shorter form two units share names neither: did-you-mean offers both.
    report = replay_text(header + "allied: activate Grenadier Guards De Groote\n")
    (problem,) = report.problems
    assert problem.kind == "unknown-name"
    assert "'2GG/5G'" in problem.message and "'1GG/5G'" in problem.message


def test_hits_name_units_of_several_words() -> None:
    report = replay_text(upto(20, "german: hits Kampfgruppe Henke", *FULL_GAME[21:24]))
    assert report.problems == []


def test_an_invisible_character_is_named_by_its_code_point(tmp_path: Path) -> None:
    log = tmp_path / "game.log"
    log.write_text('[Game "wwiic"]\n[Seed "1"]\nallied: move-out 1P/1AB\u200b Heelsum->Renkum\n',
                   encoding="utf-8")
    code, out, _ = run("check", str(log))
    assert code == 2
    assert "unexpected U+200B zero width space (an invisible character: delete it)" in out
    log.write_text('[Game "wwiic"]\n[Seed "1"]\nallied: move-out 1P/1AB Heelsum\u2794Renkum\n',
                   encoding="utf-8")
    _, out, _ = run("check", str(log))
    assert "(U+2794 heavy wide-headed rightwards arrow)" in out


def test_problem_messages_are_sentences() -> None:
    assert sentence("the line ends too soon") == "the line ends too soon."
    assert sentence("did you mean '1P/1AB'?") == "did you mean '1P/1AB'?"
    assert sentence("(7.5)  ") == "(7.5)."
    for log in sorted(LOGS.glob("*/illegal*.log")):
        for problem in replay_text(log.read_text(encoding="utf-8")).problems:
            assert problem.message.endswith((".", "?", "!")), (log.name, problem.message)


def test_play_comments_a_wwiic_combat_line_with_its_hits(tmp_path: Path) -> None:
    log = tmp_path / "game.log"
    assert run("new", "wwiic", "--seed", "mg-21", "-o", str(log))[0] == 0
    first = next(i for i, line in enumerate(FULL_GAME) if line.startswith("allied: move-out"))
    for line in FULL_GAME[first:20]:
        if line.strip() and not line.startswith(("#", "expect")):
            command = line.split("#", 1)[0].strip()
            assert run("play", str(log), command)[0] == 0, command
    written = log.read_text(encoding="utf-8").splitlines()
    attack = next(line for line in reversed(written) if "attack Nijmegen" in line)
    comment = attack.split("#", 1)[1]
    assert "KG-Henke attacks" in comment and "hit" in comment
    assert run("play", str(log), "german: hits none")[0] == 1  # one hit is due
    assert run("play", str(log), "german: hits KG-Henke")[0] == 0
    assert run("verify", str(log))[0] == 0
