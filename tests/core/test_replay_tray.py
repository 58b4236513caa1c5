"""The replay driver's tray of a command (``replay_dice._tray``, issue 31) is the tray
``DiceTray``'s constructor makes: the same fields and values for every kind of record (none,
faces, chits) and source (a seeded stream, none), and lists of its own."""

from __future__ import annotations

from typing import Any

from referee.core.dice import DiceStream, DiceTray
from referee.core.log import DiceRecord
from referee.core.replay_dice import _tray


def _long_way(stream: Any, start: int, command: Any, record: DiceRecord | None) -> DiceTray:
    if record is None:
        return DiceTray(stream, start, subject=command)
    if record.chits:
        return DiceTray(stream, start, recorded_chits=record.chits, subject=command)
    return DiceTray(stream, start, recorded=record.faces, recorded_sides=record.sides,
                    subject=command)


RECORDS = (None, DiceRecord(6, ((4,),), 9), DiceRecord(10, ((3, 7), (0,)), 12),
           DiceRecord(0, (), 5, ("506", "502")))


def test_the_tray_is_the_one_the_constructor_makes() -> None:
    for stream in (None, DiceStream("tray")):
        for start in (0, 17):
            for command in (None, "attack Grave", ("move", 3)):
                for record in RECORDS:
                    fast = _tray(stream, start, command, record)
                    made = _long_way(stream, start, command, record)
                    assert type(fast) is DiceTray
                    assert vars(fast) == vars(made), (stream, start, command, record)
                    assert fast == made


def test_each_tray_has_lists_of_its_own() -> None:
    first, second = _tray(None, 0, None, None), _tray(None, 0, None, None)
    first.rolls.append(object())  # type: ignore[arg-type]
    first.mismatches.append((1, 2, 3))
    assert second.rolls == [] and second.mismatches == []
    assert _long_way(None, 0, None, None).rolls == []


def test_a_seeded_tray_rolls_as_the_constructor_s() -> None:
    for record in (None, RECORDS[1]):
        stream = DiceStream("tray")
        fast = _tray(stream, 3, "attack Grave", record)
        made = _long_way(DiceStream("tray"), 3, "attack Grave", record)
        assert fast.stream is stream
        assert fast.roll(6, 2) == made.roll(6, 2)
        assert {**vars(fast), "stream": None} == {**vars(made), "stream": None}
