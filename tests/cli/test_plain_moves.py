"""Issue 31: ``referee moves`` into a pipe without colour writes its lines without loading
rich (``output_plain.write_plain``), and they are the very bytes rich's console prints
(``--color never`` still goes through rich): on every bundled log and on cuts of them
(positions of every kind of decision), and on lines rich would change (a tab, a line too
long to stay whole: those go through rich)."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from referee import output, output_plain
from referee.cli import main

LOGS = sorted((Path(__file__).resolve().parents[2] / "logs").glob("*/*.log"))


def _moves(*args: str) -> tuple[str, int]:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return result.output, result.exit_code


@pytest.fixture(autouse=True)
def _no_forced_colour(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("FORCE_COLOR", "TTY_COMPATIBLE", "NO_COLOR"):
        monkeypatch.delenv(name, raising=False)


def test_plain_moves_are_richs_on_every_log(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    through_rich: list[Any] = []
    real = output.print_lines
    monkeypatch.setattr(output, "print_lines",
                        lambda *a: (through_rich.append(a), real(*a))[1])
    seen = 0
    for log in LOGS:
        lines = log.read_text(encoding="utf-8").splitlines()
        for cut in (0, 1, 2, 5, 9):
            part = tmp_path / f"{log.parent.name}-{log.stem}-{cut}.log"
            part.write_text("\n".join(lines[:len(lines) - cut]) + "\n", encoding="utf-8")
            through_rich.clear()
            plain = _moves("moves", str(part))
            assert not through_rich, part  # the plain way was taken
            assert plain == _moves("--color", "never", "moves", str(part)), part
            assert through_rich or plain[1] == 2, (part, plain)  # that one went through rich
            seen += plain[0].count("\n")
    assert len(LOGS) > 30 and seen > 2000


@pytest.mark.parametrize("lines", [
    [("awaiting Allied: a move  ", True), ("  move 1 inf/UK A->B", False)],
    [("Élan  naïve 日本語 ✓  ", True), ("", False), ("   ", False), ("\\x1b[31m x", False)],
    [("a\ttab", False)],
    [("x" * 9_999, False)],
    [("x" * 10_000, False), ("y", True)],
])
def test_a_line_is_written_as_rich_prints_it_or_left_to_rich(
        lines: list[tuple[str, bool]], monkeypatch: pytest.MonkeyPatch) -> None:
    richs = io.StringIO()
    output.print_lines(output.make_console(file=richs), lines)
    plain = io.StringIO()
    monkeypatch.setattr(output_plain.sys, "stdout", plain)
    assert output_plain.plain_stdout("auto")
    if output_plain.write_plain(lines):
        assert plain.getvalue() == richs.getvalue()
    else:
        assert plain.getvalue() == "" and any("\t" in t or len(t) >= 10_000 for t, _ in lines)
    assert not output_plain.plain_stdout("always") and not output_plain.plain_stdout("never")
    monkeypatch.setenv("FORCE_COLOR", "1")
    assert not output_plain.plain_stdout("auto")
