"""Issue 30: a long ``referee view`` shows a rich progress bar with a total on a terminal
(standard error), and nothing on a pipe; the page is the same either way."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from click.testing import CliRunner
from rich.console import Console

from referee import api, output
from referee.cli import main
from referee.viewer import view_data

LOG = "bundled:battle-card/win.log"


def test_view_tells_its_progress_with_a_total() -> None:
    from referee.games import engine_for

    told: list[tuple[str, int, int]] = []
    log = api.read_source("logs/battle-card/win.log")
    data = view_data(log, engine_for("battle-card"), None,
                     lambda what, done, total: told.append((what, done, total)))
    replayed = [t for t in told if t[0] == "replaying"]
    drawn = [t for t in told if t[0] == "drawing"]
    assert replayed and replayed[-1][1] == replayed[-1][2]
    assert drawn[-1] == ("drawing", len(data["positions"]), len(data["positions"]))
    assert [d for _, d, _ in drawn] == list(range(1, len(data["positions"]) + 1))


def test_view_on_a_pipe_shows_no_bar(tmp_path: Path) -> None:
    ran = CliRunner().invoke(main, ["view", LOG, "-o", str(tmp_path / "page.html")])
    assert ran.exit_code == 0, ran.output
    assert ran.stderr == ""
    assert ran.stdout.startswith("wrote ")


def test_view_on_a_terminal_shows_a_bar_with_its_total(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    screen = io.StringIO()
    made = output.make_console

    def console(*args: object, stderr: bool = False, **kwargs: object) -> Console:
        if stderr:
            return Console(file=screen, force_terminal=True, force_interactive=True, width=100,
                           color_system=None)
        return made(*args, stderr=stderr, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(output, "make_console", console)
    monkeypatch.setenv("TERM", "xterm")  # the tests pin a dumb terminal, which rich draws no bar on
    # A game long enough (363 positions, a second or two) for the bar to be drawn.
    ran = CliRunner().invoke(main, ["view", "bundled:koenig-eindhoven/complete-game.log",
                                    "-o", str(tmp_path / "page.html")])
    assert ran.exit_code == 0, ran.output
    positions = int(ran.stdout.split("(")[1].split()[0])
    shown = screen.getvalue()
    assert "drawing" in shown and f"/{positions}" in shown
    assert "drawing" not in ran.stdout
