"""Shell completion for the ``referee`` command (``referee completion bash|zsh|fish``).

Click's own completion, taught the referee's words: a game argument completes the game ids,
a log argument the bundled logs (``bundled:GAME/NAME.log``) and files, a scenario argument
the bundled scenarios and files.  Part of the command line: it imports no engine.
"""

from __future__ import annotations

from typing import Any

import click
from click.shell_completion import CompletionItem, get_completion_class

from referee.core.resources import BUNDLED_PREFIX, bundled

SHELLS = ("bash", "zsh", "fish")
COMPLETE_VARIABLE = "_REFEREE_COMPLETE"
"""The environment variable click's completion scripts set to ask for completions."""


def complete_game(ctx: click.Context, param: click.Parameter, incomplete: str
                  ) -> list[CompletionItem]:
    """The ids of the games the referee knows that begin with what was typed."""
    from referee.games import GAMES

    return [CompletionItem(game) for game in sorted(GAMES) if game.startswith(incomplete)]


def complete_bundled(folder: str, incomplete: str) -> list[CompletionItem]:
    """``bundled:...`` names of the files shipped in ``folder`` (logs or scenarios), and
    files and folders of the file system, for what was typed."""
    items: list[CompletionItem] = []
    if BUNDLED_PREFIX.startswith(incomplete) or incomplete.startswith(BUNDLED_PREFIX):
        try:
            root = bundled(folder)
        except FileNotFoundError:
            root = None
        if root is not None:
            pattern = "*.log" if folder == "logs" else "*"
            names = sorted({BUNDLED_PREFIX + path.relative_to(root).as_posix()
                            for path in root.glob(f"*/{pattern}")}
                           | {BUNDLED_PREFIX + path.name for path in root.iterdir()
                              if path.is_dir()})
            items += [CompletionItem(name) for name in names if name.startswith(incomplete)]
    if not incomplete.startswith(BUNDLED_PREFIX):
        items.append(CompletionItem(incomplete, type="file"))
    return items


def script(command: click.Command, shell: str, program: str = "referee") -> str:
    """The completion script of ``shell`` for ``command`` (the ``referee`` group) called as
    ``program``, as click writes it."""
    kind = get_completion_class(shell)
    if kind is None:
        raise click.BadParameter(f"completion is written for {', '.join(SHELLS)}")
    source: Any = kind(command, {}, program, COMPLETE_VARIABLE).source()
    return str(source)
