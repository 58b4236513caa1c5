"""Arnhem '44: The Operation Market Garden Boardgame (MDVC Games)."""

from referee.games.arnhem44.engine import ENGINE

__all__ = ["ENGINE"]
