"""Where a bench run's units are done, and how a run stops: in this process, in a pool of worker
processes, or on a Dask cluster; records come back in completion order.

- **Interrupts.** While a run goes on, SIGINT (Ctrl-C) and SIGTERM raise `Interrupted` in the main
  process (`interruptible`). The pool's workers ignore SIGINT (a terminal sends it to the whole
  process group) and are ended with SIGTERM, on which each ends its planner first: Fast Downward
  runs in a session of its own, which no terminal signal reaches
  (`external.fast_downward.stop_planners`). In this process, the planner is ended by the
  exception's unwinding (`_run_driver`'s `finally`).
- **A lost worker** (killed, out of memory) loses only the unit it was doing: each worker does one
  unit at a time, in the order sent (the next one already queued in its pipe, `DEPTH`), so the pool
  knows which; that unit becomes a failed record (a rerun does it again), the queued one goes back
  to the others, a new worker takes the dead one's place and the other units go on.
- **Temporary files.** Every unit's files, and its planner's, go under the run's scratch folder
  (`experiments.scratch`), which this process makes and removes: a worker killed mid-unit leaves
  nothing behind in the temporary directory.
- **Idle time.** `Clock.idle` sums the seconds the pool's workers waited with nothing left to give
  them (at the end of a run, while the last units go on), for the run's time split.
- **Dask.** A cluster that has had no worker for `AMLASP_DASK_IDLE` seconds (default 60) ends the
  run with an error that says so: the units done are saved, a rerun does the rest.
"""

from __future__ import annotations

import os
import signal
import tempfile
import time
from collections import deque
from dataclasses import dataclass
from pathlib import Path
from typing import Generator, Iterator, Optional, Sequence

from ..choices import Executor
from ..cluster import dask_client, dask_completed
from ..errors import Interrupted
from ..jobs import GRACE, end_worker, interruptible
from .scratch import scratch_folder
from .units import Unit, run_unit, with_files


@dataclass
class Clock:
    """What a run's time split needs from its executor: the workers it used, and their idle seconds."""

    workers: int = 0
    idle: float = 0.0


def execute(units: Sequence[Unit], jobs: int, executor: str, scheduler: str | None,
            clock: Optional[Clock] = None) -> Generator[dict, None, None]:
    """Records in completion order; a unit whose worker was lost becomes a failed record."""
    clock = clock if clock is not None else Clock()
    if not units:
        return
    if executor == Executor.DASK:
        yield from _execute_dask(units, scheduler)
        return
    with scratch_folder() as scratch:
        if jobs <= 1 or len(units) == 1:
            clock.workers = 1
            for u in units:
                yield run_unit(with_files(u), scratch)
        else:
            clock.workers = min(jobs, len(units))
            yield from _pool(units, clock, scratch)


def failed_record(unit: Unit, why: str) -> dict:
    """The record of a unit that could not be done: failed, so that a rerun does it again."""
    rec = {"learner": unit.learner, "domain": unit.domain, "task": unit.task}
    if unit.problem:
        rec["problem"] = Path(unit.problem).name
    return rec | {"error": f"worker failed: {why}", "failed": True}


# --------------------------------------------------------------------------- the process pool

def _serve(conn, scratch: Path) -> None:
    """A worker: one unit at a time from `conn`, its record back; SIGTERM ends it and its planner.
    Its temporary files (the units', the planner's) all go under the run's `scratch` folder."""
    tempfile.tempdir = str(scratch)

    def stop(signum, frame):
        from ..external.fast_downward import stop_planners
        stop_planners()
        os._exit(128 + signum)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the terminal's Ctrl-C is the parent's to handle
    while True:
        try:
            unit = conn.recv()
        except (EOFError, OSError):
            return
        if unit is None:
            return
        conn.send(run_unit(unit, scratch))


#: Units in a worker's pipe at a time: the one it does and the next, so that it never waits for this
#: process (busy writing a record, or not yet scheduled on a loaded machine) between two units.
DEPTH = 2


class _Worker:
    """A worker process, the pipe to it, and the units sent to it (in order: the first is the one it does)."""

    def __init__(self, ctx, scratch: Path):
        self.conn, child = ctx.Pipe()
        self.proc = ctx.Process(target=_serve, args=(child, scratch), daemon=True)
        self.proc.start()
        child.close()
        self.units: deque[Unit] = deque()

    def give(self, unit: Unit) -> None:
        self.units.append(unit)
        self.conn.send(with_files(unit))

    def end(self) -> None:
        end_worker(self.proc, self.conn, busy=bool(self.units))


def _pool(units: Sequence[Unit], clock: Clock, scratch: Path) -> Iterator[dict]:
    """Units over `clock.workers` worker processes, each doing one at a time with the next one queued."""
    import multiprocessing
    from multiprocessing.connection import wait

    ctx = multiprocessing.get_context()
    todo = deque(units)
    workers = [_Worker(ctx, scratch) for _ in range(clock.workers)]
    idle_since: list[float] = []  # when each worker that is out of work got its last record back

    def feed(w: _Worker) -> None:
        while todo and len(w.units) < DEPTH:
            w.give(todo.popleft())

    try:
        for depth in range(DEPTH):  # a first unit to every worker before a second to any
            for w in workers:
                if todo and len(w.units) == depth:
                    w.give(todo.popleft())
        while any(w.units for w in workers):
            busy = [w for w in workers if w.units]
            wait([w.conn for w in busy] + [w.proc.sentinel for w in busy])
            for w in busy:
                rec, lost = _answer(w)
                if rec is None:
                    continue
                if lost:  # a new worker in its place; the units queued behind the lost one are done still
                    todo.extendleft(reversed(w.units))
                    w.conn.close()
                    k = workers.index(w)
                    w = workers[k] = _Worker(ctx, scratch)
                feed(w)
                if not w.units:
                    idle_since.append(time.monotonic())
                yield rec
    finally:
        end = time.monotonic()
        clock.idle += sum(end - t for t in idle_since)
        for w in workers:
            w.end()


def _answer(w: _Worker) -> tuple[Optional[dict], bool]:
    """(the record `w` sent, False); (a failed record of the unit it was doing, True) if `w` died; (None,
    False) while it is still working. The unit answered for leaves `w.units`, those queued behind it stay."""
    assert w.units
    try:
        if w.conn.poll():
            rec = w.conn.recv()
            w.units.popleft()
            return rec, False
    except (EOFError, OSError):
        pass
    if w.proc.is_alive():
        return None, False
    w.proc.join()
    code = w.proc.exitcode
    why = f"killed by signal {-code}" if code is not None and code < 0 else f"exit code {code}"
    return failed_record(w.units.popleft(), f"the worker doing this unit was lost ({why})"), True


# --------------------------------------------------------------------------- Dask

def _execute_dask(units: Sequence[Unit], scheduler: Optional[str]) -> Iterator[dict]:
    with dask_client(scheduler) as client:
        futures = client.map(run_unit, [with_files(u) for u in units], pure=False)
        by_key = {f.key: u for f, u in zip(futures, units)}
        for done in dask_completed(client, futures, scheduler, "unit(s) not done",
                                   "start workers and rerun the same command to do them"):
            for fut in done:
                yield _result(fut, by_key[fut.key])


def _result(fut, unit: Unit) -> dict:
    """The record of a finished future, or a failed record if its worker raised or was lost."""
    try:
        return fut.result()
    except Exception as e:
        return failed_record(unit, f"{type(e).__name__}: {e}")


__all__ = ["GRACE", "Clock", "Interrupted", "execute", "failed_record", "interruptible"]
