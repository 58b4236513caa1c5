"""Play-by-email test helpers: the command line in-process, and a game driven through it."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from click.testing import CliRunner

from referee.cli import main


@dataclass(frozen=True)
class Ran:
    code: int
    out: str
    err: str


def run(*args: str | Path) -> Ran:
    """``referee ARGS`` in-process: exit code, standard output, standard error."""
    result = CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)
    return Ran(result.exit_code, result.stdout, result.stderr)


def status(log: Path) -> dict[str, object]:
    ran = run("status", log, "--json")
    assert ran.code in (0, 1), ran.err
    data: dict[str, object] = json.loads(ran.out)
    return data


Chooser = Callable[[Sequence[str]], str]


def first_choice(choices: Sequence[str]) -> str:
    return choices[0]


def attack_then_pass(choices: Sequence[str]) -> str:
    """Attack the first city that must fight; in movement, always pass (a long game whose
    every turn has a 'pass' line)."""
    return "pass" if "pass" in choices else choices[0]


def drive(log: Path, secret_of: Callable[[str], Path | None], choose: Chooser = first_choice,
          *, max_plays: int = 200) -> int:
    """Play the game in ``log`` to its end with ``referee play`` only; ``secret_of(party)`` is
    the secret file the party's ``play`` is given.  Returns the number of plays."""
    for plays in range(max_plays):
        step = status(log)["next"]
        assert isinstance(step, dict)
        if step["kind"] == "over":
            return plays
        party = str(step["party"])
        move = [] if step["kind"] in ("roll", "chance") else [choose(step["choices"])]
        secret = secret_of(party)
        extra = ["--secret", str(secret)] if secret is not None else []
        ran = run("play", log, *move, *extra)
        assert ran.code == 0, ran.out + ran.err
    raise AssertionError(f"the game did not end within {max_plays} plays")


def action_lines(text: str) -> list[tuple[int, str]]:
    """(line number, text) of every action line of a log text."""
    out = []
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if stripped and not stripped.startswith(("[", "#", "turn ", "expect ")):
            out.append((number, line))
    return out
