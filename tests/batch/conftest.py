"""Logs for the batch tests, written into a temporary folder: legal Battle Card games played
by self-play, and hand-written logs that break the rules or cannot be read."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.batch.helpers import BINARY, ILLEGAL, LATIN1, SYNTAX, legal_log


@pytest.fixture
def legal_logs(tmp_path: Path) -> Path:
    """A folder of 12 legal logs, a third of them in a sub-folder, and a file that is no log."""
    folder = tmp_path / "legal"
    (folder / "sub").mkdir(parents=True)
    for i in range(12):
        where = folder / "sub" if i % 3 == 0 else folder
        (where / f"game-{i:02d}.log").write_text(legal_log(f"batch-{i}"), encoding="utf-8")
    (folder / "notes.txt").write_text("not a log\n", encoding="utf-8")
    return folder


@pytest.fixture
def mixed_logs(tmp_path: Path) -> Path:
    """One log of each kind: legal, illegal, syntax error, binary, not UTF-8."""
    folder = tmp_path / "mixed"
    folder.mkdir()
    (folder / "a-legal.log").write_text(legal_log("mixed-1"), encoding="utf-8")
    (folder / "b-illegal.log").write_text(ILLEGAL, encoding="utf-8")
    (folder / "c-syntax.log").write_text(SYNTAX, encoding="utf-8")
    (folder / "d-binary.log").write_bytes(BINARY)
    (folder / "e-latin1.log").write_bytes(LATIN1)
    return folder
