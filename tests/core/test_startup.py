"""The ``referee`` command loads its modules with the garbage collector paused and freezes
them (``referee.core.lazy``, issue 14's start-up); any other program importing the package
keeps its collector as it was."""

from __future__ import annotations

import gc
import json
import subprocess
import sys
from pathlib import Path

from referee.core.lazy import LazyModule, loading

ROOT = Path(__file__).resolve().parents[2]


def test_outside_the_command_loading_leaves_the_collector_alone() -> None:
    frozen = gc.get_freeze_count()
    with loading():
        assert gc.isenabled()
    assert LazyModule("colorsys").rgb_to_hsv(0.0, 0.0, 0.0) == (0.0, 0.0, 0.0)
    assert gc.isenabled()
    assert gc.get_freeze_count() == frozen


def test_the_command_pauses_the_collector_while_loading_and_freezes_what_it_loaded() -> None:
    probe = (
        "import gc, json\n"
        "from referee.core import lazy\n"
        "lazy.start()\n"
        "seen = {}\n"
        "with lazy.loading():\n"
        "    seen['paused'] = not gc.isenabled()\n"
        "    import referee.cli\n"
        "seen['resumed'] = gc.isenabled()\n"
        "after_cli = gc.get_freeze_count()\n"
        "seen['frozen'] = after_cli > 0\n"
        "api = lazy.LazyModule('referee.api')\n"
        "api.replay_file\n"
        "seen['frozen again'] = gc.get_freeze_count() > after_cli\n"
        "seen['resumed again'] = gc.isenabled()\n"
        "from referee.games import engine_for\n"
        "engine_for('battle-card')\n"
        "loaded = gc.get_freeze_count()\n"
        "for _ in range(3):\n"
        "    engine_for('battle-card')\n"
        "seen['nothing frozen once loaded'] = gc.get_freeze_count() == loaded\n"
        "print(json.dumps(seen))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT, check=True
    )
    assert json.loads(done.stdout) == {
        "paused": True, "resumed": True, "frozen": True, "frozen again": True,
        "resumed again": True, "nothing frozen once loaded": True,
    }


def test_python_dash_m_referee_is_the_command() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "referee", "check", "bundled:battle-card/win.log"],
        capture_output=True, text=True, cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
