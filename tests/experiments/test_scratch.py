"""A run's scratch folder is removed by the run, and, should the run itself be killed, by the next one:
a folder whose lock is still held (a run going on) or that is too young to be locked yet is left alone."""

from __future__ import annotations

import os
import subprocess
import sys
import time

from amlasp.experiments import scratch
from amlasp.experiments.scratch import PREFIX, scratch_folder, sweep


def _aged(folder, seconds: float = 3600) -> None:
    lock = folder / ".lock"
    lock.touch()
    then = time.time() - seconds
    os.utime(lock, (then, then))


def test_the_folder_is_removed_after_the_run_even_when_it_raises(tmp_path, monkeypatch):
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))
    try:
        with scratch_folder() as folder:
            (folder / "worker-1" / "x").mkdir(parents=True)
            assert folder.parent == tmp_path and folder.name.startswith(PREFIX)
            raise KeyboardInterrupt
    except KeyboardInterrupt:
        pass
    assert list(tmp_path.iterdir()) == []


def test_sweep_removes_only_the_folders_of_runs_that_are_gone(tmp_path):
    dead, young, other = tmp_path / f"{PREFIX}dead", tmp_path / f"{PREFIX}young", tmp_path / "amlasp-other"
    for d in (dead, young, other):
        (d / "worker-7").mkdir(parents=True)
    _aged(dead)
    _aged(other)
    (young / ".lock").touch()
    live = tmp_path / f"{PREFIX}live"
    live.mkdir()
    _aged(live)
    holder = subprocess.Popen([sys.executable, "-c", "import fcntl, os, sys, time\n"
                               f"fd = os.open({str(live / '.lock')!r}, os.O_RDWR)\n"
                               "fcntl.flock(fd, fcntl.LOCK_EX); print('locked', flush=True); time.sleep(60)"],
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "locked\n"
        assert sweep(tmp_path) == 1
        assert sorted(p.name for p in tmp_path.iterdir()) == sorted([young.name, other.name, live.name])
    finally:
        holder.kill()
        holder.wait()
    assert sweep(tmp_path) == 1  # its run is gone: the lock is free
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([young.name, other.name])


def test_a_new_run_sweeps_before_it_makes_its_own(tmp_path, monkeypatch):
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))
    monkeypatch.setattr(scratch, "_YOUNG", 0.0)
    left = tmp_path / f"{PREFIX}killed"
    (left / "worker-3" / "tmp" / "x").mkdir(parents=True)
    _aged(left)
    with scratch_folder() as folder:
        assert [p.name for p in tmp_path.iterdir()] == [folder.name]
