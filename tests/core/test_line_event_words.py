"""Issue 31: a replay's events spell their command out only when read (``LineEvent.command``,
``replay_report._line_event``): every event's words, JSON, repr, equality, hash and copy
are those of the events the driver made with the words spelt out at once (the words
of one command one shared string), read in any order, for every bundled log of every game
and self-played games; the driver never spells a command out when nobody reads it."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from referee.core import replay as driver
from referee.core.parsing import parse_log, read_log
from referee.core.replay import LineEvent, Report, replay
from referee.core.selfplay import play_game, random_policy
from referee.games import GAMES, engine_for
from tests.core.replay_digests import bundled_logs


def _spelt_at_once(line: int | None, of: object, event: Any, auto: bool) -> LineEvent:
    """The driver's events as made before: ``LineEvent(line, str(command), event, auto)``,
    the words of a command's later events its first event's own string."""
    words = of.command if isinstance(of, LineEvent) else str(of)
    return LineEvent(line, words, event, auto)


def _reports(monkeypatch: pytest.MonkeyPatch, game: str | None, text: str | None,
             path: Any = None) -> tuple[Report, Report]:
    """The replay as it is (events spelt when read) and with every event spelt at once."""
    def run() -> Report:
        if path is not None:
            return replay(read_log(path))
        engine = engine_for(game or "")
        return replay(parse_log(text or "", "self-play.log", engine=engine), engine)
    lazy = run()
    with monkeypatch.context() as patched:
        patched.setattr(driver, "_line_event", _spelt_at_once)
        eager = run()
    return lazy, eager


def _agree(lazy: Report, eager: Report, seed: int) -> None:
    assert len(lazy.events) == len(eager.events)
    assert all("command" not in vars(event) for event in lazy.events if "_of" in vars(event))
    order = list(range(len(lazy.events)))
    random.Random(seed).shuffle(order)  # a later event of a command may be read first
    for at in order:
        assert lazy.events[at].command == eager.events[at].command
    assert [e.to_json() for e in lazy.events] == [e.to_json() for e in eager.events]
    assert repr(lazy.events) == repr(eager.events)
    assert lazy.events == eager.events
    assert [hash(e) for e in lazy.events if _hashable(e)] == [
        hash(e) for e in eager.events if _hashable(e)]
    assert [[*vars(copy.copy(e)).items()] for e in lazy.events] == [
        [*vars(e).items()] for e in eager.events]
    later = [event for event in lazy.events if isinstance(vars(event).get("_of"), LineEvent)]
    for event in later:  # a command's later events: its first event's string, as before
        assert event.command is vars(event)["_of"].command


def _hashable(event: LineEvent) -> bool:
    try:
        hash(event.event)
    except TypeError:
        return False
    return True


@pytest.mark.parametrize("path", bundled_logs(), ids=lambda p: p.name)
def test_bundled_logs_events_are_those_spelt_at_once(monkeypatch: pytest.MonkeyPatch,
                                                     path: Any) -> None:
    lazy, eager = _reports(monkeypatch, None, None, path)
    _agree(lazy, eager, seed=len(path.name))
    fresh, _ = _reports(monkeypatch, None, None, path)
    assert [[*vars(copy.copy(e)).items()] for e in fresh.events] == [
        [*vars(e).items()] for e in eager.events]
    assert fresh.to_json() == eager.to_json()  # copied unread, then read


@pytest.mark.parametrize("game", list(GAMES))
def test_self_played_events_are_those_spelt_at_once(monkeypatch: pytest.MonkeyPatch,
                                                    game: str) -> None:
    for index in range(3):
        log = play_game(engine_for(game), f"words-{index}", random_policy, keep_log=True,
                        check=False).log
        lazy, eager = _reports(monkeypatch, game, log)
        assert len(lazy.events) > 10
        later = sum(isinstance(vars(e).get("_of"), LineEvent) for e in lazy.events)
        _agree(lazy, eager, seed=index)
        if game != "battle-card":
            assert later > 0  # the words of a command's events made once, shared
