"""Write the two complete Eindhoven Bridge games of ``logs/koenig-eindhoven/``.

    .venv/bin/python tools/build_koenig_games.py          # rewrite both logs
    .venv/bin/python tools/build_koenig_games.py --check  # exit 1 if either differs

Both sides are played by the greedy policy (``referee.games.koenig_eindhoven.policy``) from
one seed, through Game Turn 10 to the Exclusive 12.0 outcome:

* ``complete-game.log``: a seeded log (``[Seed]``): the referee rolls every die and draws every
  HQ from the seed; each is also written as it fell, so a reader sees them.
* ``complete-tabletop.log``: the same game as played at a table: no seed, every die and every
  HQ drawn recorded on its line (``{d6: …}``, ``{cup: …}``), so it replays from its own text.

Each referee step carries a comment saying what the die did; ``turn N`` marks each Game Turn;
``expect`` lines at the end state the outcome and Victory Points.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # tools/generated.py

from generated import write_or_check

from referee.core.dice import CURRENT_DICE_VERSION, DiceStream
from referee.core.engine import REFEREE
from referee.core.selfplay import StreamDice
from referee.games.koenig_eindhoven.engine import ENGINE
from referee.games.koenig_eindhoven.policy import greedy_policy

SEED = "eindhoven-9"
"""The seed of the bundled game (chosen for a close result with every kind of combat)."""
FOLDER = Path(__file__).resolve().parent.parent / "logs" / "koenig-eindhoven"
WIDTH = 44
"""The column comments start at."""


def play(seed: str) -> tuple[list[str], dict[str, object]]:
    """The game's lines (no header) and its final state as JSON."""
    from referee.core.dice import record_text

    rng = random.Random(seed)
    state = ENGINE.setup(None, {})
    dice = StreamDice(DiceStream(seed))
    lines: list[str] = []
    turn = 0
    while (side := ENGINE.to_act(state)) is not None:
        if state.turn != turn:
            turn = state.turn
            night = " (night)" if ENGINE.board.turn(turn).night else ""
            lines += ["", f"turn {turn}".ljust(WIDTH - 1) + f" # Game Turn {turn}{night}"]
        legal = list(ENGINE.legal(state))
        command = legal[0] if len(legal) == 1 else greedy_policy(state, legal, rng)
        dice.rolls = []
        events = ENGINE.apply(state, command, dice)
        text = ("" if side == REFEREE else f"{side}: ") + str(command)
        if dice.rolls:
            text += " " + record_text(dice.rolls)
            said = [e.text for e in events if e.kind in ("roll", "landing", "support", "hit",
                                                         "eliminated", "close-fire")]
            if said:
                text = text.ljust(WIDTH - 1) + " # result: " + "; ".join(said)
        lines.append(text)
    final = ENGINE.to_json(state)
    return lines, final


def outcome_lines(final: dict[str, object]) -> list[str]:
    vp = final["vp"]
    outcome = final["outcome"]
    assert isinstance(vp, dict) and isinstance(outcome, dict)
    return ["", "expect phase = over", f"expect outcome.result = {outcome['result']}",
            f"expect vp.allied = {vp['allied']}", f"expect vp.german = {vp['german']}"]


def logs(seed: str = SEED) -> dict[str, str]:
    lines, final = play(seed)
    outcome = final["outcome"]
    assert isinstance(outcome, dict)
    tail = outcome_lines(final)
    about = [
        f"# Both sides played by the greedy policy from seed {seed} "
        "(tools/build_koenig_games.py).",
        f"# {outcome['reason']}: {outcome['result']}.",
    ]
    seeded = [
        '[Game "koenig-eindhoven"]', '[Scenario "eindhoven-bridge"]',
        f'[Dice "{CURRENT_DICE_VERSION}"]', f'[Seed "{seed}"]',
        '[Allied "Greedy Allied"]', '[German "Greedy German"]',
        '[Event "A complete 10-turn game, both sides played, scored by Exclusive 12.0"]', "",
        *about,
        "# The referee rolls every die and draws every HQ from the seed; each is also written",
        "# as it fell.  Decisions with a single answer are applied by the referee.",
        *lines, *tail,
    ]
    tabletop = [
        '[Game "koenig-eindhoven"]', '[Scenario "eindhoven-bridge"]',
        '[Allied "Greedy Allied"]', '[German "Greedy German"]',
        '[Event "A complete 10-turn game at the table: every die and every HQ drawn recorded"]',
        "", *about,
        "# A tabletop log: no [Seed]; every die roll and every HQ drawn is written on its line",
        "# in the order the rules roll them (5.0, 6.1, 6.2, 7.0, 9.0, 10.0).",
        *lines, *tail,
    ]
    return {"complete-game.log": "\n".join(seeded) + "\n",
            "complete-tabletop.log": "\n".join(tabletop) + "\n"}


def main() -> int:
    return write_or_check(logs(), FOLDER, "tools/build_koenig_games.py")


if __name__ == "__main__":
    sys.exit(main())
