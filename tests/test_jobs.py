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
