"""``referee play`` and ``referee undo``: append a move with its dice, or take one back.

Every line is tried on a copy of the log first (replayed from the start, so the rules and
the dice are those of a plain replay), and the file is written once at the end, atomically:
either the whole new text replaces the old or nothing changes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import field, replace
from pathlib import Path

from referee.core.dice import Roll, record_text
from referee.core.errors import Problem
from referee.core.files import write_atomic
from referee.core.log import ActionLine, Expectation, TurnAssertion
from referee.core.parsing import MAX_LINE_CHARS, parse_log
from referee.core.records import frozen, record
from referee.pbem.advice import advise, next_line
from referee.pbem.chain import (
    broken_seals,
    code_of,
    comment_of,
    is_chance,
    make_seal,
    seal_of,
    seal_text,
    written_body,
)
from referee.pbem.errors import MissingSecret, MoveTextError, NotAllowed, PbemError
from referee.pbem.hashchain import proof_of, proof_text
from referee.pbem.hidden import OPENING, conceal, keeper_of, openings
from referee.pbem.hidden import check as check_hidden
from referee.pbem.mode import DiceMode, who
from referee.pbem.table import (
    NextStep,
    Replay,
    Table,
    hold,
    open_log,
    read_text,
    require_secrets,
)

RESULT_CHARS = 120
PLACEHOLDER_SEAL = "0" * 16


class IllegalPlay(NotAllowed):
    """The move breaks the rules: nothing is written.  ``problem`` has the rule and the
    legal alternatives."""

    def __init__(self, problem: Problem, line: str, choices: Sequence[str] = (),
                 more: bool = False) -> None:
        super().__init__(problem.message)
        self.problem = problem
        self.line = line
        self.choices = tuple(choices)
        """The legal moves at that point (as ``replay`` lists them), when the problem has
        no list of its own."""
        self.more = more


@frozen
class Written:
    """One line ``referee play`` wrote (or, with ``--dry-run``, would write)."""

    number: int
    text: str
    events: tuple[str, ...] = ()
    awaiting: str | None = None
    """The party whose roll the line now waits for."""
    filled: bool = False
    """True when the line was there already and only its dice were added."""


@record
class PlayResult:
    """What ``play`` wrote (``text``: the whole new log), and whose step comes next."""

    source: str
    written: list[Written]
    text: str
    next: NextStep
    saved: bool
    notes: list[str] = field(default_factory=list)
    then: str = ""
    """Who is next and what they run (``referee.pbem.advice.next_line``)."""


def play(table: Table, move: str | None, *, dry_run: bool = False,
         path: Path | None = None) -> PlayResult:
    """Roll what the log waits for (with the secrets at hand), write ``move``, roll the
    chance steps that follow, and save ``path`` (unless ``dry_run``)."""
    require_secrets(table)
    table = replace(table, kept=[])  # each replay of a longer text starts near its end
    replay = table.replay(settle=False)
    _refuse_broken(table, replay)
    writer = _Writer(table, replay, dry_run)
    writer.fill_roll(move)
    writer.roll_chances()
    if move is not None:
        writer.move(move)
        writer.roll_chances()
    step = writer.replay.next
    if step.kind == "chance" and step.choices and table.mode.kind is DiceMode.TABLE:
        writer.notes.append(
            f"the log has no seed: play the roll with the dice rolled at the table: "
            f"referee play {table.source} '{step.choices[0]} {{dN: ...}}'"
        )
    if not writer.written:
        hint = "; give the move to play" if step.kind == "move" else ""
        hint += "".join(f"; {note}" for note in writer.notes)
        raise PbemError(f"nothing to play: {step.sentence()}{hint}")
    _remember_reveals(table, writer, dry_run)
    log_name = path.name if path is not None else table.source
    advice = advise(table.mode, writer.replay.next, log_name)
    result = PlayResult(table.source, writer.written, writer.table.text,
                        writer.replay.next, saved=False, notes=writer.notes,
                        then=next_line(advice, log_name, frozenset(table.secrets)))
    if not dry_run and path is not None:
        save(path, table.text, writer.table.text)
        result.saved = True
    return result


def _remember_reveals(table: Table, writer: _Writer, dry_run: bool) -> None:
    """Protocol v2: refuse to reveal a chain value for another line than the one it was
    revealed for before, and remember the values revealed now (``referee.pbem.ledger``)."""
    if not table.mode.v2:
        return
    from referee.pbem.ledger import Revealed, check_and_record  # protocol v2 only

    plans = writer.replay.plan.lines
    by_party: dict[str, list[Revealed]] = {}
    for written in writer.written:
        planned = plans.get(written.number)
        proof = proof_of(comment_of(written.text))
        seal = seal_of(written.text)
        if planned is None or proof is None or seal is None or planned.roller is None:
            continue
        by_party.setdefault(planned.roller, []).append(
            Revealed(proof[0], seal, written.number, written_body(written.text)))
    for party, revealed in by_party.items():
        if party in table.secrets:
            check_and_record(table.secrets[party], table.mode.commitments.get(party, ""),
                             revealed, dry_run=dry_run)


def play_file(path: Path, move: str | None, secret_files: Sequence[Path] = (), *,
              dry_run: bool = False) -> PlayResult:
    """``referee play``: open the log at ``path`` and play ``move``, holding the log's lock
    from the moment it is read until the new text has replaced it (a dry run reads only)."""
    if dry_run:
        return play(open_log(path, secret_files), move, dry_run=True, path=path)
    with hold(path, "play"):
        return play(open_log(path, secret_files), move, path=path)


def undo_file(path: Path, secret_files: Sequence[Path] = (), *,
              dry_run: bool = False) -> UndoResult:
    """``referee undo``, holding the log's lock as ``play_file`` does."""
    if dry_run:
        return undo(open_log(path, secret_files), path=path, dry_run=True)
    with hold(path, "undo"):
        return undo(open_log(path, secret_files), path=path)


def save(path: Path, old: str, new: str) -> None:
    """Replace ``path``'s text ``old`` by ``new`` atomically, unless someone changed it."""
    if read_text(path) != old:
        raise PbemError(f"{path} changed while the referee worked on it; run the command again")
    try:
        write_atomic(path, new)
    except OSError as error:
        raise PbemError(
            f"cannot write {path}: {error.strerror or error}; the log is as it was"
        ) from None


def _refuse_broken(table: Table, replay: Replay) -> None:
    """Refuse a log that breaks the rules or shows tampering: the earliest line first, and on
    one line the tampering (a forged reveal explains the rules it upsets later)."""
    problems = replay.problems
    secrets = {party: s.value for party, s in table.secrets.items()}
    broken = broken_seals(replay.plan, secrets)
    lines = {line.number: line for line in table.log.actions}
    broken += [(f.line or 0, f.kind, f.message) for f in check_hidden(
        replay.report.events, replay.plan, lines, secrets).findings]
    first_broken = min(broken, key=lambda found: found[0]) if broken else None
    if problems and (first_broken is None or (problems[0].line or 0) < first_broken[0]):
        first = problems[0]
        raise NotAllowed(
            f"the log already breaks the rules at line {first.line} ({first.kind}: "
            f"{first.message}); it must be mended before anyone plays on "
            f"('referee verify {table.source}' shows every problem)"
        )
    if first_broken is not None:
        number, _, reason = first_broken
        raise NotAllowed(f"line {number}: {reason}; refusing to play on a tampered log "
                         f"('referee verify' tells more)")


class _Writer:
    """Appends lines to a table one at a time, each checked by a full replay."""

    def __init__(self, table: Table, replay: Replay, dry_run: bool) -> None:
        self.table = table
        self.replay = replay
        self.dry_run = dry_run
        self.written: list[Written] = []
        self.notes: list[str] = []
        self.mode = table.mode
        self.turn = (replay.report.state_json() or {}).get("turn")
        """The turn the log last announced (a ``turn N`` line is written when it changes)."""

    # -- the steps ---------------------------------------------------------------------

    def fill_roll(self, move: str | None) -> None:
        """Roll the dice the last line waits for, when this command holds the secret."""
        step = self.replay.next
        if step.kind != "roll" or step.line is None:
            return
        if step.party not in self.table.secrets:
            raise MissingSecret(
                f"line {step.line} waits for {who(step.party)}'s dice; only "
                f"{who(step.party)}'s secret rolls them"
                + (": nobody moves before they are rolled" if move is not None else "")
                + f" (mail the log to {who(step.party)}, who runs 'referee play LOG "
                f"--secret FILE')"
            )
        self._fill(step.line)

    def roll_chances(self) -> None:
        """Write the chance steps that this command can roll, one line each."""
        for _ in range(1000):
            step = self.replay.next
            if step.kind != "chance" or not step.choices:
                return
            if self.mode.kind is DiceMode.TABLE:
                return
            if self.mode.committed and step.party not in self.table.secrets:
                return
            self._append(step.choices[0])

    def move(self, text: str) -> None:
        step = self.replay.next
        line = self._parse_move(text)
        chance = is_chance(line)
        if step.kind == "over":
            raise NotAllowed(f"the game is over ({step.decision}): no move can follow")
        if step.kind == "join":
            raise NotAllowed(f"the game has not started: {step.sentence()}")
        if step.kind == "chance" and not (chance and self.mode.kind is DiceMode.TABLE):
            party = step.party
            if party is None:
                example = step.choices[0] if step.choices else "..."
                raise NotAllowed(
                    f"first the referee's roll: {step.decision}; the log has no seed, so play "
                    f"it with the dice rolled at the table: '{example} {{dN: ...}}'"
                )
            raise MissingSecret(
                f"first {who(party)} must roll {step.decision}; mail the log to {who(party)}, "
                f"who runs 'referee play LOG --secret FILE'"
            )
        if any(item.dice is not None for item in line.items) and self.mode.kind is not (
            DiceMode.TABLE
        ):
            raise MoveTextError(
                "the referee rolls the dice in this game: leave the {dN: ...} record out "
                "of the move"
            )
        side = line.side or (step.party if step.kind == "move" and not chance else None)
        commands = [item.command for item in line.items]
        if self.mode.committed and side is not None:
            commands = self._conceal(commands, side)
        items = "; ".join(
            str(command) + (f" {item.dice}" if item.dice is not None else "")
            for command, item in zip(commands, line.items, strict=True)
        )
        self._append(f"{side}: {items}" if side else items)

    def _conceal(self, commands: list[object], side: str) -> list[object]:
        """A value the move writes in the open becomes its side's commitment (a committed
        game: docs/pbem.md, "Hidden values")."""
        party = keeper_of(self.mode, side)
        if party not in self.table.secrets:
            return commands  # _seal_for refuses the line: its writer's secret is missing
        return conceal(commands, self.table.secrets[party].value, self.replay.plan.link,
                       v2=self.mode.v2)

    # -- writing one line ----------------------------------------------------------------

    def _parse_move(self, text: str) -> ActionLine:
        text = text.strip()
        if "\n" in text or "\r" in text:
            raise MoveTextError("a move is one line of the log")
        if len(text) > MAX_LINE_CHARS:
            raise MoveTextError(f"a move may have up to {MAX_LINE_CHARS:,} characters")
        if text.startswith("#") or "#" in text:
            raise MoveTextError("leave the comment out of the move: the referee writes it")
        parsed = parse_log(text, "the move", engine=self.table.engine)
        if parsed.problems:
            problem = parsed.problems[0]
            raise MoveTextError(f"the move cannot be read: {problem.message}")
        if len(parsed.entries) != 1 or not isinstance(parsed.entries[0], ActionLine):
            raise MoveTextError(f"'{text}' is not a move (tags, turn and expect lines are not)")
        return parsed.entries[0]

    def _append(self, code: str) -> None:
        """Try ``code`` as the next line; write it with its dice, seal and result."""
        base = self.table.text if self.table.text.endswith("\n") else self.table.text + "\n"
        number = len(base.splitlines()) + 1
        trial = self.table.with_text(base + code + "\n")
        seal = self._seal_for(trial, number)
        suffix = f"  # {seal_text(seal)}" if seal else ""
        capture = number if seal != PLACEHOLDER_SEAL else None
        if suffix:
            trial = self.table.with_text(base + code + suffix + "\n")
        tried = trial.replay(capture=capture, settle=False)
        here = [p for p in tried.report.problems if p.line == number]
        awaiting = tried.pending_line == number
        if here and not awaiting:
            step = self.replay.next
            choices = step.choices if step.kind == "move" else ()
            raise IllegalPlay(here[0], code, choices, step.more)
        secrets = {party: s.value for party, s in self.table.secrets.items()}
        lines = {line.number: line for line in trial.log.actions}
        changed = [f for f in check_hidden(tried.report.events, tried.plan, lines,
                                           secrets, writing=number).findings
                   if f.line == number]
        if changed:
            raise NotAllowed(f"{changed[0].message}; nothing was written")
        if awaiting:
            party = tried.next.party
            line = f"{code}  # awaiting {who(party)}'s dice" + (f" {seal_text(seal)}"
                                                               if seal else "")
            line += "".join(f" {text}" for text in _openings(trial, tried, number))
            self._commit(base + line + "\n", Written(number, line, (), awaiting=party))
            return
        line, events = _finished(code, tried, number, seal, _openings(trial, tried, number))
        self._commit(base + line + "\n", Written(number, line, events))

    def _fill(self, number: int) -> None:
        """Add the dice to line ``number`` (the last action line), which waits for them."""
        lines = self.table.text.splitlines()
        raw = lines[number - 1]
        seal = seal_of(raw)
        code = code_of(raw).rstrip()
        tried = self.table.replay(capture=number, settle=False)
        here = [p for p in tried.report.problems if p.line == number]
        if here:
            raise IllegalPlay(here[0], code)
        line, events = _finished(code, tried, number, seal,
                                 _openings(self.table, tried, number))
        lines[number - 1] = line
        self._commit("\n".join(lines) + "\n", Written(number, line, events, filled=True))

    def _seal_for(self, trial: Table, number: int) -> str | None:
        """The seal of the line at ``number`` in ``trial`` (``None``: not a committed game)."""
        if not self.mode.committed:
            return None
        planned = trial.plan().lines[number]
        if planned.problem is not None:
            raise MoveTextError(planned.problem)
        writer = planned.writer
        if writer is None or writer not in self.table.secrets:
            if self.dry_run:
                self.notes.append(f"not sealed: {who(writer)}'s secret was not given")
                return PLACEHOLDER_SEAL
            if self.mode.kind is DiceMode.MODERATED:
                raise MissingSecret(
                    "in a moderated game the moderator writes every line: send the move to "
                    "the moderator (or give --secret with the moderator's secret file)"
                )
            raise MissingSecret(
                f"{who(writer)}'s lines are sealed with {who(writer)}'s secret: give --secret "
                f"with {who(writer)}'s secret file"
            )
        return make_seal(self.table.secrets[writer].value, planned.link, planned.body)

    def _commit(self, text: str, written: Written) -> None:
        table = self.table.with_text(text)
        replay = table.replay(settle=False)
        if replay.problems:  # pragma: no cover - the line was tried just before
            problem = replay.problems[0]
            raise PbemError(f"the referee wrote a line it cannot replay: {problem.message}")
        self.table, self.replay = table, replay
        self.written.append(written)
        # A new turn is announced once its chance steps are written (a seeded replay rolls a
        # chance step by itself before checking a turn line).
        turn = (replay.report.state_json() or {}).get("turn")
        if isinstance(turn, int) and turn != self.turn and replay.next.kind in ("move", "roll"):
            self.turn = turn
            self.table = self.table.with_text(text + f"turn {turn}\n")
            self.replay = self.table.replay(settle=False)


def _openings(table: Table, tried: Replay, number: int) -> list[str]:
    """Protocol v2: the nonces of the hidden values line ``number`` shows (``[open SLOT
    HEX]``), the ones the line published already first."""
    lines = {line.number: line for line in table.log.actions}
    kept = [f"[open {slot} {value}]" for slot, value in
            OPENING.findall(lines[number].text)] if number in lines else []
    return kept or openings(tried.report.events, tried.plan, lines, tried.dice.secrets,
                            number)


def _finished(code: str, tried: Replay, number: int, seal: str | None,
              opened: Sequence[str] = ()) -> tuple[str, tuple[str, ...]]:
    """Line ``number`` as written: its commands with the dice rolled on it, then a comment
    with the first thing that happened and the seal; and everything that happened.
    ``opened``: the nonces of the hidden values it shows (protocol v2)."""
    line = _with_dice(code, tried.dice.captured)
    events = tuple(tried.events_of(number))
    comment = _results(tried, number)
    if seal:
        comment = f"{comment} {seal_text(seal)}".strip()
    if tried.dice.proof is not None and any(tried.dice.captured):
        # Protocol v2: the roller's chain value, so anyone can check these dice at once.
        comment = f"{comment} {proof_text(*tried.dice.proof)}".strip()
    if opened:
        comment = f"{comment} {' '.join(opened)}".strip()
    return (f"{line}  # {comment}" if comment else line), events


def _with_dice(code: str, captured: list[list[Roll]]) -> str:
    """``code`` with each command's rolled dice written after it: ``attack Grave {d6: 4}``."""
    parts = code.split(";")
    if not any(captured):
        return code
    if len(captured) != len(parts):
        raise PbemError("the referee could not tell which command rolled which dice")
    out = []
    for part, faces in zip(parts, captured, strict=True):
        part = part.strip()
        if faces:
            try:
                part += " " + record_text(faces)
            except ValueError:
                raise PbemError(
                    f"'{part}' rolled dice of two kinds, which one record cannot hold"
                ) from None
        out.append(part)
    return "; ".join(out)


_QUIET = frozenset({"spent"})
"""Event kinds a line's comment leaves out (the activation cubes every activation places)."""


def _results(tried: Replay, number: int) -> str:
    """The comment of line ``number``: each command's results (hits, eliminations, control
    too), commands apart by ``;``, each shortened to ``RESULT_CHARS``."""
    by_command: dict[str, list[str]] = {}
    for item in tried.report.events:
        if item.line == number and item.event.kind not in _QUIET:
            by_command.setdefault(item.command, []).append(item.event.text)
    if not by_command:
        return ""
    return "; ".join(_shorten(", ".join(texts)) for texts in by_command.values())


def _shorten(text: str, limit: int = RESULT_CHARS) -> str:
    text = " ".join(text.replace("#", "no.").split())
    text = text.replace(";", ",")  # a ';' in a comment would read as a command apart
    return text if len(text) <= limit else text[: limit - 3].rstrip() + "..."


# -- undo -----------------------------------------------------------------------------------

def _reveals(kind: str, data: object) -> bool:
    """An event that shows hidden information: kind ``reveal``, or ``"reveals": true``."""
    return kind == "reveal" or (isinstance(data, dict) and bool(data.get("reveals")))


@record
class UndoResult:
    source: str
    removed: list[str]
    text: str
    next: NextStep
    saved: bool


def undo(table: Table, *, path: Path | None = None, dry_run: bool = False) -> UndoResult:
    """Take back the last action line, when it rolled no dice and revealed nothing."""
    require_secrets(table)
    table = replace(table, kept=[])  # a shorter text's replay starts from a kept position
    replay = table.replay(settle=False)
    actions = table.log.actions
    if not actions:
        raise NotAllowed("there is no move to take back")
    last = actions[-1]
    everything = replay.report.events
    first = next((i for i, e in enumerate(everything) if e.line == last.number), len(everything))
    events = everything[first:]  # the line's events and the referee's steps after it
    if any(item.dice is not None for item in last.items) or any(e.event.rolls for e in events):
        raise NotAllowed(
            f"line {last.number} ('{code_of(last.text).strip()}') rolled dice: a move is "
            f"never taken back once its dice are rolled"
        )
    if any(_reveals(e.event.kind, e.event.data) for e in events):
        raise NotAllowed(f"line {last.number} revealed hidden information: it cannot be "
                         f"taken back")
    planned = replay.plan.lines.get(last.number)
    if planned is not None and planned.writer not in table.secrets:
        raise MissingSecret(
            f"line {last.number} was written with {who(planned.writer)}'s secret: only "
            f"{who(planned.writer)} can take it back (give --secret)"
        )
    later = _entries_after(table, last.number)
    drop = {last.number, *later}
    lines = table.text.splitlines()
    removed = [lines[n - 1] for n in sorted(drop)]
    text = "\n".join(line for n, line in enumerate(lines, 1) if n not in drop) + "\n"
    after = table.with_text(text).replay(settle=False)
    result = UndoResult(table.source, removed, text, after.next, saved=False)
    if not dry_run and path is not None:
        save(path, table.text, text)
        result.saved = True
    return result


def _entries_after(table: Table, number: int) -> list[int]:
    """Turn and expect lines after line ``number`` (they describe the state it made)."""
    return [e.number for e in table.log.entries
            if e.number > number and isinstance(e, TurnAssertion | Expectation)]

