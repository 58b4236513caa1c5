"""Play-by-email: moves appended with dice nobody can fake, and the proof afterwards.

The protocol is described in docs/pbem.md.  ``table`` opens a log with the secrets at hand,
``play`` appends moves and rolls, ``verify`` proves a finished game, ``header`` makes the
header of a committed game.
"""
