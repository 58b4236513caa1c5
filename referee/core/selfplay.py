"""Self-play: whole games played by a policy, every invariant checked after every command.

The dice come from the versioned stream (one seed per game), so a saved log replays exactly.
A policy's own choices use Python's ``random`` (they are recorded in the log, so they need
not be reproducible across Python versions; the dice must be, and are).
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from referee.core.dice import CURRENT_DICE_VERSION, DiceStream, Roll, draw_from_stream, record_text
from referee.core.engine import REFEREE, Engine
from referee.core.errors import RefereeError

Policy = Callable[[Any, Sequence[Any], random.Random], Any]
"""Chooses one of the legal commands for the state: ``policy(state, legal, rng)``."""

MAX_COMMANDS = 100_000


def random_policy(state: Any, legal: Sequence[Any], rng: random.Random) -> Any:
    return legal[rng.randrange(len(legal))]


class StreamDice:
    """The dice of self-play: straight from the stream, remembering the faces of each command.

    With ``keep_rolls=False`` the rolls are not remembered (a game whose log nobody keeps
    needs only the faces): the stream, and so every face, is the same either way.
    """

    __slots__ = ("keep_rolls", "position", "rolls", "stream")

    def __init__(self, stream: DiceStream, *, keep_rolls: bool = True) -> None:
        self.stream = stream
        self.position = 0
        self.rolls: list[Roll] = []
        self.keep_rolls = keep_rolls

    def roll(
        self, sides: int, count: int = 1, label: str = "", *, low: int = 1
    ) -> tuple[int, ...]:
        position = self.position
        face = self.stream.face
        if count == 1:
            faces: tuple[int, ...] = (face(position, sides) + low - 1,)
        else:
            shift = low - 1
            faces = tuple(face(position + i, sides) + shift for i in range(count))
        self.position = position + count
        if self.keep_rolls:
            self.rolls.append(Roll(sides, faces, label, low))
        return faces

    def draw(self, pool: Sequence[str], label: str = "") -> str:
        if len(pool) == 1:
            chit = pool[0]
        else:
            chit = draw_from_stream(self.stream, self.position, pool)
            self.position += 1
        if self.keep_rolls:
            self.rolls.append(Roll(len(pool), (pool.index(chit) + 1,), label, 1, chit))
        return chit


NO_COMMAND = object()
"""What ``chooser``'s function answers for a side that must act and has no legal command."""


def chooser(
    engine: Engine[Any, Any], policy: Policy
) -> Callable[[Any, random.Random], tuple[str, Any] | None]:
    """The one way self-play picks the next command: ``choose(state, rng)`` answers the side
    to act and its command (``NO_COMMAND`` when it has none), or None when nobody acts (the
    game is over).  A referee's step with one legal command takes it; otherwise the policy
    chooses, and with the random policy an engine that can draws its random legal command
    itself (``random_command``): listing every joint move of two units first can cost more
    than the rest of the game."""
    quick: Callable[[Any, random.Random], Any] | None = None
    if policy is random_policy:
        quick = getattr(engine, "random_command", None)

    def choose(state: Any, rng: random.Random) -> tuple[str, Any] | None:
        side = engine.to_act(state)
        if side is None:
            return None
        if quick is not None:
            return side, quick(state, rng)
        legal = list(engine.legal(state))
        if not legal:
            return side, NO_COMMAND
        if side == REFEREE and len(legal) == 1:
            return side, legal[0]
        return side, policy(state, legal, rng)

    return choose


@dataclass
class GameRecord:
    """One self-played game: how it ended, and its log when asked for."""

    seed: str
    result: str | None
    reason: str | None
    commands: int
    broken: list[str] = field(default_factory=list)
    log: str | None = None


def play_game(
    engine: Engine[Any, Any],
    seed: str,
    policy: Policy,
    *,
    scenario: str | None = None,
    keep_log: bool = False,
    check: bool = True,
    options: Mapping[str, str] | None = None,
) -> GameRecord:
    """Play one game to its end (or until an invariant breaks).  Every invariant is checked
    at the end; with ``check`` also after every command."""
    rng = random.Random(seed)
    state = engine.setup(scenario, dict(options or {}))
    dice = StreamDice(DiceStream(seed), keep_rolls=keep_log)
    lines: list[str] = []
    if keep_log:
        lines += [
            f'[Game "{engine.info.id}"]',
            f'[Dice "{CURRENT_DICE_VERSION}"]',
            f'[Seed "{seed}"]',
        ]
        if scenario:
            lines.append(f'[Scenario "{scenario}"]')
        lines += [f'[Option "{option}"]' for option in options or {}]
    commands = 0
    broken: list[str] = []
    choose = chooser(engine, policy)
    while commands < MAX_COMMANDS:
        turn = choose(state, rng)
        if turn is None:
            break
        side, command = turn
        if command is NO_COMMAND:
            broken.append(f"{side} must act but has no legal command")
            break
        if keep_log:
            dice.rolls = []
        try:
            engine.apply(state, command, dice)
        except RefereeError as error:
            broken.append(f"the engine refused its own legal command '{command}': {error}")
            break
        commands += 1
        if keep_log:
            text = str(command)
            if dice.rolls:
                text += " " + record_text(dice.rolls)
            prefix = "" if side == REFEREE or len(engine.info.sides) == 1 else f"{side}: "
            lines.append(prefix + text)
        if check:
            broken = engine.invariants(state)
            if broken:
                break
    else:
        broken.append(f"the game did not end within {MAX_COMMANDS} commands")
    if not check and not broken:
        broken = engine.invariants(state)  # every game is checked at its end
    outcome = engine.outcome(state)
    return GameRecord(
        seed, outcome.get("result"), outcome.get("reason"), commands, broken,
        "\n".join(lines) + "\n" if keep_log else None,
    )


@dataclass
class Summary:
    games: int
    results: Counter[str]
    reasons: Counter[str]
    broken: list[GameRecord]

    def rate(self, result: str) -> tuple[float, float, float]:
        """The share of games with ``result`` and its 95% Wilson interval."""
        n = self.games
        if n == 0:
            return 0.0, 0.0, 0.0
        k = self.results.get(result, 0)
        p = k / n
        z = 1.959963984540054
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        return p, max(0.0, centre - half), min(1.0, centre + half)


def summarise(records: Sequence[GameRecord]) -> Summary:
    return Summary(
        len(records),
        Counter(r.result or "unfinished" for r in records),
        Counter(r.reason or "unfinished" for r in records),
        [r for r in records if r.broken],
    )
