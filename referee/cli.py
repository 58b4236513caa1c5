"""The ``referee`` command: click commands only.  Each parses its options, calls the library
(``referee.api`` and the core) and hands the result to ``referee.output``."""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

import click

from referee import __version__
from referee.core.errors import RefereeError
from referee.core.resources import forget_shown, resolve
from referee.core.scenario import ScenarioError

if TYPE_CHECKING:
    from referee import api, output
    from referee.core import envelope, progress
else:  # imported on first use: --help and --version load no engine, check no rich
    from referee.core.lazy import LazyModule

    api = LazyModule("referee.api")
    output = LazyModule("referee.output")
    envelope = LazyModule("referee.core.envelope")
    progress = LazyModule("referee.core.progress")

F = TypeVar("F", bound=Callable[..., Any])

STDIN = "-"
"""A log named ``-`` is read from standard input (``referee.api.STDIN``)."""
STDIN_SOURCE = "<stdin>"


def _complete_game(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[Any]:
    from referee.completion import complete_game

    return complete_game(ctx, param, incomplete)


class LogPath(click.ParamType):  # type: ignore[type-arg]
    """A log file, ``bundled:GAME/NAME.log`` for one shipped with the referee, or ``-`` for
    standard input (logs only)."""

    name = "log"

    def __init__(self, folder: str = "logs") -> None:
        self.folder = folder

    def shell_complete(self, ctx: click.Context, param: click.Parameter, incomplete: str
                       ) -> list[Any]:
        from referee.completion import complete_bundled

        return complete_bundled(self.folder, incomplete)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Path:
        if isinstance(value, Path):
            return value
        if value == STDIN and self.folder == "logs":
            return Path(STDIN)
        try:
            return resolve(str(value), self.folder)
        except ValueError as error:
            self.fail(str(error), param, ctx)


def _executor_options(work: str) -> Callable[[F], F]:
    """``--jobs``, ``--executor`` and ``--scheduler``, shared by ``simulate`` and ``batch``."""

    def decorate(command: F) -> F:
        for option in reversed([
            click.option("--jobs", type=click.IntRange(min=1), help="Worker processes "
                         "(default: 1 for serial, one per core otherwise)."),
            click.option("--executor", type=click.Choice(["serial", "local", "dask"]),
                         help=f"Where {work}: here, a local process pool, or Dask "
                         "(default: serial, or local with --jobs above 1)."),
            click.option("--scheduler", metavar="tcp://HOST:PORT",
                         help="A running Dask scheduler (implies --executor dask)."),
        ]):
            command = option(command)
        return command

    return decorate


def _emit_new_file(text: str, out: Path | None, command: str,
                   inputs: Sequence[Path | None] = ()) -> None:
    """Print ``text``, or write it to a new file ``out`` (never over an existing one)."""
    if out is None:
        click.echo(text, nl=False)
        return
    try:
        from referee.core.files import write_new_file  # tempfile: only when writing

        write_new_file(out, text, inputs=inputs)
    except FileExistsError:
        _fail(f"{out} exists already; 'referee {command}' never writes over a file")
    except OSError as error:
        _fail(_write_failure(out, error))
    click.echo(f"wrote {out}")


def _write_failure(out: Path | None, error: OSError) -> str:
    """The sentence of a file that could not be written (a refusal says its own)."""
    from referee.core.files import OutputRefused

    if isinstance(error, OutputRefused):
        return error.message
    return f"cannot write {out or 'the results'}: {error.strerror or error}"


_force_option = click.option("--force", is_flag=True,
                             help="Write over an existing output file (never over the input).")


def _refuse_output(out: Path, force: bool, inputs: list[Path | None], *,
                   picture: bool = False) -> None:
    """Stop with a sentence when ``out`` must not be written (see ``output_refusal``)."""
    from referee.core.files import output_refusal
    from referee.core.svg import PICTURE_SUFFIXES

    refusal = output_refusal(out, force=force, inputs=inputs,
                             suffixes=PICTURE_SUFFIXES if picture else (), what="picture")
    if refusal is not None:
        _fail(refusal)


def same_folder(a: Path, b: Path) -> bool:
    """``a`` and ``b`` lie in one folder (links followed)."""
    import os

    return os.path.realpath(a.parent if str(a.parent) else ".") == os.path.realpath(
        b.parent if str(b.parent) else ".")


def _fail(message: str, code: int = 2) -> NoReturn:
    console = output.make_console(stderr=True)
    console.print(f"[bold red]error:[/] {output.markup_free(message)}")
    sys.exit(code)


def _fail_all(problems: Sequence[str], code: int = 2) -> NoReturn:
    """Every problem (of a scenario file) as an error line of its own, then exit."""
    console = output.make_console(stderr=True)
    for problem in problems[:-1]:
        console.print(f"[bold red]error:[/] {output.markup_free(problem)}")
    _fail(problems[-1] if problems else "the scenario cannot be used", code)


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


_seed_option = click.option("--seed", help="Roll with this seed when the log has no [Seed] tag.")
_all_option = click.option(
    "--all", "everything", is_flag=True,
    help="Print every problem (the text shows the first 100, then counts the rest).")
_CHECK_ALL = "'referee check --all' shows them"


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
    report = api.replay_file(log, seed=seed, upto=upto)
    console = output.make_console()
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
        output.print_unit_moves(console, side, decision, grouped, others,
                                bool(pending.get("more")))
        sys.exit(0)
    output.print_moves(console, report.pending())
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
        _new_committed(game, scenario, side, out, secret_out, position, scenario_file)
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


@main.command("map")
@click.argument("game", shell_complete=_complete_game)
@click.option("-o", "--output", "out", required=True,
              type=click.Path(path_type=Path, dir_okay=False),
              help="The picture: FILE.svg, or FILE.png with the 'png' extra.")
@click.option("--log", "log", type=LogPath(), help="Draw the units and control of this log.")
@click.option(
    "--upto", type=click.IntRange(min=1), help="With --log: the position after this line."
)
@_force_option
def map_command(game: str, out: Path, log: Path | None, upto: int | None,
                force: bool = False) -> None:
    """Draw GAME's map as SVG (with --log, the position of a log on it)."""
    from referee.core.svg import write_picture
    from referee.scenarios import draw_map

    _refuse_output(out, force, [log], picture=True)
    try:
        svg = draw_map(game, log, upto)
        write_picture(out, svg, replace=force, inputs=[log])
    except FileExistsError:
        _fail(f"{out} exists already; give --force to write over it")
    except (RefereeError, ScenarioError) as error:
        _fail(str(error))
    except OSError as error:
        _fail(_write_failure(out, error))
    click.echo(f"wrote {out}")


@main.command()
@click.argument("game", shell_complete=_complete_game)
@click.option("--games", "count", type=click.IntRange(min=1, max=10_000_000), default=1000,
              show_default=True, metavar="COUNT", help="How many games to play.")
@click.option("--policy", default="random", show_default=True,
              help="How the player chooses: random, or a policy of the game (greedy).")
@click.option("--seed", default="selfplay", show_default=True, help="Game i uses seed SEED-i.")
@click.option("--save-logs", type=click.Path(path_type=Path, file_okay=False),
              help="Write every game's log into this folder.")
@click.option("--json", "as_json", is_flag=True, help="The summary as JSON.")
@click.option("--check-every", type=click.IntRange(min=1), default=10, show_default=True,
              help="Check every invariant after every command in one game of N (1: all); "
              "every game is checked at its end.")
@click.option("--option", "options", multiple=True, metavar="NAME",
              help="Play with this [Option] of the game (repeatable).")
@_executor_options("games are played")
def simulate(game: str, count: int, policy: str, seed: str, save_logs: Path | None,
             as_json: bool, check_every: int, options: tuple[str, ...], jobs: int | None,
             executor: str | None, scheduler: str | None) -> None:
    """Play COUNT games of GAME by a policy; print the win rate and how games ended."""
    from referee.batch.executors import ExecutorUnavailable, choose_executor
    from referee.simulate import run_simulation

    try:
        kind, workers = choose_executor(executor, jobs, scheduler)
        summary = run_simulation(game, count, policy, seed, save_logs,
                                 progress=output.make_console(stderr=True),
                                 executor=kind, jobs=workers, scheduler=scheduler,
                                 check_every=check_every, options=options)
    except (RefereeError, ValueError, ExecutorUnavailable) as error:
        _fail(str(error))
    except OSError as error:
        _fail(f"cannot write the logs: {error}")
    data: dict[str, Any] = output.summary_json(game, policy, summary)
    code = 1 if summary.broken else 0
    if as_json:
        head = envelope.envelope(source=f"simulate:{game}", game=game, problems=[],
                                 exit_code=code)
        output.print_json({**head, **{k: v for k, v in data.items() if k not in head}})
    else:
        output.print_summary(output.make_console(), data)
    sys.exit(code)


def _paths_with_stdin(paths: tuple[str, ...]) -> tuple[str, ...]:
    """``batch -``: the paths read from standard input, one a line (as ``find`` or ``ls``
    print them), in place of the ``-``; blank lines are passed over.  A name that is not
    UTF-8 keeps its bytes (``os.fsdecode``)."""
    import os

    listed = [os.fsdecode(line.rstrip(b"\r\n")) for line in sys.stdin.buffer
              if line.strip()]
    out: list[str] = []
    for path in paths:
        out.extend(listed if path == STDIN else [path])
    return tuple(out)


@main.command()
@click.argument("paths", nargs=-1, required=True, metavar="PATH...")
@_executor_options("logs are replayed")
@click.option("--out", type=click.Path(path_type=Path, dir_okay=False),
              help="Write the rows to FILE.jsonl or FILE.csv (default: JSON Lines on stdout).")
@click.option("--fail-fast", is_flag=True, help="Stop at the first log that is not legal.")
@_seed_option
@_force_option
@click.option("--log-seconds", type=click.FloatRange(min=0), default=120.0, show_default=True,
              help="Each log's time budget (0: none); a log over it is an over-budget row.")
@click.option("--log-megabytes", type=click.IntRange(min=0), default=2048, show_default=True,
              help="Each log's memory budget (0: none); a log over it is an over-budget row.")
@click.option("--resume", is_flag=True, help="Go on from FILE.partial, the rows an earlier "
              "--out FILE batch of the same PATHs wrote before it stopped.")
def batch(paths: tuple[str, ...], jobs: int | None, executor: str | None,
          scheduler: str | None, out: Path | None, fail_fast: bool, seed: str | None,
          force: bool = False, log_seconds: float = 120.0, log_megabytes: int = 2048,
          resume: bool = False) -> None:
    """Replay many logs: files, folders (every *.log below them) or globs.

    One result row per log (JSON Lines on stdout, or --out FILE.jsonl / FILE.csv), then a
    summary table (on stderr when the rows go to stdout).  A log that cannot be read is a
    row, not an error.  Exit codes: 0 every log is legal, 1 a log breaks the rules, 2 a log
    (or the command line) cannot be read.
    """
    import time

    from referee.batch import ExecutorUnavailable, open_results, open_runner, run_batch
    from referee.batch.discovery import count_logs
    from referee.batch.executors import choose_executor
    from referee.batch.results import PartialExists, format_of, partial_path, read_partial

    done: list[Any] = []
    if STDIN in paths:
        paths = _paths_with_stdin(paths)
    try:
        kind, workers = choose_executor(executor, jobs, scheduler)
        if resume and out is None:
            raise ValueError("--resume goes on from the partial file of --out FILE: give --out")
        if out is not None:
            format_of(out)
            _refuse_output(out, force, [Path(p) for p in paths])
            if resume:
                done = read_partial(out)
    except ValueError as error:
        _fail(str(error))
    except (PartialExists, OSError) as error:
        _fail(f"cannot resume from {partial_path(out or Path())}: {error}")
    errors = output.make_console(stderr=True)
    start = time.perf_counter()
    try:
        with (
            open_results(out, replace=force, resume=resume,
                         inputs=[Path(p) for p in paths]) as sink,
            progress.progress_bar(errors, total=0) as bar,
            open_runner(kind, workers, scheduler) as runner,
        ):
            total = count_logs(paths) if not bar.disable else None
            if total is not None:
                total -= min(total, len(done))
            task = bar.add_task("replaying", total=total)
            summary = run_batch(
                paths, runner, seed=seed, fail_fast=fail_fast, on_row=sink.write,
                on_chunk=lambda n: bar.advance(task, n), seconds=log_seconds or None,
                megabytes=log_megabytes or None, done=done,
            )
    except PartialExists as error:
        _fail(f"{error} is left from a batch that did not finish: give --resume to go on "
              "from it, or --force to start again")
    except (ExecutorUnavailable, ValueError) as error:
        kept = f"; the rows done so far are in {partial_path(out)}" if out is not None else ""
        _fail(f"{error}{kept}")
    except FileExistsError:
        _fail(f"{out} exists already; give --force to write over it")
    except OSError as error:
        _fail(_write_failure(out, error))
    seconds = time.perf_counter() - start
    console = output.make_console() if out is not None else errors
    output.print_batch_summary(console, summary.to_json(), seconds)
    sys.exit(summary.exit_code)


# -- play-by-email: play, undo, status, render, verify, join (docs/pbem.md) ----------------

_secret_option = click.option(
    "--secret", "secret_files", multiple=True, type=click.Path(path_type=Path, dir_okay=False),
    help="A secret file ('referee new --commit' wrote it); give it once per secret.")


def _table(log: Path, secret_files: tuple[Path, ...] = ()) -> Any:
    """The log opened for play-by-email; ``-`` reads it from standard input."""
    from referee.pbem.table import open_log, open_text

    if str(log) != STDIN:
        return open_log(log, secret_files)
    from referee.pbem.keys import read_secret

    secrets = [read_secret(p) for p in secret_files]
    return open_text(api.stdin_text(), STDIN_SOURCE, secrets)


def _refused(error: RefereeError) -> NoReturn:
    """A play-by-email error as a sentence, with its exit code (2 unless it says 1)."""
    _fail(error.message, int(getattr(error, "exit_code", 2)))


def _new_committed(game: str, scenario: str | None, side: str | None, out: Path | None,
                   secret_out: Path | None, position: Path | None = None,
                   scenario_file: Path | None = None) -> None:
    from referee.pbem.header import create

    try:
        created = create(game, scenario, side, out, secret_out, position, scenario_file)
    except ScenarioError as error:
        _fail_all(error.problems)
    except RefereeError as error:
        _refused(error)
    output.print_created(sys.stdout, created)


@main.command()
@click.argument("log", type=click.Path(path_type=Path, dir_okay=False))
@click.argument("move", required=False)
@_secret_option
@click.option("--dry-run", is_flag=True, help="Show what would happen; write nothing.")
def play(log: Path, move: str | None, secret_files: tuple[Path, ...], dry_run: bool) -> None:
    """Play MOVE on LOG ("allied: attack Grave"): check it, roll its dice, append it.

    Without MOVE, roll what LOG waits for (with --secret).  An illegal move changes nothing
    (exit 1).  The file is replaced atomically: never half written.
    """
    from referee.pbem.play import IllegalPlay, play_file

    out = sys.stdout
    try:
        result = play_file(log, move, secret_files, dry_run=dry_run)
    except IllegalPlay as refusal:
        output.print_refusal(sys.stderr, refusal, str(log))  # a refusal: standard error
        sys.exit(1)
    except RefereeError as error:
        _refused(error)
    output.print_play(out, result, dry_run=dry_run)


@main.command()
@click.argument("log", type=click.Path(path_type=Path, dir_okay=False))
@_secret_option
@click.option("--dry-run", is_flag=True, help="Show what would be removed; write nothing.")
def undo(log: Path, secret_files: tuple[Path, ...], dry_run: bool) -> None:
    """Take back the last move of LOG, if it rolled no dice and revealed nothing."""
    from referee.pbem.play import undo_file

    try:
        result = undo_file(log, secret_files, dry_run=dry_run)
    except RefereeError as error:
        _refused(error)
    output.print_undo(sys.stdout, result, dry_run=dry_run)


@main.command()
@click.argument("log", type=LogPath())
@click.option("--json", "as_json", is_flag=True, help="The same as one JSON document.")
@_all_option
def status(log: Path, as_json: bool, everything: bool) -> None:
    """Where LOG's game stands, as plain text for an e-mail: whose move, the choices."""
    from referee.pbem.status import status_of

    try:
        state = status_of(_table(log))
    except RefereeError as error:
        if as_json:
            _unreadable_json(log, error, title=None, scenario=None, dice=None, players=[],
                             turn=None, last=None, next=None,
                             result=envelope.outcome_words(None))
        _refused(error)
    code = state.exit_code
    if as_json:
        own = state.to_json()
        assert state.report is not None  # status_of always keeps its replay
        output.print_json(envelope.report_json(
            state.report, problems=state.problems, exit_code=code,
            **{k: v for k, v in own.items() if k not in envelope.ENVELOPE_KEYS}))
    else:
        output.print_status(sys.stdout, state, everything=everything)
    sys.exit(code)


def _unreadable_json(log: Path, error: RefereeError, **own: Any) -> NoReturn:
    """``status --json`` or ``verify --json`` of a log it cannot use: the envelope all the
    same, as ``replay`` and ``moves`` print one, with the refusal as its problem and the
    command's own keys (``own``) empty."""
    code = int(getattr(error, "exit_code", 2))
    source = STDIN_SOURCE if str(log) == STDIN else str(log)
    output.print_json(envelope.envelope(
        source=source, game=None, exit_code=code,
        problems=[{"kind": "header" if code == 2 else "protocol", "message": error.message,
                   "text": ""}],
        **own,
    ))
    sys.exit(code)


@main.command()
@click.argument("log", type=LogPath())
@click.option("-o", "--output", "out", type=click.Path(path_type=Path, dir_okay=False),
              required=True, help="The page to write: FILE.html.")
@_seed_option
@click.option("--force", is_flag=True, help="Write over FILE if it exists (never over LOG).")
def view(log: Path, out: Path, seed: str | None, force: bool) -> None:
    """Write LOG as one self-contained HTML page to step through: every position's board,
    the events and dice of each line, the problems, the outcome."""
    from referee.core.files import write_output
    from referee.viewer import ViewError, view_page

    if out.suffix.lower() not in (".html", ".htm"):
        _fail(f"{out}: the page is HTML; name it FILE.html")
    _refuse_output(out, force, [log])
    errors = output.make_console(stderr=True)
    try:
        # A long game takes seconds: a progress bar with its total on a terminal (standard
        # error; standard output stays clean), nothing on a pipe.
        with progress.progress_bar(errors, total=0) as bar:
            task = bar.add_task("replaying", total=None)

            def step(what: str, done: int, total: int) -> None:
                bar.update(task, description=what, completed=done, total=total)

            page = view_page(api.read_source(log), seed, None if bar.disable else step)
    except ViewError as error:
        _fail(error.message)
    except RefereeError as error:
        _refused(error)
    try:
        write_output(out, page.html, replace=force, inputs=[log])
    except FileExistsError:
        _fail(f"{out} exists already; give --force to write over it")
    except OSError as error:
        _fail(_write_failure(out, error))
    problems = f"; {page.problems} problems" if page.problems else ""
    click.echo(f"wrote {out} ({page.positions} positions{problems})")
    sys.exit(page.exit_code)


@main.command()
@click.argument("log", type=LogPath())
@click.option("-o", "--output", "out", type=click.Path(path_type=Path, dir_okay=False),
              help="The picture: FILE.svg, or FILE.png with the 'png' extra (default: SVG "
              "on standard output).")
@click.option("--upto", type=click.IntRange(min=1), help="The board after this line.")
@_force_option
def render(log: Path, out: Path | None, upto: int | None, force: bool = False) -> None:
    """Draw the board of LOG (after line --upto), the last action highlighted."""
    from referee.core.svg import write_picture
    from referee.pbem.board import board_svg

    if out is not None:
        _refuse_output(out, force, [log], picture=True)
    try:
        svg = board_svg(_table(log), upto)
        if out is None:
            click.echo(svg, nl=False)
            return
        write_picture(out, svg, replace=force, inputs=[log])
    except FileExistsError:
        _fail(f"{out} exists already; give --force to write over it")
    except RefereeError as error:
        _refused(error)
    except OSError as error:
        _fail(_write_failure(out, error))
    click.echo(f"wrote {out}")


@main.command()
@click.argument("log", type=LogPath())
@_secret_option
@click.option("--since", type=LogPath(), help="A copy of LOG mailed earlier: LOG must only "
              "add to it.")
@click.option("--json", "as_json", is_flag=True, help="The verdict as one JSON document.")
def verify(log: Path, secret_files: tuple[Path, ...], since: Path | None,
           as_json: bool) -> None:
    """Recheck LOG: every move, every die against the committed secrets, every seal."""
    from referee.pbem.verify import verify as verify_log

    try:
        table = _table(log, secret_files) if str(log) == STDIN else None
        verdict = verify_log(log, secret_files, since, table=table)
    except RefereeError as error:
        if as_json:
            _unreadable_json(log, error, mode="unknown", complete=False, proved=[],
                             unchecked=[], next=None)
        _refused(error)
    if as_json:
        output.print_json(output.verdict_json(verdict))
    else:
        output.print_verdict(sys.stdout, verdict)
    sys.exit(verdict.exit_code)


@main.command()
@click.argument("log", type=LogPath())
@click.option("--since", type=LogPath(),
              help="The copy of LOG the other side mailed last (or you mailed): the mail "
              "tells what was added since, and LOG must only add to it.")
@click.option("--board", type=click.Path(path_type=Path, dir_okay=False),
              help="Write the board beside LOG as FILE.svg (or FILE.png with the 'png' "
              "extra) to attach to the mail; never over an existing file.")
@_secret_option
@click.option("--json", "as_json", is_flag=True, help="The mail as one JSON document.")
def mail(log: Path, since: Path | None, board: Path | None, secret_files: tuple[Path, ...],
         as_json: bool) -> None:
    """The body of the next e-mail of LOG: what happened since THEIR copy, proved, whose
    turn it is and the exact command they run; plain text, at most 72 columns."""
    from referee.core.svg import write_picture
    from referee.pbem.board import board_svg
    from referee.pbem.mail import mail_of_table

    if board is not None:
        if board.name == str(board):
            board = log.parent / board  # a bare name: beside the log
        _refuse_output(board, False, [log, since], picture=True)
        if not same_folder(board, log):
            _fail(f"{board}: the board is written beside the log, in {log.parent}")
    try:
        table = _table(log, secret_files)
        letter = mail_of_table(table, log.name, since)
        if board is not None:
            write_picture(board, board_svg(table), replace=False)
            letter.board = board.name
    except FileExistsError:
        _fail(f"{board} exists already; 'referee mail' never writes over a file")
    except RefereeError as error:
        _refused(error)
    except OSError as error:
        _fail(f"cannot write {board}: {error.strerror or error}")
    if as_json:
        output.print_json(output.mail_json(letter))
    else:
        output.print_mail(sys.stdout, letter)
    sys.exit(letter.exit_code)


@main.command()
@click.argument("log", type=click.Path(path_type=Path, dir_okay=False))
@click.option("--side", help="The side that joins (default: the one that has not yet).")
@click.option("--secret-out", type=click.Path(path_type=Path, dir_okay=False),
              help="The new secret's file (default: LOG.SIDE.secret beside LOG).")
def join(log: Path, side: str | None, secret_out: Path | None) -> None:
    """Join a two-secret game: add your side's commitment to LOG, keep the secret."""
    from referee.pbem.header import join as join_game

    try:
        created = join_game(log, side, secret_out)
    except RefereeError as error:
        _refused(error)
    output.print_created(sys.stdout, created, joined=True)


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
