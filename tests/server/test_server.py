"""`amlasp server`: a one-plan `amlasp validate` handed to a running server says exactly what the call
says without one (stdout, stderr, exit code), from the caller's folder and environment, on its streams;
the caller's signals end the server's child; a server not ours, or none, leaves the call to its caller."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import pytest

from tests.support.paths import EXAMPLES, ROOT

BW = EXAMPLES / "blocksworld"


def _env(runtime: str, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "NO_COLOR", "COLUMNS")}
    return dict(env, XDG_RUNTIME_DIR=runtime, PYTHONPATH=str(ROOT), **extra)


def amlasp(*args: str, runtime: str, cwd: Path = ROOT, timeout: float = 120, **extra: str
           ) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "amlasp", *args], capture_output=True, text=True, cwd=cwd,
                          env=_env(runtime, **extra), timeout=timeout)


def served(runtime: str) -> int:
    """Calls the server has answered (`amlasp server status`)."""
    p = amlasp("server", "status", runtime=runtime)
    assert p.returncode == 0, p.stdout + p.stderr
    return int(p.stdout.split(", ")[1].split()[0])


@pytest.fixture(scope="module")
def server():
    """A server of the module's own (its runtime folder), stopped at the end."""
    runtime = tempfile.mkdtemp(prefix="as-")  # short: a socket's path has at most 107 bytes
    p = amlasp("server", "start", "--idle", "300", runtime=runtime)
    assert p.returncode == 0 and p.stdout.startswith("started: pid "), p.stdout + p.stderr
    yield runtime
    amlasp("server", "stop", runtime=runtime)


@pytest.fixture
def alone(tmp_path):
    """A runtime folder with no server: calls run in their own process."""
    folder = tmp_path / "rt"
    folder.mkdir(mode=0o700)
    return str(folder)


CASES = [("domain.pddl", "plan.txt"), ("learned.pddl", "plan.txt"), ("domain.pddl", "no-such-plan.txt"),
         ("domain.pddl", "problem.pddl"), ("domain.pddl", "invalid.txt")]


@pytest.mark.parametrize("extra", [{}, {"COLUMNS": "30"}, {"FORCE_COLOR": "1"}, {"PYTHONIOENCODING": "latin-1"}],
                         ids=["plain", "narrow", "colour", "latin-1"])
@pytest.mark.parametrize("fmt", [[], ["-f", "json"]], ids=["table", "json"])
def test_a_served_call_says_what_the_call_says_alone(server, alone, tmp_path, fmt, extra):
    (tmp_path / "invalid.txt").write_text("(unstack b3 b1)\n(put_down b3)\n")
    before = served(server)
    for domain, plan in CASES:
        folder = tmp_path if plan == "invalid.txt" else BW
        args = ["validate", str(BW / domain), str(BW / "problem.pddl"), str(folder / plan), *fmt]
        got, want = amlasp(*args, runtime=server, **extra), amlasp(*args, runtime=alone, **extra)
        assert (got.returncode, got.stdout, got.stderr) == (want.returncode, want.stdout, want.stderr), (domain, plan)
    assert served(server) == before + len(CASES)


def test_relative_paths_are_the_callers(server, alone, tmp_path):
    """The child works in the caller's folder: relative names resolve there and are said as given."""
    args = ["validate", "domain.pddl", "problem.pddl", "plan.txt"]
    got, want = amlasp(*args, runtime=server, cwd=BW), amlasp(*args, runtime=alone, cwd=BW)
    assert got.returncode == 0 and (got.stdout, got.stderr) == (want.stdout, want.stderr)
    missing = amlasp("validate", "domain.pddl", "problem.pddl", "nothing.txt", runtime=server, cwd=BW)
    assert missing.returncode == 2 and missing.stderr.startswith("amlasp: error: nothing.txt")


def test_a_served_call_loads_neither_clingo_nor_our_model(server):
    code = ("import sys\nsys.argv = ['amlasp', 'validate', *sys.argv[1:]]\nfrom amlasp.launch import main\n"
            "try:\n    main()\nexcept SystemExit as e:\n    print(e.code, sorted({m.split('.')[0] for m in sys.modules "
            "if m.startswith(('clingo', 'typer', 'rich', 'amlasp.model', 'amlasp.pddl'))}), file=sys.stderr)")
    files = [str(BW / f) for f in ("domain.pddl", "problem.pddl", "plan.txt")]
    p = subprocess.run([sys.executable, "-c", code, *files], capture_output=True, text=True, cwd=ROOT,
                       env=_env(server), timeout=60)
    assert p.stdout == "valid: 8 step(s), goal reached, cost 8\n"
    assert p.stderr.strip() == "0 []"


def test_calls_at_once_each_get_their_own_answer(server, tmp_path):
    """More calls at once than children waiting: each waits for one and gets its own verdict."""
    (tmp_path / "invalid.txt").write_text("(unstack b3 b1)\n(stack b3 b1)\n(stack b3 b1)\n")
    results: dict[int, subprocess.CompletedProcess] = {}

    def call(i: int) -> None:
        plan = BW / "plan.txt" if i % 2 else tmp_path / "invalid.txt"
        results[i] = amlasp("validate", str(BW / "domain.pddl"), str(BW / "problem.pddl"), str(plan), runtime=server)

    threads = [threading.Thread(target=call, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for i, p in results.items():
        assert (p.returncode, p.stdout.split(":")[0]) == ((0, "valid") if i % 2 else (1, "invalid")), p.stderr


def test_a_closed_pipe_exits_141_quietly(server):
    p = subprocess.Popen([sys.executable, "-m", "amlasp", "validate", *(str(BW / f) for f in
                          ("domain.pddl", "problem.pddl", "plan.txt"))], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, cwd=ROOT, env=_env(server))
    p.stdout.close()
    err = p.stderr.read().decode()
    p.stderr.close()
    assert (p.wait(timeout=60), err) == (141, "")


def _children(runtime: str) -> set[int]:
    """The server's children now (waiting for a call, or running one)."""
    p = amlasp("server", "status", runtime=runtime)
    pid = int(p.stdout.split("pid ")[1].split(",")[0])
    return {int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()}


def _working_in(folder: Path, pids: set[int]) -> set[int]:
    """Those of `pids` that work in `folder`: a child that took a call works in its caller's folder."""
    out = set()
    for pid in pids:
        try:
            if Path(os.readlink(f"/proc/{pid}/cwd")) == folder:
                out.add(pid)
        except OSError:
            pass
    return out


@pytest.mark.parametrize("signum,code", [(signal.SIGINT, 130), (signal.SIGTERM, -signal.SIGTERM),
                                         (signal.SIGKILL, -signal.SIGKILL)])
def test_the_callers_end_ends_the_servers_child(server, tmp_path, signum, code):
    """Ctrl-C ends the call with 130, as without a server; SIGTERM ends the caller by it, as without a
    server; a caller killed outright leaves no child running its call."""
    steps = ["(unstack b3 b1)", "(put_down b3)", *["(pick_up b3)", "(put_down b3)"] * 200_000]
    (tmp_path / "long.txt").write_text("\n".join(steps) + "\n")
    p = subprocess.Popen([sys.executable, "-m", "amlasp", "validate", str(BW / "domain.pddl"),
                          str(BW / "problem.pddl"), "long.txt"], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, cwd=tmp_path, env=_env(server))
    deadline = time.monotonic() + 30
    while not (taken := _working_in(tmp_path, _children(server))) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert taken, "no child of the server took the call"
    time.sleep(0.3)
    p.send_signal(signum)
    out, err = p.communicate(timeout=30)
    assert p.returncode == code and out == b"", err
    deadline = time.monotonic() + 10
    while _alive(taken) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(taken)


def _alive(pids: set[int]) -> set[int]:
    out = set()
    for pid in pids:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state != "Z":
            out.add(pid)
    return out
