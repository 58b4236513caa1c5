"""A game played by e-mail between two folders, as two players would: each side keeps its
own secret and the copy it mailed last; on receiving the log it runs ``referee mail game.log
--since MAILED`` and runs the command that mail gives, as written (``MOVE`` replaced by the
side's choice when the mail lists choices)."""

from __future__ import annotations

import json
import re
import shlex
import shutil
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from .helpers import run

MAIL_WIDTH = 72

Chooser = Callable[[str, Sequence[str]], str]


@dataclass
class Mailbox:
    """Two players' folders and what went between them."""

    root: Path
    parties: tuple[str, str]
    mails: list[str] = field(default_factory=list)
    """Every mail read, in order (the body ``referee mail`` wrote)."""
    sent: int = 0
    """How many times the log went from one folder to the other."""
    plays: int = 0
    holder: str = ""
    """The side that received the log last."""

    def folder(self, party: str) -> Path:
        return self.root / party

    def log(self, party: str) -> Path:
        return self.folder(party) / "game.log"


def start(root: Path, game: str, first: str, second: str, position: str | None = None
          ) -> Mailbox:
    """``new --commit`` in the first side's folder, mailed, ``join`` in the second's,
    mailed back."""
    box = Mailbox(root, (first, second))
    for party in box.parties:
        box.folder(party).mkdir(parents=True)
    extra: list[str | Path] = []
    if position is not None:
        for party in box.parties:
            (box.folder(party) / "start.pos").write_text(position, encoding="utf-8")
        extra = ["--position", box.folder(first) / "start.pos"]
    ran = run("new", game, "--commit", "--side", first, *extra, "-o", box.log(first))
    assert ran.code == 0, ran.err
    _mail(box, first, second)
    assert run("join", box.log(second), "--side", second).code == 0
    box.holder = second  # who joined holds the log
    return box


def _mail(box: Mailbox, sender: str, receiver: str) -> None:
    """The sender mails the log: the receiver saves it as game.log; the sender keeps the copy
    it mailed (``mailed.log``)."""
    shutil.copyfile(box.log(sender), box.folder(sender) / "mailed.log")
    shutil.copyfile(box.log(sender), box.log(receiver))
    box.sent += 1


def read_mail(box: Mailbox, party: str, monkeypatch: pytest.MonkeyPatch) -> dict[str, object]:
    """``referee mail game.log --since mailed.log --json`` in the party's folder; the body is
    checked for width and for what mail clients rewrite."""
    monkeypatch.chdir(box.folder(party))
    since = ["--since", "mailed.log"] if (box.folder(party) / "mailed.log").exists() else []
    ran = run("mail", "game.log", *since, "--json")
    assert ran.code in (0, 1), ran.err
    data: dict[str, object] = json.loads(ran.out)
    body = str(data["body"])
    box.mails.append(body)
    for line in body.splitlines():
        assert len(line) <= MAIL_WIDTH, f"a mail line of {len(line)} columns: {line}"
        assert not line.startswith((">", "From ")), line
    return data


def command_in(body: str) -> list[str] | None:
    """The command after ``Run:`` (or the one-command ``For example:``), its continuation
    lines joined as a shell joins them; ``None`` when the mail has none."""
    found = re.search(r"^Run[^\n]*:\n((?:  [^\n]*\\\n)*  [^\n]*)$", body, re.MULTILINE)
    if found is None:
        return None
    return shlex.split(found.group(1).replace("\\\n", ""))


def play_out(box: Mailbox, choose: Chooser, monkeypatch: pytest.MonkeyPatch, *,
             max_plays: int = 400, until: Callable[[Mailbox], bool] | None = None) -> str:
    """Play to the end (or until ``until(box)`` holds just after a mail): the side whose step
    it is reads its mail and runs its command; when the step passes to the other side, the
    log is mailed.  Returns the side that holds the log."""
    holder = box.holder
    for _ in range(max_plays):
        if until is not None and until(box):
            return holder
        data = read_mail(box, holder, monkeypatch)
        body = str(data["body"])
        assert body.startswith("Verified:"), body
        step = data["next"]
        assert isinstance(step, dict)
        party = step["party"]
        if step["command"] is None and step["template"] is None:
            assert "the game is over" in str(step["text"]), body
            return holder
        if party != holder:
            _mail(box, holder, str(party))
            holder = str(party)
            box.holder = holder
            continue
        words = command_in(body)
        assert words is not None and words[0] == "referee", body
        if "MOVE" in " ".join(words):
            choice = choose(str(party), list(step["choices"]))
            words = [w.replace("MOVE", choice) for w in words]
        ran = run(*words[1:])
        assert ran.code == 0, body + ran.out + ran.err
        box.plays += 1
        assert re.search(r"(runs|mail game\.log to \w+, who runs): ", ran.out) or (
            "game is over" in ran.out), ran.out
    raise AssertionError(f"the game did not end within {max_plays} plays")
