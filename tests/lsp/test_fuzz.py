"""The fuzz corpus of the read-only commands (``tests/core/command_fuzz.py``) typed into
``referee lsp``: each case's log, hostile headers, broken bytes and position files that
lead out of the folder included, replaces the document by ``didChange``, then a line of it
is typed again in the middle; the server answers every one with diagnostics and no
exception escapes it (it logs any as an error, and there must be none) (issue 33)."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("pygls", reason="referee lsp needs pygls (pip install '.[lsp]')")

from tests.core.command_fuzz import make_case, prepare
from tests.lsp.client import Client

CASES = 150


def test_the_fuzz_corpus_through_did_change_raises_nothing(tmp_path: Path) -> None:
    prepare(tmp_path)
    client = Client()
    try:
        client.initialize(tmp_path)
        uri = (tmp_path / "game.log").as_uri()
        client.open(uri, "")
        version = 1
        for seed in range(CASES):
            text = make_case(seed, quick=True).files["game.log"].decode("utf-8", "replace")
            version += 1
            client.replace_all(uri, version, text)
            lines = text.splitlines()
            if lines:
                middle = len(lines) // 2
                version += 1
                client.change(uri, version, (middle, 0), (middle, 0), lines[-1][:80] + "\n")
                client.at("textDocument/completion", uri, middle, 3)
                client.at("textDocument/hover", uri, middle, 1)
            assert client.errors() == [], seed
        assert client.process.poll() is None
    finally:
        assert client.shutdown() == 0
