"""``referee mail``: the body of the next e-mail (issue 29), and whole games played by
e-mail between two folders with it."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest

from .helpers import run
from .mailing import play_out, start


def first_or_pass(party: str, choices: Sequence[str]) -> str:
    return "pass" if "pass" in choices else choices[0]


@pytest.mark.usefixtures("fast_disk")
def test_a_whole_battle_card_game_by_mail(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                          ) -> None:
    box = start(tmp_path, "battle-card", "allied", "keeper")
    play_out(box, first_or_pass, monkeypatch)
    monkeypatch.chdir(tmp_path)
    ran = run("verify", box.log("allied"), "--secret", box.folder("allied") /
              "game.allied.secret", "--secret", box.folder("keeper") / "game.keeper.secret")
    assert ran.code == 0 and "verdict: proved" in ran.out, ran.out
    assert box.sent > 6 and len(box.mails) > box.plays  # one mail read before every play
