"""Hostile files (issue 11): what a log names, and the log itself, are read only when they are
regular files of bounded size; a position file must lie in the log's folder, and one that is
not a position is refused without a word of its text."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.api import replay_text
from referee.cli import main
from referee.core.errors import LogLimitError
from referee.core.parsing import MAX_BYTES
from referee.core.reading import FileRefused, contained_in, read_bounded

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs and /dev/zero")

SECRET = "root:x:0:0:a-secret-line:/root:/bin/bash"


def run(*arguments: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(arguments))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.exit_code, result.output


def problems(path: Path) -> tuple[int, list[dict[str, object]]]:
    code, out = run("replay", "--json", str(path))
    return code, json.loads(out)["problems"]


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """A log folder beside a secret file outside it, with every hostile kind of file."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text(SECRET + "\n", encoding="utf-8")
    logs = tmp_path / "logs"
    logs.mkdir()
    (logs / "link-out.pos").symlink_to(outside / "secret.txt")
    (logs / "zero.pos").symlink_to("/dev/zero")
    os.mkfifo(logs / "fifo.pos")
    with (logs / "sparse.pos").open("wb") as sparse:
        sparse.truncate(5 * 1024**3)  # 5 GB that take no room on the disk
    (logs / "folder.pos").mkdir()
    (logs / "passwd.pos").write_text(SECRET + "\nmore secret text\n", encoding="utf-8")
    return logs


def with_position(folder: Path, name: str) -> Path:
    log = folder / "game.log"
    log.write_text(f'[Game "battle-card"]\n[Position "{name}"]\n', encoding="utf-8")
    return log


@pytest.mark.parametrize(("name", "says"), [
    ("link-out.pos", "lies outside the log's folder"),
    ("zero.pos", "lies outside the log's folder"),
    ("fifo.pos", "a pipe (FIFO), not a position file"),
    ("sparse.pos", "5,368,709,120 bytes; the referee reads a position file of up to"),
    ("folder.pos", "a folder, not a position file"),
    ("/etc/passwd", "must name a file beside the log"),
    ("../outside/secret.txt", "must name a file beside the log"),
    ("passwd.pos", "is not a position: line 1 cannot be read"),
    ("missing.pos", "there is no position file there"),
    ("x" * 300, "the name is too long"),
])
def test_a_hostile_position_file_is_refused_in_a_sentence(folder: Path, name: str,
                                                          says: str) -> None:
    code, found = problems(with_position(folder, name))
    assert code == 2
    assert len(found) == 1 and says in str(found[0]["message"])
    text = json.dumps(found)
    assert "a-secret-line" not in text and "more secret" not in text


@pytest.mark.parametrize(("name", "says"), [
    ("zero.pos", "it is a device, not a log"),
    ("fifo.pos", "it is a pipe (FIFO), not a log"),
    ("sparse.pos", "it is 5,368,709,120 bytes; the referee reads a log of up to"),
    ("folder.pos", "it is a folder, not a log"),
    ("x" * 300, "the name is too long"),
])
@pytest.mark.parametrize("command", ["replay", "check", "status", "verify", "moves"])
def test_a_hostile_log_is_a_sentence_and_exit_2(folder: Path, name: str, says: str,
                                                command: str) -> None:
    code, out = run(command, str(folder / name))
    assert code == 2
    assert says in " ".join(out.split())


def test_a_good_position_file_beside_the_log_is_read(folder: Path) -> None:
    (folder / "start.pos").write_text('[Game "battle-card"]\n', encoding="utf-8")
    code, found = problems(with_position(folder, "start.pos"))
    assert code == 0 and found == []


def test_a_link_inside_the_folder_is_followed(folder: Path) -> None:
    (folder / "start.pos").write_text('[Game "battle-card"]\n', encoding="utf-8")
    (folder / "alias.pos").symlink_to(folder / "start.pos")
    code, found = problems(with_position(folder, "alias.pos"))
    assert code == 0 and found == []


def test_read_bounded_reads_at_most_the_limit_plus_one_byte(tmp_path: Path) -> None:
    path = tmp_path / "f"
    path.write_bytes(b"x" * 11)
    assert read_bounded(path, 11) == b"x" * 11
    with pytest.raises(LogLimitError, match="11 bytes"):
        read_bounded(path, 10)


def test_read_bounded_stops_at_the_limit_on_a_file_that_claims_no_size() -> None:
    # /proc files say they hold 0 bytes; the read is still bounded by the limit.
    status = Path("/proc/self/status")
    if not status.exists():
        pytest.skip("no /proc")
    with pytest.raises(LogLimitError, match="over 10 bytes"):
        read_bounded(status, 10)


def test_contained_in_refuses_a_path_out_of_the_folder(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    with pytest.raises(FileRefused, match="outside"):
        contained_in(tmp_path / "a", "../b")
    with pytest.raises(FileRefused, match="outside"):
        contained_in(tmp_path / "a", ".")
    assert contained_in(tmp_path / "a", "b") == (tmp_path / "a" / "b").resolve()


def test_the_log_limit_is_the_documented_one() -> None:
    assert MAX_BYTES == 16 * 1024 * 1024


# -- [Scenario] in Battle Card: a bundled name, never a path ---------------------------------

@pytest.mark.parametrize("name", ["/tmp/evil", "../battle-card/standard", "standard.toml",
                                  "a" * 300, "evil"])
def test_a_battle_card_log_names_only_a_bundled_scenario(tmp_path: Path, name: str) -> None:
    (tmp_path / "evil.toml").write_text('game = "battle-card"\nname = "x"\n', encoding="utf-8")
    log = tmp_path / "game.log"
    log.write_text(f'[Game "battle-card"]\n[Scenario "{name}"]\n', encoding="utf-8")
    code, out = run("check", str(log))
    assert code == 2
    assert "there is no Battle Card scenario" in out and "Battle Card has: standard" in out
    assert "a" * 61 not in out  # a long name is shortened


@pytest.mark.parametrize("game", ["wwiic", "arnhem44"])
def test_the_other_games_name_only_their_scenarios(tmp_path: Path, game: str) -> None:
    log = tmp_path / "game.log"
    log.write_text(f'[Game "{game}"]\n[Scenario "../../etc/passwd"]\n', encoding="utf-8")
    code, out = run("check", str(log))
    assert code == 2 and "no scenario" in out


@pytest.mark.parametrize(("text", "says"), [
    ("x = 1\n", "says no game"),
    ('game = "battle-card"\nname = "x"\n', "route: is missing"),
    ("a = " + "[" * 5000 + "\n", "not valid TOML"),
    ("= =\n", "not valid TOML"),
])
def test_scenario_check_of_a_file_that_is_no_scenario(tmp_path: Path, text: str,
                                                      says: str) -> None:
    path = tmp_path / "s.toml"
    path.write_text(text, encoding="utf-8")
    code, out = run("scenario", "check", str(path))
    assert code == 1 and says in out


def test_scenario_check_refuses_what_is_not_a_regular_file(folder: Path) -> None:
    for name, says in [("zero.pos", "a device"), ("fifo.pos", "a pipe (FIFO)"),
                       ("x" * 300, "cannot be read")]:
        code, out = run("scenario", "check", str(folder / name))
        assert code == 1 and says in " ".join(out.split())


# -- the [Game] tag: every shape that gave a traceback is a sentence -------------------------

@pytest.mark.parametrize("line", [
    '[game "battle-card"]', '[GAME "battle-card"]', '[Game "battle-card"] junk',
])
def test_a_game_tag_the_grammar_does_not_read_is_a_sentence(tmp_path: Path, line: str) -> None:
    log = tmp_path / "game.log"
    log.write_text(line + "\npass\n", encoding="utf-8")
    code, out = run("check", str(log))
    assert code == 2 and "is meant as the [Game] tag but is not one" in out


@pytest.mark.parametrize("space", ["\u00a0", "\u3000"])
def test_a_unicode_space_before_the_game_tag_is_a_sentence_in_text(space: str) -> None:
    # Read from a file, these spaces become ASCII ones (referee.core.encoding); text given
    # to the library as it is must still get a sentence, not a HeaderError traceback.
    report = replay_text(space + '[Game "battle-card"]\npass\n')
    assert report.exit_code == 2 and report.problems[0].kind == "header"


@pytest.mark.parametrize("text", [
    '[Game "battle-card"]\n[Game "wwiic"]\n',
    '[Game "battle-card"]\n[Game "koenig-eindhoven"]\n',
    'pass\n[Game "battle-card"]\n',
    '[Game "koenig-eindhoven"]\n[Game "battle-card"]\n',
])
@pytest.mark.parametrize("command", ["replay", "status", "moves", "position"])
def test_a_second_or_late_game_tag_is_a_sentence(tmp_path: Path, text: str,
                                                 command: str) -> None:
    log = tmp_path / "game.log"
    log.write_text(text, encoding="utf-8")
    code, _ = run(command, str(log))
    assert code == 2 if command == "replay" else code in (1, 2)  # status: 1 for any problem


def test_an_ideographic_space_in_a_command_is_a_syntax_problem() -> None:
    # Found by the standing fuzz (seed 739): the rest-of-line token was only a U+3000 space.
    report = replay_text('[Game "wwiic"]\nallied: replace 44RT attack \u3000   # x\n')
    assert report.exit_code == 2 and report.problems[0].kind == "syntax"
