"""amlasp/jobs.py: chunks over worker processes. Every chunk's result comes back once; a worker above its
memory limit after a chunk is replaced; a lost worker's chunk is done again (up to RETRIES times, then
the run stops, saying so); a bug in a worker stops the run with its traceback; Ctrl-C ends every worker."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from amlasp.jobs import RETRIES, Jobs, WorkerLost, run_chunks
from tests.support.paths import ROOT


def pid_of(chunk, report):
    report(1)
    return chunk, os.getpid()


def test_every_chunk_once_and_progress_counted():
    told = []
    out = dict(run_chunks(pid_of, list(range(7)), Jobs(2), told.append))
    assert sorted(c for c, _ in out.values()) == list(range(7)) and sorted(out) == list(range(7))
    assert len({p for _, p in out.values()}) == 2 and told == [1] * 7


def test_a_worker_above_its_memory_limit_is_replaced():
    out = dict(run_chunks(pid_of, list(range(5)), Jobs(2), limit_mb=1))  # every worker is above 1 MB
    assert len({p for _, p in out.values()}) == 5


def die_once(chunk, report):
    mark = f"{chunk}.died"
    if not os.path.exists(mark):
        open(mark, "w").close()
        os.kill(os.getpid(), signal.SIGKILL)
    return chunk


def test_a_lost_workers_chunk_is_done_again(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert sorted(r for _, r in run_chunks(die_once, ["a", "b", "c"], Jobs(2))) == ["a", "b", "c"]


def always_die(chunk, report):
    os.kill(os.getpid(), signal.SIGKILL)


def test_a_chunk_that_kills_every_worker_stops_the_run():
    with pytest.raises(WorkerLost, match=f"lost {RETRIES + 1} times .*signal 9"):
        list(run_chunks(always_die, [1, 2], Jobs(2)))


def buggy(chunk, report):
    raise ZeroDivisionError("a bug of ours")


def test_a_bug_in_a_worker_stops_the_run_with_its_traceback():
    with pytest.raises(WorkerLost, match="ZeroDivisionError: a bug of ours"):
        list(run_chunks(buggy, [1], Jobs(2)))


def test_ctrl_c_ends_every_worker():
    """SIGINT to the process group, as a terminal sends it: the run stops (Interrupted), no worker is left."""
    psutil = pytest.importorskip("psutil")
    script = textwrap.dedent("""
        import sys, time
        from amlasp.errors import Interrupted
        from amlasp.jobs import Jobs, run_chunks
        def slow(chunk, report):
            report(1)
            time.sleep(120)
        try:
            list(run_chunks(slow, [1, 2, 3], Jobs(2), lambda n: print("started", flush=True)))
        except Interrupted:
            print("interrupted", flush=True)
            sys.exit(130)
    """)
    p = subprocess.Popen([sys.executable, "-c", script], cwd=ROOT, stdout=subprocess.PIPE, text=True,
                         start_new_session=True, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert p.stdout is not None
    assert p.stdout.readline() == "started\n" and p.stdout.readline() == "started\n"
    children = psutil.Process(p.pid).children(recursive=True)
    assert len(children) == 2
    os.killpg(p.pid, signal.SIGINT)
    assert p.wait(30) == 130 and p.stdout.read() == "interrupted\n"
    time.sleep(0.5)
    assert not [c for c in children if c.is_running() and c.status() != psutil.STATUS_ZOMBIE]


def test_a_lost_dask_worker_loses_only_its_chunk(tmp_path, monkeypatch):
    """A local cluster of 2 workers (`Jobs(2, dask)` without a scheduler); a worker killed mid-chunk: Dask's
    nanny starts another, the scheduler gives the chunk to a worker again, every result comes back."""
    pytest.importorskip("dask.distributed")
    from amlasp.choices import Executor
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    chunks = [str(tmp_path / c) for c in "abc"]
    out = sorted(r for _, r in run_chunks(die_once, chunks, Jobs(2, Executor.DASK)))
    assert out == chunks and all(os.path.exists(c + ".died") for c in chunks)


def pid_in_process(chunk, report):
    from amlasp.jobs import in_process
    return chunk, os.getpid(), in_process()


def test_a_dask_worker_above_its_memory_limit_is_restarted(monkeypatch):
    """A local cluster's workers have nannies: a chunk does its work in the worker itself (`in_process`), and
    a worker above the limit after a chunk is restarted before it is given another (every worker is above 1
    MB: each chunk in a new process); a chunk at a time per worker thread."""
    pytest.importorskip("dask.distributed")
    from amlasp.choices import Executor
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    out = dict(run_chunks(pid_in_process, list(range(4)), Jobs(2, Executor.DASK), limit_mb=1))
    assert sorted(c for c, _, _ in out.values()) == list(range(4))
    assert len({p for _, p, _ in out.values()}) == 4 and all(inside for _, _, inside in out.values())


def worker_config(chunk, report):
    import dask
    from dask.utils import parse_timedelta
    return (dask.config.get("distributed.worker.profile.enabled"),
            parse_timedelta(dask.config.get("distributed.admin.tick.interval"), default="ms"),
            dask.config.get("distributed.admin.system-monitor.gil.enabled"))


def test_a_local_clusters_workers_leave_the_chunk_alone(monkeypatch):
    """A local cluster's workers run without the statistical profiler and the GIL monitor, and check their event
    loop every second, not every 20 ms (each check takes the GIL from the chunk: benchmarks/README.md)."""
    pytest.importorskip("dask.distributed")
    from amlasp.choices import Executor
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    out = [r for _, r in run_chunks(worker_config, [0, 1], Jobs(2, Executor.DASK))]
    assert out == [(False, 1.0, False)] * 2
