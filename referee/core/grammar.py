"""The Lark parsers (loaded once per process) and Lark's errors turned into sentences.

Building an LALR parser from a grammar takes Lark 30-80 ms, on every start of the command.
So each game's parser is built once, by ``tools/build_parsers.py``, and shipped with the
package (``referee/core/parsers/*.lalr``: Lark's own serialisation, ``Lark.save``), stamped
with a digest of the grammar text it came from and the Lark version.  ``game_parser`` loads
that when both still match, and otherwise builds the parser from the grammar as before, so
an edited grammar is never ignored (``tests/core/test_parser_data.py`` fails until the
shipped parsers are rebuilt).  Nothing is written at run time.
"""

from __future__ import annotations

import hashlib
import pickle
import re
from functools import cache
from pathlib import Path
from typing import Any

import lark
from lark import Lark
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from referee.core.errors import LogSyntaxError
from referee.core.resources import grammar_path

# What a terminal is, in words, for "expected ..." messages.
_TERMINAL_WORDS = {
    "WORD": "a name",
    "FACE": "a number",
    "EXPECT_VALUE": "a value",
    "DIE": "a die such as d6",
    "TAG_NAME": "a tag name",
    "TAG_VALUE": 'a quoted value such as "wwiic"',
    "ARROW": "'->'",
    "$END": "the end of the line",
}

PARSER_OPTIONS: dict[str, Any] = {
    "parser": "lalr",
    "start": "start",
    "maybe_placeholders": True,
}
"""How every game's parser is built (and so what a shipped parser must have been built with)."""

SHIPPED = Path(__file__).resolve().parent / "parsers"
"""Where the parsers built by ``tools/build_parsers.py`` are shipped."""

_IMPORT = re.compile(r"^%import\s+\.(\w+)", re.MULTILINE)


def grammar_digest(grammar_file: str) -> str:
    """SHA-256 of a grammar's text, the grammars it imports, and the parser options."""
    digest = hashlib.sha256(repr(sorted(PARSER_OPTIONS.items())).encode())
    seen: set[str] = set()
    todo = [grammar_file]
    while todo:
        name = todo.pop(0)
        if name in seen:
            continue
        seen.add(name)
        text = grammar_path(name).read_text(encoding="utf-8")
        digest.update(name.encode() + b"\0" + text.encode() + b"\0")
        todo += [f"{module}.lark" for module in _IMPORT.findall(text)]
    return digest.hexdigest()


def shipped_path(grammar_file: str) -> Path:
    return SHIPPED / (Path(grammar_file).stem + ".lalr")


def build_parser(grammar_file: str) -> Lark:
    """The LALR parser of a game's grammar, built from the grammar text (slow)."""
    return Lark.open(str(grammar_path(grammar_file)), **PARSER_OPTIONS)


def parser_blob(grammar_file: str) -> bytes:
    """What ``tools/build_parsers.py`` ships for a grammar: the built parser (``Lark.save``'s
    data and memo) with the grammar's digest and the Lark version."""
    from lark.grammar import Rule
    from lark.lexer import TerminalDef

    data, memo = build_parser(grammar_file).memo_serialize([TerminalDef, Rule])
    blob = {"data": data, "memo": memo, "grammar": grammar_digest(grammar_file),
            "lark": lark.__version__}
    return pickle.dumps(blob, protocol=4)


def _shipped_blob(grammar_file: str) -> dict[str, Any] | None:
    """What ``parser_blob`` shipped for a grammar, or ``None`` when it is missing or stale."""
    try:
        raw = shipped_path(grammar_file).read_bytes()
    except OSError:
        return None
    try:
        # The package's own data, written by tools/build_parsers.py (never a user's file).
        blob = pickle.loads(raw)
    except Exception:
        return None
    if not isinstance(blob, dict) or blob.get("lark") != lark.__version__:
        return None
    if blob.get("grammar") != grammar_digest(grammar_file):
        return None
    return blob


def load_shipped(grammar_file: str) -> Lark | None:
    """The shipped parser of a grammar, or ``None`` when it is missing or stale."""
    blob = _shipped_blob(grammar_file)
    return None if blob is None else Lark.load(blob)


@cache
def string_terminals(grammar_file: str) -> frozenset[str]:
    """The texts of a grammar's terminals written as strings (``"joker"i``, ``"->"``),
    case-folded: ``game_parser(grammar_file).terminals``' ``PatternStr`` values, read from
    the shipped parser's data without loading the parser (4-6 ms: a log its fast reader reads
    whole needs no parser, issue 31; tests/core/test_quicktree.py compares the two)."""
    blob = _shipped_blob(grammar_file)
    if blob is None:
        from lark.lexer import PatternStr

        return frozenset(t.pattern.value.casefold() for t in game_parser(grammar_file).terminals
                         if isinstance(t.pattern, PatternStr))
    return frozenset(item["pattern"]["value"].casefold() for item in blob["memo"].values()
                     if item.get("__type__") == "TerminalDef"
                     and item["pattern"].get("__type__") == "PatternStr")


@cache
def game_parser(grammar_file: str) -> Lark:
    """The LALR parser of a game's grammar (``battle_card.lark``), loaded once per process."""
    return load_shipped(grammar_file) or build_parser(grammar_file)


@cache
def line_keywords(parser: Lark) -> tuple[str, ...]:
    """The keywords a line may start with (its commands), for "did you mean" on a bad one."""
    accepts: set[str] = parser.parse_interactive("").accepts()  # type: ignore[no-untyped-call]
    words = []
    for definition in parser.terminals:
        if definition.name in accepts:
            described = _describe(parser, definition.name)
            if described.startswith("'") and described[1:-1].isalpha():
                words.append(described[1:-1])
    return tuple(sorted(words))


def _describe(parser: Lark, terminal: str) -> str:
    base = terminal.rsplit("__", 1)[-1]  # common__EXPECT_VALUE: imported with its rule
    if base in _TERMINAL_WORDS:
        return _TERMINAL_WORDS[base]
    for definition in parser.terminals:
        if definition.name == terminal:
            pattern = definition.pattern
            if pattern.type == "str":
                return f"'{pattern.value}'"
            raw = pattern.value
            if raw.startswith("(?i:") and raw.endswith(")"):
                return f"'{raw[4:-1].lower()}'"
            break
    return terminal.lower().replace("_", " ")


def _namespaced(error: UnexpectedToken) -> set[str]:
    """The terminals a parser state accepts, imported ones too (Lark's own list leaves out
    ``common__EXPECT_VALUE``: it keeps only names written in capitals)."""
    state = getattr(error, "state", None)
    try:
        names = state.parse_conf.states[state.position]  # type: ignore[union-attr]
    except (AttributeError, KeyError, TypeError):
        return set()
    return {n for n in names if n.rsplit("__", 1)[-1].isupper()}


def _expected(parser: Lark, names: set[str] | frozenset[str]) -> str:
    words = sorted({_describe(parser, n) for n in names if n not in ("WS_INLINE", "COMMENT")})
    if not words:
        return "something else"
    if len(words) == 1:
        return words[0]
    return ", ".join(words[:-1]) + " or " + words[-1]


def _misread_command(error: UnexpectedToken) -> bool:
    """True when the parser took an unknown first word for a side prefix ("atack Grave")."""
    history = [token for token in error.token_history or [] if token is not None]
    return (
        len(history) == 1
        and history[0].type == "WORD"
        and getattr(error.token, "type", None) != "COLON"
        and "COLON" in (error.accepts or error.expected)
    )


def _shown(found: str) -> str:
    """The text a message quotes for what the parser did not expect: as it is when it is
    plain ASCII, otherwise with its code point and name, so that an invisible character
    (a zero-width space, a soft hyphen) is named rather than quoted as nothing."""
    odd = next((c for c in found if not c.isascii()), None)
    if odd is None:
        return f"'{found}'"
    import unicodedata  # only for a line holding a character the log language never uses

    name = unicodedata.name(odd, "unnamed character").lower()
    label = f"U+{ord(odd):04X} {name}"
    if unicodedata.category(odd)[0] in "CZ" or not odd.isprintable():
        return f"{label} (an invisible character: delete it)"
    return f"'{found}' ({label})"


def syntax_error(parser: Lark, text: str, error: UnexpectedInput) -> LogSyntaxError:
    """A plain sentence for a Lark error on one line, with the 1-based column."""
    column = getattr(error, "column", None)
    if not isinstance(column, int) or column < 1:
        column = len(text.rstrip()) + 1
    if isinstance(error, UnexpectedCharacters):
        found = text[column - 1 : column]
        expected = _expected(parser, error.allowed or set())
        message = f"unexpected {_shown(found)}; expected {expected}"
    elif isinstance(error, UnexpectedEOF):
        message = f"the line ends too soon; expected {_expected(parser, set(error.expected))}"
        column = len(text.rstrip()) + 1
    elif isinstance(error, UnexpectedToken) and _misread_command(error):
        word = str(next(t for t in error.token_history or [] if t is not None))
        keywords = line_keywords(parser)
        import difflib  # only for a bad first word

        close = difflib.get_close_matches(word.casefold(), keywords, n=1)
        message = f"'{word}' is not a command"
        if close:
            message += f"; did you mean '{close[0]}'?"
        message += " Commands: " + ", ".join(keywords)
        column = 1 + len(text) - len(text.lstrip())
    elif isinstance(error, UnexpectedToken):
        token = error.token
        if token is None or token.type == "$END":
            column = len(text.rstrip()) + 1
            message = "the line ends too soon"
        elif token.type.endswith("EXPECT_VALUE"):  # the rest of a line, where it has no place
            words = str(token).split()  # empty for a run of spaces Python counts (U+3000)
            message = f"unexpected {_shown(words[0] if words else str(token).strip(' ')[:1])}"
        else:
            message = f"unexpected {_shown(str(token))}"
        names = error.accepts or error.expected or _namespaced(error)
        message += f"; expected {_expected(parser, names)}"
    else:  # pragma: no cover - Lark has no other UnexpectedInput subclasses
        message = "this line cannot be read"
    return LogSyntaxError(message, column=column)
