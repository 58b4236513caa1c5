"""The referee says which dice to roll, how many and why (issue 28): WWII Commander.  The
weather die and every unit's combat dice (hit chances) are described before they are
rolled (``rolls_needed``)."""

from __future__ import annotations

from syrupy.assertion import SnapshotAssertion

from referee.api import replay_text
from referee.games.wwiic.engine import ENGINE

from ..dice_described import self_play, table_view

HEAD = '[Game "wwiic"]\n[Scenario "market-garden"]\n'
WAALRE = HEAD + (
    "setup: clear; turn 6; weather clear; initiative allied; time 0; phase weather\n"
    "setup: control De Groote allied; control Borkel allied; control Valkenswaard allied; "
    "control Eindhoven allied\n"
    "setup: place 21G/5G Waalre strength 3; place 32G Waalre; place 505/82 Groesbeek "
    "strength 4\n"
    "setup: place 44RT Hernen strength 2; place 59 Geldorp strength 1; place KG-Walther Nuenen "
    "strength 2\n"
    "setup: place 107Pz Mierlo strength 2\n"
)
COMBAT = WAALRE + (
    "weather {d10: 1}\nallied: replace 21G/5G\ngerman: replace KG-Walther\n"
    "allied: activate 21G/5G Waalre->Geldorp, 32G Waalre->Geldorp\n"
)


def pending_dice(log: str) -> list[dict[str, object]]:
    pending = replay_text(log).pending()
    assert pending is not None
    return list(pending["dice"])


def test_4_weather_determination_one_die() -> None:
    """4, step 2: "the German player rolls one die and consults the Weather Table"."""
    (need,) = pending_dice(WAALRE)
    assert (need["die"], need["count"]) == ("d10", 1)
    assert "Game-turn 6" in str(need["for"])


def test_7_1_one_die_per_strength_point_attackers_then_defenders() -> None:
    """7.1: "each unit rolls one die for each of its strength points": 21G/5G at strength 4
    (3 and its replacement), 32G placed at its full strength 6 (its counter's 6-strength
    side), then the defender 59 at 1: 4 + 6 + 1 dice, one batch a unit."""
    needs = pending_dice(COMBAT)
    assert [(n["count"], str(n["for"]).split()[0]) for n in needs] == [
        (4, "21G/5G"), (6, "32G"), (1, "59")]
    assert all(n["die"] == "d10" and "then" not in n for n in needs)


def test_described_count_equals_the_dice_rolled_in_self_play() -> None:
    """Every roll of the self-played games: the dice described before it are the dice the
    engine then rolled."""
    tally = self_play(ENGINE)
    assert tally.wrong == []
    assert tally.rolls > 0


def test_roll_lines_and_dice_messages(snapshot: SnapshotAssertion) -> None:
    """What a player at the table reads: the pending roll, and dice written short or long."""
    views = [
        table_view(WAALRE),
        table_view(COMBAT),
        table_view(COMBAT + "allied: attack Geldorp {d10: 1 1 1 1 | 1 1 1}\n"),
        table_view(COMBAT + "allied: attack Geldorp {d10: 1 1 1 1 | 1 1 1 1 1 1 | 9 9}\n"),
    ]
    assert views == snapshot
