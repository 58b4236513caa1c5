"""Grammar-aware fuzzing of the read-only commands, shared by the standing test
(``tests/core/test_command_fuzz.py``) and the long run (``bench/fuzz_commands.py``).

A case is a command line and the files it reads: a log (and sometimes a position file or a
scenario file beside it) built from the pieces of the log language of each of the four games:
real lines of the bundled logs and of the rule examples, respelt with the game's own names
(a unit by another unit, an HQ among them; a place, sector or hex by another), set-up lines
built from the game's grammar words, lines mutated by dropping, swapping and inserting tokens
(the game's grammar words and names among them), with hostile headers (the ``[Game]`` tag
misspelt, doubled, after a no-break space; scenarios by path;
position files that are links out of the folder, binary, or not positions), broken bytes and
long lines.  The commands are every one that reads a log: ``replay``, ``check``, ``moves``,
``status``, ``verify``, ``position``, ``render`` (to standard output and ``-o``), ``view -o``,
``fmt`` (and ``-o``), ``map --log``, ``play --dry-run`` of a generated line, and ``scenario
check``.  Every case runs in this process through click's ``CliRunner``; a run passes when it
ends by ``SystemExit`` (or returns) with exit code 0, 1 or 2, and what a ``--json`` command
prints is JSON.

Everything comes from one ``random.Random``: a case is a pure function of its seed, so a
failure is reproduced by its seed alone.
"""

from __future__ import annotations

import json
import os
import random
import re
import time
import traceback
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from referee.cli import main
from referee.core.resources import bundled

GAMES = ("battle-card", "wwiic", "arnhem44", "koenig-eindhoven")
EXAMPLES = {"battle-card": "battle_card", "wwiic": "wwiic", "arnhem44": "arnhem44",
            "koenig-eindhoven": "koenig_eindhoven"}
"""The folder of each game's rule examples under ``tests/games``."""
GRAMMARS = {"battle-card": "battle_card.lark", "wwiic": "wwiic.lark",
            "arnhem44": "arnhem44.lark", "koenig-eindhoven": "koenig_eindhoven.lark"}
SIDES = ("allied: ", "german: ", "uk: ", "us: ", "referee: ", "")

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
    """The traceback of an exception other than ``SystemExit``, a bad exit code, or what a
    ``--json`` command printed that is not JSON."""
    cpu: float = 0.0
    """The processor seconds the run took (a hang shows as a long one)."""


def _bundled_logs() -> dict[str, list[list[str]]]:
    """The lines of each of a game's bundled logs and rule examples, log by log."""
    logs: dict[str, list[list[str]]] = {}
    root = bundled("logs")
    examples = Path(__file__).resolve().parent.parent / "games"
    for game in GAMES:
        paths = sorted((root / game).glob("*.log"))
        paths += sorted((examples / EXAMPLES[game] / "examples").glob("*.log"))
        logs[game] = [[line for line in path.read_text(encoding="utf-8").splitlines()
                       if line.strip()] for path in paths]
    return logs


_LOGS = _bundled_logs()
_LINES = {game: [line for log in logs for line in log] for game, logs in _LOGS.items()}


@dataclass(frozen=True)
class Words:
    """A game's words: the literals of its grammar, the names of its scenario by kind
    (units, places), and the numbers its logs write (phases, rounds, hits), each a tuple to
    draw from."""

    grammar: tuple[str, ...]
    units: tuple[str, ...]
    places: tuple[str, ...]
    numbers: tuple[str, ...] = ()

    def respell(self, rng: random.Random, line: str) -> str:
        """``line`` with some of its names replaced by others of the same kind: a unit by
        another unit (an HQ, a gone unit, another side's), a place by another place."""
        def swap(match: re.Match[str]) -> str:
            word = match.group(0)
            if rng.random() < 0.5:
                return word
            if word in self.unit_set:
                return rng.choice(self.units)
            if word in self.place_set:
                return rng.choice(self.places)
            if self.numbers and _NUMBER.fullmatch(word):
                return rng.choice(self.numbers)
            return word
        return _NAME.sub(swap, line)

    @property
    def unit_set(self) -> frozenset[str]:
        return _sets(self)[0]

    @property
    def place_set(self) -> frozenset[str]:
        return _sets(self)[1]


_NAME = re.compile(r"[^\s;,{}>|#-][^\s;,{}>|#]*(?<!-)")
"""A word of a line, between spaces, separators and the ``->`` of a path."""
_NUMBER = re.compile(r"\d+(?:\.\d+)?(?:-[a-z]+)?")


@cache
def _sets(words: Words) -> tuple[frozenset[str], frozenset[str]]:
    return frozenset(words.units), frozenset(words.places)


def _names(items: Any, keys: tuple[str, ...] = ("id", "name", "hq")) -> Iterator[str]:
    """The names in a list of scenario records (or the keys of a table of them)."""
    if isinstance(items, dict):
        yield from (str(k) for k in items)
        return
    for item in items if isinstance(items, list) else ():
        if isinstance(item, dict):
            for key in keys:
                if isinstance(item.get(key), str):
                    yield item[key]
            yield from (a for a in item.get("aliases", ()) if isinstance(a, str))


@cache
def words(game: str) -> Words:
    """The words of ``game`` (its grammar file and its bundled scenario)."""
    from referee.core.resources import grammar_path
    from referee.scenarios import scenario_data

    text = grammar_path(GRAMMARS[game]).read_text(encoding="utf-8")
    text += grammar_path("common.lark").read_text(encoding="utf-8")
    literals = sorted(set(re.findall(r'"([^"\\\s]{1,20})"i?', text)))
    data = scenario_data(game)
    units = sorted(set(_names(data.get("units", ()))) | set(_names(data.get("formations", ()))))
    places: set[str] = set()
    for key in ("cities", "spaces", "sectors", "bridges", "places", "boxes", "route"):
        places |= set(_names(data.get(key, ())))
    hexes = [h["id"] for h in data.get("hexes", ()) if isinstance(h, dict)]
    places |= set(hexes[::7])  # a sample of the hex numbers: hundreds would drown the rest
    places |= set(n for n in data.get("route", ()) if isinstance(n, str))
    numbers = {w for line in _LINES[game] for w in line.split() if _NUMBER.fullmatch(w)}
    return Words(tuple(literals), tuple(units), tuple(sorted(places)), tuple(sorted(numbers)))


_SCENARIO = (bundled("scenarios") / "battle-card" / "standard.toml").read_text(encoding="utf-8")


def _piece(rng: random.Random, game: str | None) -> str:
    """A token to put into a line: the game's own words half the time."""
    if game is None or rng.random() < 0.5:
        return rng.choice(PIECES)
    found = words(game)
    pool = rng.choice((found.grammar, found.units, found.places))
    return rng.choice(pool) if pool else rng.choice(PIECES)


def _mutate(rng: random.Random, line: str, game: str | None = None) -> str:
    """A line with a few tokens dropped, swapped, repeated or replaced."""
    tokens = line.split(" ")
    for _ in range(rng.randint(1, 3)):
        kind = rng.random()
        i = rng.randrange(len(tokens)) if tokens else 0
        if kind < 0.25 and tokens:
            del tokens[i]
        elif kind < 0.5:
            tokens.insert(i, _piece(rng, game))
        elif kind < 0.65 and len(tokens) > 1:
            j = rng.randrange(len(tokens))
            tokens[i], tokens[j] = tokens[j], tokens[i]
        elif kind < 0.8 and tokens:
            tokens[i] = _piece(rng, game)
        elif tokens:
            word = tokens[i]
            if word:
                k = rng.randrange(len(word))
                tokens[i] = word[:k] + _piece(rng, game) + word[k + 1:]
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
    if rng.random() < 0.5:
        return _grown_log(rng, game, longest)
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
        if roll < 0.3:
            lines.append(line)
        elif roll < 0.5:
            lines.append(words(game).respell(rng, line))
        elif roll < 0.75:
            lines.append(_mutate(rng, line, game))
        elif roll < 0.85:
            lines.append(_made_line(rng, game))
        elif roll < 0.92:
            lines.append(" ".join(_piece(rng, game) for _ in range(rng.randint(1, 8))))
        else:
            lines.append(_odd_line(rng, game, line))
    separator = rng.choice(("\n", "\n", "\n", "\r\n", "\r", "\u2028"))
    return separator.join(lines) + (separator if rng.random() < 0.9 else "")


def _odd_line(rng: random.Random, game: str, line: str) -> str:
    return rng.choice([
        "x" * rng.choice((1999, 2001, 5000)), "setup: " + _mutate(rng, line, game),
        "turn " + str(rng.choice((0, 1, 2, 99, 10**8))), "expect turn = 1",
        "{d6: 1 2 3}", "pass {d6: " + " ".join("1" * 600) + "}", "# comment",
        _game_tag(rng, rng.choice(GAMES)),
    ])


def _grown_log(rng: random.Random, game: str, longest: int) -> str:
    """A real log of the game cut after a few of its lines (its header kept, so it reads and
    replays into the middle of a game), then a few lines respelt, mutated or made of the
    game's words: the engine's checks reached with a real position behind them."""
    source = rng.choice(_LOGS[game])
    header = [line for line in source if line.lstrip().startswith("[")]
    body = [line for line in source if not line.lstrip().startswith("[")]
    keep = rng.randint(0, min(len(body), longest * 6))
    lines = header + body[:keep]
    for line in body[keep:keep + rng.randint(1, 3)] or [rng.choice(_LINES[game])]:
        roll = rng.random()
        if roll < 0.35:
            lines.append(words(game).respell(rng, line))
        elif roll < 0.65:
            lines.append(_mutate(rng, line, game))
        elif roll < 0.9:
            lines.append(_made_line(rng, game))
        else:
            lines.append(_odd_line(rng, game, line))
    return "\n".join(lines) + "\n"


def _made_line(rng: random.Random, game: str) -> str:
    """A line made of the game's words: a set-up line (``setup: phase 4.2``), or a side's
    command of a grammar word and a few names and numbers."""
    found = words(game)
    parts = [rng.choice(found.grammar)] if found.grammar else []
    for _ in range(rng.randint(0, 3)):
        kind = rng.random()
        if kind < 0.35 and found.units:
            parts.append(rng.choice(found.units))
        elif kind < 0.7 and found.places:
            place = rng.choice(found.places)
            parts.append(place + (f"->{rng.choice(found.places)}" if rng.random() < 0.4 else ""))
        elif kind < 0.85:
            parts.append(rng.choice(("0", "1", "2", "3", "4.2", "5.2", "6", "10", "99")))
        else:
            parts.append(_piece(rng, game))
    text = " ".join(parts)
    if rng.random() < 0.4:
        return "setup: " + text
    if rng.random() < 0.2:
        text += " {" + rng.choice(("d6", "d10", "cup")) + ": " + " ".join(
            str(rng.randint(0, 10)) for _ in range(rng.randint(1, 4))) + "}"
    return rng.choice(SIDES) + text


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


# The commands that read a log, each with its options (LOG: where the log goes, last when
# not named; GAME: the log's game; MOVE: a line for ``play``).  The text reports of
# ``replay`` cost several times the others (a rich board), so the quick mix runs them less
# often.  The files written go into the case's folder and are removed before each run.
COMMANDS: tuple[tuple[str, ...], ...] = (
    ("replay", "--json"), ("replay", "--strict", "--json"), ("replay", "--seed", "s", "--json"),
    ("check",), ("check", "--strict"), ("check", "--json"), ("moves",), ("moves", "--json"),
    ("moves", "--upto", "UPTO"), ("status",), ("status", "--json"), ("verify",),
    ("verify", "--json"), ("position",), ("position", "--upto", "UPTO"), ("position", "--json"),
    ("render",), ("render", "--upto", "UPTO"), ("render", "LOG", "-o", "{}/out.svg", "--force"),
    ("view", "LOG", "-o", "{}/out.html", "--force"), ("fmt",), ("fmt", "LOG", "-o", "{}/fmt.log"),
    ("map", "GAME", "--log", "LOG", "-o", "{}/map.svg", "--force"),
    ("play", "--dry-run", "LOG", "MOVE"), ("play", "--dry-run", "LOG"), ("scenario", "check"),
)
TEXT_REPORTS: tuple[tuple[str, ...], ...] = (
    ("replay",), ("replay", "--events"), ("replay", "--strict"), ("replay", "--upto", "UPTO"),
)
OUTPUTS = ("out.svg", "out.html", "fmt.log", "map.svg")
"""The files the commands above write, removed before each run."""


def make_case(seed: int, *, quick: bool = False) -> Case:
    """The case of ``seed``: a command and its files.  ``quick``: shorter logs, and the
    costly text reports of ``replay`` one run in twenty instead of one in five."""
    rng = random.Random(seed)
    game = rng.choice(GAMES)
    case = Case(seed, [])
    case.files["game.log"] = _log_bytes(rng, game, 3 if quick else 8)
    case.files["scen.toml"] = _scenario_text(rng).encode()
    log = "game.log"
    if rng.random() < 0.03:
        log = rng.choice(["missing.log", "zero.pos", "dir.pos", "x" * 300 + ".log",
                          "out.pos", "passwd.pos", "fifo.pos"])
    texts = 0.05 if quick else 0.2
    command = list(rng.choice(TEXT_REPORTS if rng.random() < texts else COMMANDS))
    if command == ["scenario", "check"]:
        target = rng.choice(["scen.toml"] * 6 + ["zero.pos", "dir.pos", "x" * 300,
                                                  "passwd.pos", "missing.toml", "fifo.pos"])
        case.args = [*command, "{}/" + target]
        return case
    if "LOG" not in command:
        command.append("LOG")
    move = _move(rng, game)
    fill = {"LOG": "{}/" + log, "GAME": game if rng.random() < 0.9 else rng.choice(GAMES),
            "MOVE": move}
    case.args = [str(rng.randint(1, 12)) if word == "UPTO" else fill.get(word, word)
                 for word in command]
    return case


def _move(rng: random.Random, game: str) -> str:
    """A line for ``play``: a real line, respelt, mutated or made of the game's words."""
    line = rng.choice([x for x in _LINES[game] if not x.lstrip().startswith(("[", "#"))])
    roll = rng.random()
    if roll < 0.3:
        return line
    if roll < 0.6:
        return words(game).respell(rng, line)
    if roll < 0.85:
        return _mutate(rng, line, game)
    return _made_line(rng, game)


def run_case(case: Case, folder: Path, runner: CliRunner | None = None) -> Outcome:
    """Run ``case`` on its files, written into ``folder`` (made ready by ``prepare``)."""
    for name, data in case.files.items():
        path = folder / name
        path.unlink(missing_ok=True)  # a new file: truncating one in place is much slower
        path.write_bytes(data)
    for name in OUTPUTS:
        (folder / name).unlink(missing_ok=True)
    runner = runner or CliRunner()
    args = [arg.replace("{}", str(folder), 1) if arg.startswith("{}/") else arg
            for arg in case.args]
    start = time.process_time()
    result = runner.invoke(main, args, catch_exceptions=True)
    cpu = time.process_time() - start
    error = None
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        info = result.exc_info
        error = "".join(traceback.format_exception(*info)) if info else repr(result.exception)
    elif result.exit_code not in (0, 1, 2):
        error = f"exit code {result.exit_code}: {result.output[-500:]}"
    elif "--json" in args:
        error = _json_error(result.stdout, lines=args[0] == "check")
    return Outcome(case, result.exit_code, error, cpu)


def _json_error(text: str, *, lines: bool) -> str | None:
    """Why what a ``--json`` command printed is not JSON (``check``: one document a line);
    ``None`` when it is.  Every ``--json`` prints its envelope, a log it cannot read
    included (issue 32): printing nothing is an error too."""
    documents = [t for t in text.splitlines() if t.strip()] if lines else (
        [text] if text.strip() else [])
    if not documents:
        return "--json printed no document"
    for document in documents:
        try:
            json.loads(document)
        except ValueError as error:
            return f"--json printed what is not JSON ({error}): {document[:300]!r}"
    return None


def signature(error: str) -> str:
    """The last line of a traceback (the exception and its message, shortened)."""
    last = error.strip().splitlines()[-1] if error.strip() else error
    return last[:160]
