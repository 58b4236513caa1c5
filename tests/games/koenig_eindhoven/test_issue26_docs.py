"""Issue 26, "Docs": every row of ``docs/koenig-eindhoven-interpretations.md`` true, none
stale, none twice; map note D4 puts each red-star hex on the bank the data puts it.

Excl. 12.0: "+5 VP for occupying all three primary Eindhoven Bridge hexes (those with red
stars) at the end of the game"; Excl. 9.1.1: "The three core Eindhoven bridges are the main
objective of the game and they are all large bridges"."""

from __future__ import annotations

import re
from collections import deque

from referee.games.koenig_eindhoven.board import scenario_folder
from referee.games.koenig_eindhoven.engine import ENGINE

from ...conftest import ROOT

DOC = ROOT / "docs" / "koenig-eindhoven-interpretations.md"
ROW = re.compile(r"^\| ([A-Z]\d+(?:, [A-Z]\d+)*) \|", re.MULTILINE)


def rows() -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for line in DOC.read_text().splitlines():
        match = ROW.match(line)
        if match:
            for number in match.group(1).split(", "):
                found.setdefault(number, []).append(line)
    return found


def test_docs_every_reading_is_one_row() -> None:
    twice = {number: len(lines) for number, lines in rows().items() if len(lines) > 1}
    assert twice == {}


def test_docs_no_row_says_close_combat_or_support_is_still_to_come() -> None:
    """R2 and K7 said Close Combat and support spending were "issue 16": both are refereed
    (10.0-11.2 and 9.0 in ``closecombat.py`` and ``combat.py``)."""
    text = DOC.read_text()
    assert "issue 16" not in text
    assert "not-implemented sentence" not in text


def bank(start: str) -> set[str]:
    """The hexes reachable from ``start`` without crossing a River hexside."""
    board = ENGINE.board
    seen = {start}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        for there in board.neighbours(here):
            if there not in seen and not board.hexside(here, there).river:
                seen.add(there)
                queue.append(there)
    return seen


def test_excl_12_0_d4_puts_each_red_star_on_the_bank_the_map_has_it() -> None:
    board = ENGINE.board
    markt = board.place("Eindhoven")
    assert markt is not None
    near = bank(markt)
    stars = sorted(h for h, spec in board.hexes.items() if spec.red_star)
    assert len(stars) == 3
    (d4,) = rows()["D4"]
    notes = " ".join((scenario_folder() / "NOTES.md").read_text().split())
    for star in stars:
        if star in near:
            assert f"{star}, on the Markt's bank" in d4, star
            assert f"{star}, on the Markt's bank" in notes, star
        else:
            assert f"({star})" in d4 and "on the far bank from the Markt" in d4, star
    assert "the one on the far bank from the Markt" not in d4
