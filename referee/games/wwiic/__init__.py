"""WWII Commander: Market-Garden."""

from referee.games.wwiic.engine import ENGINE

__all__ = ["ENGINE"]
