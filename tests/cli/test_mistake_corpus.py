"""Issue 28, "Done when": a corpus of hand-written mistakes, at least ten per game (a misspelt
name, a wrong die count, an illegal move, a skipped step, a wrong side, a wrong ``expect`` …),
each with what a player must see: the rule cited, the caret's column, and what it follows
from.  The text a player reads is snapshotted; the table pins the parts that matter.

Each row: the log, then its problems as (line, column, kind, rule, follows).  The columns
are counted by hand on the line (the caret under the command that broke the rule, under the
die that is too many, under the name that is misspelt); the rules are the sections the
rulebooks give for the step (docs/log-format.md, "Problems").
"""

# ruff: noqa: E501  (a table of logs and their problems, one case a row)
from __future__ import annotations

import io

import pytest
from syrupy.assertion import SnapshotAssertion

from referee import output
from referee.api import replay_text

BC = '[Game "battle-card"]\n[Seed "17093953"]\n'
BC_TABLE = '[Game "battle-card"]\n'
WW = '[Game "wwiic"]\n[Seed "17091944"]\n'
WW_OUT = WW + "allied: move-out 1P/1AB Heelsum->Renkum\n"
KE = '[Game "koenig-eindhoven"]\n'
KE_935 = KE + "turn 1\nartillery {d6: 3}\nallied-support {d6: 4}\ndraw {cup: 935}\n"
AR = '[Game "arnhem44"]\n'
AR_41 = AR + "setup: clear; round 9; phase 4.1\nsetup: place 2 tank/UK, 1 inf/UK Best; place 1 inf Eindhoven\n"
AR_THREE = ('[Game "arnhem44"]\n[Option "three-players"]\nsetup: clear; round 9; phase 4.1; part uk\n'
            "setup: place 1 tank/UK, 1 inf/US Best; place 1 inf Eindhoven\n")

CASES: dict[str, tuple[str, list[tuple[int, int, str, str | None, int | None]]]] = {
    # -- Battle Card: Market Garden (solitaire: the player is the Allied side) ----------------
    "battle-card misspelt city": (BC + "turn 1\nattack Eindhovn\n", [(4, 8, "unknown-name", None, None)]),
    # Turn step 1: "Roll 1d6 and consult the combat results table": one die; the caret at the second.
    "battle-card a die too many": (BC + "turn 1\nattack Eindhoven {d6: 1 4}\n", [(4, 25, "dice-extra", None, None)]),
    "battle-card caret at the illegal command": (BC + "turn 1\nattack Eindhoven; attack Nijmegen; attack Grave\n", [(4, 19, "illegal-move", "Turn step 1", None)]),
    # The combats of turn step 1 come before the movement of turn step 3.
    "battle-card a step skipped": (BC + "turn 1\nmove 30-corps Belgium->Eindhoven\n", [(4, 1, "illegal-move", "Turn step 1", None)]),
    # Turn step 3: "to an adjacent location": Grave is two locations from Belgium.
    "battle-card not adjacent": (BC + "turn 1\nattack Eindhoven; attack Grave; attack Arnhem\nmove 30-corps Belgium->Grave\n", [(5, 1, "illegal-move", "Turn step 3", None)]),
    "battle-card wrong side": (BC + "german: pass\n", [(3, 1, "wrong-side", "Turn steps 1-5", None)]),
    "battle-card wrong expect": (BC + "turn 1\nexpect cities.Arnhem.control = allied\n", [(4, 8, "assertion", None, None)]),
    # Line 4 disagrees because line 3 was skipped; line 6 because turn step 3 was never written.
    "battle-card turn written early after a refused line": (BC + "attack Nijmegen\nturn 2\nattack Eindhoven; attack Grave; attack Arnhem\nturn 2\n", [(3, 1, "illegal-move", "Turn step 1", None), (4, 6, "assertion", None, 3), (6, 6, "assertion", None, None)]),
    # Airborne Landing: "Roll a die for each Allied unit": three dice, two recorded.
    "battle-card tabletop dice missing": (BC_TABLE + "airdrop {d6: 3 5}\n", [(2, 10, "dice-missing", None, None)]),
    # Turn step 4 (the landing roll) is the referee's; a tabletop log writes it before turn 2.
    "battle-card tabletop roll not written": (BC_TABLE + "airdrop {d6: 3 5 1}\nattack Eindhoven {d6: 4}; attack Grave {d6: 2}; attack Arnhem {d6: 6}\npass\nattack Eindhoven {d6: 4}\n", [(5, 1, "missing-decision", "Turn steps 1-5", None)]),
    "battle-card last result noted wrong": (BC + "turn 1\nattack Eindhoven\nexpect last.result = no effect\n", [(5, 8, "assertion", None, None)]),
    # -- WWII Commander: Market-Garden ------------------------------------------------------
    "wwiic misspelt unit": (WW_OUT + "allied: activate 505/28 Groesbeek->Mook\n", [(4, 18, "unknown-name", None, None)]),
    "wwiic misspelt space": (WW + "allied: move-out 1P/1AB Heelsum->Renkm\n", [(3, 34, "unknown-name", None, None)]),
    "wwiic wrong side": (WW + "german: move-out 1P/1AB Heelsum->Renkum\n", [(3, 1, "missing-decision", "4", None)]),
    # 3.H: the Red Devils Move Out is the game's first action.
    "wwiic a step skipped": (WW + "allied: activate 505/82 Groesbeek->Mook\n", [(3, 9, "illegal-move", "3.H", None)]),
    "wwiic a German unit activated by the Allies": (WW_OUT + "allied: activate 1P/1AB Renkum, KG-Krafft Wolfheze\n", [(4, 9, "illegal-move", "4", None)]),
    # 6: a unit moves one or two spaces (further only by strategic movement, 6.4).
    "wwiic three spaces in one move": (WW_OUT + "allied: activate 505/82 Groesbeek->Mook\ngerman: activate KG-Walther Borkel->Valkenswaard->Waalre->Eindhoven\n", [(5, 9, "illegal-move", "6", None)]),
    # 4, step 2: Game-turn 1 has no weather roll; the caret at the second command.
    "wwiic no weather roll in turn 1": (WW + "allied: move-out 1P/1AB Heelsum->Renkum;   weather\n", [(3, 44, "illegal-move", "4", None)]),
    "wwiic wrong turn": (WW_OUT + "turn 2\n", [(4, 6, "assertion", None, None)]),
    "wwiic wrong expect": (WW_OUT + "expect vp.total = 5\n", [(4, 8, "assertion", None, None)]),
    "wwiic expect of a value the state does not have": (WW_OUT + "expect units.1P/1AB.hits = 0\n", [(4, 8, "assertion", None, None)]),
    # 4: a unit is activated once a game-turn.
    "wwiic a spent unit again": (WW_OUT + "allied: activate 505/82 Groesbeek->Mook\ngerman: activate 406 E4->Wyler\nallied: activate 505/82 Mook->Groesbeek\n", [(6, 9, "illegal-move", "4", None)]),
    # 6: "to an adjacent space": Nijmegen is not next to Groesbeek.  The impulse is still the
    # Allied one, so line 5 is out of turn because of line 4; line 6 is accepted, and line 7's
    # mistake (leg infantry moves one space, 6) is its own.
    "wwiic a refused line and what follows from it": (WW_OUT + "allied: activate 505/82 Groesbeek->Nijmegen->Lent\ngerman: activate 406 E4->Wyler\nallied: activate 505/82 Groesbeek->Mook\ngerman: activate 406 E4->Wyler->Groesbeek->Mook\n", [(4, 9, "illegal-move", "6", None), (5, 1, "missing-decision", "4", 4), (7, 9, "illegal-move", "6", None)]),
    # -- Paul Koenig's Market-Garden: Eindhoven Bridge --------------------------------------
    "koenig-eindhoven misspelt unit": (KE_935 + "german: move 1/953 C->1021->1121\n", [(6, 14, "unknown-name", None, None)]),
    "koenig-eindhoven misspelt hex": (KE_935 + "german: move 1/935 C->1021->1x21\n", [(6, 29, "unknown-name", None, None)]),
    "koenig-eindhoven wrong side": (KE_935 + "allied: move 2/501 B->0114->0113\n", [(6, 1, "missing-decision", "4.0", None)]),
    # 7.0: the HQ is drawn before its units act; the turn assertion follows from the line that
    # could not be played, not from anything before it.
    "koenig-eindhoven HQ draw not written": (KE + "turn 1\nartillery {d6: 3}\nallied-support {d6: 4}\ngerman: move 1/935 C->1021->1121\nturn 2\n", [(5, 9, "missing-decision", "4.0", None), (6, 6, "assertion", None, 5)]),
    # 6.1: "roll one die": the caret at the second.
    "koenig-eindhoven a die too many": (KE + "turn 1\nartillery {d6: 3 5}\n", [(3, 18, "dice-extra", None, None)]),
    "koenig-eindhoven support rolls in the wrong order": (KE + "turn 1\nallied-support {d6: 4}\n", [(3, 1, "illegal-move", "6.0", None)]),
    # 8.3.1: a reinforcement enters at the entry hex (an adjacent one only when it is blocked).
    "koenig-eindhoven entry past the entry hex": (KE_935 + "german: move 1/935 C->1121\n", [(6, 9, "illegal-move", "8.3.1", None)]),
    "koenig-eindhoven redeploy by day": (KE_935 + "german: redeploy 1/935 C->1021\n", [(6, 9, "illegal-move", "4.0", None)]),
    # 4.0, issue 26 case 4: judged as the answer to the Redeployment Phase.
    "koenig-eindhoven redeploy next to the enemy": (KE + "setup: clear; turn 3; phase redeployment\nsetup: place 1/935 0215; place 3/506 0214\ngerman: redeploy 1/935 0215->0216\n", [(4, 9, "illegal-move", "4.0", None)]),
    "koenig-eindhoven wrong expect": (KE_935 + "expect turn = 2\n", [(6, 8, "assertion", None, None)]),
    # 6.1: a 3 gives 2 Artillery Points, not 3.
    "koenig-eindhoven last result noted wrong": (KE + "turn 1\nartillery {d6: 3}\nexpect last.points = 3\n", [(4, 8, "assertion", None, None)]),
    # -- Arnhem '44 -------------------------------------------------------------------------
    "arnhem44 misspelt sector": (AR_41 + "allied: move 1 inf/UK Best->Sno\n", [(4, 29, "unknown-name", None, None)]),
    "arnhem44 misspelt group": (AR_41 + "allied: move 1 inf/UX Best->Son\n", [(4, 16, "illegal-move", "The Units", None)]),
    "arnhem44 wrong side": (AR_41 + "german: move 1 inf Eindhoven->Son\n", [(4, 1, "missing-decision", "A Single Round", None)]),
    "arnhem44 figures that are not there": (AR_41 + "allied: move 3 inf/UK Best->Son\n", [(4, 9, "illegal-move", "Move/Outside", None)]),
    "arnhem44 invasion without its dice": (AR_41 + "allied: invade Eindhoven from Best: 1 tank/UK\n", [(4, 9, "dice-missing", None, None)]),
    # Veterans/3: "NO combined actions": refused before any die is asked for.
    "arnhem44 a combined action refused before its dice": (AR_THREE + "uk: invade Eindhoven from Best: 1 tank/UK, 1 inf/US\n", [(5, 5, "illegal-move", "Veterans/3", None)]),
    "arnhem44 us line in the uk part": (AR_THREE + "us: move 1 inf/US Best->Son\n", [(5, 1, "missing-decision", "A Single Round", None)]),
    "arnhem44 wrong round": (AR_41 + "turn 3\n", [(4, 6, "assertion", None, None)]),
    "arnhem44 wrong expect": (AR_41 + "expect sectors.Best.units.allied.UK.tank = 1\n", [(4, 8, "assertion", None, None)]),
    "arnhem44 expect of a misspelt count": (AR_41 + "expect eliminated.germna = 0\n", [(4, 8, "assertion", None, None)]),
    # Lines 5 and 6 disagree because line 4 was refused (phase 4.1 still waits); line 7 is
    # accepted, and line 8 is wrong of its own: the Allied movement ended, phase 4.2 found no
    # combat, and the German moves in phase 5.1.
    "arnhem44 a refused line and what follows from it": (AR_41 + "allied: move 3 inf/UK Best->Son\ngerman: move 1 inf Eindhoven->Son\nturn 10\nallied: end movement\nexpect phase = 4.1\n", [(4, 9, "illegal-move", "Move/Outside", None), (5, 1, "missing-decision", "A Single Round", 4), (6, 6, "assertion", None, 4), (8, 8, "assertion", None, None)]),
    # Waterways: "no infantry, armour or artillery crosses it without a bridge or ferry".
    "arnhem44 no crossing without a bridge": (AR + "setup: clear; round 9; phase 4.1\nsetup: place 1 tank/UK Ravenstein; place 1 inf Appeltern\nallied: invade Appeltern from Ravenstein: 1 tank/UK\n", [(4, 9, "illegal-move", "Waterways", None)]),
}


def text_of(name: str, log: str) -> str:
    report = replay_text(log, source=name.replace(" ", "-") + ".log")
    out = io.StringIO()
    output.print_problems(output.make_console(out, width=100, color=False), report)
    return out.getvalue()


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_mistake_gets_its_rule_caret_and_cause(name: str, snapshot: SnapshotAssertion) -> None:
    log, expected = CASES[name]
    report = replay_text(log)
    assert [(p.line, p.column, str(p.kind), p.rule, p.follows) for p in report.problems] == expected
    assert text_of(name, log) == snapshot


def test_the_corpus_has_ten_mistakes_per_game() -> None:
    games = [name.split(" ")[0] for name in CASES]
    assert {game: games.count(game) >= 10 for game in set(games)} == {
        "battle-card": True, "wwiic": True, "koenig-eindhoven": True, "arnhem44": True}
