"""Self-play policies for ``referee simulate koenig-eindhoven``."""

from __future__ import annotations

import random
from typing import Any

from referee.games.koenig_eindhoven.commands import Command, End


def random_command(engine: Any, state: Any, rng: random.Random) -> Command:
    """A random legal command; an activation ends with one chance in eight, so formations
    move most of their units."""
    options: list[Command] = list(engine.legal(state))
    if len(options) > 1 and isinstance(options[0], End) and rng.random() >= 0.125:
        options = options[1:]
    return rng.choice(options)


POLICIES: dict[str, Any] = {}
