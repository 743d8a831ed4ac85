"""How a bench run stops: SIGINT and SIGTERM end it within seconds with every child (pool workers
and their Fast Downward processes) and say what was saved; a lost worker loses only its own unit;
a Dask cluster without workers does not make the run wait forever.

The runs plan with A* and LM-cut on the largest n-puzzle of the suite, which takes minutes: each
unit is still running when the test acts. Processes are found by a mark in their environment
(children inherit it), so the check covers planners in sessions of their own too."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

import pytest

from amlasp.errors import InputError
from amlasp.experiments.bench import ResultsFile, run
from tests.support.paths import IPC, ROOT

PROBLEMS = 3


@pytest.fixture(scope="module")
def slow_suite(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("slow")
    hard = sorted((IPC / "problems" / "solving" / "npuzzle").glob("*.pddl"), key=lambda p: int(p.name.split("_")[0]))
    shutil.copy(IPC / "domains" / "npuzzle.pddl", root / "domain.pddl")
    for k in range(1, PROBLEMS + 1):
        shutil.copy(hard[-1], root / f"p{k}.pddl")
    (root / "m.toml").write_text('[domains.npuzzle]\nreference = "domain.pddl"\nproblems = ["p1.pddl", "p2.pddl", '
                                 '"p3.pddl"]\n')
    (root / "learned").mkdir()
    shutil.copy(IPC / "domains" / "npuzzle.pddl", root / "learned")
    return root


def _marked(mark: str) -> dict[int, str]:
    """pid → command line of every live process with `mark` in its environment."""
    out = {}
    for d in Path("/proc").iterdir():
        if not d.name.isdigit():
            continue
        try:
            if f"AMLASP_TEST_MARK={mark}".encode() in (d / "environ").read_bytes().split(b"\0"):
                state = (d / "stat").read_text().rsplit(")", 1)[1].split()[0]
                if state != "Z":
                    out[int(d.name)] = (d / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
    return out


def _planners(mark: str) -> dict[int, str]:
    return {pid: cmd for pid, cmd in _marked(mark).items() if "downward" in cmd}


def _wait_for(what, seconds: float):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if found := what():
            return found
        time.sleep(0.2)
    return what()


def _start(slow_suite: Path, tmp_path: Path, mark: str, jobs: int, timeout: float) -> subprocess.Popen:
    (tmp_path / "tmp").mkdir()  # the run's temporary directory: what it leaves there is checked
    env = dict(os.environ, PYTHONPATH=str(ROOT), AMLASP_TEST_MARK=mark, TMPDIR=str(tmp_path / "tmp"))
    return subprocess.Popen([sys.executable, "-m", "amlasp", "bench", "run", "--suite", slow_suite / "m.toml",
                             "--learned", slow_suite / "learned", "--task", "solve", "--planner-config", "opt",
                             "--timeout", str(timeout), "--jobs", str(jobs), "--results", tmp_path / "r.jsonl"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=tmp_path,
                            start_new_session=True, text=True)


def _clean(mark: str) -> None:
    for pid in _marked(mark):
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass


@pytest.mark.parametrize("sig,group,jobs", [(signal.SIGINT, True, 2), (signal.SIGTERM, False, 2),
                                            (signal.SIGINT, True, 1)],
                         ids=["ctrl-c, 2 jobs", "sigterm, 2 jobs", "ctrl-c, 1 job"])
def test_an_interrupt_ends_every_child_and_says_what_was_saved(slow_suite, tmp_path, sig, group, jobs):
    mark = uuid.uuid4().hex
    p = _start(slow_suite, tmp_path, mark, jobs, timeout=300)
    try:
        assert len(_wait_for(lambda: len(_planners(mark)) >= jobs and _planners(mark), 120)) >= jobs
        t0 = time.monotonic()
        if group:  # the terminal's Ctrl-C goes to the whole foreground process group
            os.killpg(p.pid, sig)
        else:  # `kill PID`: the run alone
            p.send_signal(sig)
        _, err = p.communicate(timeout=30)
        stopped = time.monotonic() - t0
        assert p.returncode == 128 + sig, err
        assert stopped < 15, stopped
        last = err.strip().splitlines()[-1]
        assert last == (f"amlasp: interrupted ({signal.Signals(sig).name}): 0 unit(s) saved to "
                        f"{tmp_path / 'r.jsonl'} (0 of {PROBLEMS} done in all); rerun the same command to resume"), err
        _wait_for(lambda: not _marked(mark), 5)
        assert not _marked(mark), _marked(mark)  # no worker, no planner left
        assert not list((tmp_path / "tmp").iterdir())  # nor a temporary file of theirs
        meta, recs = ResultsFile(tmp_path / "r.jsonl").read()
        assert meta is not None and recs == []
    finally:  # whatever happened: no process of the test is left (left over, they would hold the pipes open)
        _clean(mark)
        p.kill()
        p.communicate()


def test_a_lost_worker_loses_only_its_own_unit(slow_suite, tmp_path):
    mark = uuid.uuid4().hex
    p = _start(slow_suite, tmp_path, mark, jobs=2, timeout=8)
    try:
        planner = _wait_for(lambda: _planners(mark), 120)
        assert planner
        pid = min(planner)
        worker = int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])  # its parent
        assert worker != p.pid
        os.kill(worker, signal.SIGKILL)
        _, err = p.communicate(timeout=180)
        assert p.returncode == 4, err  # a lost worker is not the input's fault
        assert f"1 of {PROBLEMS} unit(s) failed" in err
        _, recs = ResultsFile(tmp_path / "r.jsonl").read()
        assert len(recs) == PROBLEMS
        lost = [r for r in recs if r.get("failed")]
        assert len(lost) == 1 and "was lost (killed by signal 9)" in lost[0]["error"], json.dumps(recs)
        assert sorted(r["status"] for r in recs if not r.get("failed")) == ["timeout", "timeout"]
        assert not list((tmp_path / "tmp").iterdir())  # the killed worker's files went with the run's scratch folder
    finally:  # whatever happened: no process of the test is left (left over, they would hold the pipes open)
        _clean(mark)
        p.kill()
        p.communicate()


def test_a_dask_cluster_without_workers_ends_the_run(slow_suite, tmp_path, monkeypatch):
    distributed = pytest.importorskip("dask.distributed")
    monkeypatch.setenv("AMLASP_DASK_IDLE", "2")
    outcome: list[BaseException | None] = []

    def go():
        try:
            run([slow_suite / "learned"], tmp_path / "d.jsonl", suite=slow_suite / "m.toml", tasks=("solve",),
                executor="dask", scheduler=cluster.scheduler_address, timeout=5)
            outcome.append(None)
        except BaseException as e:  # noqa: BLE001 (handed to the test's thread)
            outcome.append(e)

    with distributed.LocalCluster(n_workers=0, processes=False, dashboard_address=None) as cluster:
        t = threading.Thread(target=go, daemon=True)
        t.start()
        t.join(60)
    assert outcome, "the run still waits for a worker after 60 s"
    assert isinstance(outcome[0], InputError) and "has had no worker for 2 s" in str(outcome[0])
    meta, recs = ResultsFile(tmp_path / "d.jsonl").read()
    assert meta is not None and recs == []
