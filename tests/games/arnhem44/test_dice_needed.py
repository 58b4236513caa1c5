"""The referee says which dice to roll, how many and why (issue 28): Arnhem '44.  Every
roll (barrage, landing, anti-aircraft fire, combat, defusing, detonation, Bailey assembly,
weather, reserves, supply, ties) is described before it is rolled (``rolls_needed``): the
first batch exactly, the dice that depend on its faces by their rule."""

from __future__ import annotations

from syrupy.assertion import SnapshotAssertion

from referee.api import replay_text
from referee.games.arnhem44.engine import ENGINE

from ...conftest import LOGS
from ..dice_described import self_play, table_view

TABLETOP = (LOGS / "arnhem44" / "tabletop.log").read_text(encoding="utf-8").splitlines(True)


def upto(line: int) -> str:
    """The bundled tabletop log up to (not including) ``line``."""
    return "".join(TABLETOP[: line - 1])


def pending_dice(log: str) -> list[dict[str, object]]:
    pending = replay_text(log).pending()
    assert pending is not None
    return list(pending["dice"])


def test_airborne_landing_one_d10_for_each_unit() -> None:
    """Phase 2: "He rolls one D10 for each unit." The first round lands the 25 airborne
    units of the schedule: 25 d10, and nothing after them."""
    assert TABLETOP[58].startswith("landing")
    (need,) = pending_dice(upto(59))
    assert (need["die"], need["count"]) == ("d10", 25)
    assert "then" not in need


def test_combat_first_batch_is_the_allied_firepower_with_the_1st_round_bonus() -> None:
    """Firepower: "An infantry unit has firepower 2; it rolls 2 D10"; The 1st Round: "the
    Allied airborne troops ... gain a +1D10 bonus per unit during phase 4.1 and 4.2".  Two
    1st Airborne infantry in Oosterbeek roll 2 x (2 + 1) = 6 d10; the distribution dice
    ("one die per hit") and the German fire follow by their rule."""
    assert TABLETOP[68].startswith("combat Oosterbeek")
    (need,) = pending_dice(upto(69))
    assert (need["die"], need["count"]) == ("d10", 6)
    assert "per Allied hit" in str(need["then"]) and "German fires" in str(need["then"])


def test_barrage_initiative_two_d10_again_on_a_tie() -> None:
    """Phase 1: "both players roll one D10. The highest roll has the initiative" (a tie is
    rolled again, A21): 2 d10, then 2 more while equal."""
    assert TABLETOP[84].startswith("initiative")
    (need,) = pending_dice(upto(85))
    assert (need["die"], need["count"]) == ("d10", 2)
    assert "again" in str(need["then"])


def test_move_contact_invasion_begins_with_the_defenders_hit_dice() -> None:
    """Units, Infantry: "Firepower: 2".  The intrusion of line 186 meets one German
    infantry figure in Ubbergen (open field, infantry number 4; a plain border from Wyler:
    no crossing bonus): the defender's 2 d10 come first, every later die (the joker's
    reroll, distribution, the invaders' fire) by the rule that follows."""
    line = TABLETOP[185]
    assert line.startswith("allied: invade Ubbergen from Wyler: 1 inf/82")
    short = line.split("{")[0] + "{d10: 5}\n"
    (problem,) = [p for p in replay_text(upto(186) + short).problems]
    assert problem.message.startswith(
        "'invade Ubbergen from Wyler: 1 inf/82' needs 2 d10 for invasion of Ubbergen: German "
        "defends: 1 inf (1 figure, 2 d10 each: firepower 2), a hit on 1-4, then the dice that "
        "follow")
    assert problem.message.endswith("; 1 die recorded, 1 short.")


def test_phase_1_barrage_six_dice_a_battery_figure() -> None:
    """Units, Artillery: "Firepower: 6 (long range weapon, in phase 1) white D10".  The
    battery of line 86 is one 101st artillery figure firing on Eindhoven, which holds no
    Allied unit (no disputed-sector bonus): 6 d10, then the distribution by its rule."""
    line = TABLETOP[85]
    assert line.startswith("allied: barrage 1 art/101 Nederwetten->Eindhoven")
    (problem,) = replay_text(upto(86) + line.split("{")[0] + "{d10: 9}\n").problems
    assert problem.message.startswith(
        "'barrage 1 art/101 Nederwetten->Eindhoven' needs 6 d10 for Allied barrage "
        "Nederwetten->Eindhoven: 1 art/101 (1 figure, 6 d10 each: firepower 6), a hit on 1-")
    assert problem.message.endswith("; 1 die recorded, 5 short.")


def test_described_count_equals_the_dice_rolled_in_self_play() -> None:
    """Every roll of the self-played games: the dice described before it are the first dice
    the engine then rolled, and dice beyond them only where the description says what
    follows."""
    tally = self_play(ENGINE)
    assert tally.wrong == []
    assert tally.rolls > 0 and tally.followed > 0


def test_roll_lines_and_dice_messages(snapshot: SnapshotAssertion) -> None:
    """What a player at the table reads: the pending roll, and dice written short or long
    (the combat of line 69 with 9 of its 18 dice; the landing of line 59 with 3 of 25)."""
    combat = TABLETOP[68].replace("5 9 0 2 7 6 0 7 8 5 3 6 9 8 3 1 0 1", "5 9 0 2 7 6 0 7 8")
    landing = TABLETOP[58].split("{")[0] + "{d10: 5 9 4}\n"
    views = [
        table_view(upto(59)),
        table_view(upto(59) + landing),
        table_view(upto(69)),
        table_view(upto(69) + combat),
        table_view(upto(85)),
        table_view(upto(86)),
        table_view(upto(86) + TABLETOP[85].split("{")[0] + "{d10: 9 6 0 1 7 9 7 1}\n"),
    ]
    assert views == snapshot


def test_described_count_holds_with_bridge_damage_and_three_players() -> None:
    """Veterans/4 (each zero of tanks and artillery on a bridge assault rolled again) and
    Veterans/3 (three players, two Allied jokers): the first dice are still exact and the
    rest follow their rule."""
    tally = self_play(ENGINE, games=5, prefix="veterans",
                      options={"bridge-damage": "on", "three-players": "on"})
    assert tally.wrong == [] and tally.followed > 0
