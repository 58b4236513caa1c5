"""The one place that writes reports: rich text for people, JSON for programs.

A rich ``Console`` is built per call (never at import time), so tests can pin its width and
colour and so output never depends on what the terminal was when the module was imported.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping, Sequence
from typing import IO, Any

from rich.console import Console, Group
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from referee.core.engine import GameInfo
from referee.core.errors import Problem
from referee.core.replay import Report
from referee.core.selfplay import Summary


def make_console(
    file: IO[str] | None = None, *, stderr: bool = False, width: int | None = None,
    color: bool | None = None,
) -> Console:
    """A console for one command's output.  ``color=False`` gives plain text."""
    return Console(
        file=file,
        stderr=stderr,
        width=width,
        no_color=color is False,
        color_system=None if color is False else "auto",
        highlight=False,
        soft_wrap=False,
        emoji=False,
    )


def problem_text(problem: Problem, source: str = "") -> Text:
    """A problem as a player reads it: where, what, the line with a caret, the way out."""
    where = source
    if problem.line is not None:
        where += f":{problem.line}"
        if problem.column is not None:
            where += f":{problem.column}"
    rule = f" [{problem.rule}]" if problem.rule else ""
    text = Text()
    text.append(f"{where}: " if where else "", style="bold")
    text.append(f"{problem.kind}{rule}", style="bold red")
    text.append(f": {problem.message}")
    if problem.text:
        line = problem.text.expandtabs(1)
        text.append(f"\n    {line}", style="dim")
        if problem.column is not None and problem.column <= len(line) + 1:
            text.append("\n    " + " " * (problem.column - 1) + "^", style="bold red")
    if problem.hint:
        text.append(f"\n    {problem.hint}", style="cyan")
    return text


def print_problems(console: Console, report: Report) -> None:
    for problem in report.problems:
        console.print(problem_text(problem, report.source), soft_wrap=True)


def print_events(console: Console, report: Report) -> None:
    current: int | None = -1
    for item in report.events:
        if item.line != current and item.line is not None:
            console.print(Text(f"line {item.line}: {item.command}", style="bold"))
        current = item.line
        prefix = "  (referee) " if item.auto else "  "
        dice = ""
        if item.event.rolls:
            dice = "  {" + " | ".join(str(r) for r in item.event.rolls) + "}"
        console.print(Text(prefix + item.event.text + dice))


def print_report(console: Console, report: Report, *, events: bool = False) -> None:
    """The full text report of ``referee replay``."""
    title = report.tags.get("Game", "?")
    header = Text(f"{report.source}", style="bold")
    for key in ("Game", "Scenario", "Seed", "Allied", "German"):
        if key in report.tags:
            header.append(f"  {key}: {report.tags[key]}", style="")
    console.print(header)
    if events and report.events:
        console.rule("Events")
        print_events(console, report)
    if report.problems:
        console.rule(f"Problems ({len(report.problems)})")
        print_problems(console, report)
    if report.engine is not None and report.state is not None:
        console.rule("State")
        console.print(Group(*report.engine.render(report.state)))
        pending = report.pending()
        if pending is not None:
            console.print(Text(pending["text"], style="bold yellow"))
            if pending["choices"]:
                console.print(Text("  choices: " + "; ".join(pending["choices"][:20])))
    verdict = "all legal" if report.ok else (
        "the log cannot be read" if report.unreadable else "the log breaks the rules"
    )
    console.print(Text(f"{title}: {verdict}", style="bold green" if report.ok else "bold red"))


def print_json(data: Any, file: IO[str] | None = None) -> None:
    """JSON on stdout: indented, keys in their documented order, UTF-8 as is."""
    out = file or sys.stdout
    out.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")


def markup_free(text: str) -> str:
    """Text safe to print through rich without being read as markup."""
    return escape(text)


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
    if pending is None:
        console.print("the game is over: nobody moves")
        return
    console.print(Text(pending["text"], style="bold"))
    for choice in pending["choices"]:
        console.print(f"  {choice}", markup=False)


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
