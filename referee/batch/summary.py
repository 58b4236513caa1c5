"""The summary of a batch: counts kept as the rows stream past, never the rows themselves."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from referee.batch.worker import (
    ERROR,
    ILLEGAL,
    LEGAL,
    OVER_BUDGET,
    STATUSES,
    UNREADABLE,
    LogResult,
)

UNFINISHED = "unfinished"
NO_WINNER = "-"
NO_GAME = "-"
"""The game of a row whose log names none (it could not be read)."""


@dataclass
class BatchSummary:
    """How many logs were legal, illegal or unreadable, how the games ended, which rules
    were broken most.  ``stopped_at`` is the log that stopped a ``--fail-fast`` batch."""

    logs: int = 0
    statuses: Counter[str] = field(default_factory=Counter)
    games: Counter[str] = field(default_factory=Counter)
    outcomes: Counter[tuple[str, str, str]] = field(default_factory=Counter)
    kinds: Counter[str] = field(default_factory=Counter)
    rules: Counter[tuple[str, str]] = field(default_factory=Counter)
    """Problems by (game, rule): a rule's number means something only in its game's
    rulebook (WWII Commander's "4" is not Eindhoven Bridge's "4.0")."""
    rule_logs: Counter[tuple[str, str]] = field(default_factory=Counter)
    stopped_at: str | None = None

    def add(self, row: LogResult) -> None:
        self.logs += 1
        self.statuses[row.status] += 1
        if row.game is not None:
            self.games[row.game] += 1
        game = row.game or NO_GAME
        if row.status in (LEGAL, ILLEGAL):
            self.outcomes[(game, row.result or UNFINISHED, row.winner or NO_WINNER)] += 1
        if row.by_kind:  # a legal log has none to count
            self.kinds.update(row.by_kind)
        if row.by_rule:
            self.rules.update({(game, rule): count for rule, count in row.by_rule.items()})
            self.rule_logs.update((game, rule) for rule in row.by_rule)

    @property
    def exit_code(self) -> int:
        """2 when any log cannot be read (or the referee failed on one), else 1 when any
        breaks the rules, else 0."""
        if self.statuses[UNREADABLE] or self.statuses[ERROR] or self.statuses[OVER_BUDGET]:
            return 2
        return 1 if self.statuses[ILLEGAL] else 0

    def to_json(self, top: int = 10) -> dict[str, Any]:
        """The summary as data; ``top`` limits the list of broken rules."""
        return {
            "logs": self.logs,
            **{status: self.statuses[status] for status in STATUSES},
            "exit_code": self.exit_code,
            "stopped_at": self.stopped_at,
            "games": dict(sorted(self.games.items())),
            "outcomes": [
                {"game": game, "result": result, "winner": winner, "logs": count}
                for (game, result, winner), count in sorted(
                    self.outcomes.items(), key=lambda item: (item[0][0], -item[1], item[0])
                )
            ],
            "problems_by_kind": dict(
                sorted(self.kinds.items(), key=lambda item: (-item[1], item[0]))
            ),
            "rules": [
                {"game": key[0], "rule": key[1], "problems": count,
                 "logs": self.rule_logs[key]}
                for key, count in sorted(
                    sorted(self.rules.items(), key=lambda item: (-item[1], item[0]))[:top],
                    key=lambda item: item[0][0],  # by game, most broken first in each
                )
            ],
        }
