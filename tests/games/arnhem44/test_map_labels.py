"""Issue 30: the Arnhem '44 map's labels, and the start sectors' two names.

The Map: the labels collided around Arnhem, Oosterbeek and Doorwerth.  A geometry check over
the whole map: no two sectors' label boxes (name, numbers, start name, flag and drop zone
marks, the room for a row of figures) intersect, and none covers a bridge, a bridge's value
or a ferry.  Set Up (Allied): the start sectors go by the logs' names and the map's towns,
both shown (docs/arnhem44-interpretations.md, "Set Up (Allied), The Map")."""

from __future__ import annotations

from click.testing import CliRunner

from referee.cli import main
from referee.games.arnhem44.board import bundled_board
from referee.games.arnhem44.maplabels import Block, overlap, place
from referee.games.arnhem44.mapsvg import _frame, draw_map


def test_the_map_no_two_label_boxes_intersect_anywhere() -> None:
    frame = _frame(bundled_board().scenario)
    boxes = [(b.sector, box) for b in frame.blocks for box in b.boxes(*frame.anchors[b.sector])]
    assert len(frame.blocks) == len(bundled_board().scenario.sectors)
    clashes = sorted({(a, c) for i, (a, x) in enumerate(boxes) for c, y in boxes[i + 1:]
                      if a != c and overlap(x, y)})
    assert clashes == []
    assert [a for a, box in boxes for mark in frame.fixed if overlap(box, mark)] == []


def test_the_map_labels_stay_near_their_sector() -> None:
    """A label moves only as far as it must: at most the largest offset from its sector."""
    frame = _frame(bundled_board().scenario)
    for sector, (x, y) in frame.anchors.items():
        cx, cy = frame.at[sector]
        assert abs(x - cx) <= 36 and abs(y - cy) <= 24, sector


def test_the_map_a_crowded_pair_is_pulled_apart() -> None:
    """Two sectors closer than their names are long: placed as they are they collide; the
    placement moves one so that they do not."""
    blocks = [Block("a", "Oosterbeek", "6 3 4"), Block("b", "Doorwerth", "6 4 2")]
    at = {"a": (100.0, 100.0), "b": (130.0, 108.0)}
    assert any(overlap(p, q) for p in blocks[0].boxes(*at["a"]) for q in blocks[1].boxes(*at["b"]))
    anchors = place(blocks, at)
    assert not any(overlap(p, q) for p in blocks[0].boxes(*anchors["a"])
                   for q in blocks[1].boxes(*anchors["b"]))


def test_set_up_start_sectors_show_both_names() -> None:
    """The map writes the town and the logs' name; ``scenario show`` lists both."""
    svg = draw_map(bundled_board().scenario)
    for log_name, town in (("Start-West", "Lommel"), ("Start-Centre", "Neerpelt"),
                           ("Start-East", "Hamont")):
        assert f">{log_name}</text>" in svg and f">{town}</text>" in svg
    shown = CliRunner().invoke(main, ["scenario", "show", "arnhem44"])
    assert shown.exit_code == 0, shown.output
    assert "Start-West (Lommel)" in shown.output and "Start-East (Hamont)" in shown.output
    assert "START WEST" not in svg
