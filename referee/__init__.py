"""Market-Garden Referee: a referee and game-log processor for Operation Market-Garden
board wargames.  The public API is in ``referee.api``; the command line in ``referee.cli``."""

__version__ = "0.1.0"
