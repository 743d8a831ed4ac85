"""A Dask cluster for the tests: `dask scheduler` and one `dask worker`, processes of their own started in a
folder of their own, so that a test shows that its work needs no file of the caller's."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.support.paths import ROOT


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def dask_cluster(tmp_path):
    """`dask scheduler` and one `dask worker`, started in a directory of their own (no suite, no models there)."""
    pytest.importorskip("dask.distributed")
    dask = Path(sys.executable).parent / "dask"
    if not dask.exists():
        pytest.skip("no dask command")
    elsewhere = tmp_path / "worker-home"
    elsewhere.mkdir()
    port = _free_port()
    address = f"tcp://127.0.0.1:{port}"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"} | {"PYTHONPATH": str(ROOT)}
    procs = [subprocess.Popen([str(dask), "scheduler", "--host", "127.0.0.1", "--port", str(port),
                               "--no-dashboard"], cwd=elsewhere, env=env, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)]
    time.sleep(2)
    procs.append(subprocess.Popen([str(dask), "worker", address, "--nworkers", "1", "--nthreads", "1",
                                   "--no-dashboard", "--local-directory", str(elsewhere)], cwd=elsewhere, env=env,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
    try:
        from dask.distributed import Client
        with Client(address, timeout="60s") as client:
            client.wait_for_workers(1, timeout=60)
        yield address
    finally:
        for p in reversed(procs):
            p.terminate()
            try:
                p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                p.kill()
