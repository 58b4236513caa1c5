"""Issue 26, item 9: the engine package's imports point down only, with no cycle (the house
rule "Imports point down only"): ``closecombat`` and ``combat`` share ``retreats`` below them,
and the greedy policy is handed the engine's board instead of importing the engine."""

from __future__ import annotations

import ast
from pathlib import Path

import referee.games.koenig_eindhoven as package

PACKAGE = "referee.games.koenig_eindhoven"
FOLDER = Path(package.__file__).parent


def imports_of(path: Path) -> set[str]:
    """Every module of the package that ``path`` imports, at the top or inside a function."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module is not None:
            if node.module == PACKAGE:
                found |= {alias.name for alias in node.names}
            elif node.module.startswith(PACKAGE + "."):
                found.add(node.module.removeprefix(PACKAGE + ".").split(".")[0])
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith(PACKAGE + "."):
                    found.add(alias.name.removeprefix(PACKAGE + ".").split(".")[0])
    return found


def graph() -> dict[str, set[str]]:
    modules = {p.stem: p for p in FOLDER.glob("*.py") if p.stem != "__init__"}
    return {name: imports_of(path) & set(modules) for name, path in modules.items()}


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    found: list[list[str]] = []
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(edges[node]):
            if state.get(nxt) == 1:
                found.append([*stack[stack.index(nxt):], nxt])
            elif nxt not in state:
                visit(nxt)
        stack.pop()
        state[node] = 2

    for node in sorted(edges):
        if node not in state:
            visit(node)
    return found


def test_issue_26_item_9_no_import_cycle_in_the_engine_package() -> None:
    edges = graph()
    assert "combat" not in edges["closecombat"], "closecombat must not import combat"
    assert "engine" not in edges["policy"], "policy must not import the engine"
    assert cycles(edges) == []


def test_issue_26_item_9_the_cycle_finder_finds_a_cycle() -> None:
    assert cycles({"a": {"b"}, "b": {"a"}}) == [["a", "b", "a"]]
