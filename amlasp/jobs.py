"""Chunks of one command's work (`eval`'s state files, `questions generate`'s tasks) on every core or on
a Dask cluster; each chunk's result comes back to the caller, which merges them in chunk order, so that
the merged result is the serial run's, bit for bit.

- **The pool** (`--jobs N`): N worker processes, each doing one chunk at a time in its own process,
  so that clingo's symbols (global to a process, never freed: asp/worker.py) stay bounded per worker:
  a worker whose resident memory after a chunk passes `limit_mb` ends, and a new one takes its place.
  A worker sends `report(n)` messages while it works (the progress bar counts across workers).
- **A lost worker** (killed, out of memory) loses only the chunk it was doing: the chunk is done again
  by a new worker, up to `RETRIES` times (then `WorkerError`: a chunk that kills every worker).
- **Dask** (`--executor dask`): each chunk a task, its inputs in it (no shared file system: the caller
  puts the texts in the chunk); `--scheduler ADDRESS`, or a local cluster of `--jobs` workers. Dask's
  scheduler gives a lost worker's task to another worker. The chunks are handed out as worker threads
  free up (one each); a worker with a nanny does its chunk's clingo work in itself (`in_process`) and is
  restarted by its nanny after a chunk that left it above `limit_mb`, once its result is in. A cluster
  that has had no worker for `AMLASP_DASK_IDLE` seconds (default 60) ends the run with an error that says so.
- **Interrupts.** SIGINT (Ctrl-C) and SIGTERM raise `Interrupted` in the main process while a run goes
  on (`interruptible`); the workers ignore SIGINT (a terminal sends it to the whole process group) and
  are ended by this process (SIGTERM, on which a worker ends its Fast Downward planners, which run in
  sessions of their own; then SIGKILL), the Dask tasks cancelled, a local cluster closed.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
import traceback
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Callable, Iterator, Optional, Sequence

from .choices import Executor
from .errors import InputError, Interrupted

#: Times a chunk is given to a new worker after the one doing it was lost.
RETRIES = 2
#: Seconds a worker is given to end after SIGTERM, before SIGKILL.
GRACE = 3.0
#: The Dask configuration of a local cluster (`dask_client`): no statistical profiler in the workers (a thread
#: sampling the task's stack every 10 ms: 15-20% more CPU per eval chunk), and the event loops' health check every
#: second, not every 20 ms (each tick takes the GIL from the worker's running chunk: 9% more CPU for the same eval
#: chunks, 3-4% of a whole run, benchmarks/README.md; it only measures how late the loop is, for a warning past
#: `tick.limit`, 3 s), no GIL contention monitor (a thread polling the GIL every 1 ms where `gilknocker` is
#: installed). A cluster of one's own can take the same (`DASK_DISTRIBUTED__WORKER__PROFILE__ENABLED=False`,
#: `DASK_DISTRIBUTED__ADMIN__TICK__INTERVAL=1s` in the workers' environment).
LOCAL_CONFIG = {"distributed.worker.profile.enabled": False, "distributed.admin.tick.interval": "1s",
                "distributed.admin.system-monitor.gil.enabled": False,
                # fewer wake-ups of the scheduler and the nannies in this process (their CPU grows with the run's
                # wall time): the memory and system monitors every second or two, not 0.1 s and 0.5 s, and no
                # work stealing (a chunk per worker thread: nothing queued to steal)
                "distributed.worker.memory.monitor-interval": "1s", "distributed.admin.system-monitor.interval": "2s",
                "distributed.scheduler.work-stealing": False}
#: What a local cluster's worker processes have imported when they start (`_local_config`): Dask, clingo and the
#: modules of the chunks' functions (a module that does not import is left out).
PRELOAD = ("distributed", "dask", "clingo", "amlasp.jobs", "amlasp.metrics.evaluate.driver",
           "amlasp.questions.generate", "amlasp.reasoning.parallel")
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
            yield from _dask(fn, chunks, jobs, limit_mb)
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


# --------------------------------------------------------------------------- Dask

def idle_limit() -> float:
    """`AMLASP_DASK_IDLE`: seconds a Dask cluster may have no worker before the run stops."""
    text = os.environ.get("AMLASP_DASK_IDLE", "60")
    try:
        value = float(text)
    except ValueError:
        raise InputError(f"AMLASP_DASK_IDLE must be a number of seconds, not {text!r}") from None
    if value <= 0:
        raise InputError("AMLASP_DASK_IDLE must be positive")
    return value


@contextmanager
def dask_client(scheduler: Optional[str], workers: int = 0) -> Iterator[Any]:
    """A Dask client of the cluster at `scheduler`; without one, of a local cluster of `workers` worker
    processes (one thread each; 0: Dask's default), closed after."""
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        raise InputError("--executor dask needs the optional extra: pip install 'amlasp[dask]'") from None
    if scheduler is None and workers:
        import logging

        import dask
        # the nannies hand this configuration to their workers, and start (and restart) them while it holds
        with dask.config.set(_local_config()), \
                LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                             dashboard_address="127.0.0.1:0", silence_logs=logging.CRITICAL) as cluster, \
                Client(cluster) as client:
            yield client
        return
    try:
        client = Client(scheduler, timeout="30s")
    except OSError as e:
        raise InputError(f"cannot reach the Dask scheduler {scheduler}: {e}") from None
    with client:
        yield client


def in_process() -> bool:
    """Whether a chunk may do its clingo work in this process: a Dask worker watched by a nanny (`_dask`
    restarts it after a chunk that left it above the memory limit: its clingo symbols go with it), or no
    Dask worker at all (a pool worker, which is replaced so, or the caller). A Dask worker without a nanny
    cannot be restarted: its chunks solve in a clingo process of their own (asp/worker.py)."""
    if "distributed" not in sys.modules:
        return True
    try:
        from distributed import get_worker
        return bool(get_worker().nanny)
    except ValueError:  # not in a Dask worker
        return True


def _dask_call(fn: ChunkFn, chunk: Any, limit_mb: float) -> tuple[Any, Optional[str]]:
    """A Dask task: `fn(chunk)`, and this worker's address when it is to be restarted (its resident memory
    above `limit_mb`, a nanny to start the next one)."""
    result = fn(chunk, None)
    from distributed import get_worker

    from .asp.worker import resident_mb
    worker = get_worker()
    over = bool(limit_mb) and bool(worker.nanny) and resident_mb() > limit_mb
    return result, worker.address if over else None


def _local_config() -> dict:
    """`LOCAL_CONFIG`, and where the system has it, workers forked from a server process that has imported
    Dask, clingo and the chunks' modules once (a local cluster's start, and each restart of a worker above
    the memory limit, is then a fork, not a new interpreter that imports them all again: 1.6 s against 26 s
    a restart at load 9, benchmarks/README.md)."""
    import multiprocessing
    if "forkserver" not in multiprocessing.get_all_start_methods():
        return LOCAL_CONFIG
    import dask
    from distributed.utils import get_mp_context
    config = {**LOCAL_CONFIG, "distributed.worker.multiprocessing-method": "forkserver"}
    with dask.config.set(config):
        get_mp_context()  # Dask's own list of modules first (once a process); ours replaces it
    multiprocessing.get_context("forkserver").set_forkserver_preload(list(PRELOAD))
    return config


def _dask(fn: ChunkFn, chunks: Sequence, jobs: Jobs, limit_mb: float) -> Iterator[tuple[int, Any]]:
    """The chunks handed out as the cluster's worker threads free up (never more at once, so that a worker
    restarted after its chunk has no other chunk to lose), each result yielded as it comes."""
    with dask_client(jobs.scheduler, jobs.jobs) as client:
        todo = list(range(len(chunks)))[::-1]  # a stack: the next chunk last
        pending: set = set()
        index: dict[str, int] = {}

        def feed() -> None:
            free = max(1, _threads(client)) - len(pending)
            while todo and free > 0:
                i = todo.pop()
                f = client.submit(_dask_call, fn, chunks[i], limit_mb, pure=False)
                index[f.key] = i
                pending.add(f)
                free -= 1

        feed()
        for done in dask_completed(client, pending, jobs.scheduler, "chunk(s) not done"):
            for fut in sorted(done, key=lambda f: index[f.key]):
                try:
                    result, restart = fut.result()
                except (InputError, Interrupted):
                    raise
                except Exception as e:  # the task's own bug, or Dask's KilledWorker (lost too often)
                    raise WorkerLost(f"chunk {index[fut.key] + 1} of {len(chunks)} failed on the Dask "
                                     f"cluster: {type(e).__name__}: {e}") from e
                fut.release()
                if restart is not None:  # its nanny starts a new one: clingo's symbols go with the old
                    client.restart_workers([restart], raise_for_error=False)
                yield index.pop(fut.key), result
            feed()


def _threads(client: Any) -> int:
    """The worker threads of the cluster now."""
    return sum(w.get("nthreads", 1) for w in client.scheduler_info().get("workers", {}).values())


def dask_completed(client: Any, futures: Sequence | set, scheduler: str | None, what: str, how: str = ""
                   ) -> Iterator[set]:
    """The futures as they complete, a set at a time (an empty set when none did for a while); `futures` given
    as a set is the one the caller may add to between two sets. A cluster
    left without a worker for `idle_limit()` seconds ends the run (`what`, the pending ones, is said, and
    `how` to do them);
    the futures still pending are cancelled however the caller stops (`bench run`'s units too)."""
    from dask.distributed import wait

    idle = idle_limit()
    pending, alone_since = futures if isinstance(futures, set) else set(futures), None
    try:
        while pending:
            try:
                done = wait(pending, timeout=min(5.0, idle), return_when="FIRST_COMPLETED").done
            except TimeoutError:  # nothing finished: is anyone still working?
                done = set()
            pending -= done
            yield done
            if done or client.scheduler_info().get("workers"):
                alone_since = None
                continue
            alone_since = alone_since or time.monotonic()
            if time.monotonic() - alone_since >= idle:
                raise InputError(f"the Dask cluster at {scheduler} has had no worker for {idle:g} s; "
                                 f"{len(pending)} {what} ({how}{'; ' if how else ''}AMLASP_DASK_IDLE sets the wait)")
    finally:
        if pending:
            client.cancel(list(pending))


__all__ = ["GRACE", "RETRIES", "ChunkFn", "Jobs", "WorkerLost", "dask_client", "dask_completed", "end_worker",
           "idle_limit", "in_process",
           "interruptible",
           "run_chunks"]
