"""Long work, many inputs: the progress callback's shape and the process pool, shared by every
family of work (solve, trajectories, bench, questions) so that none imports another for them."""

from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor
from contextlib import ExitStack
from typing import Callable, Iterable, Iterator, Sequence

#: `progress(stage, done, total)`: how long work reports how far it is (the command line draws the bar).
ProgressCallback = Callable[[str, int, int], None]


def run_pool(fn, work: Sequence, jobs: int = 1, progress: ProgressCallback | None = None,
             stage: str = "working") -> Iterator:
    """`map(fn, work)` in order, in a process pool when `jobs > 1`; `progress(stage, done, total)` as
    each result comes."""
    total = len(work)
    if progress:
        progress(stage, 0, total)
    with ExitStack() as stack:
        if jobs > 1 and total > 1:
            results: Iterable = stack.enter_context(ProcessPoolExecutor(max_workers=min(jobs, total))).map(fn, work)
        else:
            results = map(fn, work)
        for done, r in enumerate(results, 1):
            yield r
            if progress:
                progress(stage, done, total)


__all__ = ["ProgressCallback", "run_pool"]
