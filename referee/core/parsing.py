"""Reading a log: bytes to text, text to lines, lines to entries (with the game's grammar).

One bad line gives one problem and reading goes on with the next, so one run reports every
bad line.  Nothing here applies a rule.
"""

from __future__ import annotations

import copy
import dataclasses
import hashlib
import re
from collections.abc import Callable
from dataclasses import replace
from operator import attrgetter
from pathlib import Path
from typing import Any

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedInput

from referee.core.dicerecord import dice_record
from referee.core.dicerecord import dice_tree_record as _dice_record
from referee.core.dicerecord import small_int as _small_int
from referee.core.engine import Engine
from referee.core.errors import (
    HeaderError,
    LogLimitError,
    Problem,
    ProblemKind,
    RefereeError,
)
from referee.core.grammar import game_parser, syntax_error
from referee.core.log import (
    ActionLine,
    CommandItem,
    Entry,
    Expectation,
    ParsedLog,
    SetupItem,
    SetupLine,
    TagLine,
    TurnAssertion,
)
from referee.core.mail import explain as explain_mail
from referee.core.mail import quoted
from referee.core.quicktree import expect_tree, tag_tree
from referee.core.reading import contained_in, read_bounded

MAX_BYTES = 16 * 1024 * 1024
MAX_LINES = 100_000
MAX_LINE_CHARS = 2_000

_NOT_A_POSITION = frozenset({ProblemKind.SYNTAX, ProblemKind.ENCODING, ProblemKind.LIMIT})
"""Problems that mean a position file is not text of the log language at all."""

# The [Game] tag exactly as the grammar reads a tag line (common.lark: "[" TAG_NAME TAG_VALUE
# "]", spaces and tabs ignored, a comment after it), so that the finder and the parser never
# disagree about which line names the game.
_GAME_TAG = re.compile(
    r'[ \t]*\[[ \t]*Game[ \t]*"((?:[^"\\\n]|\\["\\])*)"[ \t]*\][ \t]*(?:#[^\n]*)?\Z'
)
# Something a player meant as the [Game] tag: told apart so the sentence can say what is wrong.
_LOOSE_GAME_TAG = re.compile(r"\s*\[\s*game\b", re.IGNORECASE)


def decode_log(data: bytes) -> str:
    """The text of a log file, or ``LogEncodingError``/``LogLimitError`` saying why not."""
    if len(data) > MAX_BYTES:
        raise LogLimitError(
            f"the log is {len(data):,} bytes; the referee reads logs of up to {MAX_BYTES:,} bytes"
        )
    from referee.core.encoding import decode  # UTF-8, UTF-16 with its mark, or Latin-1

    return decode(data)


def read_log(path: Path, engine: Engine[Any, Any] | None = None) -> ParsedLog:
    """Read and parse a log file.  Problems reading it come back inside the result.

    The file is read by ``read_bounded``: a regular file only (never a FIFO, a device or a
    folder), and never more than ``MAX_BYTES`` plus one byte of it.
    """
    from referee.core.resources import shown  # a bundled log is named bundled:GAME/NAME

    source = shown(path)
    try:
        text = decode_log(read_bounded(path, MAX_BYTES, what="log"))
    except RefereeError as error:
        log = ParsedLog(source, unreadable=True)
        log.problems.append(error.to_problem())
        return log
    log = parse_log(text, source, engine=engine)
    if engine is None:  # [Scenario "file:NAME"]: read again on that file's board
        log = apply_scenario_file(log, text, path.parent)
    if "Position" in log.tags and not log.unreadable:
        _read_position(log, path)
    return log


def apply_scenario_file(log: ParsedLog, text: str, folder: Path | None,
                        engine: Any = None) -> ParsedLog:
    """The log ``log`` (parsed from ``text``) read again on the scenario file its
    ``[Scenario "file:NAME"]`` names, beside it in ``folder``: with the engine of that file
    (``log.engine``) and the file's SHA-256 (``log.scenario_sha256``).  A file that cannot be
    used makes the log unreadable, with one problem per sentence at the tag's line.
    ``engine``: the log was parsed with the engine of that file already (play by e-mail
    parses each new text of a game); the file is read again for its SHA-256 only."""
    from referee.core.errors import Problem, ProblemKind
    from referee.core.ownscenario import PREFIX, engine_of, file_name, read_scenario_file
    from referee.core.scenario import ScenarioError
    from referee.games import engine_for

    name = file_name(log.tags.get("Scenario"))
    if name is None or log.unreadable:
        return log
    line = log.tag_lines.get("Scenario")
    shown = f'[Scenario "{PREFIX}{name}"]'
    try:
        if folder is None:
            raise ScenarioError([f"a log read from standard input has no folder to find its "
                                 f"scenario file {name} in; give the log's path instead of '-'"])
        file = read_scenario_file(folder, name)
        if engine is not None:
            log.engine, log.scenario_sha256 = engine, file.sha256
            return log
        engine = engine_of(file, engine_for(log.game or ""))
    except ScenarioError as error:
        log.unreadable = True
        log.problems[:0] = [Problem(ProblemKind.HEADER, sentence, line=line, column=1,
                                    text=shown) for sentence in error.problems]
        return log
    except RefereeError as error:
        log.unreadable = True
        log.problems.insert(0, error.to_problem(line=line, text=shown))
        return log
    again = parse_log(text, log.source, engine=engine)
    again.engine = engine
    again.scenario_sha256 = file.sha256
    return again


def _read_position(log: ParsedLog, path: Path) -> None:
    """``[Position "start.pos"]``: the setup lines of a position file beside the log.

    A log is untrusted: the file must be named by a plain relative path inside the log's own
    folder (no absolute path, no ``..``), its real path (links followed) must lie in that
    folder, it must be a regular file of at most ``MAX_BYTES``, and it may hold only tags and
    setup lines.  A file that does not read as a position is refused without a word of its
    text: a log may point at a file its reader would not show anyone.
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
    try:
        target = contained_in(path.parent, name, what="position file")
        data = read_bounded(target, MAX_BYTES, what="position file",
                            shown=f"the position file {name}", follow=False)
        log.position_sha256 = hashlib.sha256(data).hexdigest()  # sealed in play by e-mail
        text = decode_log(data)
    except RefereeError as error:
        refuse(error.message if error.message.startswith("cannot read")
               else f"the position file {name}: {error.message}")
        return
    from referee.games import engine_for

    try:
        engine = log.engine or engine_for(log.game or "")  # a scenario file's, if any
    except RefereeError as error:
        refuse(f"the position file {name} cannot be read: {error.message}")
        return
    position = parse_log(text, name, engine=engine)
    unread = [p for p in position.problems if p.kind in _NOT_A_POSITION]
    if unread or position.unreadable:
        first = unread[0] if unread else position.problems[0]
        where = f"line {first.line}" if first.line is not None else "the file"
        more = f", and {len(unread) - 1} more lines" if len(unread) > 1 else ""
        refuse(f"the position file {name} is not a position: {where} cannot be read as tags "
               f"and setup lines ({first.kind}){more}; its text is not shown")
        return
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


def apply_position(log: ParsedLog, path: Path) -> None:
    """Read the ``[Position]`` file a parsed log names (beside ``path``), as ``read_log``
    does: play by e-mail parses each text it tries, then applies its position."""
    if "Position" in log.tags and not log.unreadable:
        _read_position(log, path)


def find_game(lines: list[str]) -> str | None:
    """The value of the ``[Game "..."]`` tag, which chooses the grammar for the rest."""
    found = _game_line(lines)
    return found[1] if found is not None else None


def _game_line(lines: list[str]) -> tuple[int, str] | None:
    """The number of the line that is the ``[Game]`` tag, and the game it names."""
    for number, line in enumerate(lines, 1):
        if len(line) > MAX_LINE_CHARS:  # parse_log skips such a line, so must the finder
            continue
        match = _GAME_TAG.match(line)
        if match:
            return number, _unquote(f'"{match.group(1)}"')
    return None


def _no_game(lines: list[str]) -> Problem:
    """Why no line is the ``[Game]`` tag: none is there, or one almost is."""
    example = '[Game "battle-card"]'
    for number, line in enumerate(lines, 1):
        if len(line) <= MAX_LINE_CHARS and _LOOSE_GAME_TAG.match(line):
            return HeaderError(
                f"this line is meant as the [Game] tag but is not one: write it as {example}, "
                f"'Game' with a capital G, alone on its line (spaces or tabs before it only)"
            ).to_problem(line=number, text=line)
    return HeaderError(
        f'the log has no [Game "..."] tag; start it with one, for example {example} '
        f"('referee games' lists the games)"
    ).to_problem(line=1)


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
    mail_quoted = quoted(lines)  # a log quoted in a reply: one problem, not one per line
    if mail_quoted is not None:
        log.unreadable = True
        log.problems.append(mail_quoted)
        return log
    chosen: tuple[int, str] | None = None
    if engine is None:
        chosen = _game_line(lines)
        if chosen is None:
            log.unreadable = True
            log.problems.append(_no_game(lines))
            return log
        number, game = chosen
        try:
            engine = engine_for(game)
        except RefereeError as error:
            log.unreadable = True
            problem = error.to_problem(line=number, text=lines[number - 1])
            log.problems.append(
                Problem(ProblemKind.HEADER, problem.message, line=number, text=problem.text)
            )
            return log
    parser = None  # loaded by the first line a fast reader leaves to Lark (``_parse_line``)
    memo = _memo_of(engine)
    entries = log.entries
    seen_action = False
    for number, raw in enumerate(lines, 1):
        line = raw.rstrip("\r")
        found = memo.get(line)
        if type(found) is ActionLine and len(line) <= MAX_LINE_CHARS:
            # A remembered action line (the commonest): it was read before, so it is no
            # blank line or comment; a fresh copy at this line (``_renumbered``).
            seen_action = True
            entries.append(ActionLine(number, found.text, found.side, found.items.copy()))
            continue
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
            entry = _remembered_line(parser, engine, memo, number, line)
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
    if chosen is not None and log.tags.get("Game") != chosen[1]:
        # The tag that chose the grammar did not make it into the tags (it came after a
        # move, for one): the log cannot be read as that game.
        log.unreadable = True
        log.problems.append(HeaderError(
            f"the [Game \"{chosen[1]}\"] tag must come first, before any move"
        ).to_problem(line=chosen[0]))
    explained = explain_mail(lines, log.problems)  # wrapped by a mail client?
    if explained is not log.problems:
        log.problems = explained
        log.unreadable = True  # its moves are not the ones played: replay none of them
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


MEMO_LINES = 4096
"""How many distinct lines each engine's memo keeps (then it starts afresh)."""

MEMO_ENGINES = 16
"""How many engines' memos are kept (the four games', and those of scenario files)."""

_memos: dict[int, tuple[Engine[Any, Any], dict[str, Entry | RefereeError]]] = {}


def _memo_of(engine: Engine[Any, Any]) -> dict[str, Entry | RefereeError]:
    """The line memo of ``engine`` (``_remembered_line``), made when first asked for."""
    held = _memos.get(id(engine))
    if held is None or held[0] is not engine:
        if len(_memos) >= MEMO_ENGINES:  # engines of scenario files come and go
            _memos.clear()
        held = _memos[id(engine)] = (engine, {})
    return held[1]


def _remembered_line(parser: Lark | None, engine: Engine[Any, Any],
                     memo: dict[str, Entry | RefereeError], number: int, line: str) -> Entry:
    """``_parse_line``, remembered by the line's text in ``memo`` (``_memo_of``): logs repeat
    most of their lines (``pass``, ``turn 3``, ``attack Arnhem {d6: 6}``), and a line reads
    the same wherever it stands, so the second time costs a copy.  Kept per engine (its
    names resolve the line), at most ``MEMO_LINES`` lines each."""
    found = memo.get(line)
    if found is None:
        found = _other_dice(memo, number, line)
        if found is None:
            try:
                found = _parse_line(parser, engine, number, line)
            except RefereeError as error:
                found = error
            else:
                _remember_command(memo, line, found)
        if len(memo) >= MEMO_LINES:
            memo.clear()
        memo[line] = found
    if isinstance(found, RefereeError):
        raise found.with_traceback(None)
    return _renumbered(found, number)


_DICE_AT_END = re.compile(r"\{[ \t]*([dD][0-9]{1,4})[ \t]*:([ \t0-9|]*)\}[ \t]*")
"""grammar/common.lark's ``dice`` (``{d10: 3 7 | 1}``) ending a line, read from its brace:
the DIE, then the faces (groups checked by ``_other_dice``)."""


def _remember_command(memo: dict[str, Entry | RefereeError], line: str, entry: Entry) -> None:
    """A line of one command and its dice (``attack Arnhem {d6: 4}``): remembered by the
    text before its dice too (under a key no line has: a newline, then that text), so that
    the same command with other dice is made by ``_other_dice``."""
    if type(entry) is ActionLine and len(entry.items) == 1 and "#" not in line:
        record = entry.items[0].dice
        brace = line.rfind("{")
        if record is not None and not record.chits and brace > 0 and (
                _DICE_AT_END.fullmatch(line, brace) is not None):
            memo["\n" + line[:brace]] = entry


def _other_dice(memo: dict[str, Entry | RefereeError], number: int,
                line: str) -> Entry | None:
    """The entry of a line that writes a command remembered with other dice
    (``_remember_command``): that command at that column, with this line's dice, which the
    grammar reads apart from the command (``item: command [dice]``, the dice last; a line
    with a comment is not taken).  None when no such command is remembered, or when these
    dice are not plain or are refused (the line is then read the long way, which says why,
    under the face it means)."""
    brace = line.rfind("{")
    if brace < 1:
        return None
    found = memo.get("\n" + line[:brace])
    if found is None or "#" in line:
        return None
    dice = _DICE_AT_END.fullmatch(line, brace)
    if dice is None:
        return None
    groups = [group.split() for group in dice.group(2).split("|")]
    if not all(groups):
        return None
    try:
        record = dice_record(dice.group(1), dice.start(1) + 1, groups)
    except RefereeError:
        return None
    assert type(found) is ActionLine
    item = found.items[0]
    return ActionLine(number, line, found.side, [CommandItem(item.command, record, item.column)])


_FIELDS: dict[type, Callable[[Entry], Any] | None] = {}
"""For each kind of entry, a getter of its fields in the order its constructor takes them
(``None``: a kind with a field the constructor does not take, copied by ``copy.copy``)."""


def _fields_of(kind: type) -> Callable[[Entry], Any] | None:
    if kind not in _FIELDS:
        found = dataclasses.fields(kind)
        _FIELDS[kind] = (attrgetter(*(f.name for f in found))
                         if len(found) > 1 and all(f.init for f in found) else None)
    return _FIELDS[kind]


def _renumbered(entry: Entry, number: int) -> Entry:
    """A fresh copy of a remembered entry, at line ``number`` (its lists copied too).  Made
    by its constructor from its fields: ``copy.copy`` of a slotted record cost 2 µs of the
    6 µs a remembered line took (issue 31)."""
    if type(entry) is ActionLine:  # the commonest, as parse_log copies a remembered one
        return ActionLine(number, entry.text, entry.side, entry.items.copy())
    kind = type(entry)
    fields = _fields_of(kind)
    fresh = copy.copy(entry) if fields is None else kind(*fields(entry))
    fresh.number = number
    if isinstance(fresh, ActionLine):
        fresh.items = list(fresh.items)
    if isinstance(fresh, SetupLine):
        fresh.items = list(fresh.items)
    return fresh


def _parse_line(parser: Lark | None, engine: Engine[Any, Any], number: int, line: str) -> Entry:
    # An engine may read its commonest line shape itself (``quick_tree``: the very tree Lark
    # gives it, or None for Lark to read the line; issue 31).  ``parser`` None: the game's,
    # loaded here when a line needs it (a log its fast reader reads whole loads none).
    # A plain tag line is read without Lark in every game (``quicktree.tag_tree``), and so
    # is a plain expectation (``quicktree.expect_tree``) that no fast reader of the game read.
    # An engine may also make the entry of its commonest action lines without a tree
    # (``quick_line``: the entry the tree would give, or None for the long way).
    if line[:1] == "[":
        tree = tag_tree(line)
    else:
        tree = None
        quick_line = getattr(engine, "quick_line", None)
        if quick_line is not None:
            entry: Entry | None = quick_line(number, line)
            if entry is not None:
                return entry
    quick = getattr(engine, "quick_tree", None) if tree is None else None
    if quick is not None:
        tree = quick(line)
    if tree is None:
        tree = expect_tree(line)
    if tree is None:
        if parser is None:
            parser = game_parser(engine.grammar)
        try:
            tree = parser.parse(line)
        except UnexpectedInput as error:
            raise syntax_error(parser, line, error) from None
    node = tree.children[0] if tree.data == "start" else tree
    assert isinstance(node, Tree)
    kind = node.data
    if kind == "action":  # the commonest line first
        side_node, *items = node.children
        side = None
        if isinstance(side_node, Tree):
            side = str(side_node.children[0]).casefold()
        action = ActionLine(number, line, side=side)
        columns = _item_columns(line, len(items), prefixed=side is not None)
        build, found = engine.build_command, action.items
        for item, column in zip(items, columns, strict=True):
            assert isinstance(item, Tree)
            command_tree, dice_tree = item.children
            assert isinstance(command_tree, Tree)
            command = build(command_tree, line)
            dice = _dice_record(dice_tree) if isinstance(dice_tree, Tree) else None
            found.append(CommandItem(command, dice, column))
        return action
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
            number, line, key=str(key), value=" ".join(" ".join(map(str, values)).split()),
            column=key.column or 1,
        )
    if kind == "setup":
        setup = SetupLine(number, line)
        columns = _item_columns(line, len(node.children), prefixed=True)
        for item, column in zip(node.children, columns, strict=True):
            assert isinstance(item, Tree)
            statement = engine.build_setup(item, line)
            setup.items.append(SetupItem(statement, column))
        return setup
    raise AssertionError(f"the grammar produced an unknown line kind {kind!r}")


def _unquote(value: str) -> str:
    return value[1:-1].replace('\\"', '"').replace("\\\\", "\\")


def _item_columns(line: str, count: int, prefixed: bool) -> list[int]:
    """The 1-based column where each of the ``count`` items of a parsed action or setup line
    begins: the first, after the side prefix or ``setup:`` (``prefixed``), then one after
    each ``;``.  The parser keeps no positions (Lark's ``propagate_positions`` costs about a
    third of a parse); a line that parsed has no ``;`` or ``:`` inside a name, a number or a
    die before its last item, and a comment only after it."""
    columns = []
    at = line.index(":") + 1 if prefixed else 0
    for _ in range(count):
        while line[at] in " \t":
            at += 1
        columns.append(at + 1)
        at = line.find(";", at) + 1
    return columns
