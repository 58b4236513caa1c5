"""A committed game on a scenario file of the user's own: the file's SHA-256 is sealed in
the header ([ScenarioSha256]), and a file changed after the commitment is the named cheat
'start-changed', found by 'play' and 'verify' (docs/pbem.md)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from ..conftest import LOGS
from .helpers import run

HILLTOP = LOGS / "koenig-eindhoven" / "scenario-files" / "hilltop.toml"


def committed(tmp_path: Path) -> Path:
    shutil.copy(HILLTOP, tmp_path / "hilltop.toml")
    log = tmp_path / "g.log"
    ran = run("new", "koenig-eindhoven", "--commit", "--scenario-file",
              tmp_path / "hilltop.toml", "-o", log)
    assert ran.code == 0, ran.err
    return log


def test_the_scenario_file_is_sealed_and_plays(tmp_path: Path) -> None:
    log = committed(tmp_path)
    text = log.read_text()
    assert '[Scenario "file:hilltop.toml"]' in text and "[ScenarioSha256 " in text
    assert run("play", log, "--secret", tmp_path / "g.secret").code == 0


def test_a_changed_scenario_file_is_the_cheat_start_changed(tmp_path: Path) -> None:
    log = committed(tmp_path)
    assert run("play", log, "--secret", tmp_path / "g.secret").code == 0
    scenario = tmp_path / "hilltop.toml"
    scenario.write_text(scenario.read_text().replace("slope = true", "slope = false"))
    ran = run("verify", log, "--secret", tmp_path / "g.secret", "--json")
    found = json.loads(ran.out)["findings"]
    assert ran.code == 1 and found[0]["kind"] == "start-changed"
    assert "scenario file hilltop.toml is not the one" in found[0]["message"]
    ran = run("play", log, "--secret", tmp_path / "g.secret")
    assert ran.code != 0 and "the scenario was changed after it was sealed" in ran.err


def test_an_unsealed_scenario_file_is_named(tmp_path: Path) -> None:
    log = committed(tmp_path)
    log.write_text("\n".join(line for line in log.read_text().splitlines()
                             if not line.startswith("[ScenarioSha256")) + "\n")
    ran = run("verify", log, "--secret", tmp_path / "g.secret", "--json")
    kinds = [f["kind"] for f in json.loads(ran.out)["findings"]]
    assert ran.code == 1 and "unsealed" in kinds
