"""A replay that keeps positions as it goes and can start again from one of them.

An editor re-checks a log on every keystroke; replaying the whole log each time would cost
its length.  ``KeepingReplayer`` keeps the replay as it stands before every ``every``-th line
(a ``Kept``: the engine's copy of the state and the driver's own memory); a later replay of
the same log with a change at line N starts from the last kept position before N and
replays only from there.

A position is kept only after an action or setup line: what an assertion (``turn``,
``expect``) leaves depends on the action line after it (the referee's single-answer steps it
sees), so the position after it is not fixed by the lines above.  Nothing here applies a
rule; the driver (``referee.core.replay``) does it all.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from referee.core.errors import Problem, RefereeError
from referee.core.log import ActionLine, Entry, ParsedLog, SetupLine
from referee.core.records import frozen
from referee.core.replay import DiceProvider, LineEvent, Replayer, Report

KEEP_EVERY = 16
"""How many entries apart positions are kept by default."""


@frozen
class Kept:
    """The replay as it stood before entry ``index`` of its log (``index`` entries done)."""

    index: int
    keys: list[tuple[int, str]]
    """The (line number, text) of the entries replayed, the first ``index`` of this list (it
    is shared with the other positions kept by the same replay, which only appends to it): a
    log that differs in none of them may start from here."""
    digest: int
    """A digest of those ``index`` keys (``digests``), so that telling whether a log may
    start here costs one comparison, not one for each entry above it."""
    header: tuple[Any, ...]
    state: Any
    position: int
    driver: tuple[Any, ...]
    """The driver's own memory: whether a line was played, the setup line still open, the
    cause a later problem follows from, the last command applied."""
    problems: tuple[Problem, ...]
    """The problems the replay itself found before this point (not those of reading)."""
    events: tuple[LineEvent, ...]
    alternate: bool = False
    """Kept from the text before the last change, beyond where the change begins: a
    keystroke taken back (a letter typed into a command, then deleted) returns to that
    text, and the replay starts from its far positions instead of the change."""


def header_of(log: ParsedLog) -> tuple[Any, ...]:
    """What of a log, beside its entries, decides its replay: tags, options, its engine (a
    scenario file's by its SHA-256: read again on each change, it is the same board)."""
    engine = None if log.engine is None else (log.scenario_sha256 or id(log.engine))
    return (tuple(sorted(log.tags.items())), tuple(log.options), engine, log.unreadable,
            log.position_sha256)


def entry_key(entry: Entry) -> tuple[int, str]:
    """What of an entry its replay reads: its line number and its text before its comment.
    The first ``#`` of an entry's line starts its comment (grammar/common.lark: no name,
    number, die or expected value holds one), and a comment changes nothing the rules see,
    so typing a remark keeps the positions after it."""
    return (entry.number, entry.text.split("#", 1)[0].rstrip())


def entry_keys(log: ParsedLog) -> list[tuple[int, str]]:
    """The keys of every entry of ``log`` (``entry_key``), in order."""
    return [entry_key(entry) for entry in log.entries]


def digests(keys: list[tuple[int, str]], into: list[int] | None = None) -> list[int]:
    """The digest of each prefix of ``keys``: element ``i`` of the first ``i`` keys (a chain:
    each is the hash of the one before and the next key).  With ``into`` (the digests of the
    first ``len(into) - 1`` keys), it is extended to all of ``keys``."""
    chain = [0] if into is None else into
    for key in keys[len(chain) - 1:]:
        chain.append(hash((chain[-1], key)))
    return chain


def matches(kept: Kept, chain: list[int]) -> bool:
    """Whether ``kept`` may be replayed from the first entries of a log whose prefixes have
    the digests ``chain`` (one comparison; ``latest`` checks the one it chooses key by key)."""
    return kept.index < len(chain) and chain[kept.index] == kept.digest


def latest(kept: list[Kept], log: ParsedLog, upto: int | None = None,
           keys: list[tuple[int, str]] | None = None,
           chain: list[int] | None = None) -> Kept | None:
    """The last kept position ``log`` may start from: the same header, the same entries
    above it (with ``upto``, none of them after that line).  ``kept`` may hold the positions
    of two texts of the log (``Kept.alternate``): each candidate is checked on its own, the
    furthest first, by its digest, and the one chosen key by key."""
    header = header_of(log)
    keys = entry_keys(log) if keys is None else keys
    chain = digests(keys) if chain is None else chain
    for candidate in sorted((k for k in kept if k.header == header),
                            key=lambda k: k.index, reverse=True):
        if upto is not None and candidate.index and (
                candidate.index > len(log.entries)
                or log.entries[candidate.index - 1].number > upto):
            continue
        if matches(candidate, chain) and candidate.keys[:candidate.index] == keys[
                :candidate.index]:
            return candidate
    return None


class KeepingReplayer(Replayer):
    """The replay driver, keeping positions (``every`` entries apart) and starting from one
    (``start``).  Its report equals the one a plain replay of the whole log gives."""

    def __init__(self, log: ParsedLog, engine: Any, *, start: Kept | None = None,
                 every: int = KEEP_EVERY, upto: int | None = None,
                 dice: DiceProvider | None = None, settle: bool = True,
                 keep_end: bool = False, tail: int | None = None) -> None:
        super().__init__(log, engine, upto=upto, dice=dice, settle=settle)
        self.kept: list[Kept] = [start] if start is not None else []
        self._start = start
        self._every = max(1, every)
        self._keep_end = keep_end
        """Keep the position after the last entry too (an action or setup line), before the
        end of the replay (the setup's check, the referee's settling): a log that only grows
        (``referee play``) replays its new lines from there."""
        self._from = 0 if tail is None else len(log.entries) - tail
        """Positions are kept from this entry on (``tail``: only among the last ones)."""
        self._done = 0
        self._reading = len(self.report.problems)
        self._header = header_of(log)
        self._made: list[tuple[int, str]] = (
            start.keys[: start.index] if start is not None else [])
        self._chain = digests(self._made)

    def _restore(self) -> None:
        start, self._start = self._start, None
        if start is None:
            return
        report = self.report
        report.state = self.engine.copy(start.state)
        self.position = start.position
        self._played, self._last_setup, self._cause, self._last = start.driver
        self._json = None
        # A line whose comment changed since keeps its problems, with the text it has now.
        texts = {e.number: e.text for e in self.log.entries[: start.index]}
        report.problems.extend(
            replace(p, text=texts[p.line]) if p.line in texts and p.text and
            p.text != texts[p.line] else p for p in start.problems)
        report.events[:] = list(start.events)

    def _keep(self) -> None:
        report = self.report
        self.kept.append(Kept(
            index=self._done,
            keys=self._keys(),
            digest=self._chain[self._done],
            header=self._header,
            state=self.engine.copy(report.state),
            position=self.position,
            driver=(self._played, self._last_setup, self._cause, self._last),
            problems=tuple(report.problems[self._reading:]),
            events=tuple(report.events),
        ))

    def _keys(self) -> list[tuple[int, str]]:
        """The keys of the entries replayed so far, each made once, and their digests; the
        list is shared by the positions this replay keeps (each reads its first keys)."""
        keys = self._made
        for entry in self.log.entries[len(keys): self._done]:
            keys.append(entry_key(entry))
        digests(keys, self._chain)
        return keys

    def _entry(self, entry: Entry) -> None:
        index = self._done
        if self._start is not None:
            if index < self._start.index:
                self._done += 1
                return  # replayed before: the kept position holds what it did
            self._restore()
        elif index >= self._from and index and index % self._every == 0 and (
            not self.kept or self.kept[-1].index < index
        ) and isinstance(self.log.entries[index - 1], ActionLine | SetupLine):
            self._keep()
        super()._entry(entry)
        self._done += 1

    def _close_setup(self) -> None:
        if self._start is not None:
            self._restore()  # every entry before the end was replayed before
        elif self._keep_end and self._done == len(self.log.entries) and self._done and (
            not self.kept or self.kept[-1].index < self._done
        ) and isinstance(self.log.entries[-1], ActionLine | SetupLine):
            self._keep()  # the end of the entries (not an entry's own closing of the setup)
        super()._close_setup()


def replay_keeping(log: ParsedLog, kept: list[Kept] | None = None, *,
                   every: int = KEEP_EVERY, upto: int | None = None,
                   ) -> tuple[Report, list[Kept]]:
    """Replay ``log``, starting from the last of ``kept`` that it allows; the report, and
    the positions kept (those it started from and the new ones).  ``upto``: replay only up
    to that line (the position after it), keeping nothing new."""
    from referee.core.replay import replay

    engine = log.engine
    if engine is None and not log.unreadable:
        from referee.games import engine_for

        try:
            engine = engine_for(log.game or "")
        except RefereeError:  # the plain replay says why, as a problem
            engine = None
    if engine is None:
        return replay(log), []
    kept = kept or []
    keys = entry_keys(log)
    chain = digests(keys)
    start = latest(kept, log, upto, keys, chain)
    replayer = KeepingReplayer(log, engine, start=start, every=every, upto=upto)
    report = replayer.run()
    reached = 0 if start is None else start.index
    held = [k for k in kept if k.index <= reached and matches(k, chain)]
    if upto is not None:
        return report, held
    # The positions of the text before this change that this text cannot use are kept one
    # change longer, as alternates (a keystroke taken back returns to that text); those that
    # were alternates already are dropped, so at most two texts' positions are held.
    ours = {id(k) for k in held}
    alternates = [k if k.alternate else replace(k, alternate=True)
                  for k in kept if id(k) not in ours and not k.alternate]
    fresh = [k for k in replayer.kept if k.index > reached]
    return report, [replace(k, alternate=False) if k.alternate else k for k in held] + \
        fresh + alternates
