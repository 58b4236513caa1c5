"""Play-by-email tests: the whole-game tests write a log dozens of times; they may skip the
disk flush (``fast_disk``).  The crash-safety tests keep the real one."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest


@pytest.fixture
def fast_disk(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """``os.fsync`` does nothing: the tests do not survive power cuts, the code still calls it."""
    calls: list[int] = []
    monkeypatch.setattr(os, "fsync", lambda fd: calls.append(fd))
    yield
    assert calls, "the writes were expected to flush to disk"
