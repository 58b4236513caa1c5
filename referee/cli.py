"""The ``referee`` command: click commands only.  Each parses its options, calls the library
(``referee.api`` and the core) and hands the result to ``referee.output``."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

import click

from referee import __version__
from referee.cli_batch import batch, simulate
from referee.cli_pbem import join, mail, new_committed, play, status, undo, verify
from referee.cli_pictures import map_command, render, view
from referee.cli_shared import (
    _CHECK_ALL,
    STDIN,
    LogPath,
    _all_option,
    _complete_game,
    _emit_new_file,
    _fail,
    _fail_all,
    _refuse_output,
    _seed_option,
    _write_failure,
    api,
    envelope,
    output,
    same_folder,
)
from referee.core.errors import RefereeError
from referee.core.resources import forget_shown
from referee.core.scenario import ScenarioError


class RefereeGroup(click.Group):
    """The ``referee`` group: ``--color`` may stand after the subcommand too
    (``referee replay game.log --color never``), as users of ``git`` and ``ls`` expect."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        return super().parse_args(ctx, color_first(args))


def color_first(args: list[str]) -> list[str]:
    """``args`` with every ``--color X`` / ``--color=X`` moved before the subcommand (none
    after a ``--``, which ends the options)."""
    front: list[str] = []
    rest: list[str] = []
    index = 0
    while index < len(args):
        arg = args[index]
        if arg == "--":
            rest.extend(args[index:])
            break
        if arg.startswith("--color="):
            front.append(arg)
        elif arg == "--color" and index + 1 < len(args):
            front.extend(args[index:index + 2])
            index += 1
        else:
            rest.append(arg)
        index += 1
    return front + rest


@click.group(cls=RefereeGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(version=__version__, prog_name="referee")
@click.option("--color", type=click.Choice(("auto", "always", "never")), default="auto",
              show_default=True, help="Colour the text: on a terminal unless NO_COLOR is "
              "set (auto), always, or never.")
def main(color: str) -> None:
    """Referee and game-log processor for Operation Market-Garden board wargames.

    Exit codes: 0 the log is legal, 1 it breaks the rules, 2 it (or the command line) cannot
    be read.  Results go to standard output; a refusal (a log or a command line that cannot
    be read, an illegal move that play did not write) goes to standard error.  A log named
    '-' is read from standard input.
    """
    if color != "auto" or "referee.output" in sys.modules:  # rich only when used
        output.set_color(color)
    forget_shown()


@main.command()
@click.option("--json", "as_json", is_flag=True, help="One JSON document instead of tables.")
def games(as_json: bool) -> None:
    """The games and scenarios the referee knows, and which rules are covered."""
    from referee.games import game_infos

    infos = game_infos()
    if as_json:
        output.print_json(envelope.envelope(
            source="referee games", game=None, problems=[], exit_code=0,
            games=[{"id": i.id, "title": i.title, "rulebook": i.rulebook,
                    "sides": list(i.sides), "scenarios": list(i.scenarios),
                    "coverage": i.coverage, "implemented": i.implemented} for i in infos],
        ))
        return
    output.print_games(output.make_console(), infos)


@main.command()
@click.argument("log", type=LogPath())
@_seed_option
@click.option(
    "--json", "as_json", is_flag=True, help="One JSON document (keys: docs/log-format.md)."
)
@click.option("--events", is_flag=True, help="Show what every line did, with its dice.")
@click.option("--strict", is_flag=True, help="Stop at the first problem.")
@click.option("--upto", type=click.IntRange(min=1), help="Replay only up to this line.")
@_all_option
def replay(log: Path, seed: str | None, as_json: bool, events: bool, strict: bool,
           upto: int | None, everything: bool) -> None:
    """Replay LOG: check every line, roll or check the dice, print the resulting state."""
    report = api.replay_file(log, seed=seed, strict=strict, upto=upto)
    if as_json:
        output.print_json(envelope.report_json(
            report, tags=dict(report.tags), events=[e.to_json() for e in report.events]))
    elif report.unreadable and report.state is None:
        output.print_report(output.make_console(stderr=True), report,  # a refusal
                            everything=everything)
    else:
        output.print_report(output.make_console(), report, events=events,
                            everything=everything)
    sys.exit(report.exit_code)


@main.command()
@click.argument("logs", nargs=-1, required=True, type=LogPath())
@_seed_option
@click.option("--strict", is_flag=True, help="Stop each log at its first problem.")
@click.option("--json", "as_json", is_flag=True,
              help="One JSON document per log, one per line (JSON Lines).")
@_all_option
def check(logs: tuple[Path, ...], seed: str | None, strict: bool, as_json: bool,
          everything: bool) -> None:
    """Check one or more logs quietly: problems only, a summary line, and the exit code."""
    worst = 0
    console = None
    errors = None
    reports = []
    for path in logs:
        report = api.replay_file(path, seed=seed, strict=strict)
        if as_json:
            sys.stdout.write(envelope.json_text(envelope.report_json(report)) + "\n")
            worst = max(worst, report.exit_code)
            continue
        if report.problems:  # rich is loaded only when there is something to print
            if report.state is None:  # a log that could not even be opened: a refusal
                errors = errors or output.make_console(stderr=True)
                output.print_problems(errors, report, everything=everything)
            else:
                console = console or output.make_console()
                output.print_problems(console, report, everything=everything)
        reports.append((report.exit_code, len(report.problems)))
        worst = max(worst, report.exit_code)
    if not as_json:
        click.echo(check_summary(reports))
    sys.exit(worst)


def check_summary(results: Sequence[tuple[int, int]]) -> str:
    """The last line of ``referee check``: ``3 logs: 2 legal, 1 with 4 problems``.  Each
    result is a log's exit code and its number of problems."""
    count = len(results)
    legal = sum(1 for code, _ in results if code == 0)
    broken = [n for code, n in results if code == 1]
    unreadable = [n for code, n in results if code == 2]
    parts = [f"{legal} legal"]
    if broken:
        parts.append(f"{len(broken)} with {_count(sum(broken), 'problem')}")
    if unreadable:
        parts.append(f"{len(unreadable)} unreadable ({_count(sum(unreadable), 'problem')})")
    return f"{_count(count, 'log')}: {', '.join(parts)}"


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


@main.command()
@click.argument("log", type=LogPath())
@_seed_option
@click.option("--upto", type=click.IntRange(min=1), help="The moves after this line.")
@click.option(
    "--json", "as_json", is_flag=True, help="The side, the decision and the moves as JSON."
)
def moves(log: Path, seed: str | None, upto: int | None, as_json: bool) -> None:
    """The legal commands at the end of LOG (or after line --upto)."""
    from referee.core.names import side_title
    from referee.output_plain import moves_lines, plain_stdout, unit_moves_lines, write_plain

    report = api.replay_file(log, seed=seed, upto=upto)
    if report.unreadable or report.engine is None:
        if as_json:
            output.print_json(envelope.report_json(report, units=[]))
        else:
            output.print_problems(output.make_console(stderr=True), report, shows=_CHECK_ALL)
        sys.exit(2)
    grouped = api.moves_by_unit(report)
    if as_json:
        # The envelope's exit code is the command's: the moves could be listed.
        output.print_json(envelope.report_json(report, exit_code=0, units=grouped))
        sys.exit(0)
    if grouped:
        # Activations grouped by unit: the pairs of units legal() also lists can run to
        # hundreds of thousands, and a player reads them unit by unit anyway.
        side = report.to_act() or ""
        decision = report.engine.decision(report.state)
        pending = report.pending() or {}
        alone = {c for unit in grouped for c in unit.get("commands", ())}
        others = [c for c in pending.get("choices", ()) if c not in alone]
        lines = unit_moves_lines(side_title(side), decision, grouped, others,
                                 bool(pending.get("more")))
    else:
        lines = moves_lines(report.pending())
    # Into a pipe without colour rich prints the very same text: written without loading
    # rich (15 ms of a 200 ms 'referee moves', issue 31; tests/cli/test_plain_moves.py).
    root = click.get_current_context().find_root()
    if not (plain_stdout(root.params.get("color", "auto")) and write_plain(lines)):
        output.print_lines(output.make_console(), lines)
    sys.exit(0)


@main.command()
@click.argument("log", type=LogPath())
@_seed_option
@click.option("--upto", type=click.IntRange(min=1), help="The position after this line.")
@click.option("-o", "--output", "out", type=click.Path(path_type=Path, dir_okay=False),
              help="Write it here (never over an existing file).")
@click.option("--json", "as_json", is_flag=True,
              help="The envelope with the position's text as 'position'.")
def position(log: Path, seed: str | None, upto: int | None, out: Path | None,
             as_json: bool) -> None:
    """The position at the end of LOG (or after line --upto) as a new log of setup lines."""
    report = api.replay_file(log, seed=seed, upto=upto)
    if as_json:
        _position_json(report)
    if report.unreadable:
        output.print_problems(output.make_console(stderr=True), report, shows=_CHECK_ALL)
        sys.exit(2)
    try:
        text = api.position_text(report)
    except RefereeError as error:
        _fail(str(error), 1)
    _emit_new_file(text, out, "position", [log])


def _position_json(report: api.Report) -> NoReturn:
    if report.unreadable:
        output.print_json(envelope.report_json(report, position=None))
        sys.exit(2)
    try:
        text = api.position_text(report)
    except RefereeError as error:
        problem = error.to_problem()
        output.print_json(envelope.report_json(report, problems=[*report.problems, problem],
                                             exit_code=1, position=None))
        sys.exit(1)
    output.print_json(envelope.report_json(report, position=text))
    sys.exit(report.exit_code)


@main.command()
@click.argument("game", shell_complete=_complete_game)
@click.option("--scenario", help="The scenario (default: the game's standard one).")
@click.option("--seed", help="The seed the dice are rolled from.")
@click.option("--random-seed", is_flag=True, help="Make a fresh random seed.")
@click.option("-o", "--output", "out", type=click.Path(path_type=Path, dir_okay=False),
              help="Write the new log here (never over an existing file).")
@click.option("--commit", is_flag=True, help="Play by e-mail: a secret seed, only its "
              "commitment in the header (docs/pbem.md).")
@click.option("--side", help="With --commit: a two-secret game that SIDE opens with its own "
              "secret (the others add theirs with 'referee join').")
@click.option("--secret-out", type=click.Path(path_type=Path, dir_okay=False),
              help="With --commit: the secret's file (default: beside -o, LOG.secret).")
@click.option("--position", type=click.Path(path_type=Path, dir_okay=False),
              help="With --commit: start from this position file, beside -o LOG (its "
              "SHA-256 is sealed in the header).")
@click.option("--scenario-file", type=click.Path(path_type=Path, dir_okay=False),
              help="Play on this scenario file of your own, beside the log "
              "([Scenario \"file:NAME\"]; with --commit its SHA-256 is sealed).")
def new(game: str, scenario: str | None, seed: str | None, random_seed: bool,
        out: Path | None, commit: bool, side: str | None, secret_out: Path | None,
        position: Path | None = None, scenario_file: Path | None = None) -> None:
    """The header of a new log of GAME; on standard error, what to write next (the first
    decision and its answers as log lines) and where the log format is documented."""
    if seed is not None and random_seed:
        raise click.UsageError("give --seed or --random-seed, not both")
    if commit:
        if seed is not None or random_seed:
            raise click.UsageError("a committed game keeps its seed secret: leave out --seed")
        new_committed(game, scenario, side, out, secret_out, position, scenario_file)
        return
    if side is not None or secret_out is not None or position is not None:
        raise click.UsageError("--side, --secret-out and --position go with --commit")
    if random_seed:
        seed = api.new_seed()
    if scenario_file is not None and out is not None and not same_folder(scenario_file, out):
        _fail(f"the scenario file {scenario_file} must lie in the folder of {out}: a log names "
              f"only files beside it")
    try:
        text = api.new_log(game, scenario, seed, scenario_file)
        steps = api.first_steps(text, scenario_file.parent if scenario_file else None)
    except ScenarioError as error:
        _fail_all(error.problems)
    except RefereeError as error:
        _fail(str(error))
    _emit_new_file(text, out, "new")
    click.echo("\n".join(steps), err=True)


@main.command()
@click.argument("game", shell_complete=_complete_game)
@click.argument("section", required=False)
@click.option("--json", "as_json", is_flag=True, help="One JSON document (docs/schema/rules.json).")
def rules(game: str, section: str | None, as_json: bool) -> None:
    """Every rule section of GAME's rulebook in order: what the referee does with it
    (refereed, partly, not refereed), the readings it takes and the tests that prove it.
    With SECTION (a number or heading: 6.3, 'Phase 2.3', waterways), that section alone and
    the problems of the bundled logs that cite it."""
    from referee.games import game_entry
    from referee.rules import bundled_problems, cited, rules_index

    try:
        entry = game_entry(game)
        index = rules_index(entry.id)
    except RefereeError as error:
        _fail(error.message)
    sections = index.sections if section is None else index.find(section)
    if not sections:
        _fail(f"{entry.title} has no rule section '{section}'; 'referee rules {entry.id}' "
              "lists them")
    data: dict[str, Any] = {
        "title": entry.title, "document": index.document,
        "interpretations": index.interpretations,
        "sections": [s.to_json() for s in sections],
    }
    if section is not None:
        data["cited"] = [{"log": log, "line": line, "rule": rule, "message": message}
                         for log, line, rule, message
                         in cited(index, sections, bundled_problems(entry.id))]
    if as_json:
        head = envelope.envelope(source=f"rules:{entry.id}", game=entry.id, problems=[],
                                 exit_code=0)
        output.print_json({**head, **data})
    else:
        output.print_rules(output.make_console(), data)


@main.command()
@click.argument("shell", type=click.Choice(("bash", "zsh", "fish")))
def completion(shell: str) -> None:
    """Print the shell completion script for SHELL: it completes commands, options, game
    ids, bundled logs (bundled:GAME/NAME.log) and files.

    \b
    Examples:
      eval "$(referee completion bash)"          # in ~/.bashrc
      eval "$(referee completion zsh)"           # in ~/.zshrc
      referee completion fish > ~/.config/fish/completions/referee.fish
    """
    from referee.completion import script

    click.echo(script(main, shell))


@main.command()
@click.argument("name", required=False)
def examples(name: str | None) -> None:
    """The logs shipped with the referee; replay one with 'referee replay bundled:NAME'.

    With NAME (battle-card/win.log, or bundled:battle-card/win.log), print that log's text.
    """
    from referee.core.resources import BUNDLED_PREFIX, bundled

    root = bundled("logs")
    if name is None:
        for path in sorted(root.rglob("*.log")):
            click.echo(f"bundled:{path.relative_to(root).as_posix()}")
        return
    wanted = name.removeprefix(BUNDLED_PREFIX)
    if not wanted.endswith(".log"):
        wanted += ".log"
    known = {path.relative_to(root).as_posix(): path for path in root.rglob("*.log")}
    if wanted not in known:
        _fail(f"there is no bundled log '{name}'; 'referee examples' lists them")
    click.echo(known[wanted].read_text(encoding="utf-8"), nl=False)


@main.command()
def lsp() -> None:
    """Run the language server over standard input and output, for an editor: the log's
    problems as it is typed, the legal moves, the position at any line (docs/editors.md).
    Needs the optional extra: pip install 'market-garden-referee[lsp]'."""
    try:
        from referee.lsp.server import serve
    except ImportError as error:
        _fail(f"referee lsp needs pygls ({error.name} is not installed): "
              "pip install 'market-garden-referee[lsp]'")
    serve()


@main.command("fmt")
@click.argument("log", type=LogPath())
@click.option("-o", "--output", "out", type=click.Path(path_type=Path, dir_okay=False),
              help="Write the formatted log here (never over an existing file).")
@click.option("--in-place", is_flag=True, help="Replace LOG with its formatted text.")
@click.option("--fix", is_flag=True, help="First repair what needs no decision: a mail "
              "client's quoting and wrapping, and each misspelt name with a single "
              "did-you-mean; every repair is listed (line, old, new) on standard error.")
def fmt(log: Path, out: Path | None, in_place: bool, fix: bool = False) -> None:
    """Rewrite LOG in canonical form: names as the game spells them, single spaces, '->'
    arrows, dice records after their commands, a comment of results on each line that has
    none.  The meaning never changes (the formatted log replays to the same state).  The
    text goes to standard output, unless -o OUT or --in-place."""
    if out is not None and in_place:
        raise click.UsageError("give -o OUT or --in-place, not both")
    if in_place and str(log) == STDIN:
        raise click.UsageError("standard input cannot be changed in place; give -o OUT")
    if out is not None:
        _refuse_output(out, False, [log])
    left: RefereeError | None = None
    try:
        if fix:
            before, after, fixes, formatted = api.repair_source(log)
            for repaired in fixes:
                click.echo(f"fixed {repaired}", err=True)
            if formatted is None:
                if not fixes:
                    _fail("a play-by-email log is sealed line by line: 'referee fmt' leaves it "
                          "as it is (--fix undoes only a mail client's quoting or wrapping)")
                click.echo("a play-by-email log: only the mail client's damage is undone (its "
                           "seals cover each line, so it is not reformatted)", err=True)
            elif isinstance(formatted, RefereeError):
                if not fixes:
                    _fail(formatted.message)
                left = formatted  # the repairs are written; what is left is named
            else:
                after = formatted.text
        else:
            before, after, _ = api.format_source(log)
    except RefereeError as error:
        _fail(error.message)
    _write_formatted(log, out, in_place, before, after)
    if left is not None:
        _fail(f"the repaired log still cannot be formatted: {left.message}", 1)


def _write_formatted(log: Path, out: Path | None, in_place: bool, before: str,
                     after: str) -> None:
    """``fmt``'s text: to standard output, to a new file ``out``, or over ``log``."""
    if out is None and not in_place:
        click.echo(after, nl=False)
        return
    from referee.core.files import write_atomic, write_new_file

    target = log if in_place else out
    assert target is not None
    try:
        if in_place:
            if after == before:
                click.echo(f"{log} is already in canonical form")
                return
            write_atomic(log, after)
        else:
            write_new_file(target, after, inputs=[log])
    except FileExistsError:
        _fail(f"{target} exists already; 'referee fmt' never writes over a file")
    except OSError as error:
        _fail(_write_failure(target, error))
    click.echo(f"wrote {target}")


@main.group()
def scenario() -> None:
    """Scenario data: check a file, show what a scenario holds."""


@scenario.command("check")
@click.argument("path", type=LogPath("scenarios"))
def scenario_check(path: Path) -> None:
    """Validate the scenario file or folder PATH; every problem in a sentence."""
    from referee.scenarios import check_path

    problems = check_path(path)
    console = output.make_console()
    for problem in problems:
        console.print(output.markup_free(problem))
    if problems:
        sys.exit(1)
    console.print(f"{path}: the scenario is valid")


@scenario.command("show")
@click.argument("game", shell_complete=_complete_game)
@click.option("--json", "as_json", is_flag=True, help="The whole scenario as JSON.")
def scenario_show(game: str, as_json: bool) -> None:
    """What the bundled scenario of GAME holds: places, borders, boxes, units."""
    from referee.scenarios import scenario_data

    try:
        data = scenario_data(game)
    except (RefereeError, ScenarioError) as error:
        _fail(str(error))
    if as_json:
        head = envelope.envelope(source=f"bundled:scenarios/{data['game']}", game=data["game"],
                               problems=[], exit_code=0)
        output.print_json({**head, **{k: v for k, v in data.items() if k not in head}})
    else:
        output.print_scenario(output.make_console(), data)


for _command in (play, undo, status, verify, mail, join, map_command, render, view, simulate,
                 batch):
    main.add_command(_command)


def _add_examples(group: click.Group, prefix: str = "") -> None:
    """End every command's ``--help`` with its examples (``referee.cli_examples``)."""
    from referee.cli_examples import epilog

    for name, command in group.commands.items():
        if isinstance(command, click.Group):
            _add_examples(command, f"{prefix}{name} ")
        else:
            command.epilog = epilog(prefix + name)


_add_examples(main)


if __name__ == "__main__":  # pragma: no cover
    main()
