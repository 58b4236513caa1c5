"""The engine contract: one per game, the same shape for every game.

Modelled on OpenSpiel's State and Rally the Troops' rules modules.  An engine knows nothing of
text files or terminals; the core knows nothing of any game's rules.  The replay driver
(``referee.core.replay``) talks to engines only through this protocol.

Besides the protocol's methods, an engine may offer these, each asked for by name where it
is used (``getattr``), each optional, and none changing a ruling:

- ``confirm(state, side, command)``: a command that states a fact (``hits none``, a crate's
  value shown the line after a roll that did not need it) judged as a statement, or None;
- ``out_of_turn(state, command)``: why a roll written in the log is not made now;
- ``json_parts(state)``: the small top-level values of ``to_json``, each made when read;
- ``turn_of(state)``: the ``turn`` value of ``to_json`` alone (a batch's row asks it of
  every log);
- ``noted(events)``: what ``expect last.KEY`` reads of a command's events;
- ``quick_tree(line)``: the very tree Lark gives for the game's commonest line shapes, read
  without Lark (None for any other line);
- ``quick_line(number, line)``: the entry (``log.ActionLine``) of a plain action line made
  without a tree, the one the tree would give (None for the long way; Arnhem '44 and WWII
  Commander);
- ``random_command(state, rng)``: self-play's random legal command, drawn without listing
  every legal command; ``policies``: further self-play policies by name;
- ``moves(state)``: ``referee moves`` grouped by unit;
- ``two_secret_refusal(options)``: why a two-secret game cannot be played with these
  options; ``with_scenario_file(...)``: the engine on a user's own scenario file;
  ``board``: the map a picture draws.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, TypeVar

from lark import Tree

if TYPE_CHECKING:
    from rich.console import RenderableType

from referee.core.dice import CUP, Dice, Roll
from referee.core.records import frozen

Side = str
"""A side's id as written before a colon in a log: ``allied``, ``german``, ``referee``."""

REFEREE: Side = "referee"
"""The side that acts in chance steps (weather, landing rolls): the referee rolls."""


class Command(Protocol):
    """One thing a side does.  ``str(command)`` is its canonical text in a log."""

    chance: ClassVar[bool]
    """True for chance steps that only roll dice (the referee's own commands)."""


_NO_DATA: Mapping[str, Any] = MappingProxyType({})


class Event:
    """Something that happened when a command was applied, in words and in data.

    ``text`` and ``data`` may be given as functions that make them: they are then made the
    first time someone reads them, so events cost next to nothing when nobody does
    (self-play makes them by the hundred thousand and reads none).
    """

    __slots__ = ("_data", "_text", "kind", "rolls")

    def __init__(
        self,
        kind: str,
        text: str | Callable[[], str],
        data: Mapping[str, Any] | Callable[[], Mapping[str, Any]] = _NO_DATA,
        rolls: tuple[Roll, ...] = (),
    ) -> None:
        self.kind = kind
        self._text = text
        self._data = data
        self.rolls = rolls

    @property
    def text(self) -> str:
        text = self._text
        if not isinstance(text, str):
            text = self._text = text()
        return text

    @property
    def data(self) -> Mapping[str, Any]:
        data = self._data
        if callable(data):
            data = self._data = data()
        return data

    def with_rolls(self, rolls: tuple[Roll, ...]) -> Event:
        """The same event with these dice (its words still made only when read)."""
        return Event(self.kind, self._text, self._data, rolls)

    def __iter__(self) -> Iterator[Any]:
        return iter((self.kind, self.text, self.data, self.rolls))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Event):
            return NotImplemented
        return tuple(self) == tuple(other)

    def __hash__(self) -> int:
        return hash((self.kind, self.text))

    def __repr__(self) -> str:
        return f"Event({self.kind!r}, {self.text!r}, {dict(self.data)!r}, {self.rolls!r})"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "text": self.text}
        if self.rolls:
            out["dice"] = [roll.to_json() for roll in self.rolls]
        if self.data:
            out["data"] = dict(self.data)
        return out


@frozen
class GameInfo:
    """What ``referee games`` says of a game."""

    id: str
    title: str
    rulebook: str
    sides: tuple[Side, ...]
    scenarios: tuple[str, ...]
    coverage: str
    implemented: bool = True
    sequence: str = ""
    """The rule of the game's sequence of play (``"4.0"``): the rule every refusal of a line
    written out of turn, or by a side or player who is not to act, cites."""
    ending: str = ""
    """The rule that ends the game: cited when a line comes after the end."""
    players: tuple[Side, ...] = ()
    """Who else may write lines besides ``sides`` (Arnhem '44's three-player ``uk`` and
    ``us``): a player of the game, answered "not your turn", never "not a side"."""


@frozen
class RollNeed:
    """One batch of dice a roll needs, described before it is rolled.

    ``die`` is the kind (``d6``, ``d10``, or ``cup`` for chits drawn), ``count`` how many,
    ``for_`` for whom and why in the game's words ("German inf at Zon (2 figures + 2 for the
    bridge)").  Where more dice follow whose number depends on these faces, ``then`` is the
    rule for them ("1 d10 per hit for the distribution"): the count of a batch with ``then``
    is exact, the dice after it follow its rule.  A rule that repeats the same roll says
    "again" ("2 d10 again while the two dice are equal"): self-play's check
    (``referee.core.rollcheck``) then accepts the same roll after the described dice.
    """

    die: str
    count: int
    for_: str
    then: str | None = None

    def __str__(self) -> str:
        what = (f"{self.count} chit{'s' if self.count != 1 else ''} from the cup"
                if self.die == CUP else f"{self.count} {self.die}")
        text = f"{what} for {self.for_}" if self.for_ else what
        return text + (f", then {self.then}" if self.then else "")

    def to_json(self) -> dict[str, Any]:
        """``pending.dice[]``: ``die``, ``count``, ``for`` and, where more dice follow, ``then``."""
        out: dict[str, Any] = {"die": self.die, "count": self.count, "for": self.for_}
        if self.then:
            out["then"] = self.then
        return out


def needs_text(needs: Sequence[RollNeed]) -> str:
    """Rolls described in one sentence: ``4 d10 for 406 at Wyler (strength 4), then ...``."""
    return "; ".join(str(need) for need in needs)


def needs_count(needs: Sequence[RollNeed]) -> int:
    """How many dice (or chits) the described batches hold, the dice that follow left out."""
    return sum(need.count for need in needs)


S = TypeVar("S")
C = TypeVar("C")


class Engine(Protocol[S, C]):
    """A game's rules.  ``S`` is its state class, ``C`` its command type.

    ``apply`` either performs the command completely or raises ``IllegalMove`` (with the rule
    section) and leaves the state exactly as it was.

    Optional hooks, looked up by name by the replay driver:
    ``out_of_turn(state, command)`` names why a roll written at the wrong step is skipped;
    ``confirm(state, side, command)`` checks a command whose ``statement`` is true (a fact
    stated, such as ``hits none``): it answers the events that record it, raises
    ``IllegalMove`` when the fact is false, or answers None to apply it as a command; and
    ``noted(events)`` gives the shared words of ``expect last.…`` (``result``, ``factor``,
    ``hits``) where the game's events name them otherwise (``referee.core.noting``).

    Whether a command is illegal whatever the dice is judged by the driver through ``apply``
    itself, tried on a copy with the lowest faces and with the highest: an engine needs no
    second entry point for it, and a refusal that depends on the faces (the two trials
    differ) is never taken for one that does not.
    """

    info: GameInfo
    grammar: str
    """The file name of the game's Lark grammar in ``grammar/``."""

    def setup(self, scenario: str | None, options: Mapping[str, str]) -> S:
        """The opening position of a scenario (``None``: the game's default scenario)."""
        ...

    def copy(self, state: S) -> S:
        """An independent copy: the replay driver keeps one to undo a rejected line."""
        ...

    def to_act(self, state: S) -> Side | None:
        """Who must act now: a side, ``REFEREE`` for a chance step, ``None`` when over."""
        ...

    def legal(self, state: S) -> Iterable[C]:
        """Every command that may be given now."""
        ...

    def forced(self, state: S) -> C | None:
        """The command the referee applies by itself now, if there is exactly one.

        A chance step (the referee rolls) or a decision with a single legal answer.
        """
        ...

    def decision(self, state: S) -> str:
        """The open decision in words: ``"attack or defend at Eindhoven, Grave"``."""
        ...

    def rolls_needed(self, state: S, command: C | None) -> list[RollNeed]:
        """The dice ``command`` rolls when applied now, described before they are rolled
        (``[]``: none).  ``None``: the dice of the pending decision, where they do not depend
        on the answer (a chance step, a fight whichever way it is fought); else ``[]``.

        The first batches are exact; dice whose number depends on earlier faces are the
        ``then`` rule of the batch they follow.  Used by ``pending.dice``, the text of
        ``replay``, ``moves`` and ``status``, and the messages about missing or extra dice.
        """
        ...

    def apply(self, state: S, command: C, dice: Dice) -> list[Event]:
        """Perform ``command`` or raise ``IllegalMove``.  A refused command may leave
        ``state`` part-changed (an engine need not copy it first): a caller that goes on
        after a refusal applies to a copy it can drop, as the replay driver does, whose one
        copy before each line is its undo."""
        ...

    def build_command(self, tree: Tree[Any], text: str) -> C:
        """Turn one parsed ``command`` subtree into a command, resolving names.

        Raises ``UnknownName``/``AmbiguousName`` (with the column) for a name the game does
        not know.  ``text`` is the source line, for columns.
        """
        ...

    def build_setup(self, tree: Tree[Any], text: str) -> Any:
        """Turn one parsed ``setup_item`` subtree into a setup statement, resolving names."""
        ...

    def place(self, state: S, statement: Any) -> None:
        """Apply one setup statement to a starting position (``IllegalMove`` citing the setup
        rule when it cannot be, leaving the state as it was)."""
        ...

    def check_position(self, state: S) -> list[str]:
        """What is wrong with a position built by setup lines, a sentence each (stacking,
        strengths within a unit's counters, one place per unit, control, closed boxes)."""
        ...

    def position(self, state: S) -> list[str]:
        """Setup lines (``setup: …``) that rebuild ``state`` exactly from the opening."""
        ...

    def outcome(self, state: S) -> dict[str, Any]:
        """The result so far: at least ``result`` (``None`` while the game goes on)."""
        ...

    def to_json(self, state: S) -> dict[str, Any]:
        """The state as plain JSON data, with stable keys."""
        ...

    def render(self, state: S) -> Sequence[RenderableType]:
        """The state as rich tables and text, for the terminal report."""
        ...

    def invariants(self, state: S) -> list[str]:
        """Broken invariants, in words; empty when the state is sound (self-play checks it)."""
        ...
