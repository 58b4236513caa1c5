"""The parsers shipped as package data match the grammar files (tools/build_parsers.py)."""

from __future__ import annotations

import pickle
import sys
from pathlib import Path

import lark
import pytest

from referee.core.grammar import (
    build_parser,
    game_parser,
    grammar_digest,
    load_shipped,
    shipped_path,
)
from referee.core.resources import bundled, logs_dir

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
from build_parsers import grammars


def _games() -> dict[str, str]:
    """Grammar file -> game id, for every game with an engine."""
    from referee.games import GAMES as REGISTERED
    from referee.games import engine_for

    return {engine_for(game).grammar: game for game, entry in REGISTERED.items()
            if entry.module is not None}


GAMES = _games()


def test_every_game_grammar_has_a_shipped_parser() -> None:
    assert grammars() == sorted(GAMES)
    for name in grammars():
        assert shipped_path(name).is_file(), f"run tools/build_parsers.py ({name})"


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_shipped_parser_was_built_from_the_grammar_as_it_is(name: str) -> None:
    blob = pickle.loads(shipped_path(name).read_bytes())
    assert blob["grammar"] == grammar_digest(name), (
        f"grammar/{name} changed since its parser was shipped: run tools/build_parsers.py"
    )


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_shipped_parser_reads_every_bundled_line_as_the_grammar_does(name: str) -> None:
    blob = pickle.loads(shipped_path(name).read_bytes())
    if blob["lark"] != lark.__version__:
        # Another Lark: the referee builds the parser from the grammar instead.
        assert load_shipped(name) is None
        return
    shipped = load_shipped(name)
    assert shipped is not None and game_parser(name) is game_parser(name)
    built = build_parser(name)
    lines = [
        line for path in sorted(logs_dir(GAMES[name]).glob("*.log"))
        for line in path.read_text(encoding="utf-8").splitlines() if line.strip()
    ]
    lines += ["attack Arnhem {d6: }", "move 30-corps ->", "[Game", "turn x"]
    assert len(lines) > 50
    for line in lines:
        outcomes: list[object] = []
        for parser in (shipped, built):
            try:
                tree = parser.parse(line)
                columns = [t.meta.column for t in tree.iter_subtrees() if not t.meta.empty]
                outcomes.append((tree, columns))
            except lark.exceptions.UnexpectedInput as error:
                outcomes.append(f"{type(error).__name__} {error.column}")
        assert outcomes[0] == outcomes[1], line


def test_a_changed_grammar_is_never_read_through_a_stale_parser(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for path in bundled("grammar").glob("*.lark"):
        (tmp_path / path.name).write_text(path.read_text(encoding="utf-8") + "\n// edited\n")
    monkeypatch.setattr("referee.core.grammar.grammar_path", lambda name: tmp_path / name)
    assert load_shipped("battle_card.lark") is None
