"""``referee.core.svg.escape`` and ``quoteattr`` write the same bytes as
``xml.sax.saxutils`` (whose import pulls in ``urllib.request`` and ``http.client``), so every
picture is unchanged."""

from __future__ import annotations

import itertools
from xml.sax import saxutils

from referee.core.svg import escape, quoteattr

ALPHABET = ["a", "&", "<", ">", '"', "'", "\n", "\r", "\t", " ", "é", "&amp;"]


def test_escape_and_quoteattr_write_what_saxutils_writes() -> None:
    for size in range(4):
        for letters in itertools.product(ALPHABET, repeat=size):
            text = "".join(letters)
            assert escape(text) == saxutils.escape(text), text
            assert quoteattr(text) == saxutils.quoteattr(text), text
