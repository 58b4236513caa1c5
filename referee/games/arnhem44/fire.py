"""Rolling fire and distributing hits (Rules of Engagement: Hit probability, Distributing the
hits; Ten-Sided Dice).

Dice are d10 read 0-9 (``low=0``); a 0 always fails.  A figure rolls its firepower in dice
(artillery as an anti-tank weapon, Units); a die hits when 1 <= face <= the number of the
figure's kind.  Hits are distributed by a second roll, one die per hit: face k strikes target
((k - 1) mod N) + 1 in the order all infantry, all tanks, all artillery; 0 is a ricochet.  Hits
scored by artillery strike tanks only (Units: Artillery as an Anti-Tank Weapon), numbered among
the enemy tanks.  The dice of one side are rolled in the order the rules roll them: every hit
die (each figure in canonical order), the joker's reroll of a 0 (when one is played), with
bridge damage (Veterans/4, ``damage.Collateral``) one die per remaining 0 of the tanks' and
artillery's hit dice, then one distribution die per hit.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from referee.core.dice import Dice
from referee.games.arnhem44.board import Board, Key, key_order, key_text


@dataclass(frozen=True, slots=True)
class Shooter:
    key: Key
    dice: int
    number: int


def expand(counts: dict[Key, int]) -> list[Key]:
    """Figures one by one in the distribution order (infantry, tanks, artillery; by group)."""
    return [k for k in sorted(counts, key=key_order) for _ in range(counts[k])]


Reroll = Callable[[tuple[int, ...], str], tuple[int, ...]]
"""A joker armed on the command (jokers.Joker): it may reroll a 0 of the side's hit dice."""
Zeros = Callable[[list[tuple[Key, tuple[int, ...]]], str], list[str]]
"""Bridge damage (damage.Collateral): rolls again the zeros of the side's tanks and artillery
after its hit dice (each shooter's key and faces), and gives words for the log."""


def fire(board: Board, dice: Dice, shooters: list[Shooter], targets: list[Key],
         label: str, joker: Reroll | None = None,
         zeros: Zeros | None = None,
         own: Callable[[Key], bool] | None = None) -> tuple[list[int], list[str]]:
    """One side's fire at ``targets``: the damage each target takes, and words for the log.
    With ``joker``, the side's hit dice (only those of the shooters ``own`` accepts, when
    given: a player's own figures) pass through it after they are all rolled; then, with
    ``zeros`` (an assault across a bridge with bridge damage), its zeros are rolled again."""
    damage = [0] * len(targets)
    tanks = [i for i, k in enumerate(targets) if k[1] == "tank"]
    hits: list[bool] = []  # True: an anti-tank hit (tanks only)
    thrown: list[tuple[Shooter, tuple[int, ...]]] = []
    for shooter in shooters:
        anti_tank = shooter.key[1] == "art"
        if shooter.dice <= 0 or not targets or (anti_tank and not tanks):
            continue
        faces = dice.roll(10, shooter.dice, f"{label}: {key_text(shooter.key)} hits "
                          f"(<= {shooter.number})", low=0)
        thrown.append((shooter, faces))
    mine = [i for i, (s, _) in enumerate(thrown) if own is None or own(s.key)]
    if joker is not None and mine:
        flat = joker(tuple(f for i in mine for f in thrown[i][1]), f"{label}: hit dice")
        at = 0
        for index in mine:
            shooter, faces = thrown[index]
            thrown[index] = (shooter, flat[at:at + len(faces)])
            at += len(faces)
    for shooter, faces in thrown:
        anti_tank = shooter.key[1] == "art"
        hits += [anti_tank for f in faces if 1 <= f <= shooter.number]
    collateral = [] if zeros is None else zeros([(s.key, f) for s, f in thrown], label)
    if not hits:
        return damage, ([f"{label}: no hit"] if thrown else []) + collateral  # dice rolled
    faces = dice.roll(10, len(hits), f"{label}: distribution of {len(hits)} hit"
                      f"{'s' if len(hits) != 1 else ''}", low=0)
    ricochets = 0
    for anti_tank, face in zip(hits, faces, strict=True):
        if face == 0:
            ricochets += 1
            continue
        if anti_tank:
            damage[tanks[(face - 1) % len(tanks)]] += 1
        else:  # every target, in order
            damage[(face - 1) % len(targets)] += 1
    words = [f"{label}: {len(hits)} hit{'s' if len(hits) != 1 else ''}"
             + (f", {ricochets} ricochet{'s' if ricochets != 1 else ''}" if ricochets else "")]
    return damage, words + collateral


def outcome_of(board: Board, targets: list[Key], damage: list[int]) -> tuple[
        dict[Key, int], dict[Key, int]]:
    """(eliminated, withdrawing) counts: all hit points lost; half or more lost (Units)."""
    eliminated: dict[Key, int] = {}
    hurt: dict[Key, int] = {}
    for key, lost in zip(targets, damage, strict=True):
        hp = board.hit_points(key)
        if lost >= hp:
            eliminated[key] = eliminated.get(key, 0) + 1
        elif lost * 2 >= hp:
            hurt[key] = hurt.get(key, 0) + 1
    return eliminated, hurt


def injured_of(targets: list[Key], damage: list[int], board: Board) -> dict[Key, int]:
    """Figures hit but not eliminated (a ricochet does not count)."""
    out: dict[Key, int] = {}
    for key, lost in zip(targets, damage, strict=True):
        if 0 < lost < board.hit_points(key):
            out[key] = out.get(key, 0) + 1
    return out


def key_counts(keys: Iterable[Key]) -> dict[Key, int]:
    """How many of each key ``keys`` holds (``dict(Counter(keys))`` without ``Counter``'s
    Python calls: a barrage's shots, the reserves arriving)."""
    out: dict[Key, int] = {}
    for key in keys:
        out[key] = out.get(key, 0) + 1
    return out


def counts_text(counts: dict[Key, int]) -> str:
    if len(counts) == 1:  # one key (most moves): nothing to order
        for key, n in counts.items():
            return f"{n} {key_text(key)}"
    return ", ".join(f"{n} {key_text(k)}" for k, n in sorted(counts.items(),
                                                           key=lambda kv: key_order(kv[0])))
