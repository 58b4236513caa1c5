"""The v1 dice stream: pinned vectors (it must never drift), fairness, and the dice tray."""

from __future__ import annotations

from collections import Counter

import pytest

from referee.core.dice import DiceStream, DiceTray
from referee.core.errors import DiceFaceError, DiceMissing

# Pinned once and never changed: a change here means old logs would replay differently.
PINNED_D6_SEED_42 = [1, 3, 4, 2, 2, 4, 4, 2, 3, 6, 3, 3, 4, 5, 2, 6, 6, 4, 5, 4]
PINNED_D10_SEED_17091944 = [4, 10, 6, 4, 1, 6, 6, 5, 5, 7]


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
        def words(message: bytes) -> list[int]:
            block = hmac.new(seed.encode(), message, hashlib.sha256).digest()
            return [int.from_bytes(block[8 * k : 8 * k + 8], "big") for k in range(4)]

        x = words(b"referee-dice/v1/" + (index // 4).to_bytes(8, "big"))[index % 4]
        attempt = 0
        while x >= 2**64 - 2**64 % sides:
            retry = b"referee-dice/v1/retry/" + index.to_bytes(8, "big")
            x = words(retry + attempt.to_bytes(4, "big"))[0]
            attempt += 1
        return x % sides + 1

    stream = DiceStream("17091944")
    for sides in (6, 10, 20, 7, 1000):
        assert [stream.face(i, sides) for i in range(30)] == [
            reference("17091944", i, sides) for i in range(30)
        ]
    # Out of order too: the block cache must not change a face.
    assert [stream.face(i, 6) for i in (9, 2, 8, 2, 31)] == [
        reference("17091944", i, 6) for i in (9, 2, 8, 2, 31)
    ]


def test_rejected_word_is_drawn_again_by_the_retry_rule() -> None:
    """The retry path (less than once in 10**18 draws of a d6) follows the description."""
    import hashlib
    import hmac

    stream = DiceStream("retry")
    stream.face(0, 6)
    stream._block = (2**64 - 1, 0, 0, 0)  # a word above the limit of every die
    retry = hmac.new(
        b"retry", b"referee-dice/v1/retry/" + (0).to_bytes(8, "big") + (0).to_bytes(4, "big"),
        hashlib.sha256,
    ).digest()
    expected = int.from_bytes(retry[:8], "big") % 6 + 1
    assert stream.face(0, 6) == expected


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
    tray = DiceTray(stream, 0, recorded=(5, 3), recorded_sides=6)
    assert tray.roll(6, 2) == (1, 3)  # PINNED_D6_SEED_42 begins 1, 3
    assert tray.mismatches == [(1, 5, 1)]
    assert tray.position == 2
