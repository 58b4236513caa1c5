"""The v1 dice stream: pinned vectors (it must never drift), fairness, and the dice tray."""

from __future__ import annotations

from collections import Counter

import pytest

from referee.core.dice import DiceStream, DiceTray
from referee.core.errors import DiceFaceError, DiceMissing

# Pinned once and never changed: a change here means old logs would replay differently.
PINNED_D6_SEED_42 = [4, 3, 2, 4, 3, 5, 3, 3, 4, 1, 3, 5, 6, 6, 3, 2, 4, 1, 6, 5]
PINNED_D10_SEED_17091944 = [2, 1, 6, 8, 7, 8, 2, 9, 8, 10]


def test_pinned_d6_vector() -> None:
    stream = DiceStream("42")
    assert [stream.face(i, 6) for i in range(20)] == PINNED_D6_SEED_42


def test_pinned_d10_vector() -> None:
    stream = DiceStream("17091944")
    assert [stream.face(i, 10) for i in range(10)] == PINNED_D10_SEED_17091944


def test_stream_follows_the_documented_algorithm() -> None:
    """An independent reading of the v1 description in referee/core/dice.py."""
    import hashlib
    import hmac

    def reference(seed: str, index: int, sides: int) -> int:
        attempt = 0
        while True:
            message = (
                b"referee-dice/v1/"
                + index.to_bytes(8, "big")
                + sides.to_bytes(2, "big")
                + attempt.to_bytes(4, "big")
            )
            block = hmac.new(seed.encode(), message, hashlib.sha256).digest()
            for k in range(4):
                x = int.from_bytes(block[8 * k : 8 * k + 8], "big")
                if x < 2**64 - 2**64 % sides:
                    return x % sides + 1
            attempt += 1

    stream = DiceStream("17091944")
    for sides in (6, 10, 20):
        assert [stream.face(i, sides) for i in range(30)] == [
            reference("17091944", i, sides) for i in range(30)
        ]


def test_face_is_a_pure_function_of_seed_index_and_sides() -> None:
    a, b = DiceStream("seed"), DiceStream("seed")
    assert [a.face(i, 6) for i in range(50)] == [b.face(i, 6) for i in reversed(range(50))][::-1]
    assert [a.face(i, 6) for i in range(50)] != [DiceStream("other").face(i, 6) for i in range(50)]


def test_every_face_turns_up_about_equally() -> None:
    stream = DiceStream("fairness")
    counts = Counter(stream.face(i, 6) for i in range(6000))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    assert all(850 < n < 1150 for n in counts.values())


def test_bad_die_sizes_are_refused() -> None:
    with pytest.raises(ValueError):
        DiceStream("x").face(0, 1)


def test_tray_uses_recorded_dice_without_a_seed() -> None:
    tray = DiceTray(None, recorded=(4, 2), recorded_sides=6)
    assert tray.roll(6, 2) == (4, 2)
    assert tray.unused == 0


def test_tray_without_seed_or_record_refuses_to_invent_dice() -> None:
    with pytest.raises(DiceMissing, match="no \\[Seed\\] tag"):
        DiceTray(None).roll(6)


def test_tray_with_too_few_recorded_dice() -> None:
    tray = DiceTray(None, recorded=(4,), recorded_sides=6)
    tray.roll(6)
    with pytest.raises(DiceMissing, match="more dice than the 1 recorded"):
        tray.roll(6)


def test_tray_refuses_the_wrong_kind_of_die() -> None:
    with pytest.raises(DiceFaceError, match="needs d6"):
        DiceTray(None, recorded=(4,), recorded_sides=10).roll(6)


def test_seeded_tray_reports_changed_dice() -> None:
    stream = DiceStream("42")
    tray = DiceTray(stream, 0, recorded=(1, 3), recorded_sides=6)
    assert tray.roll(6, 2) == (4, 3)
    assert tray.mismatches == [(1, 1, 4)]
    assert tray.position == 2
