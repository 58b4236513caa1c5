"""Veterans Only: the five options, chosen by ``[Option "..."]`` tags in a log's header.

    [Option "arnhem-bridge-order"]    1. the Arnhem bridge cannot be destroyed before round 18
    [Option "nijmegen-bridge-order"]  2. the Nijmegen bridge is not blown before Allied tanks
                                         reach it (free after round 10)
    [Option "three-players"]          3. Germany, UK (with Poland) and US: sides uk, us, german
    [Option "bridge-damage"]          4. bridges take damage in assaults across them
    [Option "no-jokers"]              5. no jokers

The options decide the game, so the PBEM seal covers them (``docs/pbem.md``: the seal binds the
game's options).  Other modules ask this one: :func:`has`, :func:`jokers` (the jokers' flag),
:func:`may_destroy` (options 1 and 2).  Option 4 (bridge damage) is refereed by ``damage.py``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from referee.core.errors import HeaderError, IllegalMove
from referee.core.names import normalise
from referee.games.arnhem44.board import ALLIED, GERMAN, Board, side_of
from referee.games.arnhem44.state import AState

ARNHEM_BRIDGE = "arnhem-bridge-order"
NIJMEGEN_BRIDGE = "nijmegen-bridge-order"
THREE_PLAYERS = "three-players"
BRIDGE_DAMAGE = "bridge-damage"
NO_JOKERS = "no-jokers"

OPTIONS = {
    ARNHEM_BRIDGE: "Veterans/1: the Arnhem bridge cannot be destroyed until the last round",
    NIJMEGEN_BRIDGE: "Veterans/2: the Nijmegen bridge is not blown before Allied tanks reach "
                     "it, free after round 10",
    THREE_PLAYERS: "Veterans/3: three players, Germany, UK (and Poland) and US",
    BRIDGE_DAMAGE: "Veterans/4: bridges suffer collateral damage",
    NO_JOKERS: "Veterans/5: no jokers",
}
REFUSED: dict[str, str] = {}
"""Options named by the seed that the referee does not referee yet (none: all five are)."""
ALIASES = {normalise(name): name for name in OPTIONS} | {
    normalise("veterans-1"): ARNHEM_BRIDGE, normalise("veterans-2"): NIJMEGEN_BRIDGE,
    normalise("veterans-3"): THREE_PLAYERS, normalise("veterans-4"): BRIDGE_DAMAGE,
    normalise("veterans-5"): NO_JOKERS,
}

UK = "uk"
US = "us"
PLAYER = {"UK": UK, "1AB": UK, "PL": UK, "US": US, "82": US, "101": US}
"""Veterans/3: "Germany, UK (and Poland) and US": the Allied player of each group."""

NIJMEGEN = "Nijmegen-bridge"
ARNHEM = "Arnhem-bridge"
NIJMEGEN_FREE_AFTER = 10


def chosen(options: Mapping[str, str]) -> frozenset[str]:
    """The options of a log's header, checked: an unknown option or one not refereed yet is
    refused with a sentence (a HeaderError: the log cannot be set up)."""
    out: set[str] = set()
    for written in options:
        name = ALIASES.get(normalise(written))
        if name is None:
            raise HeaderError(
                f"Arnhem '44 has no option '{written}'; the Veterans Only options are "
                + ", ".join(OPTIONS))
        if name in REFUSED:
            raise HeaderError(REFUSED[name])
        out.add(name)
    return frozenset(out)


def two_secret_refusal(options: Sequence[str]) -> str | None:
    """Veterans/3 in a two-secret game by e-mail: its parties are the game's two sides, each
    rolling the other's dice from a committed secret; a third player has no secret there."""
    if any(ALIASES.get(normalise(o)) == THREE_PLAYERS for o in options):
        return ("the option three-players (Veterans/3) cannot be played as a two-secret game by "
                "e-mail: its parties are allied and german, and the uk and us players would "
                "need a secret each; play it at the table, with a [Seed], or with a moderator "
                "([SeedCommit])")
    return None


def has(state: AState, option: str) -> bool:
    return option in state.options


def jokers(state: AState) -> bool:
    """Whether the game is played with jokers (Veterans/5 "No jokers" switches them off)."""
    return NO_JOKERS not in state.options


def three_players(state: AState) -> bool:
    return THREE_PLAYERS in state.options


def player_of(group: str) -> str:
    """Who moves a group's figures in a three-player game: uk, us or german."""
    return PLAYER.get(group, GERMAN)


def side_for(player: str) -> str:
    """The side (allied or german) of a player of either game (allied, german, uk, us)."""
    return ALLIED if player in (ALLIED, UK, US) else GERMAN


def may_destroy(board: Board, state: AState, bridge: str, how: str) -> None:
    """Options 1 and 2: may ``bridge`` be destroyed now (``how``: "blow" for a detonation,
    "defuse" for a defusing 0, "damage" for the last hit point lost to bridge damage,
    Veterans/4)?  Raises IllegalMove naming the option when it may not.

    Veterans/1: "The major bridge at Arnhem cannot be destructed until the very last round"
    (reading A39: no detonation before round 18; a defusing 0 does not destroy it either, nor
    does bridge damage: it keeps its last hit point).
    Veterans/2: "The (last) major bridge north of Nijmegen cannot be detonated before the first
    Allied tanks reach the south end of the bridge or an adjacent sector. But after round 10
    the bridge can be blown without restriction." (A40: the Nijmegen Waal road bridge.)
    """
    if bridge == ARNHEM and has(state, ARNHEM_BRIDGE) and state.round < board.rounds:
        raise IllegalMove("Veterans/1", f"the Arnhem bridge cannot be destroyed before round "
                          f"{board.rounds} (option arnhem-bridge-order)")
    if bridge == NIJMEGEN and how == "blow" and has(state, NIJMEGEN_BRIDGE) \
            and state.round <= NIJMEGEN_FREE_AFTER and not state.nijmegen_reached \
            and not tanks_at_nijmegen(board, state):
        raise IllegalMove("Veterans/2", "the Nijmegen bridge cannot be blown before Allied "
                          "tanks reach its south end or a sector next to it, until round "
                          f"{NIJMEGEN_FREE_AFTER} is over (option nijmegen-bridge-order)")


def update_nijmegen(board: Board, state: AState) -> None:
    """After every command (Veterans/2): once the first Allied tanks have reached the south end
    of the Nijmegen bridge or a sector next to it, the order no longer holds, even after they
    have gone (reading A40: "before the first Allied tanks reach" is a moment, not a
    presence)."""
    if not state.nijmegen_reached and has(state, NIJMEGEN_BRIDGE) \
            and tanks_at_nijmegen(board, state):
        state.nijmegen_reached = True


def tanks_at_nijmegen(board: Board, state: AState) -> bool:
    """Veterans/2: Allied tanks at the south end of the Nijmegen bridge or in a sector next to
    it."""
    south = board.bridges[NIJMEGEN].a
    for sector in (south, *board.neighbours[south]):
        counts = state.units.get(sector)
        if counts and any(n for (g, k), n in counts.items()
                          if k == "tank" and side_of(g) == ALLIED):
            return True
    return False
