"""``referee status``: where a game stands, for the body of an e-mail."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from referee.core.errors import UNREADABLE_KINDS, Problem
from referee.core.replay import Report
from referee.pbem.chain import code_of
from referee.pbem.mode import DiceMode, commit_tag, who
from referee.pbem.table import NextStep, Table


@dataclass
class Status:
    """What ``referee status`` shows; every field plain text."""

    source: str
    game: str
    title: str
    scenario: str
    dice: str
    players: list[str]
    turn: str | None
    last: str | None
    next: NextStep
    result: str
    problems: list[Problem] = field(default_factory=list)
    report: Report | None = None
    """The replay the status rests on (its state and pending decision)."""

    @property
    def exit_code(self) -> int:
        """As every command: 2 when a line cannot be read (syntax, header, a missing
        position file...), 1 when the log breaks the rules, else 0."""
        if any(p.kind in UNREADABLE_KINDS for p in self.problems):
            return 2
        return 1 if self.problems else 0

    def to_json(self) -> dict[str, Any]:
        return {
            "source": self.source, "game": self.game, "title": self.title,
            "scenario": self.scenario, "dice": self.dice, "players": list(self.players),
            "turn": self.turn, "last": self.last,
            "next": {"kind": self.next.kind, "party": self.next.party,
                     "decision": self.next.decision, "choices": list(self.next.choices),
                     "more": self.next.more,
                     "line": self.next.line, "text": self.next.sentence()},
            "result": self.result,
            "problems": [p.to_json() for p in self.problems],
            "exit_code": self.exit_code,
        }


def status_of(table: Table) -> Status:
    replay = table.replay()
    status = status_of_replay(table, replay.report, replay.next)
    status.problems = replay.problems
    return status


def status_of_replay(table: Table, report: Report, step: NextStep) -> Status:
    """The status of ``table`` from a replay already made (``report``, its ``step``)."""
    state = report.state_json() or {}
    turn = None
    if "turn" in state:
        turn = str(state["turn"])
        if "turns" in state:
            turn += f" of {state['turns']}"
        for key in ("half", "impulse", "step"):
            if state.get(key) not in (None, ""):
                turn += f", {key} {state[key]}" if key != "step" else f", {state[key]}"
    actions = table.log.actions
    last = None
    if actions:
        line = actions[-1]
        last = f"line {line.number}: {' '.join(code_of(line.text).split())}"
    players = []
    for party in table.mode.parties or table.engine.info.sides:
        name = table.log.tags.get(party.capitalize())
        committed = " (committed)" if party in table.mode.commitments else ""
        if table.mode.kind is DiceMode.TWO_SECRET and party not in table.mode.commitments:
            committed = f" (has not joined: no [{commit_tag(party)}] yet)"
        players.append(f"{who(party)}{': ' + name if name else ''}{committed}")
    return Status(
        source=table.source,
        game=table.engine.info.id,
        title=table.engine.info.title,
        scenario=table.log.tags.get("Scenario") or _default_scenario(table),
        dice=table.mode.describe(),
        players=players,
        turn=turn,
        last=last,
        next=step,
        result=_result(report.outcome() or {}),
        report=report,
    )


def _result(outcome: dict[str, Any]) -> str:
    """The outcome in words: ``draw (the reason); vp objective 22, vp total 21``."""
    from referee.core.envelope import outcome_json, outcome_words

    return outcome_words(outcome_json(outcome))


def _default_scenario(table: Table) -> str:
    """The id of the scenario a log without a [Scenario] tag plays (the game's first)."""
    scenarios = table.engine.info.scenarios
    return scenarios[0] if scenarios else "standard"
