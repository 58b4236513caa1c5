"""``referee rules``: one source per game (its rules-coverage document), and every section
marked refereed names tests that exist (issue 32)."""

from __future__ import annotations

import fnmatch
import json
import re
from functools import cache
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.cli import main
from referee.rules import NOT_REFEREED, REFEREED, rules_index, state_of

from .cli.schema_check import validate

ROOT = Path(__file__).resolve().parent.parent
TESTS = ROOT / "tests"
CHECKED = ["battle-card", "wwiic", "koenig-eindhoven", "arnhem44"]
"""The games whose coverage documents name their tests in a Tests column: all four."""


@cache
def known() -> tuple[frozenset[str], frozenset[str]]:
    """Every test function's name, and every test file's, test folder's and log's name
    (with and without its suffix) and path from the root of the checkout."""
    functions: set[str] = set()
    names: set[str] = set()
    for path in [*TESTS.rglob("*"), *(ROOT / "logs").rglob("*"), *(ROOT / "bench").rglob("*")]:
        relative = path.relative_to(ROOT).as_posix()
        names.update({path.name, path.stem, relative})
        if path.suffix == ".py" and path.is_file():
            functions.update(re.findall(r"^\s*def (test_\w+)", path.read_text("utf-8"), re.M))
    return frozenset(functions), frozenset(names)


def resolves(reference: str) -> bool:
    """Does a test reference of a coverage row name a test, a test file or folder, or a
    log that the tests replay (a ``*`` matches any run of characters)?"""
    functions, names = known()
    *where, name = reference.split("::")
    if where and not resolves(where[0]):
        return False
    return any(fnmatch.fnmatchcase(candidate, name) or fnmatch.fnmatchcase(candidate, f"*/{name}")
               for candidate in (*functions, *names))


@pytest.mark.parametrize("game", CHECKED)
def test_every_refereed_section_names_tests_that_exist(game: str) -> None:
    index = rules_index(game, ROOT / "docs")
    assert len(index.sections) >= 8
    wrong = [f"{s.heading}: no test named" for s in index.sections
             if s.state == REFEREED and not s.tests]
    wrong += [f"{s.heading}: `{t}` names no test" for s in index.sections
              for t in s.tests if not resolves(t)]
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("game", CHECKED)
def test_one_row_per_heading(game: str) -> None:
    """A heading stands once in its coverage document: a second row of it (one of them
    stale) is a defect."""
    headings = [s.heading for s in rules_index(game, ROOT / "docs").sections]
    assert len(headings) == len(set(headings)), [h for h in headings if headings.count(h) > 1]


def test_the_check_has_teeth(tmp_path: Path) -> None:
    (tmp_path / "wwiic-rules-coverage.md").write_text(
        "| Section | Covered | Enforced in | Tests |\n|---|---|---|---|\n"
        "| 6.3 | canals | `movement` | |\n"
        "| 6.4 | strategic movement | `movement` | `test_no_such_test_*` |\n"
        "| 9 | not yet | — | |\n", encoding="utf-8")
    index = rules_index("wwiic", tmp_path)
    assert [(s.heading, s.state) for s in index.sections] == [
        ("6.3", REFEREED), ("6.4", REFEREED), ("9", NOT_REFEREED)]
    assert not index.sections[0].tests
    assert not resolves(index.sections[1].tests[0])
    assert resolves("test_3H_*") and resolves("tests/cli/test_cli.py::test_games_lists_*")


def test_states_are_read_from_the_words() -> None:
    assert state_of("refereed (control by reading A6)", "status") == REFEREED
    assert state_of("not yet: the referee says so", "status") == NOT_REFEREED
    assert state_of("partly: the landing only", "state") == "partly"
    assert state_of("nothing to referee", "state") == "nothing to referee"
    assert state_of("", None) == REFEREED  # Battle Card's table lists what it enforces


def test_a_section_alone_with_its_readings_and_the_problems_citing_it() -> None:
    result = CliRunner().invoke(main, ["rules", "arnhem44", "waterways", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert not validate(data, "rules.json")
    assert [s["section"].split(":")[0] for s in data["sections"]] == ["Waterways"]
    assert data["cited"] and all(p["rule"] == "Waterways" for p in data["cited"])
    text = CliRunner().invoke(main, ["rules", "wwiic", "6.3"]).stdout
    assert text.splitlines()[1].startswith("6.3  [refereed]")
    assert "6.3.1" not in text.splitlines()[1]


def test_every_game_lists_its_sections_in_order() -> None:
    for game in ("battle-card", "wwiic", "koenig-eindhoven", "arnhem44"):
        result = CliRunner().invoke(main, ["rules", game, "--json"])
        assert result.exit_code == 0, result.output
        data = json.loads(result.stdout)
        assert not validate(data, "rules.json")
        assert len(data["sections"]) >= 8
    missing = CliRunner().invoke(main, ["rules", "wwiic", "99.9"])
    assert missing.exit_code == 2 and "no rule section '99.9'" in missing.stderr
