"""Who acts next and the exact command they run, in the syntax ``referee play`` takes.

``play`` prints it after every move and roll, ``mail`` puts it in the e-mail.  Nothing here
knows a game's rules: the step comes from the engine (``Table.replay().next``) and the
commands from the dice mode of the log.
"""

from __future__ import annotations

import shlex
from pathlib import Path

from referee.core.records import frozen
from referee.pbem.mode import MODERATOR, DiceMode, Mode, who
from referee.pbem.table import NextStep


@frozen
class Advice:
    """The next step in words, and the commands that take it.

    ``command``: the one command to run, when there is exactly one thing to do (a roll, a
    join, a move with a single legal answer); ``None`` when the party chooses among
    ``choices`` (each a move as ``play`` takes it), for which ``template`` shows where the
    choice goes and ``example`` is the command of the first choice, as written.
    """

    party: str | None
    """The party who runs the command (the moderator in a moderated game)."""
    actor: str | None
    """The side who decides (``None`` for a roll nobody decides)."""
    what: str
    command: str | None = None
    template: str | None = None
    example: str | None = None
    choices: tuple[str, ...] = ()
    more: bool = False

    @property
    def runnable(self) -> str | None:
        """A command that runs as written: the one command, else the first choice's."""
        return self.command or self.example


def secret_option(mode: Mode, party: str | None, log_name: str) -> str:
    """`` --secret game.german.secret`` (the file name ``new``/``join`` wrote by default),
    or nothing when the log needs no secret."""
    if not mode.committed or party is None:
        return ""
    from referee.pbem.header import default_secret_path  # a committed game only

    return " --secret " + shlex.quote(default_secret_path(Path(log_name), party).name)


def play_command(log_name: str, move: str | None, secret: str) -> str:
    """``referee play game.log "german: end" --secret game.german.secret``."""
    quoted = f' "{move}"' if move is not None else ""
    if move is not None and any(c in move for c in '"$`\\!'):
        quoted = " " + shlex.quote(move)
    return f"referee play {shlex.quote(log_name)}{quoted}{secret}"


def advise(mode: Mode, step: NextStep, log_name: str) -> Advice:
    """What the next step asks for, and of whom (``log_name``: the log as the reader saves
    it, ``game.log``)."""
    runner = MODERATOR if mode.kind is DiceMode.MODERATED else step.party
    secret = secret_option(mode, runner, log_name)
    if step.kind == "over":
        return Advice(None, None, step.sentence())
    if step.kind == "join":
        option = f" --side {step.party}" if step.party else ""
        return Advice(step.party, None, step.sentence(),
                      command=f"referee join {shlex.quote(log_name)}{option}")
    if step.kind == "roll" or (step.kind == "chance" and step.party is not None):
        return Advice(runner, None, f"{who(step.party)} rolls {step.decision}",
                      command=play_command(log_name, None, secret))
    if step.kind == "chance":
        if mode.kind is DiceMode.TABLE:
            example = step.choices[0] if step.choices else "ROLL"
            return Advice(None, None, f"the referee's roll, with dice rolled at the table: "
                          f"{step.decision}",
                          template=play_command(log_name, f"{example} {{dN: ...}}", ""))
        return Advice(None, None, f"the referee rolls {step.decision}",
                      command=play_command(log_name, None, ""))
    side = step.party
    moves = tuple(step.choices)
    prefix = f"{side}: " if side else ""
    if len(moves) == 1 and not step.more:
        return Advice(runner, side, f"{who(side)} decides {step.decision}",
                      command=play_command(log_name, prefix + moves[0], secret), choices=moves)
    return Advice(
        runner, side, f"{who(side)} decides {step.decision}",
        template=play_command(log_name, prefix + "MOVE", secret),
        example=play_command(log_name, prefix + moves[0], secret) if moves else None,
        choices=moves, more=step.more,
    )


def next_line(advice: Advice, log_name: str, own: frozenset[str] = frozenset()) -> str:
    """The one line ``play`` ends with: who is next and what they run.  ``own``: the parties
    whose secrets this command held (the same player goes on)."""
    if advice.party is None and advice.command is None and advice.template is None:
        return f"next: {advice.what}"
    runs = advice.command or advice.template or ""
    if advice.command is None and advice.choices:
        runs += f" (MOVE: one of {len(advice.choices)}{'+' if advice.more else ''}" \
                f" choices; 'referee mail {log_name}' lists them)"
    if advice.party is None or advice.party in own or not own:
        return f"{who(advice.party) if advice.party else 'anyone'} runs: {runs}"
    return f"mail {log_name} to {who(advice.party)}, who runs: {runs}"
