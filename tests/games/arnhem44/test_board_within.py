"""``Board.within``: the sectors at most N zones from a sector ("+ 1 zone", "+ 2 zones"),
kept once worked out.  Checked against the distances counted here from the map's
neighbours, at every sector and every reach the rules use and beyond, asked twice."""

from __future__ import annotations

from referee.games.arnhem44.board import bundled_board


def _counted(neighbours: dict[str, list[str]] | dict[str, tuple[str, ...]], sector: str,
             zones: int) -> set[str]:
    reached = {sector}
    edge = {sector}
    for _ in range(zones):
        edge = {there for here in edge for there in neighbours[here]} - reached
        reached |= edge
    return reached


def test_within_is_every_sector_at_most_that_many_zones_away() -> None:
    board = bundled_board()
    neighbours = dict(board.neighbours)
    sizes = set()
    for sector in board.order:
        for zones in range(5):
            expected = _counted(neighbours, sector, zones)
            assert board.within(sector, zones) == expected, (sector, zones)
            assert board.within(sector, zones) == expected  # the kept answer
            sizes.add(len(expected))
    assert len(sizes) > 20  # reaches of many sizes
