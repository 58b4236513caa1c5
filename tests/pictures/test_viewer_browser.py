"""Issue 30: the viewer of every game in a real browser (headless Chromium through
Playwright): the board fills the space it has and keeps its aspect, steps with the arrows,
Home/End, the slider, a line number and ``p``, zooms (keys, buttons, the wheel), pans by
dragging, fits again, and reads its heading at the page's own size.  From mid-game it steps
to a position whose last action is drawn as an arrow, checks the arrow lies whole on screen
and the result is in words above the board.  Screenshots of that position and of the end of
the checks are kept where the test ran (``REFEREE_SCREENSHOTS=DIR``)."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from referee.cli import main

from ..cli.test_view import CHROMIUM, _browser

GAMES = [
    ("battle-card", "bundled:battle-card/win.log"),
    ("wwiic", "bundled:wwiic/full-game-draw.log"),
    ("koenig-eindhoven", "bundled:koenig-eindhoven/complete-game.log"),
    ("arnhem44", "bundled:arnhem44/complete-game.log"),
]
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def test_every_game_steps_zooms_and_shows_the_whole_board(tmp_path: Path) -> None:
    sync_api = _browser()
    pages = {}
    for game, log in GAMES:
        pages[game] = tmp_path / f"{game}.html"
        ran = CliRunner().invoke(main, ["view", log, "-o", str(pages[game])])
        assert ran.exit_code == 0, ran.output
    env = dict(os.environ)
    short: str | None = None
    if len(tempfile.gettempdir()) > 60 and Path("/tmp").is_dir():
        short = env["TMPDIR"] = tempfile.mkdtemp(prefix="referee-", dir="/tmp")
    try:
        with sync_api.sync_playwright() as play:
            browser = play.chromium.launch(executable_path=CHROMIUM, args=ARGS, env=env)
            try:
                for game, page_path in pages.items():
                    _check_page(browser, game, page_path)
            finally:
                browser.close()
    finally:
        if short is not None:
            shutil.rmtree(short, ignore_errors=True)


def _box(page: Any, selector: str) -> dict[str, float]:
    box = page.locator(selector).bounding_box()
    assert box is not None, selector
    return box  # type: ignore[no-any-return]


def _check_page(browser: Any, game: str, path: Path) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(path.as_uri())
    total = int(page.get_attribute("#slider", "max"))
    assert total >= 5
    # Stepping: arrows, End, Home, the slider, a line number, p (next problem).
    page.keyboard.press("ArrowRight")
    assert "after line" in page.inner_text("#where")
    page.keyboard.press("End")
    assert f"position {total} of {total}" in page.inner_text("#where")
    page.keyboard.press("Home")
    assert "the opening" in page.inner_text("#where")
    page.fill("#slider", str(total // 2))
    page.dispatch_event("#slider", "input")
    assert f"position {total // 2} of" in page.inner_text("#where")
    page.keyboard.press("p")  # no problem in these logs: the position stays
    assert f"position {total // 2} of" in page.inner_text("#where")
    # The last action as python-chess draws a last move: from the middle of the game, the
    # next position whose last action has an arrow shows it on the board, whole, and says
    # what came of it above the board.
    for _ in range(60):
        if page.locator("#board svg .last-arrow").count():
            break
        page.keyboard.press("ArrowRight")
    assert page.locator("#board svg .last-arrow").count(), f"{game}: no arrow after mid-game"
    arrow = _box(page, "#board svg .last-arrow >> nth=0")
    inside = _box(page, "#board")
    assert arrow["width"] + arrow["height"] > 10
    assert inside["x"] <= arrow["x"] and arrow["x"] + arrow["width"] <= inside["x"] + \
        inside["width"] + 1 and arrow["y"] + arrow["height"] <= inside["y"] + inside["height"] + 1
    assert "Last: " in page.inner_text("#caption"), f"{game}: the result is not in words"
    shots = os.environ.get("REFEREE_SCREENSHOTS")
    if shots:
        page.screenshot(path=str(Path(shots) / f"view-{game}-arrow.png"))
    # The whole board on screen: the board keeps its aspect inside the space it has, and
    # nothing of it lies below the window.
    board = _box(page, "#board")
    svg = _box(page, "#board svg")
    assert svg["y"] + svg["height"] <= 800 + 1 and board["y"] + board["height"] <= 800 + 1
    assert page.evaluate("document.scrollingElement.scrollHeight") <= 800 + 1
    shape = page.evaluate("""() => {
        const svg = document.querySelector('#board svg');
        const box = svg.viewBox.baseVal; return [box.width, box.height,
        svg.getAttribute('preserveAspectRatio')]; }""")
    assert shape[2] == "xMidYMid meet" and shape[0] > 0 and shape[1] > 0
    # Its heading reads at the page's size, whatever the board's scale.
    caption = page.inner_text("#caption")
    assert caption.strip(), f"{game}: no heading above the board"
    size = page.evaluate(
        "parseFloat(getComputedStyle(document.querySelector('#caption')).fontSize)")
    assert size >= 14
    # Zoom: + twice, then the wheel, then drag to pan, then fit again.
    whole = page.get_attribute("#board svg", "viewBox")
    page.keyboard.press("+")
    page.keyboard.press("+")
    zoomed = page.get_attribute("#board svg", "viewBox")
    assert zoomed != whole and "%" in page.inner_text("#zoom")
    width_zoomed = float(zoomed.split()[2])
    assert width_zoomed < float(whole.split()[2]) * 0.7
    page.mouse.move(board["x"] + board["width"] / 2, board["y"] + board["height"] / 2)
    page.mouse.wheel(0, -200)
    assert float(page.get_attribute("#board svg", "viewBox").split()[2]) < width_zoomed
    before = page.get_attribute("#board svg", "viewBox").split()[:2]
    page.mouse.down()
    page.mouse.move(board["x"] + board["width"] / 2 + 80, board["y"] + board["height"] / 2 + 40,
                    steps=4)
    page.mouse.up()
    assert page.get_attribute("#board svg", "viewBox").split()[:2] != before
    page.keyboard.press("ArrowRight")  # the zoom stays from one position to the next
    assert page.get_attribute("#board svg", "viewBox") != whole
    page.keyboard.press("0")
    assert page.get_attribute("#board svg", "viewBox") == whole
    assert page.inner_text("#zoom") == "whole board"
    page.click("#zoom-in")
    assert page.get_attribute("#board svg", "viewBox") != whole
    page.click("#fit")
    assert page.get_attribute("#board svg", "viewBox") == whole
    shots = os.environ.get("REFEREE_SCREENSHOTS")
    if shots:
        page.screenshot(path=str(Path(shots) / f"view-{game}.png"))
    assert errors == [], errors
    page.close()
