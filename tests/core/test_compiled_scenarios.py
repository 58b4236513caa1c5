"""The bundled scenarios shipped compiled (``tools/build_scenarios.py``,
``referee.core.compiled``) are current and equal what their TOML files give; a changed file is
never read through a stale compiled form."""

from __future__ import annotations

import pickle
import shutil
import sys
from pathlib import Path

import pytest

from referee.core.compiled import compiled_path, files_digest, load_compiled
from referee.games.wwiic import board, loader, scenariofiles

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
from build_scenarios import shipped

SHIPPED = shipped()


def _plain(value: object) -> object:
    """``value`` with the objects that do not compare by value (a map's frame) as their
    fields."""
    from referee.games.wwiic.areamap import _Frame

    if isinstance(value, tuple):
        return tuple(_plain(item) for item in value)
    if isinstance(value, _Frame):
        return vars(value)
    return value


@pytest.mark.parametrize("name", sorted(SHIPPED))
def test_each_compiled_scenario_is_shipped_and_current(name: str) -> None:
    files, _, stamp = SHIPPED[name]
    assert compiled_path(name).is_file(), f"run tools/build_scenarios.py ({name})"
    blob = pickle.loads(compiled_path(name).read_bytes())
    assert blob["digest"] == files_digest(files, stamp), (
        f"the files of {name} changed since it was compiled: run tools/build_scenarios.py")


@pytest.mark.parametrize("name", sorted(SHIPPED))
def test_each_compiled_scenario_equals_what_its_files_give(name: str) -> None:
    files, read, stamp = SHIPPED[name]
    compiled, fresh = load_compiled(name, files, stamp), read()
    if stamp:  # models pickled by another pydantic are not trusted
        assert load_compiled(name, files, stamp + "-other") is None
    assert compiled is not None
    assert type(compiled) is type(fresh)
    assert _plain(compiled) == _plain(fresh)
    if hasattr(fresh, "model_dump"):
        assert compiled.model_dump() == fresh.model_dump()


def test_the_referee_reads_the_wwiic_scenario_through_its_compiled_form() -> None:
    board.bundled_board.cache_clear()
    try:
        built = board.bundled_board()
        assert built.spaces == board.Board.from_files(loader.bundled_path()).spaces
    finally:
        board.bundled_board.cache_clear()
    assert loader.load_scenario() == loader.read_scenario(loader.bundled_path())


def test_a_changed_scenario_file_is_never_read_through_a_stale_compiled_form(
    tmp_path: Path,
) -> None:
    folder = loader.bundled_path()
    for path in scenariofiles.scenario_files(folder):
        shutil.copy(path, tmp_path / path.name)
    copies = scenariofiles.scenario_files(tmp_path)
    assert load_compiled(scenariofiles.SHIPPED_DATA, copies) is not None  # same bytes
    spaces = tmp_path / "spaces.toml"
    spaces.write_text(spaces.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    assert load_compiled(scenariofiles.SHIPPED_DATA, copies) is None


def test_an_unreadable_compiled_form_is_not_used(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("referee.core.compiled.COMPILED", tmp_path)
    files = scenariofiles.scenario_files(loader.bundled_path())
    assert load_compiled(scenariofiles.SHIPPED_DATA, files) is None  # missing
    (tmp_path / scenariofiles.SHIPPED_DATA).write_bytes(b"not a pickle")
    assert load_compiled(scenariofiles.SHIPPED_DATA, files) is None
    (tmp_path / scenariofiles.SHIPPED_DATA).write_bytes(pickle.dumps(["a", "list"]))
    assert load_compiled(scenariofiles.SHIPPED_DATA, files) is None
    assert loader.load_scenario() == loader.read_scenario(loader.bundled_path())


def test_the_shipped_geometry_serves_only_the_positions_it_was_computed_from() -> None:
    from referee.games.wwiic import areageometry

    scenario = loader.load_scenario()
    key = areageometry.geometry_key(scenario)
    shipped_geometry = areageometry._shipped(key)
    assert shipped_geometry == areageometry.compute(scenario)
    spaces, borders = key
    assert isinstance(spaces, tuple) and isinstance(borders, tuple)
    moved = ((spaces[0][0], spaces[0][1] + 0.5, spaces[0][2]), *spaces[1:])
    assert areageometry._shipped((moved, borders)) is None


def test_the_arnhem44_scenario_and_frame_come_compiled_only_for_the_bundled_scenario() -> None:
    from referee.games.arnhem44 import mapsvg
    from referee.games.arnhem44 import scenario as arnhem44

    bundled = arnhem44.load_scenario()
    assert bundled == arnhem44.read_scenario(arnhem44.bundled_path())
    assert bundled.folder == str(arnhem44.bundled_path())
    shipped_frame = mapsvg._shipped_frame(bundled)
    assert shipped_frame is not None and shipped_frame == mapsvg._make_frame(bundled)
    renamed = bundled.sectors[0]._replace(name="Somewhere else")
    other = bundled._replace(sectors=[renamed, *bundled.sectors[1:]])
    assert mapsvg._shipped_frame(other) is None


def test_a_bundled_wwiic_picture_needs_no_pydantic() -> None:
    """The bundled board's map comes shipped: drawing a position of the bundled scenario
    imports neither the models nor pydantic (a fresh interpreter)."""
    import subprocess

    code = ("import sys\n"
            "from referee.games import engine_for\n"
            "from referee.core.svg import drawer_for\n"
            "engine = engine_for('wwiic')\n"
            "text = drawer_for('wwiic')(engine, engine.setup(None, {}), None)\n"
            "assert text.startswith('<?xml'), text[:80]\n"
            "print(sorted(m for m in sys.modules if m.startswith('pydantic')\n"
            "             or m == 'referee.games.wwiic.scenario'))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert done.stdout.strip() == "[]"
