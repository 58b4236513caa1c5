"""The document store of ``referee lsp`` (no pygls needed): editor positions in UTF-16
units, incremental edits, the rules entry a citation opens (issue 33)."""

from __future__ import annotations

import sys

import pytest
from click.testing import CliRunner

from referee.cli import main
from referee.lsp.documents import Documents, char_index, offset_of, utf16_column
from referee.rules import entry_line


def test_positions_count_utf16_code_units() -> None:
    line = "allied: move \U0001f600 Grave"
    at = line.index("Grave")
    assert utf16_column(line, at) == at + 1  # the emoji is two UTF-16 units
    assert char_index(line, at + 1) == at
    assert char_index(line, 999) == len(line)


def test_an_edit_range_is_found_in_lines_split_as_the_protocol_splits_them() -> None:
    text = "a\r\nbc\rdef\nx"
    assert offset_of(text, 1, 1) == text.index("c")
    assert offset_of(text, 2, 2) == text.index("f")
    assert offset_of(text, 3, 0) == text.index("x")
    assert offset_of(text, 9, 0) == len(text)


def test_incremental_changes_apply_in_order() -> None:
    store = Documents()
    uri = "untitled:edits"
    store.opened(uri, '[Game "battle-card"]\nturn 1\n', 1)
    document = store.changed(uri, [((1, 5, 1, 6), "2"),
                                   ((2, 0, 2, 0), "pass\n")], 2)
    assert document is not None
    assert document.text == '[Game "battle-card"]\nturn 2\npass\n'
    assert document.report is not None and document.report.problems
    store.closed(uri)
    assert store.get(uri) is None


def test_a_rule_citation_opens_the_row_of_its_section() -> None:
    found = entry_line("arnhem44", "Phase 3.3")
    assert found is not None
    path, line, heading = found
    assert heading.startswith("Phase 3.3")
    assert path.read_text(encoding="utf-8").splitlines()[line].startswith("| Phase 3.3")
    assert entry_line("arnhem44", "no such section") is None


def test_without_pygls_the_command_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    """The server is an optional extra: without it, a sentence and exit code 2."""
    monkeypatch.setitem(sys.modules, "pygls", None)
    monkeypatch.setitem(sys.modules, "pygls.lsp.server", None)
    monkeypatch.delitem(sys.modules, "referee.lsp.server", raising=False)
    result = CliRunner().invoke(main, ["lsp"])
    assert result.exit_code == 2
    assert "pip install 'market-garden-referee[lsp]'" in result.output
