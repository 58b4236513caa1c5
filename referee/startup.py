"""The ``referee`` command (its console script, and ``python -m referee``): the command line
of ``referee.cli``, loaded with the garbage collector paused (``referee.core.lazy``)."""

from __future__ import annotations

from referee.core import lazy


def run() -> None:
    lazy.start()
    with lazy.loading():
        from referee.cli import main
    main()
