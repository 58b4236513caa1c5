"""Positions of the explosives: ``setup:`` statements for the crates and the German's stock,
and the lines that rebuild them (``referee position``).

    setup: crate Son-bridge 5              a crate shown, under Son-bridge
    setup: crate Grave-bridge hidden       a crate face down (hidden C: with its commitment)
    setup: unseen 7 6 4                    the values nobody has seen (crates.py)
    setup: stock 2                         the crates the German keeps off the map
    setup: lost 1 0                        face-down crates removed unseen (of them: major)
    setup: tried Son-bridge 1              its first crate was attempted in this step already
    setup: attempt defuse allied Son-bridge 1 face 3   a roll waiting for the crate's value
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from lark import Token, Tree

from referee.core.errors import IllegalMove
from referee.games.arnhem44.board import Board
from referee.games.arnhem44.crates import Attempt, Crate, Explosives
from referee.games.arnhem44.state import AState

RULE = "Positions"
KINDS = ("crate", "unseen", "stock", "lost", "tried", "attempt", "bridge")
# ``setup: bridge NAME destroyed`` is also written by the Bailey bridges' positions (a44-bailey,
# bailey_position.py): when both are merged, one of the two handlers is kept.


def build(board: Board, kind: str, tree: Tree[Any]) -> tuple[str, str, str, tuple[int, ...]]:
    """(kind, bridge, text, numbers) of one explosives statement."""
    ch = [c for c in tree.children if c is not None]
    if kind == "crate":
        first = ch[0]
        bridge = board.bridge_names.lookup(
            str(first), column=first.column if isinstance(first, Token) else None)
        rest = ch[1] if len(ch) > 1 else None
        if isinstance(rest, Token) and rest.type == "FACE":
            return kind, bridge, "", (int(str(rest)),)
        return kind, bridge, "hidden" if rest is None else str(rest).casefold(), ()
    if kind == "attempt":
        action, side = str(ch[0]).casefold(), str(ch[1]).casefold()
        first = ch[2]
        bridge = board.bridge_names.lookup(
            str(first), column=first.column if isinstance(first, Token) else None)
        return kind, bridge, f"{action} {side}", (int(str(ch[3])), int(str(ch[4])))
    if kind == "bridge":
        first = ch[0]
        bridge = board.bridge_names.lookup(
            str(first), column=first.column if isinstance(first, Token) else None)
        return kind, bridge, str(ch[1]).casefold(), ()
    if kind == "tried":
        first = ch[0]
        bridge = board.bridge_names.lookup(
            str(first), column=first.column if isinstance(first, Token) else None)
        return kind, bridge, "", (int(str(ch[1])),)
    return kind, "", "", tuple(int(str(c)) for c in ch)


def clear(state: AState) -> None:
    state.explosives = Explosives()
    state.destroyed = set()


def place(board: Board, state: AState, kind: str, bridge: str, text: str,
          numbers: tuple[int, ...]) -> None:
    ex = state.explosives
    if kind == "crate":
        if bridge in state.destroyed:
            raise IllegalMove(RULE, f"{bridge} is destroyed: no crate stands under it")
        value = numbers[0] if numbers else None
        if value is not None and not 1 <= value <= 9:
            raise IllegalMove(RULE, "a crate's value is 1 to 9")
        ex.numbered += 1
        commitment = None if text in ("", "hidden") else text
        ex.crates.append(Crate(ex.numbered, bridge, value, commitment,
                               board.bridges[bridge].kind == "major"))
    elif kind == "unseen":
        ex.unseen = Counter(numbers)
    elif kind == "stock":
        ex.stock = numbers[0]
    elif kind == "lost":
        ex.lost, ex.lost_major = numbers
        if ex.lost_major > ex.lost:
            raise IllegalMove(RULE, "lost N M: M of the N crates lost unseen were under major "
                              "bridges")
    elif kind == "tried":
        under = ex.under(bridge)
        if not 1 <= numbers[0] <= len(under):
            raise IllegalMove(RULE, f"{bridge} has no crate {numbers[0]}")
        under[numbers[0] - 1].tried = True
    elif kind == "bridge":
        if text not in ("intact", "destroyed"):
            raise IllegalMove(RULE, "a bridge is intact or destroyed")
        if text == "destroyed":
            state.destroyed.add(bridge)
        else:
            state.destroyed.discard(bridge)
    elif kind == "attempt":
        action, side = text.split()
        under = ex.under(bridge)
        place_, face = numbers
        if action not in ("defuse", "detonate") or side not in ("allied", "german"):
            raise IllegalMove(RULE, "attempt defuse|detonate allied|german BRIDGE N face F")
        if not 1 <= place_ <= len(under) or under[place_ - 1].value is not None:
            raise IllegalMove(RULE, f"{bridge} has no face-down crate {place_}")
        if not 1 <= face <= 9:
            raise IllegalMove(RULE, "a roll waiting for a crate's value shows 1 to 9")
        ex.attempt = Attempt(action, side, under[place_ - 1].number, face)


def lines(board: Board, state: AState) -> list[str]:
    ex = state.explosives
    out = [f"setup: bridge {b} destroyed" for b in board.bridges if b in state.destroyed]
    for crate in ex.crates:
        shown = (str(crate.value) if crate.value is not None
                 else "hidden" + (f" {crate.commitment}" if crate.commitment else ""))
        out.append(f"setup: crate {crate.bridge} {shown}")
    values = " ".join(str(v) for v in sorted(ex.unseen.elements(), reverse=True))
    out.append(f"setup: unseen {values}".rstrip() + f"; stock {ex.stock}")
    if ex.lost:
        out.append(f"setup: lost {ex.lost} {ex.lost_major}")
    for bridge in board.bridges:
        for place, crate in enumerate(ex.under(bridge), 1):
            if crate.tried:
                out.append(f"setup: tried {bridge} {place}")
    if ex.attempt is not None:
        waiting = ex.crate(ex.attempt.crate)
        assert waiting is not None
        place = ex.under(waiting.bridge).index(waiting) + 1
        out.append(f"setup: attempt {ex.attempt.action} {ex.attempt.side} {waiting.bridge} "
                   f"{place} face {ex.attempt.face}")
    return out
