"""A WWII Commander opening played only through 'referee play', in both committed modes,
then verified (as far as the engine has landed: the plays follow its legal answers)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from .helpers import action_lines, run, status


def play_opening(log: Path, secret_of: Callable[[str], Path], plays: int) -> list[str]:
    """Play ``plays`` steps: each side's pass when it may (which keeps the game moving
    through its turns), else its last listed answer; the dice rolled by whoever the log
    waits for."""
    kinds = []
    for _ in range(plays):
        step = status(log)["next"]
        assert isinstance(step, dict)
        if step["kind"] == "over":
            break
        kinds.append(str(step["kind"]))
        choices = step["choices"]
        assert isinstance(choices, list)
        move = [] if step["kind"] in ("roll", "chance") else [
            "pass" if "pass" in choices else choices[-1]
        ]
        ran = run("play", log, *move, "--secret", secret_of(str(step["party"])))
        assert ran.code == 0, ran.out + ran.err
    return kinds


@pytest.mark.usefixtures("fast_disk")
def test_a_moderated_wwiic_opening_then_verified(tmp_path: Path) -> None:
    log, secret = tmp_path / "game.log", tmp_path / "game.secret"
    assert run("new", "wwiic", "--commit", "-o", log).code == 0
    play_opening(log, lambda party: secret, 10)
    text = log.read_text()
    assert text.count("[seal ") == len(action_lines(text))
    assert "move-out" in text and "turn 2" in text
    ran = run("verify", log, "--secret", secret)
    assert ran.code == 0, ran.out
    assert "verdict: proved" in ran.out


@pytest.mark.usefixtures("fast_disk")
def test_a_two_secret_wwiic_opening_then_verified(tmp_path: Path) -> None:
    log = tmp_path / "game.log"
    allied, german = tmp_path / "game.allied.secret", tmp_path / "game.german.secret"
    assert run("new", "wwiic", "--commit", "--side", "allied", "-o", log).code == 0
    assert run("join", log, "--side", "german").code == 0
    secrets = {"allied": allied, "german": german}
    play_opening(log, lambda party: secrets[party], 10)
    ran = run("verify", log, "--secret", allied, "--secret", german)
    assert ran.code == 0, ran.out
    assert "verdict: proved" in ran.out
    # An edited die is caught at its line.
    text = log.read_text()
    lines = text.splitlines()
    rolled = [i for i, line in enumerate(lines) if "{d10: " in line]
    assert rolled, "the opening rolls the weather at least"
    i = rolled[0]
    face = lines[i].split("{d10: ")[1].split("}")[0].split()[0]
    lines[i] = lines[i].replace(f"{{d10: {face}", f"{{d10: {int(face) % 10 + 1}", 1)
    log.write_text("\n".join(lines) + "\n")
    ran = run("verify", log, "--secret", allied, "--secret", german)
    assert ran.code == 1
    assert f"{i + 1}:" in ran.out or f"line {i + 1}" in ran.out
