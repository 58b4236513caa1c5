"""The CPU time of one keystroke in ``referee lsp``, on a complete Arnhem '44 game.

    .venv/bin/python bench/lsp_keystroke.py [KEYSTROKES]

Opens ``logs/arnhem44/complete-game.log`` (642 lines, a complete game) in the server's
document store, then types KEYSTROKES characters (default 40) one at a time at five places:
a new line at the end (where a player writes the next move), a remark in the middle and one
near the top (a comment: the positions after it are kept), and a letter typed and taken
back in turn in a command in the middle and near the top (the rest of the log is replayed).
Each keystroke is what the server does on ``didChange``: apply the edit, read the log
again, replay it from the last kept position before the change, and turn the problems into
diagnostics.  Times are CPU seconds of this process (``time.process_time``),
the median and the worst per place, and the same for a whole replay from the start, the
cost without kept positions.
"""

from __future__ import annotations

import statistics
import sys
import time

from referee.core.resources import bundled
from referee.lsp.documents import Documents
from referee.lsp.features import diagnostics

LOG = "arnhem44/complete-game.log"


def keystrokes(store: Documents, uri: str, line: int, count: int) -> list[float]:
    """Type ``count`` characters at the end of ``line`` (a comment or a new line)."""
    document = store.get(uri)
    assert document is not None
    lines = document.text.splitlines()
    column = len(lines[line]) if line < len(lines) else 0
    times = []
    opening = " # " if line < len(lines) else "# "
    typed = opening + "a remark typed one key at a time"
    for index in range(count):
        key = typed[index % len(typed)]
        start = time.process_time()
        changed = store.changed(uri, [((line, column, line, column), key)], index)
        assert changed is not None
        diagnostics(changed)
        times.append(time.process_time() - start)
        column += 1
    return times


def command_edits(store: Documents, uri: str, line: int, count: int) -> list[float]:
    """Keystrokes in a command in the middle: a letter added to the line's first word and
    taken away again, in turn (each changes what the rules see, so the replay goes on to
    the end from the kept position before the line)."""
    document = store.get(uri)
    assert document is not None
    column = len(document.text.splitlines()[line].split(" ")[0])
    times = []
    for index in range(count):
        start = time.process_time()
        edit = ((line, column, line, column), "x") if index % 2 == 0 else (
            (line, column, line, column + 1), "")
        changed = store.changed(uri, [edit], index)
        assert changed is not None
        diagnostics(changed)
        times.append(time.process_time() - start)
    return times


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 40
    text = (bundled("logs") / LOG).read_text(encoding="utf-8")
    lines = len(text.splitlines())
    print(f"{LOG}: {lines} lines, {count} keystrokes per place")
    places = (("end (a new line)", lines, keystrokes), ("middle, a remark", lines // 2, keystrokes),
              ("top, a remark", 20, keystrokes),
              ("middle, a command", lines // 2, command_edits),
              ("top, a command", 20, command_edits))
    for name, line, typing in places:
        store = Documents()
        uri = "file:///bench/complete-game.log"
        store.opened(uri, text, 0)
        times = typing(store, uri, line, count)
        print(f"  {name:19} line {line + 1:3}: median {statistics.median(times) * 1000:6.1f} ms"
              f", worst {max(times) * 1000:6.1f} ms CPU")
    whole = []
    for _ in range(5):
        store = Documents()
        start = time.process_time()
        diagnostics(store.opened("file:///bench/whole.log", text, 0))
        whole.append(time.process_time() - start)
    print(f"  a whole replay from the start: median {statistics.median(whole) * 1000:6.1f} ms")


if __name__ == "__main__":
    main()
