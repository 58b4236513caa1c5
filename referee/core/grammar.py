"""Building the Lark parsers (once per process) and turning Lark's errors into sentences."""

from __future__ import annotations

import difflib
from functools import cache

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


@cache
def game_parser(grammar_file: str) -> Lark:
    """The LALR parser of a game's grammar (``battle_card.lark``), built once per process."""
    return Lark.open(
        str(grammar_path(grammar_file)),
        parser="lalr",
        start="start",
        maybe_placeholders=True,
        propagate_positions=True,
    )


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
    if terminal in _TERMINAL_WORDS:
        return _TERMINAL_WORDS[terminal]
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


def syntax_error(parser: Lark, text: str, error: UnexpectedInput) -> LogSyntaxError:
    """A plain sentence for a Lark error on one line, with the 1-based column."""
    column = getattr(error, "column", None)
    if not isinstance(column, int) or column < 1:
        column = len(text.rstrip()) + 1
    if isinstance(error, UnexpectedCharacters):
        found = text[column - 1 : column]
        message = f"unexpected '{found}'; expected {_expected(parser, error.allowed or set())}"
    elif isinstance(error, UnexpectedEOF):
        message = f"the line ends too soon; expected {_expected(parser, set(error.expected))}"
        column = len(text.rstrip()) + 1
    elif isinstance(error, UnexpectedToken) and _misread_command(error):
        word = str(next(t for t in error.token_history or [] if t is not None))
        keywords = line_keywords(parser)
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
        else:
            message = f"unexpected '{token}'"
        message += f"; expected {_expected(parser, error.accepts or error.expected)}"
    else:  # pragma: no cover - Lark has no other UnexpectedInput subclasses
        message = "this line cannot be read"
    return LogSyntaxError(message, column=column)
