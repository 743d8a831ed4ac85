"""amlasp/cluster.py: chunks on a Dask cluster. A lost worker's chunk is done again; a worker above its memory
limit after a chunk is restarted, and one lost at its restart started again (a local cluster) or said (one's
own); a local cluster's workers run with the settings that leave the chunk alone."""

from __future__ import annotations

import os

import pytest

from amlasp.jobs import Jobs, run_chunks
from tests.support.paths import ROOT
from tests.test_jobs import die_once


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
    from amlasp.cluster import in_process
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


@pytest.fixture
def nannies_closed(monkeypatch):
    """A local cluster that closes a restarted worker's nanny, as Dask's own clusters did 1 time in 100 (the
    cluster looks whether the worker is back a moment after it left: here 10 ms, before it can be), restarts
    waited for 3 s, a cluster without a worker given 10 s."""
    pytest.importorskip("dask.distributed")
    import amlasp.cluster as cluster
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    monkeypatch.setitem(cluster.LOCAL_CONFIG, "distributed.deploy.lost-worker-timeout", "10ms")
    monkeypatch.setattr(cluster, "RESTART_S", 3.0)
    monkeypatch.setenv("AMLASP_DASK_IDLE", "10")
    monkeypatch.setattr(cluster, "RESTARTS", type(cluster.RESTARTS)())
    return cluster


def test_a_local_clusters_worker_lost_at_its_restart_is_started_again(nannies_closed):
    """Every restart loses its worker (and its nanny): the local cluster starts one again each time, so
    both workers do the chunks to the end (without it the run went on with one worker, then none)."""
    from amlasp.choices import Executor
    out = dict(run_chunks(pid_in_process, list(range(4)), Jobs(2, Executor.DASK), limit_mb=1))
    assert sorted(c for c, _, _ in out.values()) == list(range(4))
    counts = nannies_closed.RESTARTS
    assert counts["restarted"] == 4 and counts["revived"] >= 1 and counts["lost"] == 0


def test_a_worker_lost_on_a_cluster_of_ones_own_is_said(nannies_closed):
    """On a cluster given by its scheduler's address, a worker lost at its restart is not amlasp's to start
    again: the run goes on with the others, and a warning says how many are left."""
    import logging

    import dask
    from dask.distributed import LocalCluster

    from amlasp.choices import Executor
    with dask.config.set({"distributed.deploy.lost-worker-timeout": "10ms"}), \
            LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address="127.0.0.1:0",
                         silence_logs=logging.CRITICAL) as cluster, \
            pytest.warns(RuntimeWarning, match="did not come back"):
        jobs = Jobs(2, Executor.DASK, scheduler=cluster.scheduler_address)
        out = dict(run_chunks(pid_in_process, [0, 1], jobs, limit_mb=1))
    assert sorted(c for c, _, _ in out.values()) == [0, 1] and nannies_closed.RESTARTS["lost"] >= 1


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
