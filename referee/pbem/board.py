"""``referee render``: the board at a point of a log, as SVG (or PNG with the ``png`` extra)."""

from __future__ import annotations

from referee.core.errors import UNREADABLE_KINDS
from referee.core.svg import Highlight, drawer_for
from referee.pbem.chain import code_of
from referee.pbem.errors import PbemError
from referee.pbem.table import LogUnreadable, Table


class NoBoard(PbemError):
    """The game has no board drawing yet, or PNG needs a library that is not installed."""


def board_svg(table: Table, upto: int | None = None) -> str:
    """The SVG of the board after line ``upto`` (default: the whole log), the last action
    before it highlighted."""
    game = table.engine.info.id
    drawer = drawer_for(game)
    if drawer is None:
        raise NoBoard(f"{table.engine.info.title} has no board drawing yet; 'referee replay' "
                      f"shows the position as text")
    replay = table.replay(upto=upto)
    unread = [p for p in replay.report.problems if p.kind in UNREADABLE_KINDS]
    if unread:  # as check, status and view: a log that cannot be read draws no board
        first = unread[0]
        where = f"{table.source}:{first.line}" if first.line is not None else table.source
        why = first.message.rstrip(".")
        raise LogUnreadable(f"{where}: {first.kind}: {why}; the board is not drawn from a "
                            f"log that cannot be read")
    actions = [a for a in table.log.actions if upto is None or a.number <= upto]
    highlight = None
    if actions:
        last = actions[-1]
        highlight = Highlight(
            last.number,
            " ".join(code_of(last.text).split()),
            tuple(item.command for item in last.items),
            tuple(replay.events_of(last.number)),
            tuple(e.event for e in replay.report.events if e.line == last.number),
        )
    return drawer(table.engine, replay.report.state, highlight)
