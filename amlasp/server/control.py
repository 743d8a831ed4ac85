"""`amlasp server start|stop|status`: start the server as a process of its own, ask it how it is, stop it."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from typing import Any

from ..errors import InputError
from . import PACKAGE, address, peer_uid, private, runtime_dir

#: Seconds `start` waits for a new server to answer (its warm-up takes about a second).
START_TIMEOUT = 60.0


def status() -> dict[str, Any] | None:
    """The running server's status (pid, socket, calls served, ...); None when none of ours answers."""
    folder = runtime_dir()
    if not private(folder):
        return None
    return _ask(folder, "status")


def start(idle: float) -> tuple[dict[str, Any], bool]:
    """The server's status, and whether it was started now (False: it was running already)."""
    running = status()
    if running is not None:
        return running, False
    folder = runtime_dir()
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
    except OSError as e:
        raise InputError(f"{folder}: cannot make the server's folder: {e.strerror}") from None
    if not private(folder):
        raise InputError(f"{folder}: not a folder of yours that only you may enter (mode 700): "
                         "the server's socket would not be private")
    log_path = address(folder, "log")
    with open(log_path, "wb") as log:  # the server's own errors, if it cannot start
        proc = subprocess.Popen([sys.executable, "-m", "amlasp.server.daemon", "--idle", repr(idle)],
                                stdin=subprocess.DEVNULL, stdout=log, stderr=log, cwd=os.path.dirname(PACKAGE),
                                start_new_session=True)  # not ended by the terminal's Ctrl-C or hang-up
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        answer = _ask(folder, "status")
        if answer is not None:
            return answer, True
        if proc.poll() is not None:
            with open(log_path, errors="replace") as f:
                why = " ".join(f.read().split()[-40:]) or f"exit status {proc.returncode}"
            raise InputError(f"the server did not start: {why}")
        time.sleep(0.02)
    proc.kill()
    raise InputError(f"the server did not answer within {START_TIMEOUT:.0f} s (log: {log_path})")


def stop() -> dict[str, Any] | None:
    """Stop the running server (its status as it ended), None if none was running. A call it is
    running finishes in its own child."""
    folder = runtime_dir()
    answer = _ask(folder, "stop") if private(folder) else None
    if answer is None:
        return None
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            os.kill(int(answer["pid"]), 0)
        except (OSError, ValueError, KeyError):
            break
        time.sleep(0.01)
    return answer


def _ask(folder: str, op: str) -> dict[str, Any] | None:
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.settimeout(10)
    try:
        sock.connect(address(folder, "ctl"))
        if peer_uid(sock) != os.getuid():
            return None
        sock.sendall(op.encode())
        sock.shutdown(socket.SHUT_WR)
        data = b""
        while not data.endswith(b"\n") and len(data) < 1 << 16:
            chunk = sock.recv(4096)
            if not chunk:
                return None
            data += chunk
        answer = json.loads(data)
        return answer if isinstance(answer, dict) else None
    except (OSError, ValueError):
        return None
    finally:
        sock.close()


__all__ = ["START_TIMEOUT", "start", "status", "stop"]
