"""Errors that lead to the fix: did-you-mean by the game's own names first."""

from __future__ import annotations

from pathlib import Path

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


def test_follow_on_problems_are_grouped_under_the_line_they_follow_from(tmp_path: Path) -> None:
    """Issue 28, 3: "N more problems may follow from line X" lists under line X only what
    line X caused: the problems met while the game still waits where X left it (no line
    accepted since).  Once a line is accepted, a later disagreement is a problem of its own."""
    import json

    from click.testing import CliRunner

    from referee.cli import main

    log = tmp_path / "table.log"
    # Line 3 is illegal and skipped: turn 1's combats still wait, so line 4 disagrees
    # because of it.  Line 5 is accepted; line 6's turn is wrong because the Allied movement
    # (turn step 3) was never written, not because of line 3.
    log.write_text('[Game "battle-card"]\n[Seed "1"]\nattack Nijmegen\nturn 2\n'
                   "attack Eindhoven; defend Grave; attack Arnhem\nturn 2\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["check", str(log)])
    assert "1 more problem may follow from line 3; fix it first" in result.stdout
    assert "      line 4: assertion: the log says turn 2" in result.stdout
    assert ":6:6: assertion: the log says turn 2, but it is turn 1" in result.stdout
    result = CliRunner().invoke(main, ["replay", str(log), "--json"])
    problems = json.loads(result.stdout)["problems"]
    assert [(p["line"], p["follows"]) for p in problems] == [(3, None), (4, 3), (6, None)]


def first_problem(lines: str) -> tuple[str | None, str]:
    report = replay_text(HEADER + lines)
    assert report.problems
    return report.problems[0].rule, report.problems[0].message


def test_3G_an_unprepared_unit_starts_turn_1_spent() -> None:
    rule, message = first_problem("allied: move-out 1P/1AB Heelsum->Renkum\n"
                                  "allied: activate 505/82 Groesbeek->Hengstal\n"
                                  "german: activate 9SS Apeldoorn\n")
    assert rule == "3.G" and "9SS starts Game-turn 1 spent" in message


def test_4_turn_1_has_no_weather_roll() -> None:
    rule, message = first_problem("allied: move-out 1P/1AB Heelsum->Renkum\nweather {d10: 3}\n")
    assert rule == "4" and "Game-turn 1 has no weather roll: its weather is clear" in message


def test_7_1_extra_dice_are_explained_unit_by_unit() -> None:
    text = """[Game "wwiic"]
setup: clear; turn 6; weather clear; initiative allied; time 0; phase weather
setup: control De Groote allied; control Borkel allied; control Valkenswaard allied
setup: control Eindhoven allied
setup: place 21G/5G Waalre strength 3; place 32G Waalre; place 505/82 Groesbeek strength 4
setup: place 44RT Hernen strength 2; place 59 Geldorp strength 1
setup: place KG-Walther Nuenen strength 2; place 107Pz Mierlo strength 2
weather {d10: 1}
turn 6
allied: replace 21G/5G
german: replace KG-Walther
allied: activate 21G/5G Waalre->Geldorp, 32G Waalre->Geldorp
allied: attack Geldorp {d10: 1 1 1 1 | 1 1 1 1 1 1 | 10 10}
"""
    report = replay_text(text)
    (message,) = [p.message for p in report.problems]
    # The roll as described before it is rolled (issue 28): one batch a unit, then the count.
    assert message.startswith("'attack Geldorp' needs 4 d10 for 21G/5G attacking at Geldorp "
                              "(strength 4, one die per strength point: 7.1)")
    assert "; 6 d10 for 32G attacking at Geldorp (strength 6" in message
    assert "; 1 d10 for 59 defending at Geldorp (strength 1" in message
    assert message.endswith("; 12 dice recorded, 1 too many (the rules rolled 11).")


def test_7_1_armor_in_rough_terrain_says_why_it_rolls_two() -> None:
    from referee.games.wwiic.board import bundled_board
    from referee.games.wwiic.combat import capped
    from referee.games.wwiic.sequence import opening

    board = bundled_board()
    state = opening(board)
    rough = next(s for s, t in board.terrain.items() if t == "woods")
    state.strength["21G/5G"] = 4
    assert capped(board, state, "21G/5G", rough) == (
        " (armor in woods rolls at most 2 dice, not one per strength point: 7.1)")
    assert capped(board, state, "32G", rough) == ""
