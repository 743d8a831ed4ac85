"""`--executor dask`: a command's chunks (amlasp/jobs.py) as tasks of a Dask cluster, given by its
scheduler's address or a local cluster of `--jobs` workers started and closed here.

Each chunk carries its inputs (no shared file system). The chunks are handed out as worker threads free
up, one each, so that a worker restarted after its chunk has no other chunk to lose. A worker with a nanny
does its chunk's clingo work in itself (`in_process`) and is restarted after a chunk that left it above
the memory limit, once its result is in (`_restart`: a local cluster's worker lost at its restart is
started again). A cluster that has had no worker for `AMLASP_DASK_IDLE` seconds (default 60) ends the
run with an error that says so.
"""

from __future__ import annotations

import os
import sys
import time
from collections import Counter
from contextlib import contextmanager
from typing import Any, Callable, Iterator, Optional, Sequence

from .errors import InputError, Interrupted

#: Seconds a Dask worker restarted after a chunk (`_restart`) is given to come back.
RESTART_S = 30.0
#: Dask workers this process restarted after a chunk, of them the local cluster's started again after Dask lost
#: them (`revived`), and those lost for the rest of their run (`lost`): what bench_eval prints beside its times.
RESTARTS: Counter[str] = Counter()
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
                "distributed.scheduler.work-stealing": False,
                # the cluster closes a nanny whose worker has been gone from the scheduler for this long, looked at
                # once, this long after the worker left: a worker restarted after every chunk (`_restart`) was away
                # at that instant about 1 time in 100, and its nanny closed (dask/distributed#7312): a local
                # cluster's nannies start their workers again themselves
                "distributed.deploy.lost-worker-timeout": "3600s"}
#: What a local cluster's worker processes have imported when they start (`_local_config`): Dask, clingo and the
#: modules of the chunks' functions (a module that does not import is left out).
PRELOAD = ("distributed", "dask", "clingo", "amlasp.jobs", "amlasp.cluster", "amlasp.metrics.evaluate.driver",
           "amlasp.questions.generate", "amlasp.reasoning.parallel")


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


def dask_worker() -> Any:
    """The Dask worker this process is, None in any other process (Dask not even imported there)."""
    if "distributed" not in sys.modules:
        return None
    from distributed import get_worker
    try:
        return get_worker()
    except ValueError:  # not in a Dask worker
        return None


def in_process() -> bool:
    """Whether a chunk may do its clingo work in this process: a Dask worker watched by a nanny (`run_dask`
    restarts it after a chunk that left it above the memory limit: its clingo symbols go with it), or no
    Dask worker at all (a pool worker, which is replaced so, or the caller). A Dask worker without a nanny
    cannot be restarted: its chunks solve in a clingo process of their own (asp/worker.py)."""
    worker = dask_worker()
    return worker is None or bool(worker.nanny)


def _dask_call(fn: Callable, chunk: Any, limit_mb: float) -> tuple[Any, Optional[str]]:
    """A Dask task: `fn(chunk)`, and this worker's address when it is to be restarted (its resident memory
    above `limit_mb`, a nanny to start the next one)."""
    result = fn(chunk, None)
    from .asp.worker import resident_mb
    worker = dask_worker()
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


class TaskFailed(RuntimeError):
    """A chunk's task failed: its own bug, or Dask's KilledWorker (its workers lost too often)."""


def run_dask(fn: Callable, chunks: Sequence, scheduler: Optional[str], workers: int, limit_mb: float
             ) -> Iterator[tuple[int, Any]]:
    """`fn(chunk, None)` of each chunk on the cluster at `scheduler` (None: a local cluster of `workers`), handed
    out as the cluster's worker threads free up (never more at once, so that a worker restarted after its chunk
    has no other chunk to lose), each result yielded as it comes (a failed task: `TaskFailed`)."""
    local = workers if scheduler is None else 0  # the workers of a local cluster started here
    with dask_client(scheduler, workers) as client:
        todo = list(range(len(chunks)))[::-1]  # a stack: the next chunk last
        pending: set = set()
        index: dict[str, int] = {}

        def feed() -> None:  # a local cluster's workers counted as asked: the scheduler's list, refreshed every
            # few seconds, can hold a restarted worker's old and new address, and a chunk given to the old one is
            # ended by the restart (Dask runs it again; a chunk ended three times fails the run)
            threads = _threads(client)
            free = max(1, min(threads, local) if local else threads) - len(pending)
            while todo and free > 0:
                i = todo.pop()
                f = client.submit(_dask_call, fn, chunks[i], limit_mb, pure=False)
                index[f.key] = i
                pending.add(f)
                free -= 1

        feed()
        for done in dask_completed(client, pending, scheduler, "chunk(s) not done"):
            for fut in sorted(done, key=lambda f: index[f.key]):
                try:
                    result, restart = fut.result()
                except (InputError, Interrupted):
                    raise
                except Exception as e:  # the task's own bug, or Dask's KilledWorker (lost too often)
                    raise TaskFailed(f"chunk {index[fut.key] + 1} of {len(chunks)} failed on the Dask "
                                     f"cluster: {type(e).__name__}: {e}") from e
                fut.release()
                if restart is not None:  # its nanny starts a new one: clingo's symbols go with the old
                    _restart(client, restart, local)
                yield index.pop(fut.key), result
            feed()


def _restart(client: Any, address: str, local: int) -> None:
    """The worker at `address` restarted by its nanny, waited for `RESTART_S`; `local`: the workers of the local
    cluster this process started (0: a cluster of one's own). A restart that does not come back
    (the nanny closed: a cluster of Dask's own closes a nanny whose worker is away when it looks,
    `lost-worker-timeout` in `LOCAL_CONFIG`; the run then went on with one worker fewer, after a wait of 120 s):
    a local cluster's lost worker is started again; on a cluster of one's own the run goes on with the workers
    it has, and a warning says so."""
    status = client.restart_workers([address], raise_for_error=False, timeout=RESTART_S).get(address)
    RESTARTS["restarted"] += 1
    if status == "OK":
        return
    cluster = getattr(client, "cluster", None)
    if local and cluster is not None:
        from distributed.core import Status
        for name, nanny in list(cluster.workers.items()):
            if nanny.status in (Status.closing, Status.closed, Status.failed, Status.closing_gracefully):
                cluster.worker_spec.pop(name, None)  # `scale` starts a new worker in its place
        cluster.scale(local)
        try:
            client.wait_for_workers(local, timeout=RESTART_S)
            RESTARTS["revived"] += 1
            return
        except TimeoutError:
            pass
    RESTARTS["lost"] += 1
    import warnings
    warnings.warn(f"a Dask worker did not come back after its restart ({status}); the run goes on with "
                  f"{len(client.scheduler_info().get('workers', {}))} worker(s)", RuntimeWarning, stacklevel=2)


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


__all__ = ["LOCAL_CONFIG", "PRELOAD", "RESTARTS", "RESTART_S", "TaskFailed", "dask_client", "dask_completed",
           "dask_worker", "idle_limit", "in_process", "run_dask"]
