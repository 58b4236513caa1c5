"""Self-play that checks the engine's description of every roll against the dice it rolls.

Before each command the engine is asked what the command will roll (``rolls_needed``); the
command is then applied with dice from the stream and the dice it really consumed are
compared with the description: the described batches exactly (their kinds, in order, and
their counts, ending where one of the engine's rolls ends, and not followed by more dice of
that same roll unless the rule says it is rolled again), and dice beyond them only where a
batch says what follows (``then``).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from referee.core.dice import CUP, DiceStream, Roll
from referee.core.engine import Engine, RollNeed, needs_text
from referee.core.errors import RefereeError
from referee.core.selfplay import (
    MAX_COMMANDS,
    NO_COMMAND,
    Policy,
    StreamDice,
    chooser,
    random_policy,
)


@dataclass
class RollCheck:
    """One game's rolls compared with their descriptions."""

    seed: str
    rolls: int = 0
    """Commands that rolled or drew at least once."""
    followed: int = 0
    """Of them, those whose dice went past the described batches, by a ``then`` rule."""
    wrong: list[str] = field(default_factory=list)


def kinds_rolled(rolls: Sequence[Roll]) -> list[str]:
    """The kind of every die (or chit) rolled, one entry each, in order."""
    out: list[str] = []
    for roll in rolls:
        out += [CUP if roll.drawn else f"d{roll.sides}"] * len(roll.faces)
    return out


def kinds_described(needs: Sequence[RollNeed]) -> list[str]:
    return [kind for need in needs for kind in [need.die] * need.count]


def compare(needs: Sequence[RollNeed], rolls: Sequence[Roll]) -> str | None:
    """What is wrong with ``needs`` as a description of ``rolls`` (None: it is right)."""
    described = kinds_described(needs)
    rolled = kinds_rolled(rolls)
    said = needs_text(needs) or "no dice"
    got = " ".join(f"{len(r.faces)} {CUP if r.drawn else f'd{r.sides}'} for {r.label}"
                   for r in rolls) or "no dice"
    if rolled[: len(described)] != described:
        return f"described {said}; rolled {got}"
    if len(rolled) > len(described) and not any(need.then for need in needs):
        return f"described {said} and nothing after; rolled {got}"
    inside = rest = 0
    for roll in rolls:  # the described dice end where one of the engine's rolls ends
        if inside < len(described):
            inside += len(roll.faces)
        else:
            rest += 1
    if inside != len(described):
        return f"described {said}, which ends inside one roll; rolled {got}"
    if rest:
        last, after = rolls[len(rolls) - rest - 1], rolls[len(rolls) - rest]
        again = any("again" in (need.then or "") for need in needs)  # a tie rolled again
        if last.label and after.label == last.label and not again:
            return f"described {said}, but more dice of the same roll follow; rolled {got}"
    return None


def check_game(
    engine: Engine[Any, Any],
    seed: str,
    policy: Policy = random_policy,
    *,
    scenario: str | None = None,
    options: Mapping[str, str] | None = None,
) -> RollCheck:
    """Play one game as ``play_game`` does and compare every roll with its description, and
    the pending decision's description (``command`` None) with the roll of a chance step."""
    rng = random.Random(seed)
    state = engine.setup(scenario, dict(options or {}))
    dice = StreamDice(DiceStream(seed))
    check = RollCheck(seed)
    choose = chooser(engine, policy)
    for _ in range(MAX_COMMANDS):
        turn = choose(state, rng)
        if turn is None or turn[1] is NO_COMMAND:
            break
        command = turn[1]
        needs = engine.rolls_needed(state, command)
        pending = engine.rolls_needed(state, None)
        forced = engine.forced(state)
        dice.rolls = []
        try:
            engine.apply(state, command, dice)
        except RefereeError as error:
            check.wrong.append(f"the engine refused its own command '{command}': {error}")
            break
        if not dice.rolls and not needs:
            continue
        check.rolls += 1
        wrong = compare(needs, dice.rolls)
        if wrong is not None:
            check.wrong.append(f"'{command}': {wrong}")
        elif len(kinds_rolled(dice.rolls)) > len(kinds_described(needs)):
            check.followed += 1
        if (forced is not None and getattr(forced, "chance", False)
                and str(forced) == str(command) and pending != needs):
            check.wrong.append(f"'{command}': the pending roll is described as "
                               f"{needs_text(pending) or 'no dice'}, the command as "
                               f"{needs_text(needs) or 'no dice'}")
    return check
