"""Chunks of one command's work (`eval`'s state files, `questions generate`'s tasks) on every core or on
a Dask cluster; each chunk's result comes back to the caller, which merges them in chunk order, so that
the merged result is the serial run's, bit for bit.

- **The pool** (`--jobs N`): N worker processes, each doing one chunk at a time in its own process,
  so that clingo's symbols (global to a process, never freed: asp/worker.py) stay bounded per worker:
  a worker whose resident memory after a chunk passes `limit_mb` ends, and a new one takes its place.
  A worker sends `report(n)` messages while it works (the progress bar counts across workers).
- **A lost worker** (killed, out of memory) loses only the chunk it was doing: the chunk is done again
  by a new worker, up to `RETRIES` times (then `WorkerError`: a chunk that kills every worker).
- **Dask** (`--executor dask`, amlasp/cluster.py): each chunk a task, its inputs in it (no shared file
  system: the caller puts the texts in the chunk); `--scheduler ADDRESS`, or a local cluster of `--jobs`
  workers. Dask's scheduler gives a lost worker's task to another worker.
- **Interrupts.** SIGINT (Ctrl-C) and SIGTERM raise `Interrupted` in the main process while a run goes
  on (`interruptible`); the workers ignore SIGINT (a terminal sends it to the whole process group) and
  are ended by this process (SIGTERM, on which a worker ends its Fast Downward planners, which run in
  sessions of their own; then SIGKILL), the Dask tasks cancelled, a local cluster closed.
"""

from __future__ import annotations

import os
import signal
import threading
import traceback
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Callable, Iterator, Optional, Sequence

from .choices import Executor
from .cluster import TaskFailed, run_dask
from .errors import Interrupted

#: Times a chunk is given to a new worker after the one doing it was lost.
RETRIES = 2
#: Seconds a worker is given to end after SIGTERM, before SIGKILL.
GRACE = 3.0
#: A chunk's work: `fn(chunk, report)`, `report(n)` telling of n more things done (None: nobody listens).
ChunkFn = Callable[[Any, Optional[Callable[[int], None]]], Any]


@dataclass(frozen=True)
class Jobs:
    """Where a command's chunks run: `jobs` local processes, or a Dask cluster (`scheduler`'s address,
    else a local cluster of `jobs` workers). `Jobs()` is the serial run, in this process."""

    jobs: int = 1
    executor: str = Executor.PROCESS
    scheduler: Optional[str] = None

    @property
    def parallel(self) -> bool:
        return self.executor == Executor.DASK or self.jobs > 1

    @property
    def dask(self) -> bool:
        return self.executor == Executor.DASK


@contextmanager
def interruptible() -> Iterator[None]:
    """SIGINT and SIGTERM raise `Interrupted` while the block runs (only in the main thread, where
    Python delivers signals), so that `finally` blocks end the children and the caller says what
    was saved; a second signal does not cut that short. The previous handlers come back after."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    fired: list[int] = []

    def handler(signum, frame):
        if not fired:
            fired.append(signum)
            raise Interrupted(signum)

    old = {s: signal.signal(s, handler) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for s, h in old.items():
            signal.signal(s, h)


class WorkerLost(RuntimeError):
    """A chunk whose workers were all lost (`RETRIES` + 1 times), or a worker's bug: the run cannot go on."""


def run_chunks(fn: ChunkFn, chunks: Sequence, jobs: Jobs, report: Optional[Callable[[int], None]] = None,
               limit_mb: float = 0.0) -> Iterator[tuple[int, Any]]:
    """(index, `fn(chunk, ...)`) of every chunk, in completion order. `report(n)`: n more things done, as the
    workers tell (the pool: while they work; Dask: nothing, the caller counts finished chunks). `limit_mb`:
    a pool worker whose resident memory after a chunk passes it is replaced, a Dask worker restarted by its
    nanny (0: never)."""
    if not chunks:
        return
    with interruptible():
        if jobs.dask:
            try:
                yield from run_dask(fn, chunks, jobs.scheduler, jobs.jobs, limit_mb)
            except TaskFailed as e:
                raise WorkerLost(str(e)) from e.__cause__
        else:
            yield from _pool(fn, chunks, min(jobs.jobs, len(chunks)), report, limit_mb)


# --------------------------------------------------------------------------- the process pool

def _serve(conn, fn: ChunkFn, limit_mb: float) -> None:
    """A worker: one chunk at a time from `conn`; its progress and result back. Ends when told (None), when
    the pipe closes, or after a chunk that left it above `limit_mb` (its clingo symbols go with it)."""
    from .asp.worker import resident_mb

    def stop(signum, frame):  # told to end: its planners first (they run in sessions of their own)
        from .external.fast_downward import stop_planners
        stop_planners()
        os._exit(128 + signum)

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the terminal's Ctrl-C is the parent's to handle
    signal.signal(signal.SIGTERM, stop)
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            return
        if job is None:
            return
        index, chunk = job
        try:
            result = fn(chunk, lambda n: conn.send(("progress", n)))
        except BaseException:  # noqa: BLE001 - a bug of ours in a worker: the parent raises it
            conn.send(("error", traceback.format_exc()))
            return
        retiring = bool(limit_mb) and resident_mb() > limit_mb
        conn.send(("done", (result, retiring)))
        if retiring:
            return


class _Worker:
    """A worker process, the pipe to it and the chunk it is doing (its index), if any."""

    def __init__(self, ctx, fn: ChunkFn, limit_mb: float):
        self.conn, child = ctx.Pipe()
        self.proc = ctx.Process(target=_serve, args=(child, fn, limit_mb), daemon=True)
        self.proc.start()
        child.close()
        self.doing: Optional[int] = None

    def give(self, index: int, chunk: Any) -> None:
        self.doing = index
        self.conn.send((index, chunk))

    def end(self) -> None:
        end_worker(self.proc, self.conn, busy=self.doing is not None)


def end_worker(proc: Any, conn: Any, busy: bool) -> None:
    """Stop a worker process: told to (None on its pipe) when idle, SIGTERM when busy (it ends what it
    runs, a planner too), SIGKILL if it lingers past `GRACE`; its pipe closed. `bench run`'s pool too."""
    if not busy and proc.is_alive():
        try:
            conn.send(None)
        except OSError:
            pass
    elif proc.is_alive():
        proc.terminate()
    proc.join(GRACE)
    if proc.is_alive():
        proc.kill()
        proc.join(GRACE)
    conn.close()


def _pool(fn: ChunkFn, chunks: Sequence, n: int, report: Optional[Callable[[int], None]],
          limit_mb: float) -> Iterator[tuple[int, Any]]:
    import multiprocessing
    from multiprocessing.connection import wait

    ctx = multiprocessing.get_context()
    todo = list(range(len(chunks)))[::-1]  # a stack: the next chunk last
    lost = [0] * len(chunks)
    workers = [_Worker(ctx, fn, limit_mb) for _ in range(n)]
    try:
        for w in workers:
            if todo:
                w.give(todo[-1], chunks[todo.pop()])
        while any(w.doing is not None for w in workers):
            busy = [w for w in workers if w.doing is not None]
            wait([w.conn for w in busy] + [w.proc.sentinel for w in busy])
            for k, w in enumerate(workers):
                if w.doing is None:
                    continue
                index = w.doing
                done = _messages(w, report)
                if done is not None:
                    (result, retiring), w.doing = done, None
                    if retiring:
                        w.end()
                        w = workers[k] = _Worker(ctx, fn, limit_mb)
                    if todo:
                        w.give(todo[-1], chunks[todo.pop()])
                    yield index, result
                elif not w.proc.is_alive():
                    w.doing = None
                    w.proc.join()
                    lost[index] += 1
                    if lost[index] > RETRIES:
                        code = w.proc.exitcode
                        why = f"killed by signal {-code}" if code is not None and code < 0 else f"exit code {code}"
                        raise WorkerLost(f"the worker doing chunk {index + 1} of {len(chunks)} was lost "
                                         f"{lost[index]} times (the last {why})")
                    todo.append(index)  # done again, next, by a new worker in its place
                    w.end()
                    w = workers[k] = _Worker(ctx, fn, limit_mb)
                    w.give(todo[-1], chunks[todo.pop()])
    finally:
        for w in workers:
            w.end()


def _messages(w: _Worker, report: Optional[Callable[[int], None]]) -> Optional[tuple[Any, bool]]:
    """Read what `w` has sent: progress is reported, (its result, whether it ends now) returned; None while it
    works (or when it died: the caller looks)."""
    while True:
        try:
            if not w.conn.poll():
                return None
            kind, value = w.conn.recv()
        except (EOFError, OSError):
            return None
        if kind == "progress":
            if report:
                report(value)
        elif kind == "done":
            return value
        else:
            raise WorkerLost(f"internal error in a worker:\n{value}")


__all__ = ["GRACE", "RETRIES", "ChunkFn", "Jobs", "WorkerLost", "end_worker", "interruptible", "run_chunks"]
