"""The dice an Arnhem '44 roll needs, described before it is rolled (``rolls_needed``).

Every die is a d10 read 0-9 (Ten-Sided Dice).  Many of the game's rolls are followed by dice
whose number depends on their faces (a hit is distributed by a second die, Distributing the
hits; a 0 may be rerolled by a joker, Jokers; a tie is rolled again, Withdrawal and A21), so
a description gives the first batch exactly and the rule for the rest:

* combat (Phases 4.2/5.2, Combat in Disputed Sectors): the Allied figures' hit dice, each
  figure its firepower (+1 for Allied airborne units in phase 4.2 of round 1, The 1st Round;
  less for a unit without supplies, Phase 2.3), in the order the engine fires; then one die
  per Allied hit for the distribution, then the German hit dice and their distribution;
* barrage fire (Phase 1): every figure of every shot its barrage dice, +1 on a disputed
  sector, all rolled before any face is read; then the joker, the distribution and the
  friendly fire by their rule;
* every other roll (landings, anti-aircraft fire, supply drops, crates defused or detonated,
  Bailey assembly, weather, reserves, intrusions, fall backs, ties): the engine's own first
  roll, found by trying the command on a copy of the state with dice that stop there (a
  side's hit dice whole: its figures all roll before a face is read), so the count is the
  one the rules ask for, never a second reckoning of it; and the rule of what follows that
  kind of roll.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Protocol

from referee.core.dice import CUP
from referee.core.engine import Engine, RollNeed
from referee.core.errors import RefereeError
from referee.games.arnhem44.barrage import barrage_dice
from referee.games.arnhem44.barrage import check_shots as barrage_shots
from referee.games.arnhem44.board import (
    ALLIED,
    GERMAN,
    GERMAN_GROUP,
    Board,
    Key,
    key_text,
    side_of,
)
from referee.games.arnhem44.combat import combat_dice_change
from referee.games.arnhem44.commands import (
    Barrage,
    Cmd,
    CombatRoll,
    Command,
    Defuse,
    Detonate,
    FallBack,
    Initiative,
    Invade,
    Support,
    TokenRoll,
    WithdrawOrder,
)
from referee.games.arnhem44.fire import expand
from referee.games.arnhem44.presence import friends
from referee.games.arnhem44.state import AState
from referee.games.arnhem44.supply import penalty


class RulesEngine(Engine[AState, Command], Protocol):
    """What the description needs of the game's engine (``Arnhem44Engine``): the contract,
    and its board.  A protocol, so this module needs no import of the engine module, which
    calls it."""

    @property
    def board(self) -> Board: ...

_HITS = "1 d10 per hit for the distribution (Distributing the hits; a 0 is a ricochet)"


def _hits(side: str) -> str:
    return (f"1 d10 per {side.capitalize()} hit for the distribution (Distributing the hits; "
            "a 0 is a ricochet)")

_JOKER = "1 d10 for the joker's reroll of the first 0 when a joker is played (Jokers)"
_ZEROS = ("with bridge damage, 1 d10 per 0 of tanks and artillery on a bridge assault "
          "(Veterans/4)")
_TIE = "2 d10 again while the two dice are equal"

THEN: dict[type[Cmd], str] = {
    WithdrawOrder: _TIE + " (Withdrawal)",
    Initiative: _TIE + " (A21)",
    Barrage: (_JOKER + ", then " + _HITS + " and, on a disputed sector, 1 d10 per 0 for the "
              "friendly fire (Phase 1)"),
    Invade: ("the dice that follow (Move/Contact): " + _JOKER + ", " + _ZEROS + ", " + _HITS
             + ", then the other side's hit dice and their distribution"),
    FallBack: ("the dice that follow (Move/FallBack): " + _JOKER + ", " + _ZEROS
               + ", the hit dice of the spotted figures' fire and " + _HITS),
    Support: ("the dice that follow (Move/FallBack): " + _JOKER + ", " + _ZEROS
              + ", the hit dice of the fire and " + _HITS),
    TokenRoll: _TIE + " (Phase 2)",
}
"""The rule of the dice that may follow a command's first roll, by kind of command."""


class _Rolled(BaseException):
    """The probe's stop (not an ``Exception``: no rule code catches it): the rolls the
    command asked for before it, ``(sides, count, label, figures)`` each (``figures``: how
    many figures rolled under that label, one after another)."""

    def __init__(self, rolls: list[tuple[int, int, str, int]]) -> None:
        super().__init__(rolls[0][2])
        self.rolls = rolls


_HIT_DICE = re.compile(r"^(?P<fire>.*): (?P<key>\S+) hits \(<= (?P<number>\d+)\)$")
"""The label of one figure's hit dice in a side's fire (``fire.fire``): ``invasion of Zon:
German defends: inf hits (<= 5)``."""


class _FirstRoll:
    """Dice that stop the command at its first roll, saying what it asked for.  Hit dice
    are the exception: a side's figures roll them one after another before any face is read
    (``fire.fire``), so the probe answers them (with the lowest face, never read) and stops at
    the first roll that is not another hit roll of the same fire."""

    def __init__(self) -> None:
        self.rolls: list[tuple[int, int, str, int]] = []
        self.fire: str | None = None

    def roll(self, sides: int, count: int = 1, label: str = "", *, low: int = 1
             ) -> tuple[int, ...]:
        hits = _HIT_DICE.match(label)
        if not self.rolls:
            if hits is None:
                raise _Rolled([(sides, count, label, 1)])
            self.fire = hits["fire"]
        elif hits is None or hits["fire"] != self.fire or sides != self.rolls[0][0]:
            raise _Rolled(self.rolls)
        if self.rolls and self.rolls[-1][2] == label:  # the next figure of the same kind
            _, before, _, figures = self.rolls[-1]
            self.rolls[-1] = (sides, before + count, label, figures + 1)
        else:
            self.rolls.append((sides, count, label, 1))
        return (low,) * count

    def draw(self, pool: object, label: str = "") -> str:
        raise _Rolled([(0, 1, label, 1)])

    def stopped(self) -> _Rolled | None:
        """The hit dice rolled when the command ended without another roll."""
        return _Rolled(self.rolls) if self.rolls else None


def _hit_words(board: Board, state: AState, label: str, count: int, figures: int) -> str:
    """A probed hit roll in the words of the combat's: ``invasion of Zon: German defends: 2
    inf (2 figures, 4 d10 each: firepower 2 +2 for the crossing), a hit on 1-5``; the
    engine's own label when it is not one figure's hit dice."""
    hits = _HIT_DICE.match(label)
    if hits is None or count % figures:
        return label
    kind, _, group = hits["key"].partition("/")
    key = (group or GERMAN_GROUP, kind)
    if kind not in board.fp and kind != "art":
        return label
    each = count // figures
    base = board.combat_fp(key)
    lost = penalty(state, key)
    gained = each - base + lost
    reason = f"firepower {base}"
    if gained:
        why = ("for the crossing (Crossing Waterways)" if hits["fire"].endswith(" defends")
               else "the 1st Round" if gained > 0 else "")
        reason += f" {gained:+d}" + (f" {why}" if why else "")
    if lost:
        reason += f" -{lost} without supplies (Phase 2.3)"
    return (f"{hits['fire']}: {figures} {hits['key']} ({figures} figure"
            f"{'s' if figures != 1 else ''}, {each} d10 each: {reason}), a hit on "
            f"1-{hits['number']}")


def rolls_needed(engine: RulesEngine, state: AState, command: Command | None
                 ) -> list[RollNeed]:
    """What ``command`` rolls now (the pending decision's when ``command`` is None: the
    referee's roll that is due); ``[]`` for a command that rolls nothing or is refused."""
    if command is None:
        forced = engine.forced(state) if engine.to_act(state) is not None else None
        if forced is None or not forced.chance:
            return []
        command = forced
    if isinstance(command, CombatRoll):
        if not state.combats or command.sector != state.combats[0]:
            return []
        return _combat(engine.board, state, command.sector)
    probe = _FirstRoll()
    try:
        engine.apply(engine.copy(state), command, probe)
        stopped = probe.stopped()
        if stopped is not None:
            raise stopped
    except _Rolled as first:
        if isinstance(command, Barrage) and state.barrage_turn is not None:
            return _barrage(engine.board, state, state.barrage_turn, command)
        board = engine.board
        needs = [RollNeed(CUP if sides == 0 else f"d{sides}", count,
                          _hit_words(board, state, label, count, figures))
                 for sides, count, label, figures in first.rolls]
        last = needs[-1]
        then = THEN.get(type(command))
        if isinstance(command, Defuse | Detonate) and command.joker:
            then = _JOKER  # "To counter a single throw of one D10 when a ZERO is rolled"
        needs[-1] = RollNeed(last.die, last.count, last.for_, then)
        return needs
    except RefereeError:
        return []  # refused before any die: it rolls nothing
    return []


def _combat(board: Board, state: AState, sector: str) -> list[RollNeed]:
    """Combat in Disputed Sectors, as ``combat.combat`` fires: the Allied side first, each
    figure with a target its firepower in dice (a unit without dice, or artillery with no
    enemy tank to aim at, rolls none)."""
    here = state.units.get(sector, Counter())
    figures = {side: expand({k: n for k, n in here.items() if side_of(k[0]) == side})
               for side in (ALLIED, GERMAN)}
    batches: list[tuple[str, list[tuple[int, str]]]] = []
    for side, enemy in ((ALLIED, GERMAN), (GERMAN, ALLIED)):
        targets = figures[enemy]
        tanks = any(k[1] == "tank" for k in targets)
        shots: list[tuple[Key, int]] = []
        for key in figures[side]:
            n = board.combat_fp(key) + combat_dice_change(state, key)
            if n <= 0 or not targets or (key[1] == "art" and not tanks):
                continue
            shots.append((key, n))
        if shots:
            batches.append((side, [(n * count, _why(board, state, sector, side, key, n, count))
                                   for key, n, count in _grouped(shots)]))
    if not batches:
        return []
    (side, first), later = batches[0], batches[1:]
    needs = [RollNeed("d10", n, text) for n, text in first]
    rest = _hits(side)
    for other, words in later:
        rest += ("; then " + ", ".join(f"{n} d10 for {text}" for n, text in words)
                 + f", then {_hits(other)}")
    last = needs[-1]
    needs[-1] = RollNeed(last.die, last.count, last.for_, rest)
    return needs


def _barrage(board: Board, state: AState, side: str, command: Barrage) -> list[RollNeed]:
    """Phase 1, as ``barrage.fire_battery`` rolls it (the command checked already): every
    figure of every shot its barrage dice, +1 on a disputed sector (A22), all before any face
    is read; then the joker's reroll, the distribution and the friendly fire."""
    source, shots = barrage_shots(board, state, side, command)
    needs: list[RollNeed] = []
    for figures, target in shots:
        disputed = friends(state, target, side) > 0
        number = board.number(target, "art")
        for key, count in Counter(figures).items():
            each = barrage_dice(board, state, key) + (1 if disputed else 0)
            why = f"firepower {barrage_dice(board, state, key)}" + (
                " +1 on a disputed sector" if disputed else "")
            needs.append(RollNeed("d10", each * count, (
                f"{side.capitalize()} barrage {source}->{target}: {count} {key_text(key)} "
                f"({count} figure{'s' if count != 1 else ''}, {each} d10 each: {why}), a hit "
                f"on 1-{number}")))
    if not needs:
        return []
    last = needs[-1]
    needs[-1] = RollNeed(last.die, last.count, last.for_, THEN[Barrage])
    return needs


def _why(board: Board, state: AState, sector: str, side: str, key: Key, dice: int,
         count: int) -> str:
    """``Allied fires: 2 inf/1AB in Oosterbeek (2 figures, 3 d10 each: firepower 2 +1 the
    1st Round), a hit on 1-4``."""
    base = board.combat_fp(key)
    lost = penalty(state, key)
    gained = dice - base + lost
    reason = f"firepower {base}" + (f" +{gained} the 1st Round" if gained else "")
    if lost:
        reason += f" -{lost} without supplies (Phase 2.3)"
    figures = f"{count} figure{'s' if count != 1 else ''}, {dice} d10 each: {reason}"
    return (f"{side.capitalize()} fires: {count} {key_text(key)} in {sector} ({figures}), a hit "
            f"on 1-{board.number(sector, key[1])}")


def _grouped(shots: list[tuple[Key, int]]) -> list[tuple[Key, int, int]]:
    """The figures of one group and kind fire one after another: one batch, ``(key, dice
    each, figures)``."""
    out: list[tuple[Key, int, int]] = []
    for key, n in shots:
        if out and out[-1][0] == key:
            out[-1] = (key, n, out[-1][2] + 1)
        else:
            out.append((key, n, 1))
    return out
