"""The examples that end each command's ``--help``: each runs as written, in that order, in
an empty folder (``tests/cli/test_help_examples.py`` runs them all), so an earlier example
may make the file a later one reads."""

from __future__ import annotations

EXAMPLES: dict[str, tuple[str, ...]] = {
    "games": (
        "referee games",
        "referee games --json",
    ),
    "replay": (
        "referee replay bundled:battle-card/win.log",
        "referee replay bundled:wwiic/opening.log --events --upto 12",
        "referee replay bundled:wwiic/illegal-movement.log --json",
    ),
    "check": (
        "referee check bundled:battle-card/win.log bundled:battle-card/tabletop.log",
        "referee check bundled:wwiic/illegal-movement.log --strict",
    ),
    "moves": (
        "referee moves bundled:battle-card/pending.log",
        "referee moves bundled:wwiic/opening.log --upto 12 --json",
    ),
    "position": (
        "referee position bundled:battle-card/win.log --upto 12",
        "referee position bundled:wwiic/opening.log -o resume.log",
    ),
    "new": (
        "referee new battle-card --seed 7 -o game.log",
        "referee new wwiic --random-seed",
    ),
    "play": (
        "referee new battle-card --seed 7 -o game.log",
        "referee play game.log",
        'referee play game.log "attack Eindhoven" --dry-run',
    ),
    "undo": (
        "referee new battle-card --seed 7 -o game.log",
        "referee undo game.log --dry-run",
    ),
    "join": (
        "referee new battle-card --commit --side allied -o game.log",
        "referee join game.log",
    ),
    "status": (
        "referee status bundled:battle-card/pending.log",
        "referee status bundled:wwiic/opening.log --json",
    ),
    "mail": (
        "referee mail bundled:battle-card/pending.log",
        "referee mail bundled:battle-card/pending.log --since bundled:battle-card/pending.log "
        "--json",
    ),
    "verify": (
        "referee verify bundled:battle-card/win.log",
        "referee verify bundled:battle-card/win.log --json",
    ),
    "examples": (
        "referee examples",
        "referee examples battle-card/win.log",
    ),
    "fmt": (
        "referee fmt bundled:battle-card/tabletop.log",
        "referee fmt bundled:battle-card/win.log -o tidy.log",
    ),
    "scenario check": (
        "referee scenario check bundled:battle-card",
        "referee scenario check bundled:wwiic",
    ),
    "scenario show": (
        "referee scenario show battle-card",
        "referee scenario show wwiic --json",
    ),
    "map": (
        "referee map wwiic -o map.svg",
        "referee map wwiic -o opening.svg --log bundled:wwiic/opening.log",
    ),
    "render": (
        "referee render bundled:battle-card/win.log -o board.svg",
        "referee render bundled:wwiic/opening.log --upto 12 -o turn1.svg",
    ),
    "view": (
        "referee view bundled:battle-card/win.log -o game.html",
    ),
    "simulate": (
        "referee simulate battle-card --games 100",
        "referee simulate battle-card --games 50 --policy greedy --json",
    ),
    "batch": (
        "referee batch bundled:wwiic",
        "referee batch bundled:koenig-eindhoven bundled:arnhem44 --out results.csv",
    ),
    "rules": (
        "referee rules wwiic",
        "referee rules arnhem44 Waterways",
        "referee rules koenig-eindhoven 8.1.1 --json",
    ),
    "lsp": (
        "referee lsp",
    ),
    "completion": (
        "referee completion bash",
        "referee completion zsh",
        "referee completion fish",
    ),
}


def epilog(command: str) -> str | None:
    """The ``Examples:`` block of a command's help (click keeps a ``\\b`` paragraph as
    written)."""
    examples = EXAMPLES.get(command)
    if not examples:
        return None
    return "\b\nExamples:\n" + "\n".join(f"  {line}" for line in examples)
