"""Property tests: legal() and apply() agree (a refused command is not listed), at most 9
units per side per sector, figures conserved, positions round-trip."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from referee.core.dice import DiceTray
from referee.core.errors import RefereeError
from referee.core.parsing import parse_log
from referee.core.replay import replay
from referee.games.arnhem44.board import KINDS
from referee.games.arnhem44.commands import Command, FallBack, Invade, Move
from referee.games.arnhem44.engine import ENGINE
from referee.games.arnhem44.state import AState


def tray(rng: random.Random) -> DiceTray:
    return DiceTray(None, recorded=tuple(rng.randint(0, 9) for _ in range(400)),
                    recorded_sides=10)


def play(seed: int, steps: int) -> list[AState]:
    """States along a random legal game from the opening (movement favoured over ending)."""
    rng = random.Random(seed)
    state = ENGINE.setup(None, {})
    seen = [ENGINE.copy(state)]
    for _ in range(steps):
        if ENGINE.to_act(state) is None:
            break
        options = ENGINE.legal(state)
        acting = [c for c in options if type(c).__name__ != "EndMovement"]
        command = rng.choice(acting if acting and rng.random() < 0.85 else options)
        ENGINE.apply(state, command, tray(rng))
        seen.append(ENGINE.copy(state))
    return seen


def settle(state: AState) -> None:
    """Apply what the referee applies by itself without dice (as the replay of a position
    does at its end): single-answer decisions."""
    for _ in range(100):
        forced = ENGINE.forced(state)
        if forced is None or forced.chance:
            return
        ENGINE.apply(state, forced, DiceTray(None, recorded=(), recorded_sides=10))


def mutate(rng: random.Random, command: Command, state: AState) -> Command:
    """A nearby command that may or may not be legal: another count, sector or kind."""
    sectors = ENGINE.board.order
    if isinstance(command, Move):
        (key, _), = command.groups
        path = command.path
        if rng.random() < 0.5:
            path = (*path, rng.choice(ENGINE.board.neighbours[path[-1]]))
        return Move((((key[0], rng.choice(KINDS)), rng.randint(1, 10)),), path)
    if isinstance(command, Invade):
        return Invade(rng.choice(sectors), command.parts)
    if isinstance(command, FallBack):
        return FallBack(command.groups, command.start, rng.choice(sectors))
    return command


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow],
          phases=(Phase.explicit, Phase.generate))
@given(st.integers(0, 10_000))
def test_legal_commands_apply_and_illegal_ones_change_nothing(seed: int) -> None:
    rng = random.Random(seed)
    for state in play(seed, 120)[::6]:
        if ENGINE.to_act(state) is None:
            continue
        options = ENGINE.legal(state)
        for command in rng.sample(options, min(6, len(options))):
            after = ENGINE.copy(state)
            ENGINE.apply(after, command, tray(rng))  # every listed command applies
            assert ENGINE.invariants(after) == []
            other = mutate(rng, command, state)
            trial = ENGINE.copy(state)
            try:
                ENGINE.apply(trial, other, tray(rng))
            except RefereeError:
                # A refusal may leave the trial part-changed (Engine.apply): the replay
                # driver's copy is the undo, tested in test_written_line.py and by the
                # replay digests of games with a line written twice.
                assert other not in options, f"listed but refused: {other}"


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow],
          phases=(Phase.explicit, Phase.generate))
@given(st.integers(0, 10_000))
def test_invariants_hold_along_random_games(seed: int) -> None:
    for state in play(seed, 200):
        assert ENGINE.invariants(state) == []
        for counts in state.units.values():
            assert sum(n for (g, _), n in counts.items() if g == "DE") <= 9
            assert sum(n for (g, _), n in counts.items() if g != "DE") <= 9


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow],
          phases=(Phase.explicit, Phase.generate))
@given(st.integers(0, 10_000))
def test_positions_round_trip(seed: int) -> None:
    for state in play(seed, 150)[::7]:
        if state.fallback is not None or ENGINE.to_act(state) is None:
            continue
        settle(state)
        if state.fallback is not None or ENGINE.to_act(state) is None:
            continue
        lines = ENGINE.position(state)
        text = '[Game "arnhem44"]\n' + "\n".join(lines) + "\n"
        report = replay(parse_log(text, "position.log", engine=ENGINE), ENGINE)
        assert report.problems == [], (lines, report.problems)
        rebuilt = report.state
        assert ENGINE.to_json(rebuilt) == ENGINE.to_json(state)
        assert ENGINE.position(rebuilt) == lines


def opening_round_two() -> AState:
    """The bundled opening log's end: round 2, phase 1 (the German battery in Valkenswaard
    may fire at Borkel)."""
    from pathlib import Path

    path = Path(__file__).parents[3] / "logs" / "arnhem44" / "opening.log"
    report = replay(parse_log(path.read_text(encoding="utf-8"), path.name, engine=ENGINE),
                    ENGINE)
    assert report.state.phase == "1"
    return report.state


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow],
          phases=(Phase.explicit, Phase.generate))
@given(st.integers(0, 10_000))
def test_random_play_passes_through_barrage_fire_and_jokers(seed: int) -> None:
    """Phase 1 and Jokers in self-play: from round 2 on, every listed command applies, the
    referee's single answers are applied by itself, invariants hold after every command, and
    positions in phase 1 round-trip."""
    rng = random.Random(seed)
    state = opening_round_two()
    phases = set()
    for _ in range(400):
        if ENGINE.to_act(state) is None:
            break
        forced = ENGINE.forced(state)
        options = ENGINE.legal(state)
        assert options, ENGINE.decision(state)
        if forced is not None:
            assert forced in options
            command = forced
        else:
            acting = [c for c in options if type(c).__name__ not in ("EndMovement",)]
            command = rng.choice(acting if acting and rng.random() < 0.7 else options)
        ENGINE.apply(state, command, tray(rng))
        assert ENGINE.invariants(state) == []
        phases.add(state.phase)
        if state.phase in ("1", "4.1") and rng.random() < 0.3:
            settled = ENGINE.copy(state)
            settle(settled)  # as the replay of a position does at its end
            if settled.fallback is None and ENGINE.to_act(settled) is not None:
                lines = ENGINE.position(settled)
                text = '[Game "arnhem44"]\n' + "\n".join(lines) + "\n"
                rebuilt = replay(parse_log(text, "position.log", engine=ENGINE), ENGINE)
                assert rebuilt.problems == [], (lines, rebuilt.problems)
                assert ENGINE.to_json(rebuilt.state) == ENGINE.to_json(settled)
        assert all(0 <= n <= 1 for n in state.jokers.values())
    assert "4.1" in phases
