"""The JSON contract every ``--json`` command shares (``docs/schema/``): the envelope, the
problem, pending and outcome objects, and JSON text that is safe to print.

Plain data only: the presentation layer (``referee.output``) prints it, and the play-by-e-mail
and batch code build their documents from it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from referee.core.errors import Problem
from referee.core.replay import Report


def follow_ons(problems: Sequence[Problem | Mapping[str, Any]]) -> dict[int, int]:
    """For each problem (by index) that may follow from an earlier skipped line, that line,
    as the replay driver decided it (``Problem.follows``): one mistake is then one problem to
    fix, not twelve."""
    follows: dict[int, int] = {}
    for index, problem in enumerate(problems):
        line = (problem.follows if isinstance(problem, Problem)
                else problem.get("follows"))
        if isinstance(line, int):
            follows[index] = line
    return follows


_JSON_UNSAFE = re.compile(r"[\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def _json_escape(match: re.Match[str]) -> str:
    return f"\\u{ord(match.group()):04x}"


def json_text(data: Any, indent: int | None = None) -> str:
    """``data`` as JSON text, UTF-8 as is, every control character escaped."""
    return _JSON_UNSAFE.sub(_json_escape, json.dumps(data, indent=indent, ensure_ascii=False))


SCHEMA = "referee/1"
"""The version of the JSON envelope; it changes only when a key changes meaning or goes."""


_OUTCOME_WORDS = ("result", "winner", "reason", "over")


def outcome_json(raw: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """An engine's outcome as the one outcome object: ``over``, ``result``, ``winner``,
    ``reason`` and ``score`` (the game's numbers, one level deep: ``vp_total``)."""
    if raw is None:
        return None
    score: dict[str, Any] = {}
    for key, value in raw.items():
        if key in _OUTCOME_WORDS:
            continue
        if isinstance(value, Mapping):
            score.update({f"{key}_{inner}": item for inner, item in value.items()})
        else:
            score[key] = value
    result = raw.get("result")
    return {
        "over": bool(raw.get("over", result is not None)),
        "result": None if result is None else str(result),
        "winner": None if raw.get("winner") is None else str(raw["winner"]),
        "reason": None if raw.get("reason") is None else str(raw["reason"]),
        "score": score,
    }


def outcome_words(outcome: Mapping[str, Any] | None) -> str:
    """The outcome object in words: ``allied victory (the reason); vp total 12``."""
    if outcome is None:
        return "unknown: the log cannot be replayed"
    text = outcome["result"] if outcome["result"] else "in progress"
    if outcome["reason"]:
        text += f" ({outcome['reason']})"
    score = ", ".join(f"{key.replace('_', ' ')} {value}"
                      for key, value in outcome["score"].items() if value is not None)
    return f"{text}; {score}" if score else text


def pending_json(report: Report, outcome: Mapping[str, Any] | None = None
                 ) -> dict[str, Any] | None:
    """The decision the log leaves open (``Report.pending``); when the game is over, an
    empty one saying so (never a bare null); ``None`` only when there is no game state.
    ``outcome``: the report's outcome object (``outcome_json``), when made already."""
    pending = report.pending()
    if pending is not None:
        return {key: pending[key] for key in ("side", "decision", "text", "choices", "more",
                                            "dice")}
    if report.engine is None or report.state is None:
        return None
    if outcome is None:
        outcome = outcome_json(report.outcome()) or {}
    reason = outcome.get("reason") or outcome.get("result") or "it has ended"
    return {"side": None, "decision": "", "text": f"the game is over: {reason}",
            "choices": [], "more": False, "dice": []}


def envelope(
    *, source: str, game: str | None, problems: Sequence[Mapping[str, Any]],
    exit_code: int, state: Any = None, pending: Mapping[str, Any] | None = None,
    outcome: Mapping[str, Any] | None = None, **own: Any,
) -> dict[str, Any]:
    """The envelope every ``--json`` document has, then the command's own keys."""
    return {
        "schema": SCHEMA,
        "source": source,
        "game": game,
        "ok": not problems and exit_code == 0,
        "exit_code": exit_code,
        "problems": problems_json(problems),
        "state": state,
        "pending": pending,
        "outcome": outcome,
        **own,
    }


_PROBLEM_KEYS = ("line", "column", "kind", "rule", "message", "hint", "text", "follows")


def problem_json(problem: Mapping[str, Any]) -> dict[str, Any]:
    """A problem object with every key, in order (a missing one is null)."""
    if tuple(problem) == _PROBLEM_KEYS:  # Problem.to_json's: copied as it is
        return dict(problem)
    return {key: problem.get(key) for key in _PROBLEM_KEYS}


def problems_json(problems: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The problem objects of a list of problems, each with what it follows from."""
    return [problem_json(p) for p in problems]


def report_json(report: Report, problems: Sequence[Problem] | None = None,
                exit_code: int | None = None, **own: Any) -> dict[str, Any]:
    """The envelope of a replayed log (``problems``: instead of the report's own;
    ``exit_code``: the command's, when it is not the report's)."""
    listed = report.problems if problems is None else problems
    if exit_code is None:
        exit_code = Report(report.game, report.source, {}, list(listed)).exit_code
    return envelope(
        source=report.source, game=report.game,
        problems=[p.to_json() for p in listed], exit_code=exit_code,
        state=report.state_json(), pending=pending_json(report),
        outcome=outcome_json(report.outcome()), **own,
    )


ENVELOPE_KEYS = frozenset(
    ("schema", "source", "game", "ok", "exit_code", "problems", "state", "pending", "outcome")
)


def safe_json_piece(piece: str) -> str:
    """A piece of JSON text with the characters a terminal could act on escaped."""
    return _JSON_UNSAFE.sub(_json_escape, piece)
