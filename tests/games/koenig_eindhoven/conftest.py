"""Helpers of the Eindhoven Bridge tests: replaying a log with an engine, a fixture map."""

from __future__ import annotations

import copy
import re
from pathlib import Path
from typing import Any

from referee.core.parsing import parse_log
from referee.core.replay import Report, replay
from referee.games.koenig_eindhoven.board import FILES, Board, _read, scenario_folder
from referee.games.koenig_eindhoven.engine import ENGINE, KoenigEngine

HERE = Path(__file__).parent
RULE = re.compile(r"^\d+(\.\d+)*$")


def run(path: Path, engine: KoenigEngine = ENGINE) -> Report:
    text = path.read_text(encoding="utf-8")
    return replay(parse_log(text, path.name, engine=engine), engine)


def expected(path: Path) -> set[tuple[int, str, str]]:
    """(line, kind, rule) of every line whose comment names a rule: 'RULE: why' (an illegal
    move), 'not implemented RULE: why', 'wrong-side RULE: why'; 'legal' lines are legal."""
    found = set()
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if "#" not in line or line.startswith("#"):
            continue
        comment = line.split("#", 1)[1].strip()
        if ":" not in comment:
            continue
        head = comment.split(":", 1)[0]
        if head.startswith("legal") or not RULE.match(head.split()[-1]):
            continue
        if head.startswith("not implemented "):
            found.add((number, "not-implemented", head.removeprefix("not implemented ")))
        elif head.startswith("wrong-side"):
            found.add((number, "wrong-side", ""))
        else:
            found.add((number, "illegal-move", head))
    return found


def problems(report: Report) -> set[tuple[int, str, str]]:
    return {
        (p.line or 0, str(p.kind), "" if str(p.kind) == "wrong-side" else (p.rule or ""))
        for p in report.problems
    }


def fixture_board(change: Any) -> Board:
    """The bundled scenario's data with ``change(data)`` applied (a fixture map)."""
    data = {name: _read(scenario_folder() / name) for name in FILES}
    data = copy.deepcopy(data)
    change(data)
    return Board.from_data(data)


SCENARIO_FILES = Path(__file__).parents[3] / "logs" / "koenig-eindhoven" / "scenario-files"
"""The shipped example of a scenario file of the user's own, and a log played on it."""


def hilltop_board() -> Board:
    """8.1's example needs a hilltop behind a slope hexside: 0215 and 0214-0215, which the
    shipped scenario file hilltop.toml adds to the bundled map."""
    from referee.core.ownscenario import read_scenario_file
    from referee.games.koenig_eindhoven.variant import variant_board

    return variant_board(read_scenario_file(SCENARIO_FILES, "hilltop.toml"))
