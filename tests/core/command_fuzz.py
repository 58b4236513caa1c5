"""Grammar-aware fuzzing of the read-only commands, shared by the standing test
(``tests/core/test_command_fuzz.py``) and the long run (``bench/fuzz_commands.py``).

A case is a command line and the files it reads: a log (and sometimes a position file or a
scenario file beside it) built from the pieces of the log language: real lines of the
bundled logs of every game, mutated by dropping, swapping and inserting tokens, with hostile
headers (the ``[Game]`` tag misspelt, doubled, after a no-break space; scenarios by path;
position files that are links out of the folder, binary, or not positions), broken bytes and
long lines.  Every case runs in this process through click's ``CliRunner``; a run passes when
it ends by ``SystemExit`` (or returns) with exit code 0, 1 or 2.

Everything comes from one ``random.Random``: a case is a pure function of its seed, so a
failure is reproduced by its seed alone.
"""

from __future__ import annotations

import os
import random
import traceback
from dataclasses import dataclass, field
from pathlib import Path

from click.testing import CliRunner

from referee.cli import main
from referee.core.resources import bundled

GAMES = ("battle-card", "wwiic", "arnhem44")

PIECES = (
    "attack", "defend", "move", "pass", "airdrop", "landing", "turn", "expect", "setup:",
    "allied:", "german:", "referee:", "activate", "deploy", "no attack", "strategic",
    "Eindhoven", "Grave", "Nijmegen", "Arnhem", "Belgium", "30-corps", "82nd", "101st",
    "1P/1AB", "Heelsum->Renkum", "Oosterbeek", "1 tank", "2 inf", "->", "-", ";", ",", "{",
    "}", "d6:", "d10:", "cup:", "|", "#", "[", "]", '"', "=", "0", "1", "6", "7", "12",
    "99999999999999", " ", "\t", "é", "\u202e", "\u00a0", "\u3000", "\x1b[31m", "\\", "\r",
    "AM", "PM", "impulse", "units.1P/1AB.space", "control", "allied", "german",
)

TAG_NAMES = ("Game", "Seed", "Dice", "Scenario", "Position", "Option", "Draw", "Event",
             "Allied", "German", "SeedCommit", "Foo")


@dataclass
class Case:
    """One run: the arguments after ``referee`` and the files to write first."""

    seed: int
    args: list[str]
    files: dict[str, bytes] = field(default_factory=dict)


@dataclass
class Outcome:
    case: Case
    exit_code: int | None
    error: str | None
    """The traceback of an exception other than ``SystemExit``, or a bad exit code."""


def _bundled_lines() -> dict[str, list[str]]:
    lines: dict[str, list[str]] = {}
    root = bundled("logs")
    for game in GAMES:
        found: list[str] = []
        for path in sorted((root / game).glob("*.log")):
            found += [line for line in path.read_text(encoding="utf-8").splitlines()
                      if line.strip()]
        lines[game] = found
    return lines


_LINES = _bundled_lines()
_SCENARIO = (bundled("scenarios") / "battle-card" / "standard.toml").read_text(encoding="utf-8")


def _mutate(rng: random.Random, line: str) -> str:
    """A line with a few tokens dropped, swapped, repeated or replaced."""
    tokens = line.split(" ")
    for _ in range(rng.randint(1, 3)):
        kind = rng.random()
        i = rng.randrange(len(tokens)) if tokens else 0
        if kind < 0.25 and tokens:
            del tokens[i]
        elif kind < 0.5:
            tokens.insert(i, rng.choice(PIECES))
        elif kind < 0.65 and len(tokens) > 1:
            j = rng.randrange(len(tokens))
            tokens[i], tokens[j] = tokens[j], tokens[i]
        elif kind < 0.8 and tokens:
            tokens[i] = rng.choice(PIECES)
        elif tokens:
            word = tokens[i]
            if word:
                k = rng.randrange(len(word))
                tokens[i] = word[:k] + rng.choice(PIECES) + word[k + 1:]
    return " ".join(tokens)


def _game_tag(rng: random.Random, game: str) -> str:
    """The ``[Game]`` tag, mostly right, sometimes in one of the shapes that broke it."""
    roll = rng.random()
    if roll < 0.8:
        return f'[Game "{game}"]'
    return rng.choice([
        f'[game "{game}"]', f'[GAME "{game}"]', f'[Game "{game}"] junk', f'\u00a0[Game "{game}"]',
        f'\u3000[Game "{game}"]', f'[Game"{game}"]', f'  [ Game "{game}" ]  # c', '[Game ""]',
        f'[Game "{game}\\"x"]', f'[Game "{rng.choice(GAMES)}"]', '[Game "koenig-eindhoven"]',
        f'[Game "{game.upper()}"]', f'[Game "{"x" * rng.choice((1, 300, 3000))}"]',
        f'[Games "{game}"]', f'[Game "{game}"', "[Game]",
    ])


def _tag(rng: random.Random, game: str) -> str:
    name = rng.choice(TAG_NAMES)
    value = rng.choice([
        "7", "v1", "standard", "market-garden", "/etc/passwd", "../x", "start.pos",
        "out.pos", "bin.pos", "passwd.pos", "dir.pos", "fifo.pos", "zero.pos",
        "battle-card.pos", "wwiic.pos", "arnhem44.pos",
        "/tmp", "a" * 300, "", "12:34", "\\\\", "scen", "../../etc/hosts", "x\u202ey",
        rng.choice(PIECES), str(rng.randint(-5, 10**6)), game,
    ])
    if name == "Scenario" and rng.random() < 0.3:
        value = rng.choice(["scen.toml", "/tmp/scen", "../scen", "scen"])
    return f'[{name} "{value}"]'


def _log_text(rng: random.Random, game: str, longest: int) -> str:
    lines = [_game_tag(rng, game)]
    for _ in range(rng.choice((0, 1, 1, 2, 3))):
        lines.append(_tag(rng, game))
    if rng.random() < 0.15:
        lines.insert(rng.randrange(len(lines) + 1), _game_tag(rng, rng.choice(GAMES)))
    source = _LINES[game]
    body = [line for line in source if not line.lstrip().startswith("[")]
    start = rng.randrange(len(body))
    count = rng.choice(tuple(n for n in (0, 1, 2, 3, 5, 8) if n <= longest))
    picked = body[start:start + count] if rng.random() < 0.7 else rng.sample(body, count)
    for line in picked:
        roll = rng.random()
        if roll < 0.45:
            lines.append(line)
        elif roll < 0.85:
            lines.append(_mutate(rng, line))
        elif roll < 0.92:
            lines.append(" ".join(rng.choice(PIECES) for _ in range(rng.randint(1, 8))))
        else:
            lines.append(rng.choice([
                "x" * rng.choice((1999, 2001, 5000)), "setup: " + _mutate(rng, line),
                "turn " + str(rng.choice((0, 1, 2, 99, 10**8))), "expect turn = 1",
                "{d6: 1 2 3}", "pass {d6: " + " ".join("1" * 600) + "}", "# comment",
                _game_tag(rng, rng.choice(GAMES)),
            ]))
    separator = rng.choice(("\n", "\n", "\n", "\r\n", "\r", "\u2028"))
    return separator.join(lines) + (separator if rng.random() < 0.9 else "")


def _log_bytes(rng: random.Random, game: str, longest: int) -> bytes:
    text = _log_text(rng, game, longest)
    roll = rng.random()
    if roll < 0.9:
        data = text.encode("utf-8")
        if rng.random() < 0.05:
            data = b"\xef\xbb\xbf" + data
        return data
    return rng.choice([
        b"", b"\x00" + text.encode(), text.encode("utf-16"), text.encode("latin-1", "replace"),
        bytes(rng.randrange(256) for _ in range(rng.randint(1, 64))),
        text.encode()[: rng.randint(0, 40)] + b"\xff\xfe",
    ])


def prepare(folder: Path) -> None:
    """The files every case may name, written once into ``folder``: a position file, files
    that are not positions, links out of the folder, a folder, a FIFO."""
    fixed = {
        "passwd.pos": b"root:x:0:0:root:/root:/bin/bash\nsecret-line\n",
        "bin.pos": b"\x00\x01secret",
        "dir.pos/x": b"",
    }
    for game in GAMES:
        setups = [line for line in _LINES[game] if line.lstrip().lower().startswith("setup")]
        fixed[f"{game}.pos"] = (f'[Game "{game}"]\n' + "\n".join(setups[:3]) + "\n").encode()
    for name, data in fixed.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    for name, target in {"out.pos": "/etc/hostname", "zero.pos": "/dev/zero"}.items():
        if not os.path.lexists(folder / name):
            os.symlink(target, folder / name)
    if not os.path.lexists(folder / "fifo.pos"):
        os.mkfifo(folder / "fifo.pos")


def _scenario_text(rng: random.Random) -> str:
    lines = _SCENARIO.splitlines()
    for _ in range(rng.randint(0, 4)):
        i = rng.randrange(len(lines))
        roll = rng.random()
        if roll < 0.4:
            del lines[i]
        elif roll < 0.7:
            lines[i] = _mutate(rng, lines[i])
        else:
            lines.insert(i, rng.choice(["x = 1", "[[units]]", "route = []", "game = 5",
                                        "turns = 999", "a = [" * 50, "[combat]", "= ="]))
    if rng.random() < 0.1:
        return rng.choice(["", "x = 1\n", "game = 'wwiic'\n", "[[[\n", "a = " + "[" * 2000])
    return "\n".join(lines) + "\n"


# The read-only commands, each with its options; the text reports of ``replay`` cost several
# times the others (a rich board), so the quick mix runs them less often.
COMMANDS: tuple[tuple[str, ...], ...] = (
    ("replay", "--json"), ("replay", "--strict", "--json"), ("replay", "--seed", "s", "--json"),
    ("check",), ("check", "--strict"), ("moves",), ("moves", "--json"),
    ("moves", "--upto", "UPTO"), ("status",), ("status", "--json"), ("verify",),
    ("verify", "--json"), ("position",), ("position", "--upto", "UPTO"), ("render",),
    ("scenario", "check"),
)
TEXT_REPORTS: tuple[tuple[str, ...], ...] = (
    ("replay",), ("replay", "--events"), ("replay", "--strict"), ("replay", "--upto", "UPTO"),
)


def make_case(seed: int, *, quick: bool = False) -> Case:
    """The case of ``seed``: a command and its files.  ``quick``: shorter logs, and the
    costly text reports of ``replay`` one run in twenty instead of one in five."""
    rng = random.Random(seed)
    game = rng.choice(GAMES + ("battle-card",) * 3)
    case = Case(seed, [])
    case.files["game.log"] = _log_bytes(rng, game, 3 if quick else 8)
    case.files["scen.toml"] = _scenario_text(rng).encode()
    log = "game.log"
    if rng.random() < 0.03:
        log = rng.choice(["missing.log", "zero.pos", "dir.pos", "x" * 300 + ".log",
                          "out.pos", "passwd.pos", "fifo.pos"])
    texts = 0.05 if quick else 0.2
    command = list(rng.choice(TEXT_REPORTS if rng.random() < texts else COMMANDS))
    command = [str(rng.randint(1, 12)) if word == "UPTO" else word for word in command]
    if command == ["scenario", "check"]:
        target = rng.choice(["scen.toml"] * 6 + ["zero.pos", "dir.pos", "x" * 300,
                                                  "passwd.pos", "missing.toml", "fifo.pos"])
        case.args = [*command, "{}/" + target]
    else:
        case.args = [*command, "{}/" + log]
    return case


def run_case(case: Case, folder: Path, runner: CliRunner | None = None) -> Outcome:
    """Run ``case`` on its files, written into ``folder`` (made ready by ``prepare``)."""
    for name, data in case.files.items():
        path = folder / name
        path.unlink(missing_ok=True)  # a new file: truncating one in place is much slower
        path.write_bytes(data)
    runner = runner or CliRunner()
    args = [arg.replace("{}", str(folder), 1) if arg.startswith("{}/") else arg
            for arg in case.args]
    result = runner.invoke(main, args, catch_exceptions=True)
    error = None
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        info = result.exc_info
        error = "".join(traceback.format_exception(*info)) if info else repr(result.exception)
    elif result.exit_code not in (0, 1, 2):
        error = f"exit code {result.exit_code}: {result.output[-500:]}"
    return Outcome(case, result.exit_code, error)


def signature(error: str) -> str:
    """The last line of a traceback (the exception and its message, shortened)."""
    last = error.strip().splitlines()[-1] if error.strip() else error
    return last[:160]
