"""Veterans Only, option 4 (``[Option "bridge-damage"]``): bridges suffer collateral damage in
intrusions and fall backs across them.  One test per reading (docs/arnhem44-interpretations.md,
A41 and the Veterans/4 rows); the examples are logs in ``examples/Veterans-bridge-damage*``."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.api import position_text, replay_text
from referee.core.dice import DiceStream
from referee.core.selfplay import StreamDice
from referee.games.arnhem44 import damage
from referee.games.arnhem44.bailey import bailey_between, site_problem
from referee.games.arnhem44.engine import ENGINE
from referee.games.arnhem44.state import OVER, AState
from tests.games.arnhem44.helpers import replayed, texts

HEADER = '[Game "arnhem44"]\n[Option "bridge-damage"]\n'


def labels(report: object, line: int) -> list[tuple[str, tuple[int, ...]]]:
    return [(r.label, r.faces) for e in report.events  # type: ignore[attr-defined]
            if e.line == line for r in e.event.rolls]


def test_veterans_4_a_bailey_bridge_with_4_hits_lets_only_6_units_cross() -> None:
    """"A Bailey bridge that has sustained 4 hits has 6 hit points left: only 6 units can cross
    the bridge at once to invade/leave the enemy territory!" """
    report = replayed("Veterans-bridge-damage.log")
    assert [(p.line, p.rule) for p in report.problems] == [(12, "Veterans/4")]
    assert "only 6 units can cross it at once to invade Appeltern, not 7" in \
        report.problems[0].message
    state = report.state_json()
    assert state is not None
    assert state["baileys"][0]["hit_points"] == 4
    assert state["baileys"][0]["open"] is True


def test_veterans_4_zeros_of_tanks_and_artillery_of_both_sides_are_rolled_again() -> None:
    """Only the hit dice of tanks and artillery: the defending infantry's 0 is not rolled
    again; the defending tank's two zeros and the intruding tanks' one are, each side's right
    after its hit dice."""
    report = replayed("Veterans-bridge-damage.log")
    rolls = labels(report, 18)
    again = [(label, faces) for label, faces in rolls if "rolled again" in label]
    assert again == [
        ("invasion of Appeltern: German defends: 2 zeros of tanks and artillery rolled again "
         "for the bridge", (3, 0)),
        ("invasion of Appeltern: Allied fires back: 1 zero of tanks and artillery rolled again "
         "for the bridge", (7,)),
    ]
    order = [label for label, _ in rolls]
    assert order.index(again[0][0]) == 2  # after the German infantry's and tank's hit dice


def test_veterans_4_a_second_zero_is_a_ricochet_any_other_face_one_hit() -> None:
    said = texts(replayed("Veterans-bridge-damage.log"))
    assert ("invasion of Appeltern: German defends: 2 zeros of tanks and artillery rolled again "
            "for the bridge: Bailey-1 1 hit, 1 ricochet") in said
    assert "Bailey-1 takes 2 hits: 4 hit points left" in said


def test_veterans_4_several_bridges_share_the_rolls_in_the_order_the_command_names_them() -> None:
    """"even if there's just one bridge": the roll again distributes the hit like a
    distribution roll, face k on bridge ((k - 1) mod N) + 1 (Best first, Son second)."""
    report = replayed("Veterans-bridge-damage-two-bridges.log")
    assert report.problems == []
    said = texts(report)
    assert ("invasion of Eindhoven: German defends: 3 zeros of tanks and artillery rolled "
            "again for the bridge: Best-bridge 1 hit, Son-bridge 1 hit, 1 ricochet") in said
    assert "Son-bridge takes 2 hits: 8 hit points left" in said


def test_veterans_4_a_zero_the_joker_rerolled_no_longer_hits_the_bridge() -> None:
    report = replayed("Veterans-bridge-damage-two-bridges.log")
    rolls = [label for label, _ in labels(report, 14)]
    joker = rolls.index("invasion of Eindhoven: Allied fires back: hit dice: joker reroll of a 0")
    assert rolls[joker + 1] == ("invasion of Eindhoven: Allied fires back: 1 zero of tanks and "
                                "artillery rolled again for the bridge")  # two zeros, one left


def test_veterans_4_the_limit_holds_for_a_fall_back_not_for_free_traffic() -> None:
    report = replayed("Veterans-bridge-damage-destroyed.log")
    assert [(p.line, p.rule) for p in report.problems] == [(13, "Veterans/4"),
                                                           (26, "Waterways")]
    assert "to fall back from Zon, not 2" in report.problems[0].message


def test_veterans_4_a_bridge_without_hit_points_is_destroyed_like_a_blown_one() -> None:
    report = replayed("Veterans-bridge-damage-destroyed.log")
    said = texts(report)
    assert "Son-bridge takes 1 hit and has no hit points left: it is completely destroyed" in said
    assert "Son-bridge is destroyed; every crate under it is removed from the game" in said
    assert ENGINE.invariants(report.state) == []  # bridge points: 100 less the 3 lost
    assert "Son-bridge" not in report.state.bridge_hits


def test_veterans_4_a_bailey_bridge_destroyed_is_no_crossing() -> None:
    text = HEADER + (
        "setup: clear; round 5; phase 4.1\n"
        "setup: bailey Bailey-1 Ravenstein->Appeltern points 0 started 2; damage Bailey-1 9\n"
        "setup: place 2 tank/UK Ravenstein; place 1 inf Appeltern\n"
        "allied: invade Appeltern from Ravenstein: 1 tank/UK {d10: 9 9 9 9 | 0 9 9 9 | 1}\n"
        "expect baileys.0.hit_points = 0\n"
        "expect baileys.0.open = false\n"
        "allied: invade Appeltern from Ravenstein: 1 tank/UK\n")
    report = replay_text(text)
    assert [(p.line, p.rule) for p in report.problems] == [(9, "Waterways")]
    assert "the Maas between Ravenstein and Appeltern is a deep-blue stream" in \
        report.problems[0].message
    state = report.state
    assert bailey_between(state, "Ravenstein", "Appeltern") is None
    assert "Bailey-1 destroyed" in (damage.view(ENGINE.board, state) or "")
    assert ENGINE.invariants(state) == []
    # its token is used, but a new Bailey bridge may cross there (no German at either end)
    state.units.pop("Appeltern")
    assert site_problem(ENGINE.board, state, "Ravenstein", "Appeltern") is None


def test_veterans_4_with_veterans_1_the_arnhem_bridge_keeps_its_last_hit_point() -> None:
    board = ENGINE.board
    state = ENGINE.setup(None, {"bridge-damage": "on", "arnhem-bridge-order": "on"})
    state.round = 17
    events = damage.take_hits(board, state, "Arnhem-bridge", 25)
    assert damage.left(board, state, "Arnhem-bridge") == 1
    assert "Arnhem-bridge" not in state.destroyed
    assert "Veterans/1" in events[0].text
    state.round = 18
    damage.take_hits(board, state, "Arnhem-bridge", 1)
    assert "Arnhem-bridge" in state.destroyed


def test_veterans_4_major_bridges_have_20_hit_points_small_and_bailey_10() -> None:
    board = ENGINE.board
    assert damage.full(board, "Nijmegen-bridge") == 20
    assert damage.full(board, "Son-bridge") == 10
    assert damage.full(board, "Bailey-3") == 10


def test_veterans_4_position_round_trip_with_damage() -> None:
    for name in ("Veterans-bridge-damage.log", "Veterans-bridge-damage-two-bridges.log",
                 "Veterans-bridge-damage-destroyed.log"):
        original = replayed(name)
        text = position_text(original)
        assert '[Option "bridge-damage"]' in text
        resumed = replay_text(text)
        assert resumed.problems == [], (name, resumed.problems)
        assert resumed.state_json() == original.state_json(), name
    text = position_text(replayed("Veterans-bridge-damage-two-bridges.log"))
    assert "setup: damage Son-bridge 2; damage Best-bridge 1" in text.replace(
        "\nsetup: damage Best", "; damage Best")


def test_veterans_4_position_damage_needs_the_option_and_a_standing_bridge() -> None:
    report = replay_text('[Game "arnhem44"]\nsetup: clear; round 5; phase 4.1\n'
                         "setup: damage Son-bridge 3\n")
    assert [p.rule for p in report.problems] == ["Positions"]
    assert "only with the option bridge-damage" in report.problems[0].message
    report = replay_text(HEADER + "setup: clear; round 5; phase 4.1\nsetup: damage Son-bridge 10\n")
    assert "setup: bridge Son-bridge destroyed" in report.problems[0].message


def test_veterans_4_the_spotting_dice_are_not_rolled_again() -> None:
    """At night tanks and artillery roll to fall back unseen: those dice are no fire, their 0
    (spotted) is not rolled again for the bridge."""
    text = HEADER + (
        "setup: clear; round 6; phase 5.1\n"
        "setup: place 1 tank, 1 inf/UK Zon\n"
        "german: fall-back 1 tank Zon->Eindhoven {d10: 0 | 9 9 9 9 | 9 9 9 9}\n"
        "expect bridges.5.hit_points = 10\n")
    report = replay_text(text)
    assert report.problems == []
    assert not any("rolled again" in label for label, _ in labels(report, 5))


def test_veterans_4_without_the_option_no_zero_is_rolled_again() -> None:
    text = ('[Game "arnhem44"]\n'
            "setup: clear; round 5; phase 4.1\n"
            "setup: bailey Bailey-1 Ravenstein->Appeltern points 0 started 2\n"
            "setup: place 6 tank/UK Ravenstein; place 1 inf, 1 tank Appeltern\n"
            "allied: invade Appeltern from Ravenstein: 6 tank/UK {d10: 0 9 9 9 | 0 9 0 9 9 9 | "
            "9 9 9 9 9 9 9 9 9 9 9 9 9 9 9 9 9 9 9 9 9 9 9 0}\n"
            "expect sectors.Appeltern.units.allied.UK.tank = 6\n")
    report = replay_text(text)
    assert report.problems == []
    assert "hit_points" not in (report.state_json() or {})["baileys"][0]


# -- self-play over damaged bridges --------------------------------------------------------

SIEGE = HEADER + (
    "setup: clear; round 5; phase 4.1\n"
    "setup: place 4 tank/UK, 1 art/UK Zon; place 4 tank/UK Best; place 2 tank, 2 art Eindhoven\n"
    "setup: place 5 tank/UK, 2 art/UK Ravenstein; place 2 tank, 1 art Appeltern\n"
    "setup: place 3 tank/UK Lent; place 2 tank, 2 art Nijmegen\n"
    "setup: bailey Bailey-1 Ravenstein->Appeltern points 0 started 2\n"
    "setup: damage Bailey-1 7; damage Son-bridge 6; damage Best-bridge 8; "
    "damage Nijmegen-bridge 15\n")


def _siege(seed: int, steps: int) -> AState:
    """The random policy from a position where tanks face each other across damaged bridges;
    every invariant after every command."""
    report = replay_text(SIEGE)
    assert report.problems == []
    state: AState = report.state
    rng = random.Random(seed)
    dice = StreamDice(DiceStream(f"siege-{seed}"))
    for _ in range(steps):
        if state.phase == OVER or ENGINE.to_act(state) is None:
            break
        ENGINE.apply(state, ENGINE.random_command(state, rng), dice)
        assert ENGINE.invariants(state) == []
    return state


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**6))
def test_veterans_4_random_play_across_damaged_bridges_keeps_every_invariant(seed: int) -> None:
    _siege(seed, 80)


def _hit_points(state: AState) -> int:
    """Hit points left over the map's bridges and Bailey-1 (Bailey bridges built later in the
    game are not counted)."""
    board = ENGINE.board
    return (sum(0 if b in state.destroyed else damage.left(board, state, b)
                for b in board.bridges) + damage.left(board, state, "Bailey-1"))


def test_veterans_4_random_play_damages_and_destroys_bridges() -> None:
    start = _hit_points(replay_text(SIEGE).state)
    ends = [_siege(seed, 120) for seed in (1, 2, 3, 4, 5)]
    assert all(_hit_points(state) <= start for state in ends)
    assert any(_hit_points(state) < start for state in ends)  # the rolls again did hit
    assert any(state.destroyed for state in ends)  # and a bridge was destroyed
