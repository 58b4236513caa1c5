"""``referee view``: the step-through page of a game, its data, and a real browser stepping it."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from referee.cli import main
from referee.core.parsing import read_log
from referee.core.resources import resolve
from referee.core.svg import drawer_for
from referee.games import engine_for
from referee.viewer import view_data, view_html


def _data(name: str) -> dict[str, object]:
    log = read_log(resolve(f"bundled:{name}", "logs"))
    return view_data(log, engine_for(log.game or ""))


def _board(data: dict[str, object], index: int) -> str:
    lines: list[str] = data["lines"]  # type: ignore[assignment]
    runs = data["positions"][index]["board"]  # type: ignore[index]
    out = []
    for first, count in zip(runs[::2], runs[1::2], strict=True):
        out.extend(lines[first:first + count])
    return "\n".join(out) + "\n"


def test_every_position_of_a_battle_card_game_is_there() -> None:
    data = _data("battle-card/win.log")
    log = read_log(resolve("bundled:battle-card/win.log", "logs"))
    positions = data["positions"]
    assert isinstance(positions, list)
    assert [p["line"] for p in positions] == [0] + [a.number for a in log.actions]
    assert data["outcome"]["result"] is not None  # type: ignore[index]
    # The last board, rebuilt from the shared lines, is the drawer's own picture.
    engine = engine_for("battle-card")
    from referee.api import replay_file
    from referee.viewer import _highlight

    report = replay_file(resolve("bundled:battle-card/win.log", "logs"))
    drawer = drawer_for("battle-card")
    assert drawer is not None
    expected = drawer(engine, report.state, _highlight(report, log.actions[-1]))
    assert _board(data, len(positions) - 1) == expected


def test_boards_share_their_lines() -> None:
    """The map is stored once: a whole WWII Commander game stays small."""
    data = _data("wwiic/full-game-draw.log")
    positions = data["positions"]
    assert isinstance(positions, list) and len(positions) > 300
    page = view_html(read_log(resolve("bundled:wwiic/full-game-draw.log", "logs")),
                     engine_for("wwiic"))
    assert len(page.encode()) < 5_000_000
    first, last = _board(data, 0), _board(data, len(positions) - 1)
    assert first.startswith("<?xml") and last.rstrip().endswith("</svg>")
    assert first != last


def test_problems_sit_at_their_lines() -> None:
    data = _data("wwiic/illegal-movement.log")
    problems = data["problems"]
    assert isinstance(problems, dict) and problems
    for line, items in problems.items():
        assert int(line) > 0
        assert all(item["message"] for item in items)


def test_the_page_is_self_contained_and_its_data_cannot_close_the_script(tmp_path: Path) -> None:
    log = tmp_path / "x.log"
    log.write_text('[Game "battle-card"]\n[Seed "1"]\n# </script><script>alert(1)</script>\n'
                   "attack Grave  # </script>\n")
    page = view_html(read_log(log), engine_for("battle-card"))
    assert "http://" not in page.replace("http://www.w3.org/2000/svg", "")
    assert "https://" not in page
    assert "<script src" not in page and "<link" not in page
    assert page.count("</script>") == 2  # the data's and the code's, nothing from the log
    start = page.index('type="application/json">') + len('type="application/json">')
    data = json.loads(page[start:page.index("</script>", start)])
    assert data["log"][-1]["text"].endswith("# </script>")


def test_cli_writes_the_page_and_never_over_a_file(tmp_path: Path) -> None:
    runner = CliRunner()
    out = tmp_path / "game.html"
    ran = runner.invoke(main, ["view", "bundled:battle-card/win.log", "-o", str(out)])
    assert ran.exit_code == 0, ran.output
    assert "13 positions" in ran.output and out.read_text().startswith("<!DOCTYPE html>")
    again = runner.invoke(main, ["view", "bundled:battle-card/win.log", "-o", str(out)])
    assert again.exit_code == 2 and "--force" in again.output
    forced = runner.invoke(main, ["view", "bundled:battle-card/win.log", "-o", str(out),
                                  "--force"])
    assert forced.exit_code == 0


def test_cli_refuses_its_input_other_names_and_unreadable_logs(tmp_path: Path) -> None:
    runner = CliRunner()
    log = tmp_path / "g.html"
    log.write_text('[Game "battle-card"]\n[Seed "1"]\n')
    ran = runner.invoke(main, ["view", str(log), "-o", str(log), "--force"])
    assert ran.exit_code == 2 and "never writes over its input" in ran.output
    assert log.read_text().startswith("[Game")
    ran = runner.invoke(main, ["view", str(log), "-o", str(tmp_path / "g.svg")])
    assert ran.exit_code == 2 and "HTML" in ran.output
    binary = tmp_path / "b.log"
    binary.write_bytes(b"\x00\x01")
    ran = runner.invoke(main, ["view", str(binary), "-o", str(tmp_path / "b.html")])
    assert ran.exit_code == 2 and not (tmp_path / "b.html").exists()


def test_a_log_with_problems_is_shown_and_exits_1(tmp_path: Path) -> None:
    out = tmp_path / "ill.html"
    ran = CliRunner().invoke(main, ["view", "bundled:wwiic/illegal-movement.log", "-o", str(out)])
    assert ran.exit_code == 1 and out.exists() and "problems" in ran.output


# -- a real browser -------------------------------------------------------------------------

CHROMIUM = os.environ.get("REFEREE_CHROMIUM") or shutil.which("chromium") or shutil.which(
    "chromium-browser")


def _browser():  # type: ignore[no-untyped-def]
    if CHROMIUM is None:
        pytest.skip("no Chromium on this machine (apt-get install chromium; .ci/run does)")
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright (test extra) "
                                   "is not installed")
    return sync_api


def test_stepping_through_a_game_in_a_browser(tmp_path: Path) -> None:
    sync_api = _browser()
    out, illegal = tmp_path / "game.html", tmp_path / "illegal.html"
    assert CliRunner().invoke(main, ["view", "bundled:wwiic/full-game-draw.log",
                                     "-o", str(out)]).exit_code == 0
    assert CliRunner().invoke(main, ["view", "bundled:wwiic/illegal-movement.log",
                                     "-o", str(illegal)]).exit_code == 1
    args = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync"]
    # Chromium keeps a Unix socket in its temporary folder, whose path may be at most 107
    # bytes: under a long temporary path the browser gets a short folder of its own.
    env = dict(os.environ)
    short: str | None = None
    if len(tempfile.gettempdir()) > 60 and Path("/tmp").is_dir():
        short = env["TMPDIR"] = tempfile.mkdtemp(prefix="referee-", dir="/tmp")
    try:
        _step_through(sync_api, env, args, out, illegal)
    finally:
        if short is not None:
            shutil.rmtree(short, ignore_errors=True)


def _step_through(sync_api: Any, env: dict[str, str], args: list[str], out: Path,
                  illegal: Path) -> None:
    with sync_api.sync_playwright() as play:
        browser = play.chromium.launch(executable_path=CHROMIUM, args=args, env=env)
        try:
            page = browser.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.goto(out.as_uri())
            assert "the opening" in page.inner_text("#where")
            opening = page.inner_html("#board")
            assert "<svg" in opening
            page.keyboard.press("ArrowRight")
            assert "after line" in page.inner_text("#where")
            assert page.inner_html("#board") != opening
            assert page.locator("#log div.current").count() == 1
            page.keyboard.press("End")
            last = page.inner_text("#where")
            assert "Result" in page.inner_text("#outcome")
            page.keyboard.press("Home")
            assert "the opening" in page.inner_text("#where")
            page.goto(illegal.as_uri())
            page.click("#next-problem")
            assert "problem" in page.inner_text("#line-events")
            page.fill("#jump", "1")
            page.dispatch_event("#jump", "change")
            assert "position 0" in page.inner_text("#where")
            page.keyboard.press("End")
            assert page.inner_text("#where") != last  # another game: another length
            assert errors == []
        finally:
            browser.close()
