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


def position_near_the_end(log: str, upto: int) -> str:
    """The position of a bundled complete game after line ``upto`` (``referee position``),
    as a position file: its setup lines (the seed of the bundled game stays out)."""
    ran = run("position", f"bundled:{log}", "--upto", str(upto))
    assert ran.code == 0, ran.err
    return "".join(line + "\n" for line in ran.out.splitlines()
                   if not line.startswith(("[Seed ", "[Draw ")))


def ending(party: str, choices: Sequence[str]) -> str:
    """A quick player: ends or passes when the rules let it, else takes the first choice."""
    for answer in ("end", "pass", "end movement"):
        if answer in choices:
            return answer
    return choices[0]


NEAR_THE_END = {
    "koenig-eindhoven": ("koenig-eindhoven/complete-game.log", 365),
    "wwiic": ("wwiic/full-game-draw.log", 428),
    "arnhem44": ("arnhem44/complete-game.log", 577),
}


@pytest.mark.usefixtures("fast_disk")
@pytest.mark.parametrize("game", list(NEAR_THE_END))
def test_the_end_of_a_game_by_mail(game: str, tmp_path: Path,
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    log, upto = NEAR_THE_END[game]
    box = start(tmp_path, game, "allied", "german", position_near_the_end(log, upto))
    play_out(box, ending, monkeypatch)
    monkeypatch.chdir(tmp_path)
    ran = run("verify", box.log("allied"), "--secret", box.folder("allied") /
              "game.allied.secret", "--secret", box.folder("german") / "game.german.secret")
    assert ran.code == 0 and "verdict: proved" in ran.out, ran.out
    assert box.plays >= 3 and box.sent >= 3
