"""Battle Card: Market Garden — the solitaire card game, complete."""

from referee.games.battle_card.rules import BattleCardEngine

ENGINE = BattleCardEngine()

__all__ = ["ENGINE", "BattleCardEngine"]
