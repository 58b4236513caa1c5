"""The games the referee knows, and where each one's engine lives.

An engine is imported only when a log of its game is read, so ``referee check`` on a Battle
Card log never pays for the other games.
"""

from __future__ import annotations

from typing import Any

from referee.core.engine import Engine, GameInfo
from referee.core.errors import HeaderError, NotImplementedRule
from referee.core.lazy import import_module
from referee.core.names import NameIndex
from referee.core.records import frozen


@frozen
class GameEntry:
    id: str
    title: str
    rulebook: str
    module: str | None
    """The engine's module, or ``None`` while the game has no engine yet."""


GAMES: dict[str, GameEntry] = {
    "battle-card": GameEntry(
        "battle-card",
        "Battle Card: Market Garden",
        "battle-card-market-garden.txt",
        "referee.games.battle_card",
    ),
    "wwiic": GameEntry(
        "wwiic",
        "WWII Commander: Market-Garden",
        "wwii-commander-market-garden.txt",
        "referee.games.wwiic",
    ),
    "koenig-eindhoven": GameEntry(
        "koenig-eindhoven",
        "Paul Koenig's Market-Garden: Eindhoven Bridge",
        "koenig-eindhoven-bridge.txt",
        "referee.games.koenig_eindhoven.engine",
    ),
    "arnhem44": GameEntry(
        "arnhem44", "Arnhem '44", "arnhem-44.txt", "referee.games.arnhem44"
    ),
}

_INDEX: NameIndex[str] = NameIndex("game")
for _id in GAMES:
    _INDEX.add(_id, _id)


def game_entry(name: str) -> GameEntry:
    """The game called ``name`` (``HeaderError`` with a suggestion when unknown)."""
    try:
        return GAMES[_INDEX.lookup(name)]
    except Exception as error:
        known = ", ".join(GAMES)
        raise HeaderError(f"{error}; the referee knows {known}") from None


def engine_for(name: str) -> Engine[Any, Any]:
    """The rules engine of a game; ``NotImplementedRule`` for a game without one yet."""
    entry = game_entry(name)
    if entry.module is None:
        raise NotImplementedRule(
            "-",
            f"the {entry.title} engine is not implemented yet ('{entry.id}'); "
            f"'referee games' lists what each game covers",
        )
    module = import_module(entry.module)  # as the referee command loads its modules
    engine: Engine[Any, Any] = module.ENGINE
    return engine


def game_infos() -> list[GameInfo]:
    """What ``referee games`` shows: every game, with its coverage."""
    infos: list[GameInfo] = []
    for entry in GAMES.values():
        if entry.module is None:
            infos.append(
                GameInfo(entry.id, entry.title, entry.rulebook, (), (), "not implemented yet",
                         implemented=False)
            )
        else:
            infos.append(engine_for(entry.id).info)
    return infos
