"""'referee render': golden SVG files for a few positions, well-formed XML, the last action
highlighted, and a sentence for a game without a board drawing.

The positions come from a log whose dice are recorded (tests/pbem/data/win-table.log), so the
pictures do not depend on any dice stream.  To redraw the golden files after a deliberate
change of the drawing: REFEREE_UPDATE_GOLDEN=1 pytest tests/pbem/test_render.py
"""

from __future__ import annotations

import os
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from referee.core import svg

from .helpers import run

HERE = Path(__file__).parent
WIN = HERE / "data" / "win-table.log"
GOLDEN = HERE / "golden"
NS = {"svg": svg.SVG_NS}

# name -> (--upto line or None for the whole log, the places the last action touched)
POSITIONS = {
    "after-airdrop": (4, {"city-eindhoven", "city-grave", "city-arnhem"}),
    "turn-2-attack-grave": (11, {"city-grave"}),
    "turn-3-82nd-to-nijmegen": (17, {"city-grave", "city-nijmegen"}),
    "won-at-arnhem": (None, {"city-nijmegen", "city-arnhem"}),
}


def render(upto: int | None) -> str:
    ran = run("render", WIN, *(["--upto", str(upto)] if upto else []))
    assert ran.code == 0, ran.err
    return ran.out


@pytest.mark.parametrize("name", list(POSITIONS))
def test_golden_board(name: str) -> None:
    upto, _ = POSITIONS[name]
    drawn = render(upto)
    golden = GOLDEN / f"{name}.svg"
    if os.environ.get("REFEREE_UPDATE_GOLDEN"):
        golden.write_text(drawn, encoding="utf-8")
    assert drawn == golden.read_text(encoding="utf-8")
    assert render(upto) == drawn  # the same position draws the same bytes


@pytest.mark.parametrize("name", list(POSITIONS))
def test_board_is_well_formed_svg_with_the_last_action_lit(name: str) -> None:
    upto, touched = POSITIONS[name]
    root = ET.fromstring((GOLDEN / f"{name}.svg").read_bytes())
    assert root.tag == f"{{{svg.SVG_NS}}}svg"
    assert root.get("viewBox") == f"0 0 {root.get('width')} {root.get('height')}"
    lit = {
        group.get("id")
        for group in root.iter(f"{{{svg.SVG_NS}}}g")
        if any(rect.get("stroke") == "#e8860c" for rect in group.findall("svg:rect", NS))
    }
    assert lit == touched
    caption = root.find(".//svg:g[@id='last-action']/svg:text", NS)
    assert caption is not None and caption.text is not None
    assert caption.text.startswith(f"Line {upto}:" if upto else "Line 24:")


def test_the_board_follows_the_position() -> None:
    start, end = (ET.fromstring(render(n).encode()) for n in (4, None))
    titles = {t.text for t in end.iter(f"{{{svg.SVG_NS}}}title")}
    assert "30th Corps" in titles
    assert end.find(".//svg:g[@id='city-arnhem']/svg:g[@class='die']/svg:title", NS) is not None
    texts = [t.text for t in end.iter(f"{{{svg.SVG_NS}}}text")]
    assert "Win: 30th Corps reached Arnhem" in texts
    texts = [t.text for t in start.iter(f"{{{svg.SVG_NS}}}text")]
    assert "Turn 1 of 6, combat" in texts and texts.count("must fight") == 3


def test_render_writes_a_file(tmp_path: Path) -> None:
    out = tmp_path / "board.svg"
    ran = run("render", WIN, "-o", out, "--upto", "11")
    assert ran.code == 0 and f"wrote {out}" in ran.out
    assert out.read_text() == (GOLDEN / "turn-2-attack-grave.svg").read_text()


def test_render_png(tmp_path: Path) -> None:
    pytest.importorskip("cairosvg")
    out = tmp_path / "board.png"
    assert run("render", WIN, "-o", out).code == 0
    assert out.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")


def test_a_game_without_a_board_drawing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delitem(svg.DRAWERS, "battle-card")
    ran = run("render", WIN)
    assert ran.code == 2
    assert "Battle Card: Market Garden has no board drawing yet" in " ".join(ran.err.split())


def test_unknown_drawer_module_is_no_drawer(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(svg.DRAWERS, "battle-card", "referee.games.no_such_module:draw")
    assert svg.drawer_for("battle-card") is None
    assert svg.drawer_for("no-such-game") is None


def test_svg_writer_escapes_and_orders() -> None:
    root = svg.svg_root(10, 20, "a <b> & 'c'")
    root.add("text", 'x < y & "z"', x=1.5, y=2.0, font_size=3)
    text = svg.to_text(root)
    assert '<text x="1.5" y="2" font-size="3">x &lt; y &amp; "z"</text>' in text
    assert ET.fromstring(text.encode()).find("svg:title", NS).text == "a <b> & 'c'"  # type: ignore[union-attr]


def test_the_wwiic_map_is_hooked_in_while_its_drawer_exists() -> None:
    """WWII Commander's engine draws its own area map; render feeds it a position and the
    last action's commands, whose move is drawn as an arrow."""
    engine_module = pytest.importorskip("referee.games.wwiic.engine")
    drawer = svg.drawer_for("wwiic")
    assert drawer is not None
    from referee.games.wwiic.commands import Activate, UnitMove

    engine = engine_module.WWIICEngine()
    state = engine.setup(None, {})
    move = Activate((UnitMove("505/82", ("Groesbeek",), start="Mook"),))
    text = drawer(engine, state, svg.Highlight(9, "allied: activate 505/82 Mook->Groesbeek",
                                               (move,), ("505/82 moves Mook->Groesbeek",)))
    root = ET.fromstring(text.encode())
    assert root.tag == f"{{{svg.SVG_NS}}}svg"
    arrow = root.find(".//svg:g[@id='last-action']//*[@class='last-arrow']", NS)
    assert arrow is not None
    assert (arrow.get("data-from"), arrow.get("data-to")) == ("Mook", "Groesbeek")
    assert "505/82 moves Mook-&gt;Groesbeek" in text


def test_golden_wwiic_board() -> None:
    """The WWII Commander area map after its first line: the same bytes every time, and
    well-formed."""
    ran = run("render", "bundled:wwiic/full-game-draw.log", "--upto", "13")
    assert ran.code == 0, ran.err
    golden = GOLDEN / "wwiic-line-13.svg"
    if os.environ.get("REFEREE_UPDATE_GOLDEN"):
        golden.write_text(ran.out, encoding="utf-8")
    assert ran.out == golden.read_text(encoding="utf-8")
    root = ET.fromstring(ran.out.encode())
    assert root.find(".//svg:g[@id='last-action']//*[@class='last-arrow']", NS) is not None
