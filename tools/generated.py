"""What the tools that generate bundled logs share: write them, or check that they are current.

    write_or_check(texts, folder, command)   # the tool's main(): its exit code

``--check`` compares each file with what the tool would write (exit 1 if any is missing or
stale); without arguments each file is written atomically, keeping its mode
(``referee.core.files.write_atomic``).  Any other argument prints the usage and writes nothing.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from pathlib import Path

from referee.core.files import write_atomic


def write_or_check(texts: Mapping[str, str], folder: Path, command: str) -> int:
    args = sys.argv[1:]
    if args not in ([], ["--check"]):
        print(f"usage: {command} [--check]   (write the logs, or check that they are current)")
        return 2
    if args:
        stale = [name for name, text in texts.items()
                 if not (folder / name).is_file()
                 or (folder / name).read_text(encoding="utf-8") != text]
        if stale:
            print("stale: " + ", ".join(stale) + f" (run {command})")
            return 1
        return 0
    for name, text in texts.items():
        write_atomic(folder / name, text.encode("utf-8"))
        print(f"wrote {folder / name}")
    return 0
