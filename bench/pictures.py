"""CPU time of the pictures, whole processes (interpreter start included), for every game:
``referee view`` of each game's longest bundled log (with the page's size) and ``referee
render`` of a mid-game position of it, as SVG (and PNG when the ``png`` extra is there).
With PNG it also times the rasteriser alone: a process that only imports CairoSVG and turns
the SVG just rendered into the PNG, the floor under any ``render -o board.png`` (issue 30).

Both sides of every ratio are CPU time (user + system of the child process, from
``os.wait4``), the anchor being ``referee --version`` measured in the same run: on a shared
machine wall time says more about the neighbours than about the referee.

    .venv/bin/python bench/pictures.py [RUNS]
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

GAMES = [
    ("Battle Card", "bundled:battle-card/win.log", 12),
    ("WWII Commander", "bundled:wwiic/full-game-draw.log", 200),
    ("Eindhoven Bridge", "bundled:koenig-eindhoven/complete-game.log", 200),
    ("Arnhem '44", "bundled:arnhem44/complete-game.log", 350),
]


# The floor under a PNG: CairoSVG turning the SVG file into the PNG file, and nothing else.
RASTERISE = "import sys, cairosvg; cairosvg.svg2png(url=sys.argv[1], write_to=sys.argv[2])"


def cpu(command: list[str], runs: int, out: Path | None = None) -> float:
    """The median CPU time (user + system) of ``command`` over ``runs`` runs; ``out`` is
    removed before each run, so no run writes over a file."""
    times = []
    for _ in range(runs):
        if out is not None:
            out.unlink(missing_ok=True)
        child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _, _, usage = os.wait4(child.pid, 0)
        times.append(usage.ru_utime + usage.ru_stime)
    return statistics.median(times)


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"load average {one:.2f} (1 min), {five:.2f} (5 min) on {os.cpu_count()} cores"


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    referee = shutil.which("referee") or str(Path(sys.executable).with_name("referee"))
    png = importlib.util.find_spec("cairosvg") is not None
    print(load())
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder)
        anchor = cpu([referee, "--version"], runs)
        print(f"anchor: referee --version, median CPU {anchor:.3f} s over {runs} runs")
        for title, log, line in GAMES:
            page = out / "game.html"
            view = cpu([referee, "view", log, "-o", str(page)], runs, page)
            print(f"{title}: view {view:.2f} s CPU ({view / anchor:.1f}x), page "
                  f"{page.stat().st_size / 1e6:.2f} MB")
            for suffix in (".svg", ".png") if png else (".svg",):
                board = out / f"board{suffix}"
                took = cpu([referee, "render", log, "--upto", str(line), "-o", str(board)],
                           runs, board)
                print(f"{title}: render line {line} as {suffix[1:].upper()} {took:.2f} s CPU "
                      f"({took / anchor:.1f}x)")
            if png:
                raster = out / "raster.png"
                alone = cpu([sys.executable, "-c", RASTERISE, str(out / "board.svg"),
                             str(raster)], runs, raster)
                print(f"{title}: the rasteriser alone on that SVG {alone:.2f} s CPU "
                      f"({alone / anchor:.1f}x)")
    print(load())


if __name__ == "__main__":
    main()
