"""What the server answers, in the protocol's types (lsprotocol), from a ``Document``.

Diagnostics are the problems of ``referee check``; completion offers the ``moves`` of the
line before the cursor; hover shows the position after a line; code actions apply a
did-you-mean, insert the line the referee awaits, or ``fmt`` the log; go to definition opens
a cited rule's row of the rules-coverage document (``referee rules``).  Everything comes
from ``referee.api`` and the reports it gives: no game's rules are known here.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from lsprotocol import types as lsp

from referee import api
from referee.core.engine import needs_text
from referee.core.errors import Problem, ProblemKind, RefereeError
from referee.core.log import ActionLine
from referee.core.names import normalise, side_title
from referee.core.replay import Report
from referee.lsp.documents import Document, char_index, utf16_column
from referee.rules import entry_line

SOURCE = "referee"
MAX_DIAGNOSTICS = 1000
"""The most problems shown as diagnostics (then one says how many more there are)."""
MAX_DICE_HINTS = 20
"""The most problems with dice whose message is given the dice the command rolls (each is
one replay from the kept position before its line)."""
MAX_ITEMS = 500
"""The most completion items one answer holds (``isIncomplete`` says when there are more)."""

_SUGGESTION = re.compile(r"unknown [\w ]+? '([^']+)'; did you mean ((?:'[^']+'(?: or )?)+)\?")
_QUOTED = re.compile(r"'([^']+)'")
_PREFIX = re.compile(r"\s*([A-Za-z][\w-]*)\s*:\s*")
_CITATION = re.compile(r"\[([^\[\]\"]{1,60})\]")
_NAME_CHARS = re.compile(r"[\w'./-]+")
_NAME_KEYS = ("name", "id", "unit", "space", "sector", "hex", "city", "bridge", "area")
_IDENTITY_KEYS = ("name", "id")
"""The keys of a thing's own name in a state's JSON (its other names are references)."""
_OUT_OF_TURN = frozenset({ProblemKind.WRONG_SIDE, ProblemKind.MISSING_DECISION})
_ROLL_HINT = ("dice-missing", "dice-extra", "dice-face")


# -- positions ---------------------------------------------------------------------------

def _range(document: Document, line: int, start: int, end: int) -> lsp.Range:
    """A range on 0-based ``line`` from character ``start`` to ``end`` (UTF-16 out)."""
    text = document.line(line)
    return lsp.Range(lsp.Position(line, utf16_column(text, start)),
                     lsp.Position(line, utf16_column(text, max(start, end))))


def _problem_range(document: Document, problem: Problem) -> lsp.Range:
    """Where a problem is: from its column to the end of its command (the next ``;`` or
    comment), else the line's text; a problem of no line is at the last line."""
    count = len(document.lines)
    line = (problem.line - 1) if problem.line is not None else max(0, count - 1)
    line = min(max(0, line), max(0, count - 1))
    text = document.line(line)
    stripped = len(text) - len(text.lstrip())
    if problem.column is None:
        return _range(document, line, stripped, len(text.rstrip()))
    start = min(max(0, problem.column - 1), len(text))
    stops = [i for i in (text.find(";", start), text.find("#", start)) if i >= 0]
    end = min(stops) if stops else len(text)
    end = max(len(text[:end].rstrip()), start + 1 if start < len(text) else start)
    return _range(document, line, start, end)


# -- diagnostics -------------------------------------------------------------------------

def diagnostics(document: Document) -> list[lsp.Diagnostic]:
    """Every problem of the replay, at its line and column, with its kind and rule as the
    code, the legal alternatives (the hint) in the message, and a follow-on problem's cause
    as related information."""
    report = document.report
    if report is None:
        return []
    out = []
    causes: dict[int, Problem] = {}
    for problem in report.problems:
        if problem.line is not None:
            causes.setdefault(problem.line, problem)
    hinted = 0
    for problem in report.problems[:MAX_DIAGNOSTICS]:
        message = problem.message
        if problem.hint:
            message += f"\n{problem.hint}"
        if str(problem.kind) in _ROLL_HINT and hinted < MAX_DICE_HINTS:
            hinted += 1
            dice = _dice_of(document, problem)
            if dice:
                message += f"\n{dice}"
        related = None
        if problem.follows is not None:
            cause = causes.get(problem.follows)
            related = [lsp.DiagnosticRelatedInformation(
                location=lsp.Location(document.uri, _problem_range(document, cause) if cause
                                      else _range(document, problem.follows - 1, 0, 0)),
                message=f"may follow from line {problem.follows}"
                        + (f": {cause.message}" if cause else ""),
            )]
        code = str(problem.kind) + (f" [{problem.rule}]" if problem.rule else "")
        out.append(lsp.Diagnostic(
            range=_problem_range(document, problem),
            message=message,
            severity=_severity(problem),
            code=code,
            source=SOURCE,
            related_information=related,
        ))
    more = len(report.problems) - MAX_DIAGNOSTICS
    if more > 0:
        last = max(0, len(document.lines) - 1)
        out.append(lsp.Diagnostic(
            range=_range(document, last, 0, 0), severity=lsp.DiagnosticSeverity.Information,
            message=f"{more:,} more problems are not shown here; 'referee check' lists them",
            source=SOURCE))
    return out


def _severity(problem: Problem) -> lsp.DiagnosticSeverity:
    if problem.follows is not None:
        return lsp.DiagnosticSeverity.Warning  # may vanish once its cause is mended
    return lsp.DiagnosticSeverity.Error


def _dice_of(document: Document, problem: Problem) -> str:
    """For a problem with a line's dice: the dice the command rolls there (tried at the
    position before the line; ``referee.api.dice_needed``)."""
    if str(problem.kind) not in _ROLL_HINT:
        return ""
    if problem.line is None or document.report is None:
        return ""
    before = document.after(problem.line - 1)
    if before is None:
        return ""
    entry = api.parse_line(before, document.line(problem.line - 1))
    if not isinstance(entry, ActionLine) or len(entry.items) != 1:
        return ""
    needed = api.dice_needed(before, entry.items[0].command)
    return f"the dice to write: {skeleton(needed)}" if needed else ""


def skeleton(needed: list[Any]) -> str:
    """The dice record to fill in for the described batches (``RollNeed``): ``{d10: _ _ _ _}``,
    one record per kind of die (``{cup: _}`` for chits), the dice that follow a ``then``
    rule left for the player to add."""
    kinds: dict[str, list[str]] = {}
    for need in needed:
        kinds.setdefault(need.die, []).append(" ".join("_" for _ in range(need.count)))
    return " ".join(f"{{{die}: {' | '.join(groups)}}}" for die, groups in kinds.items())


# -- completion --------------------------------------------------------------------------

def completion(document: Document, line: int, column: int) -> lsp.CompletionList:
    """The legal commands at the cursor (the position after the lines above it), those
    that begin as what is typed; the game's names for the word being typed; and after a
    command that rolls, the dice to fill in."""
    empty = lsp.CompletionList(is_incomplete=False, items=[])
    text = document.line(line)
    if document.report is None or document.report.engine is None or _sealed_line(text):
        return empty
    cursor = char_index(text, column)
    typed = text[:cursor]
    if "#" in typed or typed.lstrip().startswith("["):
        return empty
    before = document.after(line)  # the position after the lines above the cursor
    if before is None or before.engine is None:
        return empty
    pending = before.pending()
    if pending is None:
        return empty
    side = str(pending["side"])
    prefix = _PREFIX.match(typed)
    sides = {normalise(s) for s in (*before.engine.info.sides, *before.engine.info.players,
                                    "referee")}
    start = len(typed) - len(typed.lstrip())
    written_side = prefix is not None and normalise(prefix.group(1)) in sides
    if written_side and prefix is not None:
        start = prefix.end()
    command = typed[start:]
    items: list[lsp.CompletionItem] = []
    if "{" not in command:
        items += _dice_items(before, line, typed, cursor, document)
        items += _command_items(document, before, line, start, cursor, command,
                                "" if written_side or side == "referee" else f"{side}: ")
        items += _name_items(document, before, line, typed, cursor, {i.label for i in items})
    return lsp.CompletionList(is_incomplete=bool(pending["more"]) or len(items) > MAX_ITEMS,
                              items=items[:MAX_ITEMS])


def _command_items(document: Document, before: Report, line: int, start: int, cursor: int,
                   command: str, side_prefix: str) -> list[lsp.CompletionItem]:
    wanted = normalise(command)
    out = []
    for index, choice in enumerate(api.legal_moves(before)):
        if not normalise(choice).startswith(wanted):
            continue
        out.append(lsp.CompletionItem(
            label=choice,
            kind=lsp.CompletionItemKind.Function,
            detail=f"legal for {side_title(str(before.to_act()))}",
            filter_text=choice,
            sort_text=f"{index:05d}",
            text_edit=lsp.TextEdit(_range(document, line, start, cursor),
                                   side_prefix + choice),
        ))
    return out


def _dice_items(before: Report, line: int, typed: str, cursor: int,
                document: Document) -> list[lsp.CompletionItem]:
    """After a whole command that rolls (and before its dice are written): its dice."""
    if not typed.strip() or not typed.endswith(" "):
        return []
    entry = api.parse_line(before, typed.rstrip())
    if not isinstance(entry, ActionLine) or not entry.items or entry.items[-1].dice:
        return []
    needed = api.dice_needed(before, entry.items[-1].command)
    if not needed:
        return []
    record = skeleton(needed)
    return [lsp.CompletionItem(
        label=record, kind=lsp.CompletionItemKind.Snippet, sort_text="0",
        detail=f"the dice: {needs_text(needed)}",
        text_edit=lsp.TextEdit(_range(document, line, cursor, cursor), record),
    )]


def _name_items(document: Document, before: Report, line: int, typed: str, cursor: int,
                seen: set[str]) -> list[lsp.CompletionItem]:
    """The game's unit, place and hex names for the word under the cursor, once a command
    word is written."""
    words = typed.split()
    if len(words) < 2 or typed.endswith(" "):
        return []
    word = re.search(r"[\w'.-]+$", typed)
    if word is None:
        return []
    wanted = normalise(word.group())
    out = []
    for name in sorted(names_of(before)):
        if normalise(name).startswith(wanted) and name not in seen:
            out.append(lsp.CompletionItem(
                label=name, kind=lsp.CompletionItemKind.Value, sort_text=f"1{name}",
                text_edit=lsp.TextEdit(_range(document, line, word.start(), cursor), name),
            ))
    return out


def names_of(report: Report) -> set[str]:
    """The names of a game's units, places and hexes: read from its state's JSON (the
    values of its name-like keys and the keys of its tables of things) and from the legal
    commands' words."""
    found: set[str] = set()

    def walk(value: Any, depth: int) -> None:
        if depth > 6 or len(found) > 5000:
            return
        if isinstance(value, dict):
            for key, item in value.items():
                if isinstance(item, dict) and isinstance(key, str) and _is_name(key):
                    found.add(key)
                if key in _NAME_KEYS and isinstance(item, str) and _is_name(item):
                    found.add(item)
                walk(item, depth + 1)
        elif isinstance(value, list):
            for item in value[:2000]:
                walk(item, depth + 1)

    walk(report.state_json() or {}, 0)
    for command in api.legal_moves(report, 200):
        for word in command.split()[1:]:
            for part in re.split(r"->|,", word):
                if _is_name(part) and not part.isdigit():
                    found.add(part)
    return found


def _is_name(text: str) -> bool:
    return 0 < len(text) <= 40 and any(ch.isalpha() for ch in text) and "_" not in text


# -- hover -------------------------------------------------------------------------------

def hover(document: Document, line: int, column: int) -> lsp.Hover | None:
    """The position after the line under the cursor in short (turn, phase, whose decision,
    the score); on a unit or place name, its state there."""
    text = document.line(line)
    if not text.strip() or document.report is None:
        return None
    after = document.after(line + 1)
    if after is None or after.engine is None or after.state is None:
        return None
    parts = [f"**After line {line + 1}**: {short(after)}"]
    prefix = _PREFIX.match(text)
    at = char_index(text, column)
    state = None if prefix and at <= prefix.end() else _name_state(after, text, at)
    if state:
        parts.append(state)
    return lsp.Hover(lsp.MarkupContent(lsp.MarkupKind.Markdown, "\n\n".join(parts)))


def short(report: Report) -> str:
    """The position in one paragraph: the state's top-level plain values, the pending
    decision, the result or score."""
    state = report.state_json() or {}
    values = [f"{key} {value}" for key, value in state.items()
              if isinstance(value, str | int) and not isinstance(value, bool)
              and key not in ("game", "scenario", "to_act")][:8]
    out = ", ".join(values)
    pending = report.pending()
    if pending is not None:
        out += f"; {pending['text']}"
    outcome = report.outcome() or {}
    result = outcome.get("result")
    if result:
        out += f"; **{result}**" + (f" ({outcome['reason']})" if outcome.get("reason") else "")
    for key in ("vp", "points", "score"):
        score = outcome.get(key) or state.get(key)
        if isinstance(score, dict):
            plain = {k: v for k, v in score.items() if isinstance(v, int | str)}
            if plain:
                out += f"; {key}: " + ", ".join(f"{k} {v}" for k, v in plain.items())
                break
    return out


def _name_state(report: Report, text: str, at: int) -> str | None:
    """The state of the thing named under the cursor (a word, or it with the words beside
    it: ``Over Asselt``), found in the state's JSON by name."""
    words = list(_NAME_CHARS.finditer(text))
    here = next((i for i, w in enumerate(words) if w.start() <= at <= w.end()), None)
    if here is None:
        return None
    state = report.state_json() or {}
    for width in (1, 2, 3):
        for first in range(max(0, here - width + 1), here + 1):
            chosen = words[first: first + width]
            if len(chosen) < width:
                continue
            begin = chosen[0].start()
            name = text[begin: chosen[-1].end()]
            offset = begin
            for part in name.split("->"):
                if offset <= at <= offset + len(part):
                    found = _find(state, normalise(part))
                    if found is not None:
                        return f"**{part}**: {_brief(found[1])}"
                offset += len(part) + 2
    return None


def _find(value: Any, wanted: str, depth: int = 0) -> tuple[str, Any] | None:
    if depth > 6 or not wanted:
        return None
    if isinstance(value, dict):
        for key, item in value.items():
            if isinstance(key, str) and normalise(key) == wanted and isinstance(item, dict):
                return key, item
            if key in _IDENTITY_KEYS and isinstance(item, str) and normalise(item) == wanted:
                return item, value
        for item in value.values():
            found = _find(item, wanted, depth + 1)
            if found is not None:
                return found
    elif isinstance(value, list):
        for item in value[:2000]:
            found = _find(item, wanted, depth + 1)
            if found is not None:
                return found
    return None


def _brief(value: Any) -> str:
    if isinstance(value, dict):
        shown = [f"{k} {_brief(v)}" for k, v in value.items()
                 if v not in (None, [], {}, "") and k not in _IDENTITY_KEYS]
        text = ", ".join(shown)
        return text if len(text) <= 600 else text[:599] + "…"
    if isinstance(value, list):
        return "[" + ", ".join(_brief(v) for v in value[:12]) + (", …" if len(value) > 12
                                                                 else "") + "]"
    return str(value).lower() if isinstance(value, bool) else str(value)


# -- code actions ------------------------------------------------------------------------

def code_actions(document: Document, first: int, last: int) -> list[lsp.CodeAction]:
    """The edits offered on 0-based lines ``first``..``last``: a did-you-mean applied, the
    line the referee awaits inserted, the log formatted.  None on a sealed (play-by-e-mail)
    log: its seals cover every line."""
    report = document.report
    if report is None or document.sealed:
        return []
    actions: list[lsp.CodeAction] = []
    for problem in report.problems:
        if problem.line is None or not first + 1 <= problem.line <= last + 1:
            continue
        if problem.kind is ProblemKind.UNKNOWN_NAME:
            actions += _respell(document, problem)
        elif problem.kind in _OUT_OF_TURN and problem.follows is None:
            actions += _insert_awaited(document, problem)
    formatted = _formatted(document)
    if formatted is not None:
        actions.append(formatted)
    return actions


def _respell(document: Document, problem: Problem) -> list[lsp.CodeAction]:
    match = _SUGGESTION.search(problem.message)
    if match is None or problem.line is None:
        return []
    name = match.group(1)
    line = problem.line - 1
    text = document.line(line)
    at = (problem.column or 1) - 1
    if text[at: at + len(name)] != name:
        at = text.find(name)
        if at < 0:
            return []
    out = []
    for suggestion in _QUOTED.findall(match.group(2)):
        out.append(lsp.CodeAction(
            title=f"Write '{suggestion}' for '{name}' (did you mean)",
            kind=lsp.CodeActionKind.QuickFix,
            is_preferred=match.group(2).count("'") == 2,
            edit=_edit(document, [lsp.TextEdit(_range(document, line, at, at + len(name)),
                                               suggestion)]),
        ))
    return out


def _insert_awaited(document: Document, problem: Problem) -> list[lsp.CodeAction]:
    """A line out of turn: insert before it the answer the referee awaits there, when the
    decision open has one (or a few) legal answers."""
    assert problem.line is not None
    before = document.after(problem.line - 1)
    if before is None:
        return []
    pending = before.pending()
    if pending is None or pending["more"] or not 1 <= len(pending["choices"]) <= 3:
        return []
    side = str(pending["side"])
    line = problem.line - 1
    indent = document.line(line)[: len(document.line(line)) - len(document.line(line).lstrip())]
    out = []
    for choice in pending["choices"]:
        written = choice if side == "referee" else f"{side}: {choice}"
        if side == "referee" and "Seed" not in before.tags:
            entry = api.parse_line(before, choice)
            if isinstance(entry, ActionLine) and entry.items:
                needed = api.dice_needed(before, entry.items[0].command)
                if needed:
                    written += " " + skeleton(needed)
        out.append(lsp.CodeAction(
            title=f"Insert the line the referee awaits: {written}",
            kind=lsp.CodeActionKind.QuickFix,
            is_preferred=len(pending["choices"]) == 1,
            edit=_edit(document, [lsp.TextEdit(_range(document, line, 0, 0),
                                               f"{indent}{written}\n")]),
        ))
    return out


def _formatted(document: Document) -> lsp.CodeAction | None:
    edits = formatting(document)
    if not edits:
        return None
    return lsp.CodeAction(title="Format the log (referee fmt)",
                          kind=lsp.CodeActionKind.SourceFixAll + ".referee-fmt",
                          edit=_edit(document, edits))


def formatting(document: Document) -> list[lsp.TextEdit]:
    """``referee fmt``: the whole text replaced by its canonical text (nothing when it is
    canonical already, sealed, or cannot be formatted safely)."""
    if document.log is None or document.sealed or not document.lines:
        return []
    try:
        canonical = api.format_text(document.text, document.log)
    except RefereeError:
        return []
    if canonical == document.text:
        return []
    if document.text.endswith(("\n", "\r")):
        end = lsp.Position(len(document.lines), 0)
    else:
        last = document.lines[-1]
        end = lsp.Position(len(document.lines) - 1, utf16_column(last, len(last)))
    return [lsp.TextEdit(lsp.Range(lsp.Position(0, 0), end), canonical)]


def _edit(document: Document, edits: list[lsp.TextEdit]) -> lsp.WorkspaceEdit:
    return lsp.WorkspaceEdit(changes={document.uri: edits})


def _sealed_line(text: str) -> bool:
    return "[seal " in text


# -- go to definition --------------------------------------------------------------------

def definition(document: Document, line: int, column: int) -> lsp.Location | None:
    """On a rule citation (``[6.3]``, ``[Phase 2.3]``): the row of that section in the
    game's rules-coverage document, the entry ``referee rules GAME SECTION`` shows."""
    report = document.report
    if report is None or report.game is None:
        return None
    text = document.line(line)
    at = char_index(text, column)
    for match in _CITATION.finditer(text):
        if match.start() <= at <= match.end():
            found = entry_line(report.game, match.group(1).strip())
            if found is None:
                return None
            path, number, _ = found
            return lsp.Location(Path(path).resolve().as_uri(),
                                lsp.Range(lsp.Position(number, 0), lsp.Position(number, 0)))
    return None
