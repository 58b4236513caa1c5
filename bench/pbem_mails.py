"""Mails per game turn: whole two-secret games played by e-mail between two folders.

    .venv/bin/python bench/pbem_mails.py [--games battle-card,koenig-eindhoven,...] [--max 600]

Each side has its own folder and secret.  The side whose step it is reads its mail
(``referee mail game.log --since mailed.log --json``) and runs the command the mail gives, as
written (a quick player: ``end`` or ``pass`` when the rules allow, else the first choice);
when the step passes to the other side, the log is mailed (copied to the other folder).

Prints, per game: turns, plays, mails, mails per game turn, and how many mails carry only
steps nobody decides (every line the sender added or changed is a referee's roll, such as an
Eindhoven Bridge HQ draw: no move of a side, no dice of the other side's move).
In-process (``CliRunner``); a few seconds per game, a minute or so for Arnhem '44.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import shutil
import sys
import tempfile
import time
from pathlib import Path

from click.testing import CliRunner

from referee.cli import main

QUICK = ("end", "pass", "end movement", "end setup")


def referee(*args: str | Path) -> tuple[int, str]:
    result = CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)
    return result.exit_code, result.stdout + result.stderr


def command_of(body: str) -> list[str]:
    lines = body.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("Run"))
    block = []
    for line in lines[start + 1:]:
        block.append(line)
        if not line.endswith("\\"):
            break
    return shlex.split("\n".join(block).replace("\\\n", ""))


def play_game(game: str, root: Path, limit: int) -> dict[str, object]:
    first, second = ("allied", "keeper") if game == "battle-card" else ("allied", "german")
    for party in (first, second):
        (root / party).mkdir()
    os.chdir(root / first)
    assert referee("new", game, "--commit", "--side", first, "-o", "game.log")[0] == 0
    shutil.copyfile("game.log", root / second / "game.log")
    os.chdir(root / second)
    assert referee("join", "game.log", "--side", second)[0] == 0
    holder, mails, plays, idle = second, 0, 0, 0
    turns: set[object] = set()
    for _ in range(limit):
        os.chdir(root / holder)
        since = ["--since", "mailed.log"] if Path("mailed.log").exists() else []
        code, out = referee("mail", "game.log", *since, "--json")
        data = json.loads(out)
        turns.add((data.get("state") or {}).get("turn"))
        step = data["next"]
        if step["command"] is None and step["template"] is None:
            break
        if step["party"] != holder:
            got = set(Path("received.log").read_text().splitlines()) if Path(
                "received.log").exists() else set()
            new = [line for line in Path("game.log").read_text().splitlines()
                   if line not in got and line.strip() and not line.startswith(("[", "turn "))]
            idle += bool(new) and not any(re.match(r"[a-z-]+: ", line) for line in new)
            shutil.copyfile("game.log", "mailed.log")
            holder = step["party"]
            shutil.copyfile("game.log", root / holder / "game.log")
            shutil.copyfile("game.log", root / holder / "received.log")
            mails += 1
            continue
        words = command_of(data["body"])
        if "MOVE" in " ".join(words):
            choice = next((c for c in QUICK if c in step["choices"]), step["choices"][0])
            words = [w.replace("MOVE", choice) for w in words]
        code, out = referee(*words[1:])
        if code != 0:
            raise SystemExit(f"{game}: {' '.join(words)} failed: {out}")
        plays += 1
    turns.discard(None)
    return {"game": game, "turns": len(turns), "plays": plays, "mails": mails,
            "per_turn": round(mails / max(len(turns), 1), 1), "rolls_only": idle,
            "over": step["command"] is None and step["template"] is None}


def main_bench() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="battle-card,koenig-eindhoven,wwiic,arnhem44")
    parser.add_argument("--max", type=int, default=600, help="at most this many steps a game")
    args = parser.parse_args()
    os.fsync = lambda fd: None  # a benchmark does not survive power cuts
    here = Path.cwd()
    for game in args.games.split(","):
        with tempfile.TemporaryDirectory() as folder:
            began = time.perf_counter()
            row = play_game(game, Path(folder), args.max)
            os.chdir(here)
            row["seconds"] = round(time.perf_counter() - began, 1)
            print(json.dumps(row))
            sys.stdout.flush()


if __name__ == "__main__":
    main_bench()
