"""Digests of what a replay outputs (problems, events, the final state, the pending decision
and the outcome: the ``--json`` document), for every bundled log and for self-played logs of
every game, so that work on speed can show the output is byte-identical before and after.

The fixture ``replay_digests.json`` beside this file was written by the code from before the
speed work of issue 31 (``.venv/bin/python -m tests.core.replay_digests --write``); the test
``test_replay_digests.py`` compares.  Each self-played game is replayed twice: as played, and
with its middle action line written twice (the copy is usually refused, so the undo of a
rejected line is covered too).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

from referee.core.parsing import parse_log, read_log
from referee.core.replay import replay
from referee.core.selfplay import play_game, random_policy
from referee.games import GAMES, engine_for

ROOT = Path(__file__).resolve().parent.parent.parent
FIXTURE = Path(__file__).with_name("replay_digests.json")
SELF_PLAYED = 200
"""Self-played logs per game in the fixture."""


def digest(document: dict[str, Any]) -> str:
    """The SHA-256 of a report's JSON, without its source (a path that depends on the
    folder the test runs from)."""
    kept = {key: value for key, value in document.items() if key != "source"}
    text = json.dumps(kept, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def bundled_logs() -> list[Path]:
    return sorted((ROOT / "logs").rglob("*.log"))


def bundled_digest(path: Path) -> str:
    return digest(replay(read_log(path)).to_json())


def self_played_log(game: str, index: int) -> str:
    record = play_game(engine_for(game), f"digest-{index}", random_policy, keep_log=True,
                       check=False)
    assert record.log is not None
    return record.log


def with_a_line_twice(text: str) -> str:
    """The log with its middle action line (not a tag, not the first) written twice."""
    lines = text.splitlines()
    actions = [n for n, line in enumerate(lines) if line and not line.startswith("[")]
    if not actions:
        return text
    middle = actions[len(actions) // 2]
    return "\n".join([*lines[: middle + 1], lines[middle], *lines[middle + 1:]]) + "\n"


def self_played_digests(game: str, index: int) -> list[str]:
    """The digest of the log's own text, of its replay, and of the replay with a line twice."""
    engine = engine_for(game)
    text = self_played_log(game, index)
    played = replay(parse_log(text, "self-play.log", engine=engine), engine)
    twice = with_a_line_twice(text)
    doubled = replay(parse_log(twice, "self-play.log", engine=engine), engine)
    return [hashlib.sha256(text.encode()).hexdigest(), digest(played.to_json()),
            digest(doubled.to_json())]


def compute(self_played: int) -> dict[str, Any]:
    return {
        "bundled": {path.relative_to(ROOT).as_posix(): bundled_digest(path)
                    for path in bundled_logs()},
        "self_played": {game: [self_played_digests(game, i) for i in range(self_played)]
                        for game in GAMES},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="write the fixture")
    parser.add_argument("--games", type=int, default=SELF_PLAYED)
    args = parser.parse_args()
    found = compute(args.games)
    if args.write:
        FIXTURE.write_text(json.dumps(found, indent=1, sort_keys=True) + "\n")
        print(f"wrote {FIXTURE}")
    else:
        json.dump(found, sys.stdout, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
