"""Protocol v2 (``[Pbem "v2"]``): dice that anyone can check the moment they arrive.

Each party keeps a hash chain, S/KEY style, derived from its secret:

* ``x_N = HMAC-SHA256(secret, frame("v2/chain-top", party))`` with ``N = CHAIN_LENGTH``;
* ``x_(i-1) = SHA-256(frame("v2/chain", party, x_i))``;
* the party's commitment in the header (``[AlliedCommit "..."]``) **is** the anchor ``x_0``,
  in hex: it commits to the secret (only the secret makes it) and the start seals cover it.

The ``i``-th line whose dice party R rolls reveals ``x_i`` in its comment, ``[chain i HEX]``,
and its dice are the v1 stream seeded with the hex of
``SHA-256(frame("v2/dice", x_i, link(k-1), body(k), seal(k)))``, drawn from 0.  Anyone checks
that ``x_i`` hashes down to the value R revealed before (the anchor at first), one hash per
step, and recomputes the dice: no secret is needed.  R cannot choose (the anchor fixes
``x_i``, and the canonical index fixes ``i``); the mover cannot foresee (``x_i`` is a preimage
nobody but R can compute before R reveals it).  See docs/dice.md and docs/pbem.md.
"""

from __future__ import annotations

import hashlib
import re
from functools import lru_cache

from referee.core.records import frozen
from referee.pbem.keys import PROTOCOL, Secret, frame, mac

V2 = "v2"
PROTOCOLS = (PROTOCOL, V2)
CURRENT_PROTOCOL = V2
CHAIN_LENGTH = 2**16
"""How many rolled lines one party's chain holds (fixed by protocol v2)."""
CHECKPOINT = 256
"""Every 256th value of a chain is kept once it is derived, so a later value costs at most
255 hashes instead of up to ``CHAIN_LENGTH``."""
PROOF = re.compile(r"\[chain (\d{1,7}) ([0-9a-f]{64})\]")


def chain_top(secret: str, party: str) -> bytes:
    """``x_N``: the top of ``party``'s chain, which only its secret makes."""
    return mac(secret, "v2/chain-top", party)


def chain_step(party: str, value: bytes) -> bytes:
    """``x_(i-1)`` from ``x_i``: ``SHA-256(frame("v2/chain", party, x_i))``."""
    return hashlib.sha256(frame("v2/chain", party, value)).digest()


def hash_down(party: str, value: bytes, steps: int) -> bytes:
    """``value`` hashed down ``steps`` times along ``party``'s chain (``frame`` inlined: the
    same bytes as ``chain_step``)."""
    head = frame("v2/chain", party) + len(value).to_bytes(4, "big")
    sha = hashlib.sha256
    for _ in range(steps):
        value = sha(head + value).digest()
    return value


@frozen
class Chain:
    """One party's chain, with a value kept every ``CHECKPOINT`` steps."""

    party: str
    checkpoints: tuple[bytes, ...]
    """``checkpoints[c]`` is ``x_(c * CHECKPOINT)``; the last one is ``x_N``."""

    @property
    def anchor(self) -> str:
        """``x_0`` in hex: the commitment of a v2 header."""
        return self.checkpoints[0].hex()

    def value(self, index: int) -> bytes:
        """``x_index`` (1 to ``CHAIN_LENGTH``), or ``ChainExhausted``."""
        if not 0 <= index <= CHAIN_LENGTH:
            raise ChainExhausted(self.party, index)
        above = -(-index // CHECKPOINT)
        return hash_down(self.party, self.checkpoints[above], above * CHECKPOINT - index)


class ChainExhausted(ValueError):
    """A party has rolled every line its chain holds."""

    def __init__(self, party: str, index: int) -> None:
        self.party = party
        self.index = index
        super().__init__(
            f"{party.capitalize()}'s chain of dice holds {CHAIN_LENGTH:,} rolled lines, and "
            f"this would be line {index:,}: the game cannot go on under protocol v2 (start a "
            f"new game from this position with 'referee new --commit --position FILE')"
        )


@lru_cache(maxsize=8)
def chain_of(secret: str, party: str) -> Chain:
    """``party``'s whole chain from its secret: ``CHAIN_LENGTH`` hashes, once per process."""
    kept = [chain_top(secret, party)]
    for _ in range(CHAIN_LENGTH // CHECKPOINT):
        kept.append(hash_down(party, kept[-1], CHECKPOINT))
    return Chain(party, tuple(reversed(kept)))


def anchor(secret: str, party: str) -> str:
    """The v2 commitment of ``party``'s ``secret``: its chain's anchor ``x_0``, in hex."""
    return chain_of(secret, party).anchor


def commitment_for(secret: Secret, protocol: str) -> str:
    """What a header of ``protocol`` commits to for ``secret``: the v1 commitment
    (``SHA-256(frame("commit", party, secret))``) or the v2 anchor."""
    if protocol == V2:
        return anchor(secret.value, secret.party)
    return secret.commitment


def dice_key(value: bytes, link: bytes, body: str, seal: str) -> str:
    """The v1 seed of one line's dice under v2 (hex)."""
    return hashlib.sha256(frame("v2/dice", value, link, body, seal)).hexdigest()


def proof_of(comment: str) -> tuple[int, bytes] | None:
    """The chain value a line reveals, ``[chain i HEX]`` in its comment (the last one)."""
    found = PROOF.findall(comment)
    if not found:
        return None
    index, value = found[-1]
    return int(index), bytes.fromhex(value)


def proof_text(index: int, value: bytes) -> str:
    return f"[chain {index} {value.hex()}]"


def descends(party: str, value: bytes, index: int, known: bytes, known_index: int) -> bool:
    """Does ``value`` (claimed ``x_index``) hash down to ``known`` (``x_known_index``)?"""
    steps = index - known_index
    if steps <= 0 or steps > CHAIN_LENGTH:
        return False
    return hash_down(party, value, steps) == known
