"""Reading a log: bytes to text, text to lines, lines to entries (with the game's grammar).

One bad line gives one problem and reading goes on with the next, so one run reports every
bad line.  Nothing here applies a rule.
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path
from typing import Any

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedInput

from referee.core.engine import Engine
from referee.core.errors import (
    DiceFaceError,
    HeaderError,
    LogEncodingError,
    LogLimitError,
    Problem,
    ProblemKind,
    RefereeError,
)
from referee.core.grammar import game_parser, syntax_error
from referee.core.log import (
    ActionLine,
    CommandItem,
    DiceRecord,
    Entry,
    Expectation,
    ParsedLog,
    SetupItem,
    SetupLine,
    TagLine,
    TurnAssertion,
)

MAX_BYTES = 16 * 1024 * 1024
MAX_LINES = 100_000
MAX_LINE_CHARS = 2_000
MAX_DIE_SIDES = 100
MAX_DICE_IN_RECORD = 500

_GAME_TAG = re.compile(r'^\s*\[\s*Game\s+"([^"\n]*)"\s*\]', re.IGNORECASE)


def decode_log(data: bytes) -> str:
    """The text of a log file, or ``LogEncodingError``/``LogLimitError`` saying why not."""
    if len(data) > MAX_BYTES:
        raise LogLimitError(
            f"the log is {len(data):,} bytes; the referee reads logs of up to {MAX_BYTES:,} bytes"
        )
    if b"\x00" in data:
        raise LogEncodingError("this is a binary file, not a text log")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise LogEncodingError(
            f"the log is not UTF-8 text (byte {error.start + 1} cannot be read); "
            f"save it as UTF-8"
        ) from None
    return text.removeprefix("\ufeff")


def read_log(path: Path, engine: Engine[Any, Any] | None = None) -> ParsedLog:
    """Read and parse a log file.  Problems reading it come back inside the result."""
    from referee.core.resources import shown  # a bundled log is named bundled:GAME/NAME

    source = shown(path)
    try:
        data = path.read_bytes()
    except OSError as error:
        log = ParsedLog(source, unreadable=True)
        reason = error.strerror or str(error)
        log.problems.append(Problem(ProblemKind.HEADER, f"cannot read {source}: {reason}"))
        return log
    try:
        text = decode_log(data)
    except RefereeError as error:
        log = ParsedLog(source, unreadable=True)
        log.problems.append(error.to_problem())
        return log
    log = parse_log(text, source, engine=engine)
    if "Position" in log.tags and not log.unreadable:
        _read_position(log, path)
    return log


def _read_position(log: ParsedLog, path: Path) -> None:
    """``[Position "start.pos"]``: the setup lines of a position file beside the log.

    A log is untrusted: the file must be named by a plain relative path inside the log's own
    folder (no absolute path, no ``..``), and may hold only tags and setup lines.
    """
    name = log.tags["Position"]
    line = log.tag_lines.get("Position")

    def refuse(message: str) -> None:
        log.problems.append(Problem(ProblemKind.HEADER, message, line=line, column=1,
                                    text=f'[Position "{name}"]'))

    relative = Path(name)
    if not name or relative.is_absolute() or ".." in relative.parts or "\\" in name or (
        ":" in name
    ):
        refuse(f"[Position] must name a file beside the log (like \"start.pos\"), not '{name}'")
        return
    target = path.parent / relative
    try:
        text = decode_log(target.read_bytes())
    except OSError as error:
        refuse(f"cannot read the position file {name}: {error.strerror or error}")
        return
    except RefereeError as error:
        refuse(f"the position file {name}: {error.message}")
        return
    from referee.games import engine_for

    engine = engine_for(log.game or "")
    position = parse_log(text, name, engine=engine)
    for problem in position.problems:
        log.problems.append(replace(
            problem, line=line, message=f"{name}:{problem.line}: {problem.message}",
        ))
    if position.tags.get("Game", log.game) != log.game:
        refuse(f"the position file {name} is for {position.tags['Game']}, not {log.game}")
        return
    setups: list[Entry] = []
    for entry in position.entries:
        if not isinstance(entry, SetupLine):
            refuse(f"{name}:{entry.number}: a position file holds only tags and setup lines")
            return
        entry.origin = f"{name}:{entry.number}"
        entry.number = line or 1
        setups.append(entry)
    if "Draw" in position.tags and "Draw" not in log.tags:
        log.tags["Draw"] = position.tags["Draw"]
    log.entries[:0] = setups


def find_game(lines: list[str]) -> str | None:
    """The value of the ``[Game "..."]`` tag, which chooses the grammar for the rest."""
    for line in lines:
        match = _GAME_TAG.match(line)
        if match:
            return match.group(1)
    return None


def parse_log(
    text: str, source: str = "<log>", engine: Engine[Any, Any] | None = None
) -> ParsedLog:
    """Parse a whole log.  ``engine`` overrides the engine the ``Game`` tag names."""
    from referee.games import engine_for  # the registry imports engines lazily

    log = ParsedLog(source)
    lines = text.splitlines()
    if len(lines) > MAX_LINES:
        log.unreadable = True
        log.problems.append(
            LogLimitError(
                f"the log has {len(lines):,} lines; the referee reads logs of up to "
                f"{MAX_LINES:,} lines"
            ).to_problem()
        )
        return log
    if engine is None:
        game = find_game(lines)
        if game is None:
            log.unreadable = True
            log.problems.append(
                HeaderError(
                    'the log has no [Game "..."] tag; start it with one, for example '
                    '[Game "battle-card"] (\'referee games\' lists the games)'
                ).to_problem(line=1)
            )
            return log
        try:
            engine = engine_for(game)
        except RefereeError as error:
            log.unreadable = True
            number = next(i for i, line in enumerate(lines, 1) if _GAME_TAG.match(line))
            problem = error.to_problem(line=number, text=lines[number - 1])
            log.problems.append(
                Problem(ProblemKind.HEADER, problem.message, line=number, text=problem.text)
            )
            return log
    parser = game_parser(engine.grammar)
    seen_action = False
    for number, raw in enumerate(lines, 1):
        line = raw.rstrip("\r")
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if len(line) > MAX_LINE_CHARS:
            log.problems.append(
                LogLimitError(
                    f"this line has {len(line):,} characters; a line may have up to "
                    f"{MAX_LINE_CHARS:,}"
                ).to_problem(line=number, text=line[:80] + "…")
            )
            continue
        try:
            entry = _parse_line(parser, engine, number, line)
        except RefereeError as error:
            log.problems.append(error.to_problem(line=number, text=line))
            continue
        if isinstance(entry, TagLine):
            tag_problem = _add_tag(log, entry, seen_action)
            if tag_problem is not None:
                log.problems.append(tag_problem)
            continue
        seen_action = True
        log.entries.append(entry)
    return log


def _add_tag(log: ParsedLog, tag: TagLine, seen_action: bool) -> Problem | None:
    def problem(message: str) -> Problem:
        return Problem(ProblemKind.HEADER, message, line=tag.number, column=1, text=tag.text)

    if seen_action:
        return problem(f"the tag [{tag.name}] comes after the moves; tags belong at the top")
    if tag.name == "Option":
        log.options.append(tag.value)
        return None
    if tag.name in log.tags:
        return problem(f"the tag [{tag.name}] is given twice")
    log.tags[tag.name] = tag.value
    log.tag_lines[tag.name] = tag.number
    return None


def _parse_line(parser: Lark, engine: Engine[Any, Any], number: int, line: str) -> Entry:
    try:
        tree = parser.parse(line)
    except UnexpectedInput as error:
        raise syntax_error(parser, line, error) from None
    node = tree.children[0] if tree.data == "start" else tree
    assert isinstance(node, Tree)
    kind = node.data
    if kind == "tag":
        name, value = (str(t) for t in node.children)
        return TagLine(number, line, name=name, value=_unquote(value))
    if kind == "turn_assertion":
        turn_token, half = node.children
        assert isinstance(turn_token, Token)
        turn = _small_int(turn_token, "turn number")
        return TurnAssertion(
            number, line, turn=turn, half=str(half) if half is not None else None,
            column=turn_token.column or 1,
        )
    if kind == "expectation":
        key, *values = node.children
        assert isinstance(key, Token)
        return Expectation(
            number, line, key=str(key), value=" ".join(str(v) for v in values),
            column=key.column or 1,
        )
    if kind == "setup":
        setup = SetupLine(number, line)
        for item in node.children:
            assert isinstance(item, Tree)
            statement = engine.build_setup(item, line)
            setup.items.append(SetupItem(statement, _first_column(item)))
        return setup
    if kind == "action":
        side_node, *items = node.children
        side = None
        if isinstance(side_node, Tree):
            side = str(side_node.children[0]).casefold()
        action = ActionLine(number, line, side=side)
        for item in items:
            assert isinstance(item, Tree)
            command_tree, dice_tree = item.children
            assert isinstance(command_tree, Tree)
            column = _first_column(command_tree)
            command = engine.build_command(command_tree, line)
            dice = _dice_record(dice_tree) if isinstance(dice_tree, Tree) else None
            action.items.append(CommandItem(command, dice, column))
        return action
    raise AssertionError(f"the grammar produced an unknown line kind {kind!r}")


def _unquote(value: str) -> str:
    return value[1:-1].replace('\\"', '"').replace("\\\\", "\\")


def _small_int(token: Token, what: str, limit: int = 1_000_000) -> int:
    text = str(token)
    if len(text) > 7 or int(text) > limit:
        raise LogLimitError(f"{text[:12]} is too large for a {what}", column=token.column)
    return int(text)


def _dice_record(tree: Tree[Any]) -> DiceRecord:
    if str(tree.data).endswith("chits"):
        return _chit_record(tree)
    die, *groups = tree.children
    assert isinstance(die, Token)
    sides = _small_int(die.__class__(die.type, str(die)[1:]), "die")
    if not 2 <= sides <= MAX_DIE_SIDES:
        raise DiceFaceError(f"there is no {die} die", column=die.column)
    faces: list[tuple[int, ...]] = []
    count = 0
    for group in groups:
        assert isinstance(group, Tree)
        values: list[int] = []
        for token in group.children:
            assert isinstance(token, Token)
            value = _small_int(token, "die face")
            # 0 is a face of a die read from 0 (Arnhem '44's d10); the engine's roll checks
            # each face against its die's range.
            if not 0 <= value <= sides:
                raise DiceFaceError(f"a d{sides} has no face {value}", column=token.column)
            values.append(value)
        count += len(values)
        faces.append(tuple(values))
    if count > MAX_DICE_IN_RECORD:
        raise LogLimitError(
            f"this record holds {count} dice; a record may hold up to {MAX_DICE_IN_RECORD}",
            column=die.column,
        )
    return DiceRecord(sides, tuple(faces), die.column or 1)


def _chit_record(tree: Tree[Any]) -> DiceRecord:
    """``{cup: 506 | 502}``: chits drawn from a cup, checked by the engine against its cup."""
    cup, *names = tree.children
    assert isinstance(cup, Token)
    chits: list[str] = []
    for name in names:
        assert isinstance(name, Tree)
        chits.append(" ".join(str(token) for token in name.children))
    if len(chits) > MAX_DICE_IN_RECORD:
        raise LogLimitError(
            f"this record holds {len(chits)} chits; a record may hold up to "
            f"{MAX_DICE_IN_RECORD}",
            column=cup.column,
        )
    return DiceRecord(0, (), cup.column or 1, tuple(chits))


def _first_column(tree: Tree[Any]) -> int:
    if not tree.meta.empty:
        return int(tree.meta.column)
    for token in tree.scan_values(lambda v: isinstance(v, Token)):
        return int(token.column or 1)
    return 1
