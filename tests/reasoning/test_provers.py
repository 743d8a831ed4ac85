"""`plan` and `reach` by either prover (docs/plan.md): Fast Downward's A* and clingo's horizons give plans of
the same length (ACPBench's optimal lengths and the registry's as oracles), `auto` picks Fast Downward where
it is installed and says so, Fast Downward's plan is validated before it is returned, and its process is
ended at the time limit and on an interrupt."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from amlasp.errors import UnsupportedError
from amlasp.external import fast_downward
from amlasp.model import Atom, GroundAction, Literal
from amlasp.pddl.parse import load_domain, load_problem
from amlasp.reasoning import downward, planning
from amlasp.reasoning.engine import execute
from tests.support import acpbench
from tests.support.examples import BLOCKSWORLD4
from tests.support.ipc import IPC
from tests.support.procs import children, gone

pytestmark = pytest.mark.skipif(not fast_downward.installed(), reason="Fast Downward is not installed")

#: ACPBench's shortest-plan problems (nexta) that clingo's horizons prove in about a second each.
SMALL = [x for x in acpbench.items("nexta") if int(x["answer"]["opt"]) <= 6
         and acpbench.domain_name(x) not in ("floor-tile", "grid")]


@pytest.mark.parametrize("item", SMALL, ids=[str(x["id"]) for x in SMALL])
def test_both_provers_find_plans_of_acpbench_optimal_length(item):
    d, p = acpbench.load(item)
    opt = int(item["answer"]["opt"])
    by_fd, by_asp = planning.plan(d, p, prover="fd"), planning.plan(d, p, prover="asp")
    assert (by_fd.length, by_fd.prover) == (opt, "fd") and (by_asp.length, by_asp.prover) == (opt, "asp")
    assert execute(d, p, by_fd.plans[0]).valid


def test_all_shortest_plans_are_the_same_whoever_proves_the_length():
    d, p = BLOCKSWORLD4.load()
    asp = planning.plan(d, p, top=0, prover="asp")
    fd = planning.plan(d, p, top=0, prover="fd")
    assert fd.prover == "asp + fd" and fd.plans == asp.plans and fd.length == BLOCKSWORLD4.optimal
    top = planning.plan(d, p, top=2, prover="auto")
    assert top.prover == "asp + fd" and top.plans == asp.plans[:2]


@pytest.mark.parametrize("target", ["(stack b2 b3)", "(unstack b1 b2)", "(pick_up b3)", "(stack b3 b3)"])
def test_reach_an_action_by_either_prover(target):
    d, p = BLOCKSWORLD4.load()
    name, *args = target.strip("()").split()
    action = GroundAction(name, tuple(args))
    asp = planning.reach(d, p, action=action, max_steps=12, prover="asp")
    fd = planning.reach(d, p, action=action, max_steps=12, prover="fd")
    assert asp.answer == fd.answer
    if asp.answer == "yes":
        assert len(asp.witness) == len(fd.witness) and fd.prover == "fd"
        assert execute(d, p, fd.witness + [action]).executable
    too_short = planning.reach(d, p, action=action, max_steps=max(len(asp.witness or []) - 1, 0), prover="fd")
    if asp.answer == "yes" and asp.witness:
        assert too_short.answer == "unknown" and f"the shortest has {len(asp.witness)}" in too_short.reason


def test_reach_literals_from_a_state_by_either_prover():
    d, p = BLOCKSWORLD4.load()
    goal = [Literal(Atom("on", ("b1", "b3")), True), Literal(Atom("on", ("b3", "b2")), False)]
    start = execute(d, p, planning.plan(d, p, prover="asp").plans[0][:3]).states[-1]
    asp = planning.reach(d, p, goal, init=start, prover="asp")
    fd = planning.reach(d, p, goal, init=start, prover="fd")
    assert asp.answer == fd.answer == "yes" and len(asp.witness) == len(fd.witness)


def test_auto_without_fast_downward_is_clingo_and_fd_is_refused(monkeypatch):
    d, p = BLOCKSWORLD4.load()
    assert planning.plan(d, p).prover == "fd"  # auto, Fast Downward installed
    monkeypatch.setattr(downward, "installed", lambda: False)
    assert planning.plan(d, p).prover == "asp"
    with pytest.raises(UnsupportedError, match="not installed"):
        planning.plan(d, p, prover="fd")


def test_a_wrong_plan_of_fast_downward_is_never_returned(monkeypatch):
    d, p = BLOCKSWORLD4.load()
    real = downward.answer

    def corrupt(result, domain, target):
        found = real(result, domain, target)
        return downward.Answer(found.plan[1:], found.length, False, "", 0.0)

    monkeypatch.setattr(downward, "answer", corrupt)
    with pytest.raises(RuntimeError, match="fails validation"):
        planning.plan(d, p, prover="fd")


BARMAN = (IPC / "domains" / "barman.pddl", IPC / "problems" / "solving" / "barman" / "5_barman_prob.pddl")


def _record_drivers(monkeypatch) -> list:
    started: list = []
    real = downward.start_driver

    def record(*args, **kwargs):
        running = real(*args, **kwargs)
        started.append(running)
        return running

    monkeypatch.setattr(downward, "start_driver", record)
    return started


def test_fast_downward_ends_at_the_time_limit(monkeypatch):
    d = load_domain(BARMAN[0])
    p = load_problem(BARMAN[1], d)
    started = _record_drivers(monkeypatch)
    t = time.monotonic()
    # in this process (no watchdog child), so that the driver's process can be looked at
    r = planning._plan(d, p, 30, 1, None, None, None, planning.Prover.FD, time_limit=1.0)
    assert time.monotonic() - t < 10
    assert r.status == "no_plan_within" and "time limit of 1 s" in r.reason and r.prover == "fd"
    assert len(started) == 1 and started[0].proc.poll() is not None
    assert started[0].proc not in fast_downward._RUNNING
    # with the watchdog's child, the answer is the same
    r = planning.plan(d, p, time_limit=1.0, prover="fd")
    assert r.status == "no_plan_within" and "time limit" in r.reason


def test_an_interrupt_ends_fast_downward(monkeypatch):
    d = load_domain(BARMAN[0])
    p = load_problem(BARMAN[1], d)
    started = _record_drivers(monkeypatch)

    def interrupt(signum, frame):
        raise KeyboardInterrupt

    old = signal.signal(signal.SIGALRM, interrupt)
    try:
        signal.alarm(2)
        with pytest.raises(KeyboardInterrupt):
            planning.plan(d, p, prover="auto")
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    assert len(started) == 1 and started[0].proc.poll() is not None


def test_an_empty_goal_is_the_empty_plan_whoever_is_asked():
    d, p = BLOCKSWORLD4.load()
    for prover in ("asp", "fd", "auto"):
        r = planning.plan(d, p, goal=(), prover=prover)
        assert r.status == "plan" and r.plans == [[]], prover


ROOT = Path(__file__).resolve().parents[2]


def _fresh(case: str) -> None:
    """Run `case()` of this module in a new Python, where `watchdog.within` forks (no other thread runs)."""
    code = f"from tests.reasoning import test_provers as t; t.{case}()"
    p = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120,
                       env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert p.returncode == 0, p.stderr


def _no_child_for_fast_downwards_plan() -> None:
    from amlasp import watchdog

    def fork():
        raise AssertionError("forked")

    assert watchdog.forkable()
    os.fork = fork  # a process of its own: nothing to restore
    d, p = BLOCKSWORLD4.load()
    r = planning.plan(d, p, time_limit=30, prover="fd")
    assert (r.status, r.length, r.prover) == ("plan", BLOCKSWORLD4.optimal, "fd")
    assert planning.reach(d, p, [Literal(Atom("on", ("b1", "b3")), True)], time_limit=30).answer == "yes"


def test_a_plan_of_fast_downward_needs_no_watchdog_child():
    """With a time limit, Fast Downward (a process that `Running` ends at the limit) is started, waited for and
    its plan validated in this process: no fork, no result sent back from a child (issue 33)."""
    _fresh("_no_child_for_fast_downwards_plan")


def _clingo_after_fast_downward_is_limited() -> None:
    from amlasp.errors import TimeLimitReached
    from tests.support.stall import stall_grounding_at
    stall_grounding_at(2)
    downward.answer = lambda result, domain, target: downward.Answer(None, None, False, "timeout: made up", 0.0)
    d, p = BLOCKSWORLD4.load()
    t = time.monotonic()
    with pytest.raises(TimeLimitReached, match="^plan: the time limit of 1 s was reached while grounding step 2 "):
        planning.plan(d, p, time_limit=1, prover="auto")
    assert time.monotonic() - t < 30


def test_clingos_horizons_after_fast_downward_keep_the_time_limit():
    """Fast Downward gave no answer: clingo's horizons (`auto`) run in the watchdog's child, whose grounding
    the time limit ends as before."""
    _fresh("_clingo_after_fast_downward_is_limited")


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads a process's children in /proc")
def test_sigterm_ends_plan_and_fast_downward_with_143():
    """Fast Downward runs from the command's own process: SIGTERM ends both (its session of its own is out of
    the reach of the signal), exit 143, as with a watchdog's child."""
    p = subprocess.Popen([sys.executable, "-m", "amlasp", "plan", *map(str, BARMAN), "--prover", "fd", "--time-limit",
                          "600"], cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT)), text=True,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    stop = time.monotonic() + 60
    while not children(p.pid) and time.monotonic() < stop and p.poll() is None:
        time.sleep(0.05)
    time.sleep(0.5)  # into the search
    planners = [c for pid in [p.pid, *children(p.pid)] for c in [pid, *children(pid)]][1:]
    assert planners, "no planner started"
    p.send_signal(signal.SIGTERM)
    p.communicate(timeout=30)
    assert p.returncode == 143
    stop = time.monotonic() + 5
    while not all(gone(c) for c in planners) and time.monotonic() < stop:
        time.sleep(0.05)
    assert all(gone(c) for c in planners)


def test_the_validator_is_readied_while_fast_downward_searches(monkeypatch):
    """While Fast Downward searches, the validator makes what it keeps of the model and the problem (by
    validating the empty plan), and the check of Fast Downward's plan uses it: nothing of it is made again."""
    from amlasp.reasoning import engine
    d, p = BLOCKSWORLD4.load()
    monkeypatch.setattr(engine, "_MODELS", {})
    monkeypatch.setattr(engine, "_KEPT", {})
    made: list = []
    real = fast_downward.Running.wait

    def wait(self, seconds=None):
        made.append((len(engine._MODELS), len(engine._KEPT)))
        return real(self, seconds)

    monkeypatch.setattr(fast_downward.Running, "wait", wait)
    r = planning.plan(d, p, prover="fd")
    assert r.status == "plan" and r.prover == "fd"
    assert made == [(1, 1)] and (len(engine._MODELS), len(engine._KEPT)) == (1, 1)
