"""Build each game's Lark parser once and ship it with the package.

    .venv/bin/python tools/build_parsers.py          # rebuild the stale or missing ones
    .venv/bin/python tools/build_parsers.py --force  # rebuild referee/core/parsers/*.lalr
    .venv/bin/python tools/build_parsers.py --check  # exit 1 if any is missing or stale

A parser still current is left as it is: a rebuild is not byte-for-byte the same (Lark's
tables come out of sets whose order changes from one process to the next), so rewriting it
would only make a diff.

Run it after changing a grammar in ``grammar/`` (or upgrading Lark): the referee then loads
the shipped parser instead of building it on every start.  A stale one is never used (its
grammar digest or Lark version differs; the parser is then built from the grammar), and
``tests/core/test_parser_data.py`` fails until it is rebuilt.
"""

from __future__ import annotations

import sys

from referee.core.grammar import SHIPPED, load_shipped, parser_blob, shipped_path
from referee.core.resources import bundled


def grammars() -> list[str]:
    """Every game's grammar: the .lark files with a start rule (common.lark has none)."""
    return sorted(
        path.name for path in bundled("grammar").glob("*.lark")
        if "\nstart:" in path.read_text(encoding="utf-8")
    )


def main() -> int:
    check = "--check" in sys.argv[1:]
    force = "--force" in sys.argv[1:]
    stale = []
    for name in grammars():
        current = load_shipped(name) is not None
        if check:
            if not current:
                stale.append(name)
            continue
        if current and not force:
            print(f"kept {shipped_path(name)} (current)")
            continue
        SHIPPED.mkdir(exist_ok=True)
        shipped_path(name).write_bytes(parser_blob(name))
        print(f"wrote {shipped_path(name)}")
    if stale:
        print("stale or missing shipped parsers (run tools/build_parsers.py): " + ", ".join(stale))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
