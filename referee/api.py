"""The library API under the CLI: everything ``referee`` does, callable from Python.

    >>> from referee.api import replay_text
    >>> report = replay_text('[Game "battle-card"]\\n[Seed "1"]\\n')
    >>> report.pending()["side"]
    'allied'
"""

from __future__ import annotations

import sys
from itertools import islice
from pathlib import Path
from typing import Any, BinaryIO

from referee.core.dice import CURRENT_DICE_VERSION
from referee.core.errors import HeaderError, RefereeError
from referee.core.log import ParsedLog
from referee.core.parsing import MAX_BYTES, decode_log, parse_log, read_log
from referee.core.replay import MAX_CHOICES, Report, replay
from referee.games import engine_for, game_entry

STDIN = "-"
"""The log name that means: read the log from standard input."""

STDIN_SOURCE = "<stdin>"


def replay_file(
    path: Path | str, *, seed: str | None = None, strict: bool = False, upto: int | None = None
) -> Report:
    """Read, parse and replay a log file (``-``: standard input).  Every problem is inside
    the report."""
    return replay(read_source(path), seed=seed, strict=strict, upto=upto)


def read_source(path: Path | str) -> ParsedLog:
    """Read and parse a log file, or standard input for ``-``."""
    if str(path) == STDIN:
        return read_stdin()
    return read_log(Path(path))


def stdin_text(stream: BinaryIO | None = None) -> str:
    """The text of a log on standard input (read up to the size limit, and no further)."""
    source = stream if stream is not None else sys.stdin.buffer
    return decode_log(source.read(MAX_BYTES + 1))


def read_stdin(stream: BinaryIO | None = None) -> ParsedLog:
    """Read and parse a log from standard input.  It has no folder, so it may not name a
    position file."""
    try:
        text = stdin_text(stream)
    except RefereeError as error:
        log = ParsedLog(STDIN_SOURCE, unreadable=True)
        log.problems.append(error.to_problem())
        return log
    log = parse_log(text, STDIN_SOURCE)
    if "Position" in log.tags and not log.unreadable:
        log.unreadable = True
        log.problems.append(HeaderError(
            "a log read from standard input has no folder to find its [Position] file in; "
            "give the log's path instead of '-'"
        ).to_problem(line=log.tag_lines.get("Position"), text=""))
    return log


def replay_text(
    text: str, *, source: str = "<log>", seed: str | None = None, strict: bool = False,
    upto: int | None = None,
) -> Report:
    """Parse and replay the text of a log."""
    return replay(parse_log(text, source), seed=seed, strict=strict, upto=upto)


def legal_moves(report: Report, limit: int | None = MAX_CHOICES) -> list[str]:
    """The commands the side to act may give at the end of a replayed log: the first
    ``limit`` of them (``None``: every one, which for two WWII Commander units in one space
    can be hundreds of thousands).  ``report.pending()["more"]`` says whether there are more."""
    if report.engine is None or report.state is None:
        return []
    return [str(c) for c in islice(report.engine.legal(report.state), limit)]


def moves_by_unit(report: Report) -> list[dict[str, Any]]:
    """Each unit the side to act may activate and where it can go, for engines that group
    their moves by unit (``Engine.moves``); empty otherwise or outside a movement step."""
    engine, state = report.engine, report.state
    if engine is None or state is None or not hasattr(engine, "moves"):
        return []
    grouped: list[dict[str, Any]] = engine.moves(state)
    return grouped


def new_seed() -> str:
    """A fresh random seed for a new game (from the operating system's secure source)."""
    import secrets

    return secrets.token_hex(8)


def new_log(game: str, scenario: str | None = None, seed: str | None = None,
            scenario_file: Path | None = None) -> str:
    """The header of a new log of ``game`` (checked by setting the game up).
    ``scenario_file``: the game is played on this scenario file of the user's own, which
    the log names (``[Scenario "file:NAME"]``) and which must lie beside it (checked)."""
    from referee.core.ownscenario import PREFIX, engine_of, folder_of, read_scenario_file

    entry = game_entry(game)
    engine = engine_for(entry.id)
    if scenario_file is not None:
        if scenario is not None:
            raise HeaderError("give --scenario or --scenario-file, not both")
        engine = engine_of(read_scenario_file(folder_of(scenario_file) or Path("."),
                                              scenario_file.name), engine)
        scenario = PREFIX + scenario_file.name
    else:
        engine.setup(scenario, {})
    lines = [f'[Game "{entry.id}"]']
    if scenario:
        lines.append(f'[Scenario "{scenario}"]')
    if seed is not None:
        if '"' in seed or "\n" in seed or not seed.strip():
            raise HeaderError("a seed may not be empty or hold quotes or line breaks")
        lines.append(f'[Dice "{CURRENT_DICE_VERSION}"]')
        lines.append(f'[Seed "{seed}"]')
    return "\n".join(lines) + "\n"


LOG_FORMAT_DOCS = {
    "battle-card": "docs/log-format.md",
    "wwiic": "docs/wwiic-log-format.md",
    "koenig-eindhoven": "docs/koenig-eindhoven-log-format.md",
    "arnhem44": "docs/arnhem44-log-format.md",
}
"""Where each game's log lines are documented (beside docs/log-format.md, every game's)."""

NEXT_CHOICES = 5
"""How many of the first decision's answers ``referee new`` shows."""


def first_steps(header: str, folder: Path | None = None) -> list[str]:
    """What to write after a new log's ``header``, in lines for a player: the first
    decision and some of its answers as log lines, and where the format is documented.
    ``folder``: where the log will lie (its scenario file, if it names one, is there)."""
    from referee.core.parsing import apply_scenario_file

    report = replay(apply_scenario_file(parse_log(header, "<new>"), header, folder))
    game = report.game or ""
    pending = report.pending()
    lines: list[str] = []
    if pending is not None:
        side = str(pending["side"])
        lines.append(f"next: {pending['text']}")
        if side == "referee":
            lines.append("  write the roll as a line, the dice you rolled at the table after it in "
                         "braces, of the kind and number the step says (like {d6: 4}); with a "
                         "[Seed] the referee rolls them itself:")
            prefix = ""
        else:
            lines.append("  write the move as a line, its side first, for example:")
            prefix = f"{side}: "
        for choice in pending["choices"][:NEXT_CHOICES]:
            lines.append(f"    {prefix}{choice}")
        if len(pending["choices"]) > NEXT_CHOICES or pending["more"]:
            lines.append("    ... ('referee moves LOG' lists every answer)")
    docs = sorted({"docs/log-format.md", LOG_FORMAT_DOCS.get(game, "docs/log-format.md")})
    lines.append(f"the log format: {' and '.join(docs)} in the referee's source; "
                 f"'referee examples' lists logs to read")
    return lines


__all__ = [
    "Report",
    "legal_moves",
    "new_log",
    "new_seed",
    "parse_log",
    "read_log",
    "replay",
    "replay_file",
    "replay_text",
]


def position_text(report: Report) -> str:
    """A new log that starts where ``report``'s replay ended: its header, then setup lines.

    The ``Draw`` tag carries the dice stream on from where it stood, so a seeded game resumed
    from the position rolls the same dice the original would have.
    """
    if report.engine is None or report.state is None:
        raise HeaderError("the log cannot be read, so it has no position")
    lines = []
    for tag in ("Game", "Scenario", "Dice", "Seed"):
        if tag in report.tags:
            lines.append(f'[{tag} "{report.tags[tag]}"]')
    if report.draws:
        lines.append(f'[Draw "{report.draws}"]')
    state = report.state_json() or {}
    lines += [f'[Option "{option}"]' for option in state.get("options", [])]
    lines += report.engine.position(report.state)
    return "\n".join(lines) + "\n"


def repair_source(path: Path | str) -> tuple[str, str, list[Any], Any]:
    """``referee fmt --fix``: the text of a log (``-``: standard input), its repaired text
    (``referee.core.repair``: a mail client's quoting and wrapping undone, each single
    did-you-mean applied), the repairs, and the ``Formatted`` repaired log, or the
    ``RefereeError`` saying why the repaired log still cannot be formatted, or ``None`` for a
    play-by-e-mail log (only a mail client's damage is undone in it, never reformatted)."""
    from referee.core.fmt import format_log
    from referee.core.parsing import apply_position, apply_scenario_file, find_game
    from referee.core.reading import read_bounded
    from referee.core.repair import repair, sealed
    from referee.core.resources import shown

    stdin = str(path) == STDIN
    if stdin:
        text, source, folder = stdin_text(), STDIN_SOURCE, None
    else:
        text = decode_log(read_bounded(Path(path), MAX_BYTES, what="log"))
        source, folder = shown(path), Path(path).parent

    def read(lines_text: str) -> ParsedLog:
        log = apply_scenario_file(parse_log(lines_text, source), lines_text, folder)
        if not stdin:
            apply_position(log, Path(path))
        return log

    def engine_of(lines: list[str]) -> Any:
        game = find_game(lines)
        if game is None:
            return None
        try:
            log = read("\n".join(lines))
            return log.engine or engine_for(game)
        except RefereeError:
            return None

    repaired, fixes = repair(text, engine_of)
    if sealed(repaired.splitlines()):
        return text, repaired, fixes, None  # its seals cover each line: never reformatted
    try:
        formatted: Any = format_log(repaired, read(repaired))
    except RefereeError as error:
        formatted = error
    return text, repaired, fixes, formatted


def format_source(path: Path | str) -> tuple[str, str, Any]:
    """``referee fmt``: the text of a log (``-``: standard input), its canonical text, and
    the ``Formatted`` result; ``RefereeError`` when it cannot be formatted safely."""
    from referee.core.fmt import format_log
    from referee.core.reading import read_bounded
    from referee.core.resources import shown

    if str(path) == STDIN:
        text, source = stdin_text(), STDIN_SOURCE
        log = parse_log(text, source)
    else:
        text = decode_log(read_bounded(Path(path), MAX_BYTES, what="log"))
        source = shown(path)
        log = read_log(Path(path))  # with its [Position] file, if it names one
    formatted = format_log(text, log)
    return text, formatted.text, formatted


def read_text(text: str, source: str, folder: Path | None) -> ParsedLog:
    """Parse the text of a log that lies in ``folder`` (``None``: it has none, like an
    editor's unsaved buffer): its scenario file and ``[Position]`` file are read from that
    folder as ``read_log`` reads them (contained in it, regular, bounded); without a folder
    a log that names one is refused, as on standard input."""
    from referee.core.parsing import apply_position, apply_scenario_file

    if len(text) > MAX_BYTES:
        log = ParsedLog(source, unreadable=True)
        log.problems.append(HeaderError(
            f"the log is {len(text):,} characters; the referee reads logs of up to "
            f"{MAX_BYTES:,} bytes").to_problem(line=1))
        return log
    log = apply_scenario_file(parse_log(text, source), text, folder)
    if folder is not None:
        apply_position(log, folder / "log")  # the [Position] file lies beside the log
    elif "Position" in log.tags and not log.unreadable:
        log.unreadable = True
        log.problems.append(HeaderError(
            "this log has no folder to find its [Position] file in; save it beside that file"
        ).to_problem(line=log.tag_lines.get("Position"), text=""))
    return log


def replay_kept(log: ParsedLog, kept: list[Any] | None = None, *, every: int | None = None,
                upto: int | None = None) -> tuple[Report, list[Any]]:
    """Replay ``log`` from the last position of ``kept`` (from an earlier call on the same
    log before a change) that it allows, keeping a position every ``every`` entries: the
    report, equal to ``replay``'s, and the positions to give the next call
    (``referee.core.resume``).  ``upto``: the position after that line."""
    from referee.core.resume import KEEP_EVERY, replay_keeping

    return replay_keeping(log, kept, every=every or KEEP_EVERY, upto=upto)


def parse_line(report: Report, text: str) -> Any:
    """One line read with the grammar and names of ``report``'s game: its entry
    (``referee.core.log``), or the ``RefereeError`` saying why it cannot be read."""
    if report.engine is None:
        return HeaderError("the log's game is not known")
    log = parse_log(text, "<line>", engine=report.engine)
    if log.entries:
        return log.entries[0]
    if log.problems:
        problem = log.problems[0]
        error = RefereeError(problem.message, column=problem.column)
        error.kind = problem.kind
        return error
    return None


def dice_needed(report: Report, command: Any) -> list[Any]:
    """The dice ``command`` rolls at the end of ``report``'s replay, described before they
    are rolled (``Engine.rolls_needed``: ``RollNeed`` batches, the same as ``pending.dice``);
    empty when it rolls none or the log cannot be replayed."""
    if report.engine is None or report.state is None:
        return []
    try:
        return list(report.engine.rolls_needed(report.state, command))
    except RefereeError:
        return []


def format_text(text: str, log: ParsedLog) -> str:
    """``referee fmt`` of a log's text (parsed as ``log``): its canonical text, or the
    ``RefereeError`` raised when it cannot be formatted safely (a sealed log, for one)."""
    from referee.core.fmt import format_log

    return format_log(text, log).text


def is_sealed(lines: list[str]) -> bool:
    """A play-by-e-mail log, whose seals cover each line's text: no tool may edit it."""
    from referee.core.repair import sealed

    return sealed(lines)
