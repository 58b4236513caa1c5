"""A committed game on a scenario file of the user's own (``[Scenario "file:NAME"]``): the
file decides the game like a position file does, so its SHA-256 is sealed in the header
(``[ScenarioSha256]``, bound by the commitments and the seals over the start), and a file
changed after that is a named cheat, ``start-changed``."""

from __future__ import annotations

from pathlib import Path

from referee.core.log import ParsedLog
from referee.core.ownscenario import DIGEST_TAG, file_name, read_scenario_file
from referee.core.scenario import ScenarioError
from referee.pbem.errors import PbemError
from referee.pbem.keys import same


def scenario_seal_problems(log: ParsedLog) -> list[tuple[int, str, str]]:
    """(line, kind, sentence) for a committed game whose scenario file is not sealed, or is
    not the file it sealed."""
    name = file_name(log.tags.get("Scenario"))
    if name is None:
        return []
    line = log.tag_lines.get("Scenario") or 1
    sealed = log.tags.get(DIGEST_TAG)
    if sealed is None:
        return [(line, "unsealed", (
            f"a committed game seals its scenario file: the header needs [{DIGEST_TAG}] with "
            f"the SHA-256 of {name} ('referee new --commit --scenario-file {name}' writes it)"
        ))]
    if log.scenario_sha256 is not None and not same(sealed, log.scenario_sha256):
        return [(line, "start-changed", (
            f"the scenario was changed after it was sealed: the scenario file {name} is not "
            f"the one whose SHA-256 [{DIGEST_TAG}] holds (line {log.tag_lines.get(DIGEST_TAG)})"
        ))]
    return []


def scenario_tags(scenario_file: Path, out: Path | None) -> list[str]:
    """``[Scenario "file:NAME"]`` and ``[ScenarioSha256]`` for a scenario file beside the
    log ``out`` (read as a log that names it reads it)."""
    if out is None:
        raise PbemError("a game on a scenario file is written to a file: give -o LOG")
    folder = out.parent if str(out.parent) else Path(".")
    if Path(scenario_file.parent if str(scenario_file.parent) else ".").resolve() != (
            folder.resolve()):
        raise PbemError(f"the scenario file {scenario_file} must lie in the log's folder "
                        f"{folder.resolve()}")
    try:
        read = read_scenario_file(folder, scenario_file.name)
    except ScenarioError as error:
        raise PbemError("; ".join(error.problems)) from None
    return [f'[Scenario "file:{scenario_file.name}"]', f'[{DIGEST_TAG} "{read.sha256}"]']
