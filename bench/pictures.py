"""Wall time of the pictures, interpreter start included: ``referee render`` of a WWII
Commander position (SVG, and PNG when the ``png`` extra is installed) and ``referee view`` of
the bundled 470-line game (with the page's size).  An anchor measured in the same run, the
bare start of ``referee --version``, shows how loaded the machine was.

    .venv/bin/python bench/pictures.py [RUNS]
"""

from __future__ import annotations

import importlib.util
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def _time(command: list[str], runs: int, out: Path | None = None) -> float:
    """The median wall time of ``command``; ``out`` (its last argument) is removed before each
    run, so no run writes over a file."""
    times = []
    for _ in range(runs):
        if out is not None:
            out.unlink(missing_ok=True)
        start = time.perf_counter()
        subprocess.run(command, check=False, capture_output=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    referee = shutil.which("referee") or str(Path(sys.executable).with_name("referee"))
    game = "bundled:wwiic/full-game-draw.log"
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder)
        anchor = _time([referee, "--version"], runs)
        print(f"anchor: referee --version, median {anchor:.3f} s over {runs} runs")
        svg = _time([referee, "render", game, "--upto", "200", "-o", str(out / "b.svg")], runs,
                    out / "b.svg")
        print(f"render, WWII Commander line 200, SVG: median {svg:.3f} s "
              f"({svg / anchor:.1f}x the anchor)")
        if importlib.util.find_spec("cairosvg") is not None:
            png = _time([referee, "render", game, "--upto", "200", "-o", str(out / "b.png")],
                        runs, out / "b.png")
            print(f"render, WWII Commander line 200, PNG: median {png:.3f} s "
                  f"({png / anchor:.1f}x the anchor)")
        else:
            print("render PNG: not measured (the png extra, cairosvg, is not installed)")
        page = out / "game.html"
        view = _time([referee, "view", game, "-o", str(page)], runs, page)
        size = page.stat().st_size
        print(f"view, the 470-line WWII Commander game: median {view:.3f} s "
              f"({view / anchor:.1f}x the anchor), page {size / 1e6:.2f} MB")


if __name__ == "__main__":
    main()
