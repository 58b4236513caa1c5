"""A line refused for its dice is first tried at the lowest and at the highest faces (is it
illegal whatever the dice?).  A roll repeated while two dice are equal never ends when every
die shows one face, so the trial is bounded (``noting.TRIAL_FACES``): the fuzz found this
log take 18 GB and 40 s before the bound (seed 10004617 of ``bench/fuzz_commands.py``)."""

from __future__ import annotations

import resource
import subprocess
import sys

import pytest

from referee.core.errors import ProblemKind
from referee.core.noting import HIGHEST, TRIAL_FACES, TrialTooLong

# Withdrawal: "In case of a tie both players roll one die to settle the clash"; the record
# holds two ties and then one die of the pair that settles it.
TIE_TOO_SHORT = """[Game "arnhem44"]
setup: clear; round 1; phase 4.1
setup: place 1 inf/UK, 1 inf Heelsum; place 1 inf Heide; place 1 inf/UK Renkum
allied: end movement
combat Heelsum {d10: 1 9 | 1 | 1 9 | 1}
withdraw-order {d10: 3 3 7 7 2}
"""


def test_a_tie_roll_short_of_its_dice_is_a_dice_problem_not_an_endless_trial() -> None:
    # In a child process with its memory bounded: should the bound go, this test fails
    # (MemoryError) instead of taking the machine's memory.
    script = ("import sys; from referee.api import replay_text; "
              "r = replay_text(sys.stdin.read()); "
              "print(' '.join(f'{p.line}:{p.kind}' for p in r.problems))")

    def bounded() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))

    done = subprocess.run([sys.executable, "-c", script], input=TIE_TOO_SHORT, text=True,
                          capture_output=True, timeout=120, preexec_fn=bounded, check=False)
    assert done.returncode == 0, done.stderr[-500:]
    assert done.stdout.split() == [f"6:{ProblemKind.DICE_MISSING}"]


def test_the_trial_stops_past_its_bound() -> None:
    assert HIGHEST.face(TRIAL_FACES - 1, 10) == 10
    with pytest.raises(TrialTooLong):
        HIGHEST.face(TRIAL_FACES, 10)
