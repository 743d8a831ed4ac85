"""watchdog.within: the work in a child process, its result or exception back, ended at its deadline
(also one that ignores SIGTERM, as clingo's C code does), stages that say what was reached and may
extend the deadline; and the command line: a huge compare with --time-limit 1 ends with exit 3, and
SIGTERM (Ctrl-C) ends it with 143 (130) and its child."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from amlasp import watchdog
from amlasp.errors import InputError, TimeLimitReached
from tests.metrics.test_compare_unused import wide
from tests.support.procs import children, gone

ROOT = Path(__file__).resolve().parent.parent


def _pid_file_work(path: str, ignore_term: bool) -> None:
    Path(path).write_text(str(os.getpid()))
    if ignore_term:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    watchdog.stage("waiting forever")
    while True:
        time.sleep(0.05)


def _raise() -> None:
    raise InputError("bad input", "x.pddl", 3, 4)


def _fresh(case: str, *args: str) -> None:
    """Run `case(*args)` of this module in a new Python: `within` forks only where no other thread runs,
    and a pytest-xdist worker has threads of its own (in it the work would run in-process)."""
    code = f"import sys; from tests import test_watchdog as t; t.{case}(*sys.argv[1:])"
    p = subprocess.run([sys.executable, "-c", code, *args], cwd=ROOT, capture_output=True, text=True, timeout=120,
                       env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert p.returncode == 0, p.stderr


def _result_and_exception() -> None:
    assert watchdog.forkable()
    assert watchdog.within(30, "work", lambda x: (os.getpid(), x * 2), 21)[1] == 42
    assert watchdog.within(30, "work", lambda: os.getpid()) != os.getpid()  # it ran in a child
    with pytest.raises(InputError, match="x.pddl:3:4: bad input"):
        watchdog.within(30, "work", _raise)


def test_the_result_and_the_exception_come_back():
    _fresh("_result_and_exception")


def _past_deadline(pid_file: str, ignore_term: str) -> None:
    with pytest.raises(TimeLimitReached, match="^work: the time limit of 0.5 s was reached while waiting forever"):
        watchdog.within(0.5, "work", _pid_file_work, pid_file, ignore_term == "1")
    assert gone(int(Path(pid_file).read_text()))  # ended (SIGKILL when it ignores SIGTERM), and reaped


@pytest.mark.parametrize("ignore_term", [False, True])
def test_work_past_its_deadline_is_ended_and_says_what_it_reached(tmp_path, ignore_term):
    _fresh("_past_deadline", str(tmp_path / "pid"), "1" if ignore_term else "0")


def _staged() -> str:
    watchdog.stage("a second stage", time.monotonic() + 30)
    time.sleep(1.0)
    return "done"


def _stage_extends() -> None:
    assert watchdog.forkable() and watchdog.within(0.5, "work", _staged) == "done"


def test_a_stage_may_extend_the_deadline():
    _fresh("_stage_extends")


def test_with_another_thread_running_the_work_runs_here():
    stop = threading.Event()
    t = threading.Thread(target=stop.wait)
    t.start()
    try:
        assert not watchdog.forkable()
        assert watchdog.within(0.1, "work", os.getpid) == os.getpid()
    finally:
        stop.set()
        t.join()


@pytest.fixture(scope="module")
def huge(tmp_path_factory) -> tuple[Path, Path]:
    """Two copies of a domain of 50,000 predicates (0.6 MB; issue 20)."""
    folder = tmp_path_factory.mktemp("huge")
    learned, reference = folder / "wide.pddl", folder / "wide-copy.pddl"
    text = wide(50_000)
    learned.write_text(text)
    reference.write_text(text)
    return learned, reference


def _amlasp(*args: str) -> subprocess.Popen:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.Popen([sys.executable, "-m", "amlasp", *args], cwd=ROOT, env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def test_a_huge_compare_with_a_time_limit_of_one_second_ends_unknown(huge):
    p = _amlasp("compare", str(huge[0]), str(huge[1]), "--time-limit", "1", "-f", "json")
    out, err = p.communicate(timeout=60)
    assert p.returncode == 3, err
    assert out == "" and err.count("\n") == 1
    assert err.startswith("amlasp: compare: the time limit of 1 s was reached while ")


def test_a_problem_compare_with_a_time_limit_of_one_second_ends_unknown():
    """`compare --domain` too: grippers' largest problem, a million states to explore (without the
    watchdog it ran past 120 s with `--time-limit 1`)."""
    ipc = ROOT / "benchmarks" / "ipc"
    problem = str(ipc / "problems" / "solving" / "grippers" / "9_grippers_prob.pddl")
    p = _amlasp("compare", problem, problem, "--domain", str(ipc / "domains" / "grippers.pddl"), "--time-limit", "1",
                "--max-states", "1000000")
    out, err = p.communicate(timeout=60)
    assert p.returncode == 3, err
    assert out == "" and err.count("\n") == 1
    assert err.startswith("amlasp: compare: the time limit of 1 s was reached while exploring the reachable states")


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads a process's children in /proc")
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_an_interrupt_ends_a_compare_and_its_child_with_128_plus_the_signal(huge, signum):
    p = _amlasp("compare", str(huge[0]), str(huge[1]), "--time-limit", "600", "-f", "json")
    stop = time.monotonic() + 60
    while not children(p.pid) and time.monotonic() < stop and p.poll() is None:
        time.sleep(0.05)
    started = children(p.pid)
    assert started, "the compare did not start its child"
    p.send_signal(signum)
    p.communicate(timeout=30)
    assert p.returncode == 128 + signum
    stop = time.monotonic() + 5
    while not all(gone(c) for c in started) and time.monotonic() < stop:
        time.sleep(0.05)
    assert all(gone(c) for c in started)


def _plan_outlasted() -> None:
    from amlasp.reasoning.planning import plan
    from tests.support.examples import BLOCKSWORLD
    from tests.support.stall import stall_grounding_at

    stall_grounding_at(2)
    d, p = BLOCKSWORLD.load()
    t = time.monotonic()
    assert watchdog.forkable()
    with pytest.raises(TimeLimitReached, match="^plan: the time limit of 1 s was reached while grounding step 2 "):
        plan(d, p, time_limit=1, prover="asp")  # clingo grounds (Fast Downward: test_provers.py)
    assert time.monotonic() - t < 30


def test_a_plan_whose_grounding_outlasts_its_time_limit_ends_unknown():
    """Grounding counts towards plan's time limit: a step whose grounding never ends (here made to
    sleep; clingo's grounder cannot be interrupted at all) ends with TimeLimitReached naming it."""
    _fresh("_plan_outlasted")
