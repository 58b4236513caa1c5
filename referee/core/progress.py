"""A progress bar for long work (batch replays, self-play), on standard error only."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.console import Console
    from rich.progress import Progress


def progress_bar(console: Console | None, *, total: int | None = None) -> Progress:
    """A progress bar for long work, on ``console`` (give a stderr console: stdout stays
    clean); none when ``console`` is ``None`` or not a terminal.  Without a ``total`` it
    counts; with one it shows "N/TOTAL" and the time it expects the rest to take."""
    from rich.progress import (  # loaded only for long work: it is slow to import
        BarColumn,
        MofNCompleteColumn,
        Progress,
        ProgressColumn,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    columns: list[ProgressColumn | str] = [TextColumn("{task.description}")]
    if total is None:
        columns.append(TextColumn("{task.completed:,.0f} done"))
    else:
        columns += [BarColumn(), MofNCompleteColumn(), TextColumn("ETA"),
                    TimeRemainingColumn()]
    columns.append(TimeElapsedColumn())
    return Progress(*columns, console=console, transient=True,
                    disable=console is None or not console.is_terminal,
                    redirect_stdout=False, redirect_stderr=False)

