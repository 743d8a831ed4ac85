"""`amlasp server` for the benchmarks: a server of the run's own (its own runtime folder), and the CPU a
call costs with it running.

A served call's work is done by a child of the server, not by the process the benchmark waits for, so
RUSAGE_CHILDREN sees only the client. `Served.cpu()` adds the server's side: its process's CPU and that of
its children that ended (`amlasp server status`'s `cpu`: the server's RUSAGE_SELF and RUSAGE_CHILDREN),
read before a call and after it once the server says no call is running (the call's child ended and was
reaped). Each call's child
is counted whole: its fork and warm-up before the call, and what it waited for (Fast Downward's processes).
A child forked to take the next call is counted with that call.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


class Served:
    """A running `amlasp server` (started on entry, stopped on exit) and its environment for calls."""

    def __init__(self, env: dict[str, str]):
        self.env = dict(env, XDG_RUNTIME_DIR=tempfile.mkdtemp(prefix="bench-served-"))
        self.pid = 0

    def __enter__(self) -> Served:
        p = self._amlasp("server", "start", "--idle", "3600")
        if p.returncode != 0:
            raise SystemExit(f"amlasp server start: {p.stdout}{p.stderr}")
        self.pid = int(p.stdout.split("pid ")[1].split(",")[0])
        return self

    def __exit__(self, *exc) -> None:
        self._amlasp("server", "stop")

    def _amlasp(self, *args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "amlasp", *args], capture_output=True, text=True, cwd=ROOT,
                              env=self.env)

    def status(self) -> dict:
        """The server's status (`amlasp.server.control.status`, asked in this process: no process started)."""
        from amlasp.server import control
        saved = os.environ.get("XDG_RUNTIME_DIR")
        os.environ["XDG_RUNTIME_DIR"] = self.env["XDG_RUNTIME_DIR"]
        try:
            return control.status() or {}
        finally:
            if saved is None:
                del os.environ["XDG_RUNTIME_DIR"]
            else:
                os.environ["XDG_RUNTIME_DIR"] = saved

    def served(self) -> int:
        return int(self.status().get("served", -1))

    def cpu(self) -> float:
        """Seconds of CPU of the server and of the children it reaped, once no call is running."""
        deadline = time.monotonic() + 10
        while self.status().get("running") and time.monotonic() < deadline:
            time.sleep(0.005)
        status = self.status()
        if "cpu" not in status:  # it ended: amlasp's files changed under it (docs/validate.md), or it was stopped
            raise SystemExit("amlasp server ended during the run: figures with it are not measured")
        return float(status["cpu"])
