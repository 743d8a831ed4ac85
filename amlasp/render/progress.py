"""The progress bar on stderr: the command line's side of `progress(stage, done, total)`.

Long work in the core (`evaluate`, `solve`, `bench.run`, `generate_trajectories`) reports
progress by calling a callback; it never draws. The command line makes the callback here.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Callable, Iterator, Mapping, Optional

from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from .output import console


@contextmanager
def progress_bar(labels: Mapping[str, str] | None = None, *, transient: bool = False
                 ) -> Iterator[Optional[Callable[[str, int, int], None]]]:
    """A callback drawing one bar per stage (named by `labels`, else by the stage itself), with
    counts, elapsed time and ETA; None when stderr is not a terminal, so that no work is spent
    on it. `transient`: the bars vanish when done (for a command that prints a table next)."""
    err = console(stderr=True)
    if not err.is_terminal:
        yield None
        return
    bar = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                   TextColumn("ETA"), TimeRemainingColumn(), console=err, transient=transient)
    tasks: dict[str, TaskID] = {}

    def update(stage: str, done: int, total: int) -> None:
        if stage not in tasks:
            tasks[stage] = bar.add_task((labels or {}).get(stage, stage), total=total)
        bar.update(tasks[stage], completed=done, total=total)

    with bar:
        yield update
