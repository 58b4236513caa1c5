"""Read each bundled scenario once and ship what was read, compiled (``referee.core.compiled``).

    .venv/bin/python tools/build_scenarios.py          # rebuild the stale or missing ones
    .venv/bin/python tools/build_scenarios.py --force  # rebuild every one
    .venv/bin/python tools/build_scenarios.py --check  # exit 1 if any is missing or stale

Run it after changing a bundled scenario's TOML files (or its pydantic models): until then the
referee reads the files at every start, as a stale compiled form is never used, and
``tests/core/test_compiled_scenarios.py`` fails.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from referee.core.compiled import (
    COMPILED,
    compiled_blob,
    compiled_path,
    load_compiled,
    pydantic_stamp,
)
from referee.core.files import write_atomic


def shipped() -> dict[str, tuple[list[Path], Callable[[], Any], str]]:
    """Every compiled form: its name -> (the files it is made from, how the referee reads
    them without it, its stamp: the pydantic version for those holding its models)."""
    from referee.games.arnhem44 import mapsvg
    from referee.games.arnhem44 import scenario as arnhem44
    from referee.games.wwiic import areageometry, areamap, loader, scenariofiles

    folder = loader.bundled_path()
    models = pydantic_stamp()

    def geometry() -> tuple[tuple[object, ...], areageometry.AreaGeometry]:
        scenario = loader.read_scenario(folder)
        return areageometry.geometry_key(scenario), areageometry.compute(scenario)

    return {
        arnhem44.SHIPPED_SCENARIO: (arnhem44.shipped_files(), arnhem44.compiled_form, ""),
        mapsvg.SHIPPED_FRAME: (mapsvg.frame_files(), mapsvg.compiled_frame, ""),
        areamap.SHIPPED_MAP: (areamap.map_files(), areamap.compiled_map, ""),
        areageometry.SHIPPED_GEOMETRY: (areageometry.shipped_files(), geometry, ""),
        scenariofiles.SHIPPED_DATA: (scenariofiles.scenario_files(folder),
                                     lambda: scenariofiles.read_files(folder), ""),
        loader.SHIPPED_SCENARIO: (loader.shipped_files(), lambda: loader.read_scenario(folder),
                                  models),
    }


def main() -> int:
    check = "--check" in sys.argv[1:]
    force = "--force" in sys.argv[1:]
    stale = []
    for name, (files, read, stamp) in shipped().items():
        current = load_compiled(name, files, stamp) is not None
        if check:
            if not current:
                stale.append(name)
            continue
        if current and not force:
            print(f"kept {compiled_path(name)} (current)")
            continue
        COMPILED.mkdir(exist_ok=True)
        write_atomic(compiled_path(name), compiled_blob(files, read(), stamp))
        print(f"wrote {compiled_path(name)}")
    if stale:
        print("stale or missing compiled scenarios (run tools/build_scenarios.py): "
              + ", ".join(stale))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
