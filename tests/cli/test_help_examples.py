"""Issue 32: every command's ``--help`` ends with two or three examples, and they run as
written (in order, in an empty folder: an example may read what an earlier one wrote)."""

from __future__ import annotations

import os
import shlex
from collections.abc import Iterator
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from referee.cli import main
from referee.cli_examples import EXAMPLES


def commands(group: click.Group = main, prefix: str = "") -> Iterator[tuple[str, click.Command]]:
    for name, command in sorted(group.commands.items()):
        if isinstance(command, click.Group):
            yield from commands(command, f"{prefix}{name} ")
        else:
            yield prefix + name, command


def test_every_command_has_examples() -> None:
    names = [name for name, _ in commands()]
    assert sorted(names) == sorted(EXAMPLES), "a command without examples, or examples of none"
    for name in names:
        assert 1 <= len(EXAMPLES[name]) <= 3, name
        help_text = CliRunner().invoke(main, [*name.split(), "--help"]).stdout
        assert help_text.rstrip().endswith(EXAMPLES[name][-1]), name
        assert "Examples:" in help_text


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_the_examples_run_as_written(name: str, tmp_path: Path) -> None:
    here = os.getcwd()
    os.chdir(tmp_path)
    try:
        for example in EXAMPLES[name]:
            words = shlex.split(example)
            assert words[0] == "referee"
            result = CliRunner().invoke(main, words[1:])
            # 1 is a log that breaks the rules, which an example may show on purpose.
            assert result.exit_code in (0, 1), f"{example}: {result.output}"
            assert result.exception is None or isinstance(result.exception, SystemExit)
    finally:
        os.chdir(here)
