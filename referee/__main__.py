"""``python -m referee`` is the ``referee`` command."""

from referee.startup import run

run()
