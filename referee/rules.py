"""``referee rules GAME [SECTION]``: every rule section of a game's rulebook, what the referee
does with it, the readings it takes there and the tests that prove it.

One source per game: the rules-coverage document ``docs/GAME-rules-coverage.md`` (shipped
inside the wheel with the other docs).  Its tables are read here, so the command and the
document can never disagree; ``tests/test_rules_index.py`` checks that every section marked
refereed names tests that exist.  The readings are the rows of
``docs/GAME-interpretations.md`` whose number a section cites (``A6``, ``K7``, ``R2``).  No
rulebook text is shipped beyond the short quotations those documents already hold.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from referee.core.errors import ProblemKind, RefereeError
from referee.core.resources import bundled

REFEREED = "refereed"
PARTLY = "partly"
NOT_REFEREED = "not refereed"
NOTHING = "nothing to referee"
STATES = (REFEREED, PARTLY, NOT_REFEREED, NOTHING)

_SECTION_HEADERS = ("card rule", "section", "case", "heading")
"""The first header cell of a coverage table, in the four documents."""
_STATE_HEADERS = ("status", "state", "covered")
_TESTS_HEADER = "tests"
_WHERE_HEADERS = ("where", "enforced in")

_READING = re.compile(r"\b([A-Z]{1,2}\d{1,3})\b")
_CODE = re.compile(r"`([^`]+)`")


class RulesError(RefereeError):
    """A game with no rules document, or a section it does not have."""

    kind = ProblemKind.HEADER


@dataclass(frozen=True)
class Reading:
    """One row of a game's interpretations document."""

    id: str
    rule: str
    reading: str

    def to_json(self) -> dict[str, str]:
        return {"id": self.id, "rule": self.rule, "reading": self.reading}


@dataclass(frozen=True)
class Section:
    """One row of a coverage table: a section of the rulebook and what the referee does."""

    heading: str
    state: str
    summary: str
    where: tuple[str, ...] = ()
    tests: tuple[str, ...] = ()
    readings: tuple[Reading, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"section": self.heading, "state": self.state, "summary": self.summary,
                "where": list(self.where), "tests": list(self.tests),
                "readings": [reading.to_json() for reading in self.readings]}


@dataclass
class RulesIndex:
    """A game's sections in the rulebook's order, and the documents they come from."""

    game: str
    document: str
    interpretations: str | None
    sections: list[Section] = field(default_factory=list)

    def find(self, wanted: str) -> list[Section]:
        """The sections ``wanted`` names: its number or heading (``6.3``, ``Phase 2.3``,
        ``waterways``), else every section whose heading holds it."""
        key = _plain(wanted)
        if not key:
            return []
        exact = [s for s in self.sections if _names(s.heading, key)]
        return exact or [s for s in self.sections if key in _plain(s.heading)]


def coverage_path(game: str) -> Path:
    return bundled("docs") / f"{game}-rules-coverage.md"


def rules_index(game: str, docs: Path | None = None) -> RulesIndex:
    """The sections of ``game`` as its coverage document lists them (``docs``: another
    folder of documents, for tests)."""
    folder = docs if docs is not None else bundled("docs")
    document = folder / f"{game}-rules-coverage.md"
    try:
        text = document.read_text(encoding="utf-8")
    except OSError:
        raise RulesError(f"there is no rules document for the game '{game}'") from None
    readings_path = folder / f"{game}-interpretations.md"
    readings = _readings(readings_path.read_text(encoding="utf-8")
                         if readings_path.is_file() else "")
    index = RulesIndex(game, f"docs/{document.name}",
                       f"docs/{readings_path.name}" if readings else None)
    for header, rows in _tables(text):
        names = [cell.lower() for cell in header]
        if not names or names[0] not in _SECTION_HEADERS:
            continue
        state_at = next((i for i, n in enumerate(names) if n in _STATE_HEADERS), None)
        tests_at = names.index(_TESTS_HEADER) if _TESTS_HEADER in names else None
        where_at = next((i for i, n in enumerate(names) if n in _WHERE_HEADERS), None)
        for row in rows:
            row = row + [""] * (len(names) - len(row))
            said = row[state_at] if state_at is not None else ""
            index.sections.append(Section(
                heading=_unmark(row[0]),
                state=state_of(said, names[state_at] if state_at is not None else None),
                summary=_unmark(said) if said else _unmark(row[0]),
                where=tuple(_CODE.findall(row[where_at])) if where_at is not None else (),
                tests=tuple(_CODE.findall(row[tests_at])) if tests_at is not None else (),
                readings=tuple(readings[r] for r in dict.fromkeys(
                    _READING.findall(" ".join(row))) if r in readings),
            ))
    if not index.sections:
        raise RulesError(f"{index.document} lists no rule sections")
    return index


def state_of(text: str, column: str | None) -> str:
    """The state a coverage cell says, in one of four words.  A table with no state column
    lists only what the referee enforces (Battle Card's); a ``Covered`` column says what is
    covered, so it is refereed unless it says otherwise."""
    words = _plain(text)
    if column is None:
        return REFEREED
    if words.startswith(("nothing to referee", "nothing")):
        return NOTHING
    if words.startswith(("not ", "no ", "says so", "refused", "not-implemented")):
        return NOT_REFEREED
    if words.startswith("partly") or " partly" in words[:40]:
        return PARTLY
    return REFEREED


def _names(heading: str, key: str) -> bool:
    """Does ``heading`` begin with ``key`` as a whole number or word (``6.3`` is not
    ``6.3.1``, ``phase 1`` is not ``phase 12``)?"""
    plain = _plain(heading)
    if not plain.startswith(key):
        return False
    rest = plain[len(key):]
    return not rest or not (rest[0].isalnum() or (rest[0] == "." and rest[1:2].isdigit()))


def _plain(text: str) -> str:
    return " ".join(_unmark(text).lower().replace("\u2013", "-").split())


def _unmark(text: str) -> str:
    """A cell's text without Markdown's marks (code ticks, bold, escaped bars)."""
    return text.replace("\\|", "|").replace("`", "").replace("**", "").strip()


def _readings(text: str) -> dict[str, Reading]:
    found: dict[str, Reading] = {}
    for header, rows in _tables(text):
        names = [cell.lower() for cell in header]
        if not names or names[0] != "#" or "reading" not in names:
            continue
        rule_at = names.index("rule") if "rule" in names else None
        reading_at = names.index("reading")
        for row in rows:
            if len(row) <= reading_at or not _READING.fullmatch(row[0]):
                continue
            found.setdefault(row[0], Reading(
                row[0], _unmark(row[rule_at]) if rule_at is not None else "",
                _first_sentence(_unmark(row[reading_at]))))
    return found


def _first_sentence(text: str, most: int = 160) -> str:
    head = re.split(r"(?<=[.;])\s", text, maxsplit=1)[0]
    return head if len(head) <= most else head[: most - 1].rstrip() + "…"


def _tables(text: str) -> Iterator[tuple[list[str], list[list[str]]]]:
    """The Markdown tables of a document: header cells, then each row's cells."""
    lines = text.splitlines()
    index = 0
    while index < len(lines):
        if (lines[index].startswith("|") and index + 1 < len(lines)
                and re.match(r"^\|(\s*:?-+:?\s*\|)+\s*$", lines[index + 1])):
            header = _cells(lines[index])
            rows: list[list[str]] = []
            index += 2
            while index < len(lines) and lines[index].startswith("|"):
                rows.append(_cells(lines[index]))
                index += 1
            yield header, rows
        else:
            index += 1


def _cells(row: str) -> list[str]:
    return [cell.strip() for cell in re.split(r"(?<!\\)\|", row.strip())[1:-1]]


def cited(index: RulesIndex, sections: Sequence[Section],
          problems: Sequence[tuple[str, int, str, str]]) -> list[tuple[str, int, str, str]]:
    """The problems (log, line, rule, message) whose rule names one of ``sections``."""
    return [p for p in problems
            if any(_names(section.heading, _plain(p[2])) for section in sections)]


def bundled_problems(game: str) -> list[tuple[str, int, str, str]]:
    """Every problem with a rule in the bundled logs of ``game`` (its illegal logs show
    each refusal as a player meets it): (log, line, rule, message)."""
    from referee.api import replay_file
    from referee.core.resources import bundled_name, logs_dir

    found: list[tuple[str, int, str, str]] = []
    for path in sorted(logs_dir(game).glob("*.log")):
        report = replay_file(path)
        name = bundled_name(path) or path.name
        for problem in report.problems:
            if problem.rule and problem.line is not None:
                found.append((name, problem.line, problem.rule, problem.message))
    return found


def entry_line(game: str, section: str) -> tuple[Path, int, str] | None:
    """Where ``referee rules GAME SECTION`` finds its entry: the rules-coverage document,
    the 0-based line of the section's row, and its heading (``None``: no such section)."""
    try:
        found = rules_index(game).find(section)
    except RefereeError:
        return None
    if not found:
        return None
    heading = found[0].heading
    path = coverage_path(game)
    lines = path.read_text(encoding="utf-8").splitlines()
    for number, line in enumerate(lines):
        cells = _cells(line) if line.startswith("|") else []
        if cells and _unmark(cells[0]) == heading:
            return path, number, heading
    return path, 0, heading
