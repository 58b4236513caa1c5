"""The one place that writes reports: rich text for people, JSON for programs.

The presentation layer, under the command line and above the library (api, pbem, batch): it
prints their results.  The JSON contract itself is ``referee.core.envelope``.

A rich ``Console`` is built per call (never at import time), so tests can pin its width and
colour and so output never depends on what the terminal was when the module was imported.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Mapping, Sequence
from typing import IO, TYPE_CHECKING, Any, cast

from rich.console import Console, Group
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from referee.core.engine import GameInfo
from referee.core.envelope import (
    follow_ons,
    safe_json_piece,
)
from referee.core.errors import Problem
from referee.core.flood import SHOWN, rest_line
from referee.core.jsonwrite import json_chunks
from referee.core.names import side_title
from referee.core.replay import Report
from referee.output_plain import dice_line as dice_line  # the plain pieces: output_plain's
from referee.output_plain import moves_lines, problem_parts, unit_moves_lines
from referee.output_plain import printable as printable

if TYPE_CHECKING:  # imported only for the types: a replay or moves loads no self-play
    from referee.core.selfplay import Summary


UNWRAPPED_WIDTH = 10_000
"""The width of a console that is not a terminal: wide enough that nothing wraps."""

COLOR_MODES = ("auto", "always", "never")
"""``--color``: ``auto`` colours a terminal unless NO_COLOR is set; ``always`` and ``never``
decide regardless of the terminal and of NO_COLOR."""

_color_mode = "auto"


def set_color(mode: str) -> None:
    """Choose colour for every console made afterwards (the global ``--color`` option)."""
    global _color_mode
    if mode not in COLOR_MODES:
        raise ValueError(f"--color is one of {', '.join(COLOR_MODES)}, not {mode!r}")
    _color_mode = mode


def is_terminal(file: IO[str] | None = None, *, stderr: bool = False) -> bool:
    """Is the output (``file``, else stdout or stderr) a terminal?"""
    target = file if file is not None else (sys.stderr if stderr else sys.stdout)
    isatty = getattr(target, "isatty", None)
    try:
        return bool(callable(isatty) and isatty())
    except ValueError:  # a closed stream
        return False


def make_console(
    file: IO[str] | None = None, *, stderr: bool = False, width: int | None = None,
    color: bool | None = None,
) -> Console:
    """A console for one command's output.  ``color=False`` gives plain text, ``True``
    colour even into a pipe; ``None`` follows ``--color`` (by default: colour on a terminal,
    unless the NO_COLOR environment variable is set, as https://no-color.org asks).

    Text wraps only on a terminal, at its width: when the output is piped or redirected (and
    no width is pinned) the console is as wide as the widest line, so paths and sentences
    stay whole.
    """
    if color is None:
        color = {"always": True, "never": False}.get(_color_mode)
    kind: type[Console] = Console
    if width is None and not is_terminal(file, stderr=stderr):
        width = UNWRAPPED_WIDTH
        kind = PlainConsole
        file = cast(IO[str], TrimmedLines(
            file if file is not None else (sys.stderr if stderr else sys.stdout)))
    return kind(
        file=file,
        stderr=stderr,
        width=width,
        # None lets rich read NO_COLOR itself; True and False decide.
        no_color=None if color is None else not color,
        force_terminal=True if color else None,
        color_system=None if color is False else ("standard" if color else "auto"),
        highlight=False,
        soft_wrap=False,
        emoji=False,
    )


class TrimmedLines:
    """A text stream that drops the spaces a line ends with (before any colour codes), so
    piped output holds no padding: ``referee games | cat`` is as wide as what it says."""

    _TRAILING = re.compile(r" +((?:\x1b\[[0-9;]*m)*)$")

    def __init__(self, target: IO[str]) -> None:
        self.target = target
        self._pending = ""

    def write(self, text: str) -> int:
        lines = (self._pending + text).split("\n")
        self._pending = lines.pop()
        if lines:
            self.target.write("".join(self._TRAILING.sub(r"\1", line) + "\n"
                                      for line in lines))
        return len(text)

    def flush(self) -> None:
        if self._pending:
            self.target.write(self._TRAILING.sub(r"\1", self._pending))
            self._pending = ""
        self.target.flush()

    def isatty(self) -> bool:
        return False

    def fileno(self) -> int:
        return self.target.fileno()

    @property
    def encoding(self) -> str:
        return getattr(self.target, "encoding", None) or "utf-8"


class PlainConsole(Console):
    """The console of output that is not a terminal: tables are drawn with no box and no
    padding at their edges (as ``git`` prints into a pipe), and every line ends where its
    text ends (``TrimmedLines``)."""

    def print(self, *objects: Any, **options: Any) -> None:
        for thing in objects:
            _unbox(thing)
        super().print(*objects, **options)
        self.file.flush()


def _unbox(thing: Any) -> None:
    """Draw a table (or the tables of a group) with no box lines."""
    if isinstance(thing, Table):
        thing.box = None
        thing.show_edge = False
        thing.pad_edge = False
        for column in thing.columns:
            for cell in column._cells:
                _unbox(cell)
    elif isinstance(thing, Group):
        for part in thing.renderables:
            _unbox(part)


def section(console: Console, title: str) -> None:
    """A rule with a title between sections: the terminal's width, or a plain ``== title ==``
    line when the output is not a terminal (no box drawing into a pipe or a file)."""
    if console.width < UNWRAPPED_WIDTH:
        console.rule(title)
        return
    console.print(Text(f"== {title} ==", style="rule.line"))


def problem_text(problem: Problem, source: str = "") -> Text:
    """A problem as a player reads it: where, what, the line with a caret, the way out
    (``referee.output_plain.problem_parts``, styled)."""
    text = Text()
    for piece, style in problem_parts(problem, source):
        text.append(piece, style=style)
    return text


def print_problems(console: Console, report: Report, *, everything: bool = False,
                   shows: str = "--all shows them") -> None:
    """The problems with their lines and carets; those that may follow from an earlier
    skipped line are listed under that line's problem, one line each.  A flood is capped as
    a compiler caps it (``referee.core.flood``): the first ``SHOWN`` printed, then one line
    counting the rest by kind and rule (``shows`` says how to see them); ``everything``
    prints them all."""
    problems = report.problems
    budget = len(problems) if everything else SHOWN
    follows = follow_ons(problems)
    caused: dict[int, list[int]] = {}
    for index in sorted(follows):
        caused.setdefault(follows[index], []).append(index)
    last_of_line = {problem.line: index for index, problem in enumerate(problems)
                    if index not in follows}
    printed: set[int] = set()
    for index, problem in enumerate(problems):
        if index in follows:
            continue
        if len(printed) >= budget:
            break
        console.print(problem_text(problem, report.source), soft_wrap=True)
        printed.add(index)
        if last_of_line.get(problem.line) != index:
            continue  # the line's own problems first, then what follows from it
        later = caused.pop(problem.line, []) if problem.line is not None else []
        if later:
            console.print(Text(
                f"    {_count(len(later), 'more problem')} may follow from line {problem.line}; "
                f"fix it first, then check again:", style="yellow"), soft_wrap=True)
            for other_index in later[: max(budget - len(printed), 0)]:
                other = problems[other_index]
                rule = f" [{other.rule}]" if other.rule else ""
                console.print(Text(printable(
                    f"      line {other.line}: {other.kind}{rule}: {other.message}")),
                    soft_wrap=True)
                printed.add(other_index)
    if len(printed) < len(problems):
        rest = (p for i, p in enumerate(problems) if i not in printed)
        console.print(Text(printable(rest_line(rest, shows)), style="yellow"), soft_wrap=True)


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def print_events(console: Console, report: Report) -> None:
    current: int | None = -1
    for item in report.events:
        if item.line != current and item.line is not None:
            console.print(Text(printable(f"line {item.line}: {item.command}"), style="bold"))
        current = item.line
        prefix = "  (referee) " if item.auto else "  "
        dice = ""
        if item.event.rolls:
            dice = "  {" + " | ".join(str(r) for r in item.event.rolls) + "}"
        console.print(Text(printable(prefix + item.event.text + dice)))


def print_report(console: Console, report: Report, *, events: bool = False,
                 everything: bool = False) -> None:
    """The full text report of ``referee replay``."""
    title = report.tags.get("Game", "?")
    header = Text(printable(report.source), style="bold")
    for key in ("Game", "Scenario", "Seed", "Allied", "German"):
        if key in report.tags:
            header.append(f"  {key}: {printable(report.tags[key])}", style="")
    console.print(header)
    if events and report.events:
        section(console, "Events")
        print_events(console, report)
    if report.problems:
        section(console, f"Problems ({len(report.problems)})")
        print_problems(console, report, everything=everything)
    if report.engine is not None and report.state is not None:
        section(console, "State")
        console.print(Group(*report.engine.render(report.state)))
        pending = report.pending()
        if pending is not None:
            console.print(Text(printable(pending["text"]), style="bold yellow"))
            if pending["dice"]:
                console.print(Text(printable("  " + dice_line(pending["dice"]))))
            if pending["choices"]:
                shown = "; ".join(pending["choices"][:20])
                console.print(Text(printable("  choices: " + shown)))
    verdict = "all legal" if report.ok else (
        "the log cannot be read" if report.unreadable else "the log breaks the rules"
    )
    console.print(Text(f"{title}: {verdict}", style="bold green" if report.ok else "bold red"))


def print_json(data: Any, file: IO[str] | None = None) -> None:
    """JSON on stdout: indented, keys in their documented order, UTF-8 as is (but control
    characters, which JSON escapes only below U+0020, as ``\\u`` escapes too).  Written
    piece by piece, so a report of 100,000 problems never exists as one string in memory."""
    out = file or sys.stdout
    pieces: list[str] = []
    for piece in json_chunks(data):
        pieces.append(piece)
        if len(pieces) >= 4096:
            # The escapes are of single characters, never of JSON's own: the same on the
            # joined text as piece by piece.
            out.write(safe_json_piece("".join(pieces)))
            pieces.clear()
    pieces.append("\n")
    out.write(safe_json_piece("".join(pieces)))








def markup_free(text: str) -> str:
    """Text safe to print through rich without being read as markup (or acting on the
    terminal: control characters escaped)."""
    return escape(printable(text))


def print_games(console: Console, infos: Sequence[GameInfo]) -> None:
    table = Table(title="Games", title_justify="left")
    table.add_column("Game")
    table.add_column("Title")
    table.add_column("Scenarios")
    table.add_column("Rules covered")
    for info in infos:
        table.add_row(info.id, info.title, ", ".join(info.scenarios) or "-", info.coverage)
    console.print(table)


def print_moves(console: Console, pending: Mapping[str, Any] | None) -> None:
    print_lines(console, moves_lines(pending))


def print_lines(console: Console, lines: Sequence[tuple[str, bool]]) -> None:
    """Lines of text, each bold or not (``output_plain.moves_lines``)."""
    for text, bold in lines:
        if bold:
            console.print(Text(text, style="bold"))
        else:
            console.print(Text(text))


def summary_json(game: str, policy: str, summary: Summary) -> dict[str, Any]:
    rates = {}
    for result in sorted(summary.results):
        share, low, high = summary.rate(result)
        rates[result] = {"games": summary.results[result], "share": round(share, 4),
                         "ci95": [round(low, 4), round(high, 4)]}
    return {
        "game": game,
        "policy": policy,
        "games": summary.games,
        "results": rates,
        "reasons": dict(summary.reasons.most_common()),
        "broken": [{"seed": r.seed, "broken": r.broken} for r in summary.broken],
    }


def print_summary(console: Console, data: Mapping[str, Any]) -> None:
    console.print(Text(f"{data['game']}: {data['games']} games, policy {data['policy']}",
                       style="bold"))
    for result, row in data["results"].items():
        low, high = row["ci95"]
        console.print(f"  {result}: {row['games']} ({row['share']:.1%}; 95% interval "
                      f"{low:.1%} to {high:.1%})", markup=False)
    console.print("How games ended:")
    for reason, count in data["reasons"].items():
        console.print(f"  {count:>7}  {reason}", markup=False)
    if data["broken"]:
        console.print(Text(f"{len(data['broken'])} games broke an invariant:", style="bold red"))
        for item in data["broken"][:20]:
            console.print(f"  seed {item['seed']}: {'; '.join(item['broken'])}", markup=False)




def print_batch_summary(
    console: Console, data: Mapping[str, Any], seconds: float | None = None
) -> None:
    """The summary table of ``referee batch`` (``data`` is ``BatchSummary.to_json()``)."""
    headline = f"{data['logs']:,} logs"
    if seconds is not None:
        rate = data["logs"] / seconds if seconds > 0 else 0.0
        headline += f" in {seconds:.2f} s ({rate:,.0f} logs/s)"
    console.print(Text(headline, style="bold"))
    counts = Table()
    counts.add_column("Logs")
    counts.add_column("Count", justify="right")
    for status in ("legal", "illegal", "unreadable", "error", "over-budget"):
        if status in ("legal", "illegal", "unreadable") or data.get(status):
            counts.add_row(status, f"{data.get(status, 0):,}")
    console.print(counts)
    if data["outcomes"]:
        # One vocabulary: the winner is always a side; the result is the game's own word
        # (Battle Card's win or loss is the Allied player's, alone against the game).
        outcomes = Table(title="Outcomes, by game",
                         title_justify="left")
        for column in ("Game", "Result", "Winner"):
            outcomes.add_column(column)
        outcomes.add_column("Logs", justify="right")
        for row in data["outcomes"]:
            outcomes.add_row(markup_free(row["game"]), markup_free(row["result"]),
                             markup_free(row["winner"]), f"{row['logs']:,}")
        console.print(outcomes)
    if data["rules"]:
        rules = Table(title="Most broken rules, by game",
                      title_justify="left")
        rules.add_column("Game")
        rules.add_column("Rule")
        rules.add_column("Problems", justify="right")
        rules.add_column("Logs", justify="right")
        for row in data["rules"]:
            rules.add_row(markup_free(row["game"]), markup_free(row["rule"]),
                          f"{row['problems']:,}", f"{row['logs']:,}")
        console.print(rules)
    if data["problems_by_kind"]:
        kinds = ", ".join(f"{kind} {count:,}" for kind, count in data["problems_by_kind"].items())
        console.print(f"Problems by kind: {kinds}", markup=False)
    if data["stopped_at"] is not None:
        console.print(Text(f"stopped at {data['stopped_at']} (--fail-fast)", style="bold red"))


def print_scenario(console: Console, data: Mapping[str, Any]) -> None:
    """``referee scenario show``: the places (or cities) and units of a scenario as tables."""
    console.print(Text(f"{data.get('title', data['game'])}", style="bold"))
    if "spaces" in data:
        spaces = Table(title=f"Spaces ({len(data['spaces'])})", title_justify="left")
        for column in ("Space", "Terrain", "Town", "Club Route", "VP", "Supply source"):
            spaces.add_column(column)
        for s in data["spaces"]:
            spaces.add_row(
                s["name"], s["terrain"], "town" if s["town"] else "",
                str(s["club_route"] or ""), "" if s["vp"] is None else str(s["vp"]),
                ", ".join(s["supply_source"]),
            )
        console.print(spaces)
        console.print(f"{len(data['borders'])} borders, {len(data['boxes'])} off-map boxes")
    if "sectors" in data:
        sectors = Table(title=f"Sectors ({len(data['sectors'])})", title_justify="left")
        for column in ("Sector", "Type", "Numbers", "Flags"):
            sectors.add_column(column)
        for s in data["sectors"]:
            flags = [f for f, on in (("above the Rhine", s["above_rhine"]),
                                     ("German flag", s["flag"]),
                                     (f"start {s['start']}", s["start"])) if on]
            # A start sector goes by two names: the logs' (Start-West) and the map's town
            # (Lommel); both are shown, as on the map (Arnhem '44 interpretations, A-names).
            name = (f"{s['id']} ({s['name']})" if s.get("start") and s.get("id")
                    and s["id"] != s["name"] else s["name"])
            sectors.add_row(name, s["type"], " ".join(map(str, s["numbers"])),
                            ", ".join(flags))
        console.print(sectors)
        console.print(f"{len(data['borders'])} borders, {len(data['bridges'])} bridges, "
                      f"{len(data['ferries'])} ferries, {len(data['drop_zones'])} drop zones")
    if "cities" in data:
        cities = Table(title="Cities", title_justify="left")
        for column in ("City", "German", "Control"):
            cities.add_column(column)
        for c in data["cities"]:
            cities.add_row(c["name"], str(c["german"]), c["control"])
        console.print(cities)
    if "hexes" in data:
        console.print(f"{len(data['hexes'])} hexes, {len(data['hexsides'])} hexsides with a "
                      f"feature, {len(data['roads'])} roads, entry roads "
                      + ", ".join(f"{e['road']} {e['hex']}" for e in data["entry_roads"]),
                      markup=False)
    units = Table(title=f"Units ({len(data['units'])})", title_justify="left")
    for column in ("Unit", "Side / city", "Formation", "Type", "Start"):
        units.add_column(column)
    for u in data["units"]:
        units.add_row(
            u["id"], u.get("side", u.get("city", "")), u.get("formation", ""),
            u.get("type", ""), str(u.get("start") or u.get("strength", "")),
        )
    console.print(units)


def print_unit_moves(
    console: Console, side: str, decision: str, units: Sequence[Mapping[str, Any]],
    others: Sequence[str] = (), more: bool = False,
) -> None:
    """``referee moves`` for games that group activations by unit (WWII Commander, Eindhoven
    Bridge): each unit, then each of its commands as ``play`` takes it, one to a line; then
    ``others``, the legal commands that are no one unit's alone (two units activated
    together, ``pass``, ``end``), and whether the engine stopped listing them (``more``)."""
    print_lines(console, unit_moves_lines(side_title(side), decision, units, others, more))


# -- the JSON envelope every --json command shares (docs/schema/) --------------------------






















def print_rules(console: Console, data: Mapping[str, Any]) -> None:
    """``referee rules``: each section with its state, summary, readings and tests (``data``
    is the command's JSON document)."""
    count = len(data['sections'])
    console.print(Text(f"{data['title']}: {count} section{'' if count == 1 else 's'} "
                       f"(from {data['document']})", style="bold"))
    for item in data["sections"]:
        console.print(Text(printable(f"{item['section']}  [{item['state']}]"), style="bold"))
        if item["summary"] != item["section"]:
            console.print(Text(printable(f"  {item['summary']}")))
        for reading in item["readings"]:
            console.print(Text(printable(f"  reading {reading['id']} ({reading['rule']}): "
                                         f"{reading['reading']}")))
        if item["tests"]:
            console.print(Text(printable(f"  tests: {', '.join(item['tests'])}")))
    cited = data.get("cited")
    if cited is not None:
        console.print(Text(f"Problems that cite it in the bundled logs: {len(cited)}",
                           style="bold"))
        for problem in cited:
            console.print(Text(printable(f"  {problem['log']}:{problem['line']}: "
                                         f"[{problem['rule']}] {problem['message']}")))
