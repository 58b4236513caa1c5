"""``referee view`` reads a board in parts (``core.svg.PART_DRAWERS``) and stores each part's
lines once: the page must be the one the whole text gives, at every position."""

from __future__ import annotations

from typing import Any

import pytest

from referee.core.parsing import read_log
from referee.core.resources import logs_dir
from referee.core.svg import PART_DRAWERS, drawer_for, part_drawer_for
from referee.games import engine_for
from referee.viewer import _events_by_line, _facts_by_line, _highlight, _Lines, _Recorder


def _positions(game: str, name: str) -> tuple[Any, list[tuple[Any, Any]]]:
    log = read_log(logs_dir(game) / name)
    engine = engine_for(game)
    recorder = _Recorder(log, engine, None)
    report = recorder.run()
    by_line, facts = _events_by_line(report), _facts_by_line(report)
    positions = [(recorder.opening, None)]
    positions += [(state, _highlight(report, line, by_line, facts))
                  for line, state in recorder.after]
    return engine, positions


@pytest.mark.parametrize("game", sorted(PART_DRAWERS))
def test_a_board_in_parts_is_the_drawers_text_at_every_position(game: str) -> None:
    name = {"arnhem44": "complete-game.log", "wwiic": "full-game-draw.log"}[game]
    engine, positions = _positions(game, name)
    draw, draw_parts = drawer_for(game), part_drawer_for(game)
    assert draw is not None and draw_parts is not None
    whole, in_parts = _Lines(), _Lines()
    drawn = 0
    for state, highlight in positions:
        parts = draw_parts(engine, state, highlight)
        drawn += len(parts)
        text = draw(engine, state, highlight)
        assert "\n".join(parts) + "\n" == text
        assert all(part and part.splitlines() == part.split("\n") for part in parts)
        assert in_parts.runs_of_parts(parts) == whole.runs(text)
    assert in_parts.lines == whole.lines
    assert len(in_parts.parts) < drawn / 2  # most parts are met again


def test_runs_of_parts_number_lines_as_the_whole_text_does() -> None:
    cases = [["a\nb", "c"], ["a", "a\nb", "x"], ["a\nb", "c", "a\nb", "c"], ["p\r", "q"],
             ["p", "", "q"], ["z\n", "z"], ["\u2028y", "y"]]
    whole, in_parts = _Lines(), _Lines()
    for parts in cases + cases:
        assert in_parts.runs_of_parts(parts) == whole.runs("\n".join(parts) + "\n"), parts
    assert in_parts.lines == whole.lines


def test_arnhem44_figures_drawn_are_the_engines_json_of_each_sector() -> None:
    """The drawer reads each sector's figures without the rest of ``to_json`` (issue 30): at
    every position they are ``to_json``'s ``sectors[].units``, in its order."""
    from referee.games.arnhem44.mapsvg import _figures

    engine, positions = _positions("arnhem44", "complete-game.log")
    for state, _ in positions:
        data = engine.to_json(state)
        assert _figures(engine.board, state) == {s["id"]: s["units"] for s in data["sectors"]}
        assert list(_figures(engine.board, state)) == [s["id"] for s in data["sectors"]]
