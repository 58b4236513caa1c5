"""Play by e-mail in plain text: what ``status``, ``play``, ``undo``, ``verify``, ``join``
and ``mail`` print.  It goes into e-mails, so it is written to a text stream with no colour
and no box drawing, and the mail itself at most 72 columns wide, with nothing a mail client
rewrites.  The rest of the output, and the JSON envelope, are ``referee.output``'s."""

from __future__ import annotations

from collections.abc import Sequence
from typing import IO, TYPE_CHECKING, Any

from referee.core.envelope import ENVELOPE_KEYS, envelope, outcome_json, pending_json
from referee.core.flood import SHOWN, rest_line
from referee.output_plain import dice_line, printable, problem_plain

if TYPE_CHECKING:  # play-by-email results; imported only for the types
    from referee.pbem.header import Created
    from referee.pbem.mail import Mail
    from referee.pbem.play import IllegalPlay, PlayResult, UndoResult
    from referee.pbem.status import Status
    from referee.pbem.verify import Verdict


# -- play-by-email: plain text (it goes into e-mails), written to a text stream -----------

def _lines(out: IO[str], *lines: str) -> None:
    for line in lines:
        out.write("\n".join(printable(part) for part in line.split("\n")) + "\n")


def print_status(out: IO[str], status: Status, *, everything: bool = False) -> None:
    """``referee status``: plain text for the body of an e-mail (no colour, no boxes).  A
    flood of problems is capped as ``print_problems`` caps it; ``everything`` lists all."""
    step = status.next
    _lines(out, f"Game:     {status.title} ({status.game}), scenario {status.scenario}",
           f"Log:      {status.source}" + (f", last {status.last}" if status.last else ""),
           f"Dice:     {status.dice}")
    for index, player in enumerate(status.players):
        _lines(out, ("Players:  " if index == 0 else "          ") + player)
    if status.turn is not None:
        _lines(out, f"Turn:     {status.turn}")
    _lines(out, f"Next:     {step.sentence()}")
    pending = status.report.pending() if status.report is not None else None
    if pending is not None and pending["dice"]:
        _lines(out, "Roll:     " + dice_line(pending["dice"]).removeprefix("roll: "))
    if step.kind == "move" and step.choices:
        shown = list(step.choices)
        if len(shown) > STATUS_CHOICES or step.more:
            shown = grouped_choices(step.choices, STATUS_GROUPS)
            count = f"more than {len(step.choices)}" if step.more else str(len(step.choices))
            shown.append(f"({count} choices in all; 'referee moves {status.source}' lists "
                         f"every one)")
        _lines(out, "Choices:  " + shown[0], *("          " + c for c in shown[1:]))
    _lines(out, f"Result:   {status.result}")
    if status.problems:
        _lines(out, f"Problems: {len(status.problems)} (referee verify shows them all)")
        listed = status.problems if everything else status.problems[:SHOWN]
        for problem in listed:
            _lines(out, "  " + problem_plain(problem, status.source).replace("\n", "\n  "))
        if len(listed) < len(status.problems):
            _lines(out, "  " + rest_line(status.problems[len(listed):]))


STATUS_CHOICES = 15
"""``status`` lists at most this many choices one by one; more are grouped."""

STATUS_GROUPS = 12
"""``status`` shows at most this many groups of choices."""

_GROUP_WIDTH = 72


def grouped_choices(choices: Sequence[str], groups: int = 25) -> list[str]:
    """Choices grouped by their first two words (a command and its unit): each group's
    first choice as the command ``play`` takes, then how many more the group has
    (``    and 4 more 'move K/1AB ...'``); at most ``groups`` groups."""
    by_head: dict[str, list[str]] = {}
    for choice in choices:
        head = " ".join(choice.split(" ", 2)[:2])
        by_head.setdefault(head, []).append(choice)
    lines = []
    for head, members in list(by_head.items())[:groups]:
        lines.append(members[0])
        if len(members) > 1:
            lines.append(f"    and {len(members) - 1} more '{head} ...'")
    if len(by_head) > groups:
        lines.append(f"... and {len(by_head) - groups} more groups")
    return lines


def print_play(out: IO[str], result: PlayResult, *, dry_run: bool = False) -> None:
    """What ``referee play`` wrote, its results, and whose step comes next."""
    for written in result.written:
        verb = "rolled" if written.filled else "would write" if dry_run else "wrote"
        _lines(out, f"line {written.number} ({verb}): {written.text}")
        _lines(out, *(f"  {event}" for event in written.events))
    _lines(out, *(f"note: {note}" for note in result.notes))
    if dry_run:
        _lines(out, f"dry run: {result.source} is unchanged")
    elif result.saved:
        count = len(result.written)
        _lines(out, f"saved {result.source} ({count} line{'s' if count != 1 else ''})")
    _lines(out, f"next: {result.next.sentence()}", result.then)


def print_refusal(out: IO[str], refusal: IllegalPlay, source: str) -> None:
    """An illegal move: the reason, the rule, the legal alternatives; nothing written."""
    problem = refusal.problem
    rule = f" [{problem.rule}]" if problem.rule else ""
    _lines(out, f"illegal{rule}: {problem.message}", f"  move: {refusal.line}")
    if problem.hint:
        _lines(out, f"  {problem.hint}")
    elif refusal.choices:
        listed = "; ".join(refusal.choices)
        _lines(out, f"  legal here: {listed}" + (" ..." if refusal.more else ""))
    _lines(out, f"nothing was written: {source} is unchanged")


def print_undo(out: IO[str], result: UndoResult, *, dry_run: bool = False) -> None:
    for line in result.removed:
        _lines(out, f"{'would remove' if dry_run else 'removed'}: {line}")
    if result.saved:
        _lines(out, f"saved {result.source}")
    _lines(out, f"next: {result.next.sentence()}")


def print_verdict(out: IO[str], verdict: Verdict) -> None:
    """``referee verify``: every finding with its line, what was proved, what was not."""
    _lines(out, f"{verdict.source}: {verdict.game}, {verdict.mode.describe()}")
    for finding in verdict.findings:
        where = f"{verdict.source}:{finding.line}" if finding.line else verdict.source
        rule = f" [{finding.rule}]" if finding.rule else ""
        _lines(out, f"{where}: {finding.kind}{rule}: {finding.message}")
        if finding.text:
            _lines(out, f"    {finding.text}")
        if finding.hint:
            _lines(out, f"    {finding.hint}")
    _lines(out, *(f"proved: {item}" for item in verdict.proved))
    _lines(out, *(f"not checked: {item}" for item in verdict.unchecked))
    if verdict.next is not None:
        _lines(out, f"position: {verdict.next.sentence()}")
    if verdict.findings:
        count = len(verdict.findings)
        _lines(out, f"verdict: {count} problem{'s' if count != 1 else ''} found")
    elif verdict.unchecked:
        _lines(out, "verdict: nothing wrong found, but not everything could be checked")
    else:
        _lines(out, "verdict: proved: every move legal, every die and seal as committed")


def print_created(out: IO[str], created: Created, *, joined: bool = False) -> None:
    """``referee new --commit`` and ``referee join``: what was written where."""
    if created.log is None:
        out.write(created.header)
    else:
        _lines(out, f"{'joined' if joined else 'wrote'} {created.log} "
               f"(commitment of {created.party})")
    _lines(out, f"secret of {created.party}: {created.secret_path} (keep it to yourself until "
           f"the game is over)")


def verdict_json(verdict: Verdict) -> dict[str, Any]:
    """``referee verify --json``: the envelope (its problems are the findings), then what
    was proved and what was not."""
    own = {k: v for k, v in verdict.to_json().items() if k not in ENVELOPE_KEYS}
    findings = [finding.to_json() for finding in verdict.findings]
    report = verdict.report
    if report is None:
        return envelope(source=verdict.source, game=verdict.game, problems=findings,
                        exit_code=verdict.exit_code, **own)
    return envelope(
        source=verdict.source, game=verdict.game, problems=findings,
        exit_code=verdict.exit_code, state=report.state_json(), pending=pending_json(report),
        outcome=outcome_json(report.outcome()), **own,
    )


# -- referee mail: the body of the next e-mail (72 columns, nothing a mail client rewrites) --

MAIL_CHOICES = 30
"""``mail`` lists at most this many choices; ``referee moves`` lists every one."""


def mail_text(mail: Mail) -> str:
    """The body of the e-mail: the proof (a problem first of all), the new lines with their
    dice and events, whose step and the command, the board; every line at most 72 columns."""
    from referee.core.mail import wrap, wrap_command
    from referee.pbem.mode import who

    out: list[str] = []
    out += wrap(mail.proof())
    for finding in mail.verdict.findings:
        where = f"line {finding.line}: " if finding.line else ""
        out += wrap(f"{where}{finding.kind}: {finding.message}", "  ")
    out.append("")
    out += wrap(f"{mail.title}, {mail.log_name}" + (f", turn {mail.turn}" if mail.turn
                                                     else ""))
    if mail.lines:
        first, last = mail.lines[0].number, mail.lines[-1].number
        span = f"line {first}" if first == last else f"lines {first}-{last}"
        out += wrap(f"New {mail.since} ({span}):")
        for line in mail.lines:
            author = who(line.side) if line.side else "Referee"
            verb = " (now rolled)" if line.rolled else ""
            out += wrap(f"{line.number} {author}{verb}: {line.text}", "  ", "      ")
            for event in line.events:
                out += wrap(event, "      ", "  ")
    else:
        out += wrap(f"Nothing new {mail.since}.")
    out.append("")
    advice = mail.advice
    out += wrap(f"Next: {advice.what}")
    run = "Run"
    if advice.party == "moderator" and advice.actor is not None:
        run = f"{who(advice.actor)} mails the move to the moderator, who runs"
    if advice.command is not None:
        out += wrap(f"{run}:")
        out += wrap_command(advice.command)
    elif advice.template is not None and not advice.choices:
        out += wrap(f"{run}, with the dice rolled at the table in the braces:")
        out += wrap_command(advice.template)
    elif advice.template is not None:
        out += wrap(f"{run}, with MOVE one of the choices below:")
        out += wrap_command(advice.template)
        if advice.example is not None:
            out.append("For example:")
            out += wrap_command(advice.example)
    if advice.command is None and advice.choices:
        shown = list(advice.choices)
        total = f"{len(shown)}{' or more' if advice.more else ''}"
        if len(shown) > MAIL_CHOICES or advice.more:
            shown = grouped_choices(shown, MAIL_CHOICES)
        out.append(f"Choices ({total}):")
        if any(choice.endswith(" VALUE") for choice in advice.choices):
            out += wrap("(VALUE: the value you choose face down; 'play' writes only its "
                        "commitment)", "  ")
        for choice in shown:
            out += wrap(choice, "      " if choice.startswith(" ") else "  ", "      ")
        if len(shown) != len(advice.choices) or advice.more:
            out += wrap(f"(every one: referee moves {mail.log_name})", "  ")
    out += wrap(f"Result: {mail.result}")
    if mail.board is not None:
        out += wrap(f"Board: {mail.board} (attached)")
    return "\n".join(printable(line) for line in out) + "\n"


def print_mail(out: IO[str], mail: Mail) -> None:
    out.write(mail_text(mail))


def mail_json(mail: Mail) -> dict[str, Any]:
    """``referee mail --json``: the envelope (its problems are the verify findings), then
    the mail's parts and its text."""
    advice = mail.advice
    report = mail.verdict.report
    own = {
        "verified": mail.proof(), "since": mail.since, "copy": mail.copy,
        "reader": mail.reader, "lines": [line.to_json() for line in mail.lines],
        "next": {"party": advice.party, "actor": advice.actor, "text": advice.what,
                 "command": advice.command, "template": advice.template,
                 "example": advice.example, "choices": list(advice.choices),
                 "more": advice.more},
        "turn": mail.turn, "result": mail.result, "board": mail.board,
        "body": mail_text(mail),
    }
    return envelope(
        source=mail.source, game=mail.game,
        problems=[finding.to_json() for finding in mail.verdict.findings],
        exit_code=mail.exit_code,
        state=None if report is None else report.state_json(),
        pending=None if report is None else pending_json(report),
        outcome=None if report is None else outcome_json(report.outcome()), **own,
    )
