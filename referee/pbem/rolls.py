"""The dice of a play-by-email replay: which secret rolls each line, and the rolls a line is
still waiting for.

``PbemDice`` is the replay driver's dice provider (``referee.core.replay.DiceProvider``).
In a committed game it never rolls a die the log does not write, except on the one line
``referee play`` is writing (``capture``): a line without dice is waiting for its roller
(``awaited``), which at the end of the log is the normal state between two e-mails.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import field

from referee.core.dice import DiceStream, Roll
from referee.core.errors import DiceMissing
from referee.core.log import ActionLine
from referee.core.records import record
from referee.core.replay import DiceAt
from referee.pbem.chain import LinePlan, Plan, dice_seed
from referee.pbem.hashchain import ChainExhausted, chain_of, dice_key
from referee.pbem.keys import Secret
from referee.pbem.mode import MODERATOR, DiceMode, who


class DiceAwaited(DiceMissing):
    """A line whose dice only another party's secret can roll, and that records none yet."""

    def __init__(self, party: str, line: int) -> None:
        self.party = party
        self.line = line
        name = who(party)
        super().__init__(
            f"this line's dice are rolled with {name}'s secret and are not written yet "
            f"({name} rolls them with 'referee play LOG --secret FILE')"
        )


@record
class _Awaited:
    """A face source that stands for dice nobody here can roll."""

    party: str
    line: int
    dice: PbemDice

    def face(self, index: int, sides: int) -> int:
        self.dice.awaited.append((self.line, self.party))
        raise DiceAwaited(self.party, self.line)


@record
class PbemDice:
    """The dice provider of one replay of a log (see the module's description)."""

    plan: Plan
    secrets: dict[str, Secret]
    seed: str | None = None
    capture: int | None = None
    captured: list[list[Roll]] = field(default_factory=list)
    """What each command of the ``capture`` line rolled from a stream (dice as the engine read
    them, chits by name), one list per command."""
    awaited: list[tuple[int, str]] = field(default_factory=list)
    """(line, party) of each line that waits for a party's roll."""
    checked: set[int] = field(default_factory=set)
    """Lines whose recorded dice were compared with what a committed secret rolls."""
    proof: tuple[int, bytes] | None = None
    """Protocol v2: the chain value the ``capture`` line reveals (its roller's next one)."""
    _capturing: bool = False

    def __post_init__(self) -> None:
        self.kind = self.plan.mode.kind
        self._stream = DiceStream(self.seed) if self.seed is not None else None
        self._moderator: DiceStream | None = None
        if self.kind is DiceMode.MODERATED and MODERATOR in self.secrets:
            self._moderator = DiceStream(self.secrets[MODERATOR].value)
        # Only a public seed lets the referee roll a chance step the log does not write.
        self.auto_chance = self.kind is DiceMode.SEEDED

    def dice_for(self, line: ActionLine | None, draw: int, line_draw: int) -> DiceAt:
        if self.kind is DiceMode.TABLE:
            return DiceAt(None, draw)
        if self.kind is DiceMode.SEEDED:
            return self._captured(line, DiceAt(self._stream, draw))
        if line is None or line.number not in self.plan.lines:
            return DiceAt(None, draw)
        plan = self.plan.lines[line.number]
        if self.plan.mode.v2:
            return self._v2(line, plan, draw, line_draw)
        roller = plan.roller
        recorded = any(item.dice is not None for item in line.items)
        at = DiceAt(None, draw)
        if roller is not None and roller in self.secrets and plan.problem is None:
            source = f"{who(roller)}'s committed secret"
            if self.kind is DiceMode.MODERATED:
                at = DiceAt(self._moderator, draw, source)
            elif plan.seal is not None:
                seed = dice_seed(self.secrets[roller].value, plan.link, plan.body, plan.seal)
                at = DiceAt(DiceStream(seed), line_draw, source)
        if line.number == self.capture and at.stream is not None:
            return self._captured(line, at)
        if not recorded and roller is not None:
            return DiceAt(_Awaited(roller, line.number, self), 0)
        if at.stream is not None:
            self.checked.add(line.number)
        return at

    def alike(self, line: ActionLine) -> bool:
        """A public seed, or dice written at the table, give a line the dice of its draw
        number whatever line it is, and nothing is noted of it (but for the line whose rolls
        are captured): the replay driver may then judge a repeated refused line once."""
        return (self.kind in (DiceMode.TABLE, DiceMode.SEEDED)
                and (self.capture is None or line.number != self.capture))

    def _v2(self, line: ActionLine, plan: LinePlan, draw: int, line_draw: int) -> DiceAt:
        """Protocol v2: a line's dice are keyed by its roller's chain value, which the line
        reveals; anyone checks them, and the roller's own secret makes them when it writes the
        line (``capture``)."""
        roller = plan.roller
        if roller is None or plan.problem is not None or plan.seal is None:
            return DiceAt(None, draw)
        value = plan.proved
        source = f"{who(roller)}'s committed chain"
        if line.number == self.capture and roller in self.secrets and plan.index is not None:
            try:
                value = chain_of(self.secrets[roller].value, roller).value(plan.index)
            except ChainExhausted as error:
                raise DiceMissing(str(error)) from None
            self.proof = (plan.index, value)
            at = DiceAt(DiceStream(dice_key(value, plan.link, plan.body, plan.seal)),
                        line_draw, source)
            return self._captured(line, at)
        if not plan.recorded:
            return DiceAt(_Awaited(roller, line.number, self), 0)
        if value is None:  # a chain value missing or forged: the plan reports it
            return DiceAt(None, draw)
        self.checked.add(line.number)
        return DiceAt(DiceStream(dice_key(value, plan.link, plan.body, plan.seal)), line_draw,
                      source)

    def _captured(self, line: ActionLine | None, at: DiceAt) -> DiceAt:
        if line is None or line.number != self.capture or at.stream is None:
            return at
        self._capturing = True
        return at

    def rolled(self, line: ActionLine | None, rolls: Sequence[Roll]) -> None:
        if self._capturing:
            self.captured.append(list(rolls))
            self._capturing = False
