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
    return {**env, "XDG_RUNTIME_DIR": runtime, "PYTHONPATH": str(ROOT), **extra}


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


#: Calls of every served form besides the one-plan call (docs/validate.md, docs/plan.md): run by the
#: server's child through `quick_call` or Typer, as the caller would run them. Paths relative to ROOT.
EX, BWP = "examples/blocksworld", "benchmarks/plans/blocksworld/plans.jsonl"
FORMS = {
    "batch json": ["validate", "benchmarks/ipc/domains/blocksworld.pddl", "--batch", BWP, "-f", "json"],
    "batch table": ["validate", "benchmarks/ipc/domains/blocksworld.pddl", "--batch", BWP],
    "batch group-by csv": ["validate", "benchmarks/ipc/domains/blocksworld.pddl", "--batch", BWP, "--group-by",
                           "problem", "-f", "csv"],
    "batch unreadable": ["validate", f"{EX}/domain.pddl", "--batch", "no-such.jsonl"],
    "several plans": ["validate", f"{EX}/domain.pddl", f"{EX}/problem.pddl", f"{EX}/plan.txt", f"{EX}/plan.txt"],
    "lenient": ["validate", f"{EX}/domain.pddl", f"{EX}/problem.pddl", "tests/data/plans_lenient/combined.plan",
                "--lenient", "-f", "json"],
    "several plans markdown": ["validate", f"{EX}/domain.pddl", f"{EX}/problem.pddl", f"{EX}/plan.txt", "-f", "md"],
    "Typer's options": ["--strict", "validate", f"{EX}/learned.pddl", f"{EX}/problem.pddl", f"{EX}/plan.txt",
                        "--format=json"],
    "usage error": ["validate", f"{EX}/domain.pddl", "--no-such-option"],
    "help": ["validate", "--help"],
    "plan": ["plan", f"{EX}/domain.pddl", f"{EX}/problem.pddl"],
    "plan json asp top": ["plan", f"{EX}/domain.pddl", f"{EX}/problem.pddl", "-f", "json", "--prover", "asp", "-k",
                          "2", "-t", "60"],
    "plan none": ["plan", f"{EX}/domain.pddl", f"{EX}/problem.pddl", "--prover", "asp", "-n", "3"],
    "plan bad prover": ["plan", f"{EX}/domain.pddl", f"{EX}/problem.pddl", "--prover", "bogus"],
    "reach": ["reach", f"{EX}/domain.pddl", f"{EX}/problem.pddl", "(on b1 b3)", "-f", "json"],
    "applicable": ["applicable", f"{EX}/domain.pddl", f"{EX}/problem.pddl"],
    "step": ["step", f"{EX}/domain.pddl", f"{EX}/problem.pddl", "(unstack b3 b1)", "(stack b3 b1)"],
    "justify": ["justify", f"{EX}/domain.pddl", f"{EX}/problem.pddl", f"{EX}/plan.txt"],
}


@pytest.mark.parametrize("form", FORMS)
def test_every_served_form_says_what_the_call_says_alone(server, alone, form):
    """Each form is the server's (its count of calls moves) and says what the call says without it: the same
    bytes on stdout and stderr, the same exit code."""
    args = FORMS[form]
    before = served(server)
    got, want = amlasp(*args, runtime=server), amlasp(*args, runtime=alone)
    assert (got.returncode, got.stdout, got.stderr) == (want.returncode, want.stdout, want.stderr)
    assert served(server) == before + 1
    assert want.stdout or want.stderr


@pytest.mark.parametrize("fmt", ["csv", "json"])
def test_a_served_batch_writes_its_file_in_the_callers_folder(server, alone, tmp_path, fmt):
    """`-o` relative to the caller's folder, written as without a server (the summary's file too); an
    output that would overwrite an input is refused alike."""
    bw = ROOT / "benchmarks" / "ipc" / "domains" / "blocksworld.pddl"
    outputs = {}
    for name, runtime in (("served", server), ("alone", alone)):
        folder = tmp_path / name
        folder.mkdir()
        before = served(server)
        p = amlasp("validate", str(bw), "--batch", str(ROOT / BWP), "--group-by", "problem", "-o", f"out.{fmt}",
                   runtime=runtime, cwd=folder)
        assert served(server) == before + (name == "served")
        outputs[name] = (p.returncode, p.stdout, p.stderr, sorted((f.name, f.read_bytes()) for f in folder.iterdir()))
    assert outputs["served"] == outputs["alone"]
    assert len(outputs["alone"][3]) == 2  # the verdicts, and the summary's file beside them
    refused = [amlasp("validate", str(bw), "--batch", str(ROOT / BWP), "-o", str(ROOT / BWP), runtime=runtime)
               for runtime in (server, alone)]
    assert [(p.returncode, p.stderr) for p in refused] == [(2, refused[1].stderr)] * 2


def test_relative_paths_are_the_callers(server, alone, tmp_path):
    """The child works in the caller's folder: relative names resolve there and are said as given."""
    args = ["validate", "domain.pddl", "problem.pddl", "plan.txt"]
    got, want = amlasp(*args, runtime=server, cwd=BW), amlasp(*args, runtime=alone, cwd=BW)
    assert got.returncode == 0 and (got.stdout, got.stderr) == (want.stdout, want.stderr)
    missing = amlasp("validate", "domain.pddl", "problem.pddl", "nothing.txt", runtime=server, cwd=BW)
    assert missing.returncode == 2 and missing.stderr.startswith("amlasp: error: nothing.txt")


@pytest.mark.parametrize("form", ["one plan", "plan json asp top", "batch json"])
def test_a_served_call_loads_neither_clingo_nor_our_model(server, form):
    code = ("import sys\nsys.argv = ['amlasp', *sys.argv[1:]]\nfrom amlasp.launch import main\n"
            "try:\n    main()\nexcept SystemExit as e:\n    print(e.code, sorted({m.split('.')[0] for m in sys.modules "
            "if m.startswith(('clingo', 'typer', 'rich', 'amlasp.model', 'amlasp.pddl'))}), file=sys.stderr)")
    args = ["validate", *(str(BW / f) for f in ("domain.pddl", "problem.pddl", "plan.txt"))] if form == "one plan" \
        else FORMS[form]
    p = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, cwd=ROOT,
                       env=_env(server), timeout=60)
    if form == "one plan":
        assert p.stdout == "valid: 8 step(s), goal reached, cost 8\n"
    assert p.stdout and p.stderr.strip() in ("0 []", "1 []")


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


@pytest.mark.parametrize("form", ["one plan", "batch"])
@pytest.mark.parametrize("signum,code", [(signal.SIGINT, 130), (signal.SIGTERM, -signal.SIGTERM),
                                         (signal.SIGKILL, -signal.SIGKILL)])
def test_the_callers_end_ends_the_servers_child(server, tmp_path, signum, code, form):
    """Ctrl-C ends the call with 130, as without a server; SIGTERM ends the caller by it, as without a
    server; a caller killed outright leaves no child running its call. A batch (Typer's path without a
    server, `quick_call`'s in the child) alike."""
    steps = ["(unstack b3 b1)", "(put_down b3)", *["(pick_up b3)", "(put_down b3)"] * 200_000]
    (tmp_path / "long.txt").write_text("\n".join(steps) + "\n")
    (tmp_path / "long.jsonl").write_text(f'{{"problem": "{BW / "problem.pddl"}", "plan": "long.txt"}}\n')
    call = [str(BW / "problem.pddl"), "long.txt"] if form == "one plan" else ["--batch", "long.jsonl", "-f", "json"]
    p = subprocess.Popen([sys.executable, "-m", "amlasp", "validate", str(BW / "domain.pddl"), *call],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=tmp_path, env=_env(server))
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


def test_a_call_that_is_not_served_is_declined(server):
    """The server's children run only the SERVED commands: a request for anything else, with a malformed
    environment, or with a value Python or Typer read at start-up other than the server's, is declined (the
    caller runs it) and writes nothing."""
    import socket as sockets

    from amlasp.server import address, send_request
    from amlasp.server.client import _request
    folder = os.path.join(server, "amlasp")
    for change in ({"argv": ["compare", "a", "b"]}, {"argv": ["--help"]}, {"env": {"A": 1}}, {"streams": [None]},
                   {"cwd": "/no/such"}, {"umask": -1}, {"env": {**os.environ, "TERMINAL_WIDTH": "33"}}):
        request = dict(_request(["validate", "d", "p", "x"]), **change)
        with sockets.socket(sockets.AF_UNIX) as s:
            s.settimeout(30)
            s.connect(address(folder))
            r, w = os.pipe()
            send_request(s, request, [r, w, w])
            os.close(r)
            os.close(w)
            assert s.recv(1) == b"F", change


def test_a_malformed_or_oversized_request_is_refused():
    import socket as sockets

    from amlasp.server import HEADER, MAX_REQUEST
    from amlasp.server.child import read_request
    for data in (HEADER.pack(MAX_REQUEST + 1), HEADER.pack(5) + b"\xff\xff\xff\xff\xff", HEADER.pack(3) + b"N",
                 HEADER.pack(2) + b"N"):  # too large, not marshal, ended early, not a dict
        a, b = sockets.socketpair()
        with a, b:
            b.sendall(data)
            b.shutdown(sockets.SHUT_WR)
            with pytest.raises(ValueError):
                read_request(a)


def test_only_a_private_folder_of_ours_is_trusted(tmp_path):
    from amlasp.server import private
    mine = tmp_path / "mine"
    mine.mkdir(mode=0o700)
    assert private(str(mine))
    for name, make in [("open", lambda p: p.mkdir(mode=0o755)), ("file", lambda p: p.write_text("")),
                       ("link", lambda p: p.symlink_to(mine))]:
        path = tmp_path / name
        make(path)
        if name == "open":
            path.chmod(0o755)
        assert not private(str(path)), name


def test_a_folder_others_may_enter_is_not_used(server, alone):
    """Calls do not connect to a socket in a folder others could have put it in; `start` refuses it."""
    folder = Path(server, "amlasp")
    before = served(server)
    folder.chmod(0o755)
    try:
        p = amlasp("validate", *(str(BW / f) for f in ("domain.pddl", "problem.pddl", "plan.txt")), runtime=server)
    finally:
        folder.chmod(0o700)
    assert p.returncode == 0 and served(server) == before
    Path(alone, "amlasp").mkdir(mode=0o755)
    Path(alone, "amlasp").chmod(0o755)
    p = amlasp("server", "start", runtime=alone)
    assert p.returncode == 2 and "not a folder of yours that only you may enter" in p.stderr


def test_start_stop_and_status_say_whether_a_server_runs(alone):
    for command in ("status", "stop"):
        p = amlasp("server", command, runtime=alone)
        assert (p.returncode, p.stdout) == (1, "no server running\n")
    first, again = amlasp("server", "start", runtime=alone), amlasp("server", "start", runtime=alone)
    try:
        assert first.stdout.startswith("started: ") and again.stdout.startswith("running already: ")
        assert again.stdout.split(",")[0].split()[-1] == first.stdout.split(",")[0].split()[-1]  # the same pid
    finally:
        stop = amlasp("server", "stop", runtime=alone)
    assert stop.returncode == 0 and stop.stdout.startswith("stopped: ")
    assert amlasp("server", "status", runtime=alone).returncode == 1


def test_a_server_whose_amlasp_changed_ends_and_the_call_runs_alone(tmp_path, alone):
    """A copy of amlasp with its own server: a module of the copy changed, the next call is not run by
    the stale server (which ends) but by its caller, with the same answer."""
    import shutil
    copy = tmp_path / "copy"
    shutil.copytree(ROOT / "amlasp", copy / "amlasp", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "encodings", copy / "encodings")  # a checkout's: the encodings beside the package
    args = ["validate", *(str(BW / f) for f in ("domain.pddl", "problem.pddl", "plan.txt"))]

    def run(*a: str) -> subprocess.CompletedProcess:
        return amlasp(*a, runtime=alone, cwd=tmp_path, PYTHONPATH=str(copy))  # the copy's amlasp

    assert run("server", "start", "--idle", "60").returncode == 0
    try:
        assert run(*args).returncode == 0 and run("server", "status").stdout.split(", ")[1] == "1 call(s) served"
        module = copy / "amlasp" / "render" / "formats.py"
        module.write_text(module.read_text() + "\n# changed\n")
        again = run(*args)
        assert (again.returncode, again.stdout) == (0, "valid: 8 step(s), goal reached, cost 8\n")
        deadline = time.monotonic() + 10
        while run("server", "status").returncode == 0 and time.monotonic() < deadline:
            time.sleep(0.1)
        assert run("server", "status").returncode == 1
    finally:
        run("server", "stop")


def _merged(args: list[str], runtime: str, tty: bool, **extra: str) -> tuple[int, bytes]:
    """Exit code and what a call writes to one stream taking both stdout and stderr: a pipe, or a
    terminal (a pseudo-terminal here), where the order of the two and rich's colours show."""
    if not tty:
        p = subprocess.run([sys.executable, "-m", "amlasp", *args], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           cwd=ROOT, env=_env(runtime, **extra), timeout=60)
        return p.returncode, p.stdout
    import pty
    main, side = pty.openpty()
    p = subprocess.Popen([sys.executable, "-m", "amlasp", *args], stdout=side, stderr=side, cwd=ROOT,
                         env=_env(runtime, COLUMNS="80", **extra))
    os.close(side)
    out = b""
    while True:
        try:
            chunk = os.read(main, 4096)
        except OSError:  # the terminal's other side closed
            break
        if not chunk:
            break
        out += chunk
    os.close(main)
    return p.wait(timeout=60), out


@pytest.mark.parametrize("tty", [False, True], ids=["pipe", "terminal"])
@pytest.mark.parametrize("unbuffered", ["", "1"], ids=["buffered", "unbuffered"])
def test_stdout_and_stderr_interleave_as_without_a_server(server, alone, tmp_path, tty, unbuffered):
    """A warning (stderr) and the verdict (stdout) reach one stream in the same order, with the caller's
    buffering (PYTHONUNBUFFERED, a terminal's line buffering) and rich's colours on a terminal."""
    (tmp_path / "invalid.txt").write_text("(unstack b3 b1)\n(stack b3 b1)\n")
    before = served(server)
    for plan in (BW / "plan.txt", tmp_path / "invalid.txt"):
        args = ["validate", str(BW / "learned.pddl"), str(BW / "problem.pddl"), str(plan)]
        got = _merged(args, server, tty, PYTHONUNBUFFERED=unbuffered)
        want = _merged(args, alone, tty, PYTHONUNBUFFERED=unbuffered)
        assert got == want
        assert b"warning" in got[1] and (b"\x1b[" in got[1]) == tty
    assert served(server) == before + 2


def test_children_warm_on_the_last_short_calls_files(server, monkeypatch, tmp_path):
    """After a short call, the children forked next warm on its domain and problem (read again, the
    empty plan validated); a file gone meanwhile costs that warm-up nothing but its time."""
    from amlasp.server import control
    from amlasp.server.child import _warm_on
    monkeypatch.setenv("XDG_RUNTIME_DIR", server)
    args = ["validate", "domain.pddl", "problem.pddl", "plan.txt"]
    want = [str(BW / "domain.pddl"), str(BW / "problem.pddl")]  # an earlier test's files may be there first
    for _ in range(5):  # a call slower than WARM_CALL is not one to warm on: a loaded machine's limit is longer
        assert amlasp(*args, runtime=server, cwd=BW, AMLASP_WARM_CALL="30").returncode == 0
        deadline = time.monotonic() + 2
        while (control.status() or {}).get("warm on") != want and time.monotonic() < deadline:
            time.sleep(0.05)
        if control.status()["warm on"] == want:
            break
    assert control.status()["warm on"] == want
    _warm_on(str(tmp_path / "gone.pddl"), str(BW / "problem.pddl"))  # says nothing, raises nothing


def test_a_change_of_code_is_told_from_bytecode_and_an_editors_files(tmp_path):
    """A server is stale when a module or an encoding is changed, added or removed; not when Python
    writes bytecode beside them, nor when an editor leaves a file there."""
    from amlasp.server.child import changed, fingerprint
    from amlasp.server.daemon import sources
    package = tmp_path / "pkg"
    (package / "sub").mkdir(parents=True)
    (package / "a.py").write_text("x = 1\n")
    (package / "sub" / "e.lp").write_text("a.\n")
    paths = sources(str(package))
    code = fingerprint(paths)
    os.utime(package, ns=(1, 1))  # a folder's time moves: each change below also moves it
    (package / "__pycache__").mkdir()
    (package / "__pycache__" / "a.cpython.pyc").write_bytes(b"\0")
    (package / ".a.py.swp").write_text("")
    assert not changed(paths, code)
    for change in (lambda: (package / "a.py").write_text("x = 22\n"), lambda: (package / "b.py").write_text(""),
                   lambda: (package / "sub" / "e.lp").unlink()):
        change()
        assert changed(paths, code)
        code = fingerprint(paths)


def test_the_server_watches_the_encodings_where_they_are():
    """A checkout's encodings are beside the package (top-level encodings/): a change to one makes the
    server stale as a change to a module does."""
    from amlasp.asp.run import encodings_folder
    from amlasp.server.daemon import sources
    folder = encodings_folder()
    assert folder is not None and str(folder / "validate.lp") in sources()


def test_the_status_counts_the_cpu_of_the_calls_served(server, monkeypatch):
    """`cpu` in the status: the server's and its ended children's, which grows by a served call's work once its
    child has ended (benchmarks/served.py counts a served call's CPU with it)."""
    from amlasp.server import control
    monkeypatch.setenv("XDG_RUNTIME_DIR", server)
    before = control.status()["cpu"]
    assert amlasp(*FORMS["batch json"], runtime=server).returncode == 1
    deadline = time.monotonic() + 10
    while control.status()["running"] and time.monotonic() < deadline:
        time.sleep(0.01)
    assert control.status()["cpu"] - before > 0.05  # 100 plans validated, 20 problems read
