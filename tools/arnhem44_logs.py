"""Write the Arnhem '44 example logs that come from self-played games.

    .venv/bin/python tools/arnhem44_logs.py            # (re)write them in logs/arnhem44/
    .venv/bin/python tools/arnhem44_logs.py --check    # exit 1 if any differs from a new one

Each log is a game played by ``referee simulate arnhem44 --policy random`` with a fixed seed
(the core's ``play_game``, every invariant checked after every command), then cut or relabelled:

* ``complete-game.log``: a complete 18-round game with its [Seed], scored at the end;
* ``three-players.log``: a complete game with [Option "three-players"] (uk, us, german);
* ``tabletop.log``: the first rounds of a game with every die recorded and no [Seed] (the
  dice rolled at the table);
* ``pbem-pending-withdrawal.log``: a seeded game by e-mail that stops on a pending decision
  (after a combat, the strongest side decides a withdrawal).

When the rules the engine referees change (phases 1-3 adding barrage, landings, explosives),
the same seeds play other games: rerun this tool and update the snapshots
(``pytest tests/games/arnhem44/test_logs.py --snapshot-update``).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # tools/generated.py

from generated import write_or_check

from referee.api import replay_text
from referee.core.selfplay import play_game, random_policy
from referee.games.arnhem44.engine import ENGINE

FOLDER = Path(__file__).resolve().parent.parent / "logs" / "arnhem44"
COMMAND = ".venv/bin/python tools/arnhem44_logs.py"
TABLETOP_ROUNDS = 4


def played(seed: str, options: dict[str, str] | None = None) -> list[str]:
    record = play_game(ENGINE, seed, random_policy, keep_log=True, options=options)
    assert record.log is not None and not record.broken, record.broken
    return record.log.splitlines()


def header(lines: list[str], *tags: str) -> tuple[list[str], list[str]]:
    """The log's tags with ``tags`` added, and its other lines."""
    count = next(i for i, line in enumerate(lines) if not line.startswith("["))
    return lines[:count] + list(tags), lines[count:]


def complete(seed: str, event: str, options: dict[str, str] | None = None) -> str:
    tags, body = header(played(seed, options), f'[Event "{event}"]')
    text = "\n".join([*tags, f"# Written by {COMMAND} (seed {seed}).", *body]) + "\n"
    outcome = replay_text(text).outcome() or {}
    assert outcome.get("result"), f"the game of seed {seed} did not end"
    return text


def tabletop(seed: str) -> str:
    """The first rounds, the [Seed] and [Dice] tags left out: every die is in the log."""
    tags, body = header(played(seed), '[Event "A game at the table: every die recorded"]')
    tags = [t for t in tags if not t.startswith(("[Seed ", "[Dice "))]
    text = "\n".join([*tags, f"# Written by {COMMAND} (seed {seed}, the seed left out): the "
                      f"first {TABLETOP_ROUNDS} rounds.", *body]) + "\n"
    lines = text.splitlines()
    report = replay_text(text)
    for entry in report.events:
        if entry.event.kind == "round" and entry.line is not None \
                and entry.event.data["round"] > TABLETOP_ROUNDS:
            return "\n".join(lines[:entry.line]) + "\n"  # up to round 5's first step
    raise AssertionError("no line ends the first rounds")


def pending(seed: str) -> str:
    """A seeded game cut right after the first combat that leaves a player a decision (which
    side withdraws first, or where a figure withdraws: RoE/Withdrawal)."""
    tags, body = header(played(seed), '[Allied "Alice"]', '[German "Bob"]',
                        '[Event "Play by e-mail: the log stops on a withdrawal decision"]')
    head = [*tags, f"# Written by {COMMAND} (seed {seed}): the strongest side must decide a "
            "withdrawal after the combat."]
    for cut in range(1, len(body) + 1):
        if not body[cut - 1].startswith("combat "):
            continue
        text = "\n".join([*head, *body[:cut]]) + "\n"
        state = replay_text(text).state_json() or {}
        if state.get("phase") in ("4.2", "5.2") and state.get("to_act") in ("allied", "german"):
            return text + f"expect to_act = {state['to_act']}\n"
    raise AssertionError(f"the game of seed {seed} has no withdrawal decision")


def logs() -> dict[str, str]:
    return {
        "complete-game.log": complete("arnhem44-complete", "A complete game of 18 rounds"),
        "three-players.log": complete("arnhem44-three", "Veterans Only, option 3: three "
                                      "players", {"three-players": "on"}),
        "tabletop.log": tabletop("arnhem44-table"),
        "pbem-pending-withdrawal.log": pending("arnhem44-pbem"),
    }


def main() -> int:
    return write_or_check(logs(), FOLDER, COMMAND)


if __name__ == "__main__":
    sys.exit(main())
