"""A combat's decisions one at a time (``battle.options``, issue 31): ``forced`` asks before
every line of a combat whether it has one answer, and stops at the second answer instead of
listing them all (the retreats are not searched when two allocations of the hits are found
already).  Compared with the enumeration ``legal()`` made before, kept here as the long
way, at every combat decision of the bundled logs and of self-played games: the same
answers in the same order, and the same forced answer."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from referee.core.log import Entry
from referee.core.parsing import parse_log
from referee.core.replay import Replayer
from referee.core.selfplay import play_game, random_policy
from referee.games.wwiic import battle
from referee.games.wwiic.board import Board
from referee.games.wwiic.combat import allocations, breakthrough_options, even, retreat_options
from referee.games.wwiic.commands import Breakthrough, Command, Hits, Retreat
from referee.games.wwiic.engine import ENGINE
from referee.games.wwiic.state import Battle, Phase, WState

LOGS = Path(__file__).resolve().parents[3] / "logs" / "wwiic"


def _long_way(board: Board, state: WState) -> list[Command]:
    """``battle.legal`` as it was before issue 31's work: every answer, listed."""
    fight = state.battle
    assert fight is not None
    space = fight.space

    def alive(units: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(u for u in units if state.location[u] == space)

    def before() -> WState:
        view = state.copy()
        for unit, n in Counter(fight.taken).items():
            if state.location[unit] is not None:
                view.strength[unit] = state.strength[unit] + n
        return view

    out: list[Command] = []
    if fight.step == "defender":
        defenders = alive(fight.defenders)
        total = fight.defender_hits
        out += [Hits(a) for a in allocations(state, defenders, total)]
        for alloc in allocations(state, defenders, total - 1):
            count = Counter(alloc)
            survivors = tuple(u for u in defenders if count[u] < state.strength[u])
            if not survivors:
                continue
            options = retreat_options(board, state, survivors, space)
            if not options:
                continue
            if total == 1:
                out += [Retreat(tuple(sorted(o))) for o in options]
            elif Hits(alloc) not in out:
                out.append(Hits(alloc))
    elif fight.step == "retreat":
        survivors = alive(fight.defenders)
        out += [Retreat(tuple(sorted(o))) for o in retreat_options(board, state, survivors,
                                                                    space)]
        for unit in survivors:
            if even(board, before(), fight.defenders, (*fight.taken, unit),
                    fight.defender_hits) is None:
                out.append(Hits((unit,)))
    elif fight.step == "attacker":
        attackers = alive(fight.attackers)
        out += [Hits(a) for a in allocations(state, attackers, fight.attacker_hits)]
    else:
        out += [Breakthrough(tuple(sorted(o))) for o in breakthrough_options(board, state,
                                                                             fight)]
    return out


def _combat_states() -> list[WState]:
    texts = [path.read_text(encoding="utf-8") for path in sorted(LOGS.rglob("*.log"))]
    for seed in range(8):
        log = play_game(ENGINE, f"battle-{seed}", random_policy, keep_log=True, check=False).log
        texts.append(log or "")
    states: list[WState] = []

    class Positions(Replayer):
        def _entry(self, entry: Entry) -> None:
            super()._entry(entry)
            if self.report.state.phase is Phase.BATTLE:
                states.append(ENGINE.copy(self.report.state))

    for text in texts:
        Positions(parse_log(text, "log", engine=ENGINE), ENGINE).run()
    return states


def test_every_combat_decision_has_the_answers_of_the_long_way() -> None:
    board = ENGINE.board
    states = _combat_states()
    steps: Counter[str] = Counter()
    forced = 0
    for state in states:
        assert isinstance(state.battle, Battle)
        expected = _long_way(board, state)
        assert battle.legal(board, state) == expected
        assert list(ENGINE.legal(state)) == expected
        answer = ENGINE.forced(state)
        assert answer == (expected[0] if len(expected) == 1 else None)
        steps[state.battle.step] += 1
        forced += answer is not None
    assert len(states) > 100 and len(steps) >= 3 and 0 < forced < len(states)
