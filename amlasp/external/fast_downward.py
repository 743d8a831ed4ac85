"""Planning with a (learned) model: our model → clean PDDL → Fast Downward.

Learned models are messy, so the planner never sees the learned file itself: it sees PDDL written
from our normalised model by `pddl.writer` (the requirements the model really uses declared, empty
preconditions/effects written as `(and)`). The problem is re-written for that model
(`external/planner_task.py`: what the problem uses but the model does not declare is declared).

Fast Downward's driver runs as a child process, in a session of its own, in a temporary directory
(its intermediate `output.sas` too), on the PDDL texts our writer makes (`_run_driver`; it once went
through unified-planning, whose reading of our text and writing it out again cost more than the
planner itself on the suite's problems: docs/bench.md, time split). Limits: the time limit is the
wall-clock time of the planner process, enforced exactly here (the process group is killed); Fast
Downward's own time limit is whole seconds minus the driver's start-up, too coarse for short limits
(it is given only as a backstop, `ORPHAN_GRACE` seconds later). The memory limit is Fast Downward's
`--overall-memory-limit` (`setrlimit(RLIMIT_AS)` in the translator and search; run without the driver,
`DIRECT_MEMORY_MB`, so that a grounding that explodes ends in a memory error). An interrupt ends the
planner's whole process group (`stop_planners`, `_run_driver`'s `finally`): it runs in a session of its
own, which the terminal's Ctrl-C does not reach. A text the translator cannot parse is an invalid
model (the text is ours, written from a model we read: its content is at fault).
"""

from __future__ import annotations

import math
import os
import re
import select
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

from ..enums import TextEnum
from ..goal_rules import with_goal_rules
from ..model import Domain, GroundAction, Problem
from ..pddl.writer import problem_to_pddl, to_pddl
from .planner_task import PlannerTask, planner_task

#: Search configurations. `greedy` is the paper's: lazy greedy best-first search with the
#: FF and context-enhanced additive heuristics and preferred operators of both;
#: `opt` is A* with LM-cut (optimal plans).
CONFIGS: dict[str, str] = {
    "greedy": "let(hff,ff(),let(hcea,cea(),lazy_greedy([hff,hcea],preferred=[hff,hcea])))",
    "opt": "astar(lmcut())",
}
#: Fast Downward's optimal searches: A* with LM-cut; blind A* for a domain with derived predicates
#: (LM-cut refuses axioms, exit 34; blind A* is exact with them).
OPTIMAL, OPTIMAL_AXIOMS = CONFIGS["opt"], "astar(blind())"
#: The optimal searches in words, for evidence a reader sees.
SEARCH_NAMES = {OPTIMAL: "A* with LM-cut", OPTIMAL_AXIOMS: "blind A*"}


def optimal_config(domain: Domain) -> str:
    """Fast Downward's optimal search for `domain`: A* with LM-cut, blind A* when it has derived predicates
    (give `goal_rules.with_goal_rules`' domain for a problem with a goal condition: Fast Downward makes it an axiom)."""
    return OPTIMAL_AXIOMS if domain.derived else OPTIMAL

#: Seconds past the time limit after which Fast Downward ends itself (its CPU-time limit): the limit
#: is enforced by `_run_driver`, in the process that started the planner; should that process
#: be killed (`kill -9` of a bench worker), the planner it leaves behind still ends.
ORPHAN_GRACE = 30

# Fast Downward driver exit codes (https://www.fast-downward.org/latest/documentation/exit-codes/).
_PLAN_FOUND = {0, 1, 2, 3}
_UNSOLVABLE = {10, 11}  # the translator proved it, or a complete search exhausted the state space
_TIMEOUT = {21, 23}
_MEMOUT = {20, 22, 24}
_INPUT_REJECTED = 31  # the translator's parser refused the text
#: The address space (MB) of a translator or search run without the driver (`Running(direct=True)`).
DIRECT_MEMORY_MB = 6144
_OUT_OF_MEMORY = ("MemoryError", "bad_alloc", "failed to map segment", "Cannot allocate memory")
_EXIT_MEANING = {
    12: "the search ended without a plan but without a proof either (incomplete search)",
    30: "translator crashed", 31: "translator rejected the input", 32: "search crashed",
    33: "search rejected the input", 34: "the task uses a feature the search configuration does not support",
    35: "driver crashed", 36: "driver rejected the input", 37: "driver: unsupported",
}


class PlannerStatus(TextEnum):
    """What the planner said: a plan, a proof of unsolvability, a limit reached, its own trouble,
    or a model that cannot be given to it at all."""

    PLAN = "plan"
    NO_PLAN = "no_plan"
    TIMEOUT = "timeout"
    MEMOUT = "memout"
    ERROR = "error"
    INVALID_MODEL = "invalid_model"


@dataclass(frozen=True)
class PlannerResult:
    """What the planner said: a plan, a proof of unsolvability, or why it gave up."""

    status: PlannerStatus
    plan: Optional[tuple[GroundAction, ...]] = None
    seconds: float = 0.0
    detail: str = ""
    exit_code: Optional[int] = None
    log: str = field(default="", compare=False, repr=False)  # the planner's own output (solve --keep-plans)
    #: wall time of Fast Downward's own processes (driver, translator, search): `seconds` less our work around them
    planner_seconds: float = field(default=0.0, compare=False)


# --------------------------------------------------------------------------- running Fast Downward

#: The planner processes (Fast Downward's driver) running in this process's calls (`stop_planners`).
_RUNNING: set = set()


def _stop(proc) -> None:
    """End the planner `proc` if it still runs: its whole process group (the driver, translator and
    search), since it runs in a session of its own, out of reach of the terminal."""
    if proc.poll() is None:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except OSError:  # ended meanwhile
            pass


def stop_planners() -> None:
    """End every planner this process started that still runs (a bench worker told to stop)."""
    for proc in list(_RUNNING):
        _stop(proc)


def installed() -> bool:
    """Whether Fast Downward is installed (up-fast-downward), without importing it."""
    import importlib.util
    return importlib.util.find_spec("up_fast_downward") is not None


def downward_root() -> Path:
    """Where up-fast-downward installed Fast Downward (its driver, translator and search binary)."""
    import importlib.util
    spec = importlib.util.find_spec("up_fast_downward")  # found, not imported (it imports unified-planning)
    if spec is None or spec.origin is None:
        raise RuntimeError("Fast Downward is not installed (pip install up-fast-downward)")
    return Path(spec.origin).parent / "downward"


#: The translator (argument 1, the Python; 2-4 its domain, problem and SAS file) and then, if it ended well, the
#: search (the rest, its input the SAS file), as Fast Downward's driver runs them: the translator's 1, a crash,
#: is the driver's 30; any other exit code, the translator's or the search's, is the driver's own. -S: the
#: translator needs nothing of site-packages (it is found by PYTHONPATH), and site is half of a venv's Python
#: start-up (19 ms of CPU with an editable install's finder).
_CHAIN = '"$1" -S -m fast_downward.translate "$2" "$3" --sas-file "$4"; code=$?; ' \
         'if [ "$code" -eq 1 ]; then exit 30; elif [ "$code" -ne 0 ]; then exit "$code"; fi; ' \
         'sas=$4; shift 4; exec "$@" < "$sas"'


class Running:
    """Fast Downward started on a task and not waited for (`start_driver`): `poll` tells whether it has
    ended and with what, `wait` waits for it, `stop` ends it; its output goes to a file (a pipe nobody
    reads would stall a long search). Its temporary folder goes when it has ended.

    `direct`: its translator and then its search binary, as its driver runs them, without the driver
    (a Python process, a third of Fast Downward's CPU time on a small task), chained by a shell (`_CHAIN`);
    their exit codes are read as the driver's (a translator's 1 is its 30, a crash); their address space
    `DIRECT_MEMORY_MB`."""

    def __init__(self, task: PlannerTask, search: str, timeout: float, memory_mb: int | None, direct: bool = False):
        import tempfile

        if direct and memory_mb is not None:
            raise ValueError("a memory limit needs Fast Downward's driver")
        self.timeout, self.memory_mb, self.task = timeout, memory_mb, task
        self.start = time.monotonic()
        self._tmp = tempfile.TemporaryDirectory(prefix="amlasp-fd-")
        tmp = self._tmp.name
        d, p, self._plan_file = (os.path.join(tmp, n) for n in ("domain.pddl", "problem.pddl", "sas_plan"))
        sas = os.path.join(tmp, "output.sas")
        Path(d).write_text(task.domain)
        Path(p).write_text(task.problem)
        self._log = open(os.path.join(tmp, "log"), "w+")
        self.direct = direct
        if direct:
            bin = downward_root() / "builds" / "release" / "bin"
            # the translator, then the search, chained by a shell (`_CHAIN`): the search starts the moment the
            # translator ends, whatever this process is doing meanwhile (loading clingo's modules)
            cmd = ["/bin/sh", "-c", _CHAIN, "sh", sys.executable, d, p, sas, str(bin / "downward"), "--search", search,
                   "--internal-plan-file", self._plan_file]
            self._env: dict | None = {**os.environ, "PYTHONPATH": os.pathsep.join(
                [str(bin)] + ([os.environ["PYTHONPATH"]] if os.environ.get("PYTHONPATH") else []))}
        else:
            # the time limit is ours (below); Fast Downward's own is a backstop: a planner whose caller was
            # killed (it runs in a session of its own) still ends
            limits = (["--overall-time-limit", f"{math.ceil(timeout) + ORPHAN_GRACE}s"] if math.isfinite(timeout)
                      else []) + (["--overall-memory-limit", f"{memory_mb}M"] if memory_mb is not None else [])
            cmd = [sys.executable, str(downward_root() / "fast-downward.py"), "--plan-file", self._plan_file,
                   "--sas-file", sas, *limits, d, p, "--search", search]
            self._env = None
        self.started = time.monotonic()
        self.result: PlannerResult | None = None
        self.proc = self._spawn(cmd)

    def _spawn(self, cmd: list[str]) -> subprocess.Popen:
        """A process of its own session (Ctrl-C does not reach it), ended by `stop_planners`; or by its CPU limit."""
        backstop = math.ceil(self.timeout) + ORPHAN_GRACE if math.isfinite(self.timeout) and self.direct else None

        def limit() -> None:
            import resource
            if backstop is not None:
                resource.setrlimit(resource.RLIMIT_CPU, (backstop, backstop))
            if self.direct:  # run without the driver: its memory limit is ours
                resource.setrlimit(resource.RLIMIT_AS, (DIRECT_MEMORY_MB << 20,) * 2)

        proc = subprocess.Popen(cmd, cwd=self._tmp.name, stdout=self._log, stderr=subprocess.STDOUT,
                                text=True, start_new_session=True, env=self._env, preexec_fn=limit)
        _RUNNING.add(proc)
        return proc

    def poll(self) -> PlannerResult | None:
        """Its outcome once it has ended (a time limit reached ends it), else None."""
        if self.result is None:
            code = self.proc.poll()
            if code is not None:
                self._finish(code)
            elif time.monotonic() - self.started >= self.timeout:
                _stop(self.proc)
                self.proc.wait()
                self._finish(None)
        return self.result

    def wait(self, seconds: float | None = None) -> PlannerResult | None:
        """Its outcome, waiting at most `seconds` (default: until it ends or its time limit)."""
        until = math.inf if seconds is None else time.monotonic() + seconds
        while self.poll() is None:
            left = min(self.started + self.timeout, until) - time.monotonic()
            if left <= 0 and until < self.started + self.timeout:
                return None
            _ended_within(self.proc, max(0.0, left) if math.isfinite(left) else None)
        return self.result

    def stop(self) -> None:
        """End it (its whole process group) if it still runs, and let its files go."""
        _stop(self.proc)
        _RUNNING.discard(self.proc)
        if self.result is None and self.proc.poll() is None:
            self.proc.wait()
        if self.result is None:
            self.result = PlannerResult(PlannerStatus.ERROR, None, time.monotonic() - self.start, "stopped")
            self._close()

    def _close(self) -> None:
        self._log.close()
        self._tmp.cleanup()

    def _finish(self, code: int | None) -> None:
        _RUNNING.discard(self.proc)
        _stop(self.proc)  # a child of the driver left behind
        self._log.seek(0)
        logs = self._log.read()
        try:
            self.result = _outcome(self.task, code, logs, self._plan_file, time.monotonic() - self.start,
                                   time.monotonic() - self.started, self.timeout, self.memory_mb)
        finally:
            self._close()


def _ended_within(proc: subprocess.Popen, seconds: float | None) -> None:
    """Return once `proc` has ended or `seconds` have passed, at once when it ends: `Popen.wait` with a
    timeout polls at up to 50 ms intervals (up to 50 ms lost after each of the translator and the search, on a
    task Fast Downward solves in 0.15 s); a pidfd (Linux) is readable the moment the process ends."""
    if seconds is None:
        proc.wait()
        return
    try:
        fd = os.pidfd_open(proc.pid)
    except (AttributeError, OSError):  # no pidfd here (or the process is gone): Popen's polling
        try:
            proc.wait(timeout=seconds)
        except subprocess.TimeoutExpired:
            pass
        return
    try:
        select.select([fd], [], [], seconds)
    finally:
        os.close(fd)


def start_driver(task: PlannerTask, search: str, timeout: float, memory_mb: int | None = None,
                 direct: bool = False) -> Running:
    """Fast Downward on the texts of `task`, started and not waited for (`Running`; `direct`: without its
    driver)."""
    return Running(task, search, timeout, memory_mb, direct)


def _run_driver(task: PlannerTask, search: str, timeout: float, memory_mb: int | None) -> PlannerResult:
    """Fast Downward's driver on the texts themselves (derived predicates and action costs included, which
    unified-planning's reader drops or refuses); the wall-clock limit kills the process group."""
    running = start_driver(task, search, timeout, memory_mb)
    try:
        result = running.wait()
    finally:
        running.stop()  # interrupted: nothing of it is left running
    assert result is not None
    return result


def _outcome(task: PlannerTask, code: int | None, logs: str, plan_file: str, seconds: float, child: float,
             timeout: float, memory_mb: int | None) -> PlannerResult:
    """What the driver's exit code `code` (None: ended at the time limit), its output and plan file say."""
    if code is None:
        return PlannerResult(PlannerStatus.TIMEOUT, None, seconds, f"time limit of {timeout:g} s reached",
                             planner_seconds=child)
    if code in _PLAN_FOUND and os.path.exists(plan_file):
        lines = [ln.strip().strip("()").split() for ln in Path(plan_file).read_text().splitlines()
                 if ln.strip() and not ln.startswith(";")]
        plan = tuple(GroundAction(x[0], tuple(x[1:])) for x in lines)
        return PlannerResult(PlannerStatus.PLAN, plan, seconds, "", code, logs, child)
    if code in _UNSOLVABLE:
        why = "the translator proved the goal unreachable" if code == 10 else "search space exhausted"
        return PlannerResult(PlannerStatus.NO_PLAN, None, seconds, why, code, logs, child)
    if code == _INPUT_REJECTED:  # the text is ours, so a rejection is about the model's content
        where = f" ({task.source})" if task.source else ""
        return PlannerResult(PlannerStatus.INVALID_MODEL, None, seconds,
                             f"Fast Downward cannot read the model{where}: {_parse_error(logs)}", code, logs, child)
    if code in _TIMEOUT:
        return PlannerResult(PlannerStatus.TIMEOUT, None, seconds, f"time limit of {timeout:g} s reached", code, logs,
                             child)
    if code in _MEMOUT or (memory_mb is not None and any(m in logs for m in _OUT_OF_MEMORY)):
        return PlannerResult(PlannerStatus.MEMOUT, None, seconds, f"memory limit of {memory_mb} MB reached", code, logs,
                             child)
    meaning = _EXIT_MEANING.get(code, f"exit code {code}")
    return PlannerResult(PlannerStatus.ERROR, None, seconds, f"Fast Downward: {meaning}: {_tail(logs)}", code, logs,
                         child)


def _parse_error(logs: str) -> str:
    """The translator's parse error ("Error: ... | Reason: ..."), its temporary files named by what they hold."""
    lines = [ln.strip() for ln in logs.splitlines() if ln.strip().startswith(("Error:", "Reason:"))]
    text = " | ".join(lines) or _tail(logs, 1)
    return re.sub(r"\S*amlasp-fd-[^/\s]*/(domain|problem)\.pddl", r"the \1 as given to it", text)[:300]


def _tail(text: str, n: int = 3, width: int = 300) -> str:
    """The planner's own last words, without the driver's bookkeeping lines."""
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    keep = [ln for ln in lines if not ln.startswith(("INFO", "[t=", "Driver aborting", "b'"))
            and "exit code" not in ln] or lines
    return " | ".join(keep[-n:])[-width:]


def search_of(config: str, model: Domain | None = None) -> str:
    """Fast Downward's search of configuration `config`; `opt` for `model` is `optimal_config`'s."""
    if config not in CONFIGS:
        raise ValueError(f"unknown planner configuration '{config}' (choose from {', '.join(CONFIGS)})")
    return optimal_config(model) if config == "opt" and model is not None else CONFIGS[config]


def run_planner(task: PlannerTask, config: str = "greedy", timeout: float = 60.0,
                memory_mb: int | None = None) -> PlannerResult:
    """Plan for `task`; every outcome is a `PlannerResult`, nothing is raised for planner trouble."""
    return _run_driver(task, search_of(config), timeout, memory_mb)


def plan_with_fast_downward(model: Domain, problem: Problem, reference: Domain | None = None,
                            config: str = "greedy", timeout: float = 60.0,
                            memory_mb: int | None = None) -> PlannerResult:
    """Plan for `problem` with `model` (the problem may use vocabulary only `reference` declares)."""
    try:
        task = planner_task(model, problem, reference)
    except ValueError as e:
        return PlannerResult(PlannerStatus.INVALID_MODEL, None, 0.0, str(e))
    # `opt`: blind A* with derived predicates, and with a goal condition (Fast Downward makes it an axiom)
    return _run_driver(task, search_of(config, with_goal_rules(model, [problem])), timeout, memory_mb)


def optimal_plan(model: Domain, problem: Problem, timeout: float = 60.0) -> PlannerResult:
    """A cost-optimal plan by Fast Downward's optimal search (`optimal_config`) on the PDDL our writer makes
    (action costs given by static functions, and names shared by an action and a predicate, are read as
    they are)."""
    return _run_driver(PlannerTask(to_pddl(model), problem_to_pddl(problem)),
                       optimal_config(with_goal_rules(model, [problem])), timeout, None)


__all__ = ["CONFIGS", "OPTIMAL", "OPTIMAL_AXIOMS", "SEARCH_NAMES", "optimal_config", "optimal_plan", "PlannerResult",
           "PlannerStatus", "PlannerTask", "planner_task", "search_of", "run_planner", "plan_with_fast_downward",
           "stop_planners", "downward_root", "Running", "start_driver", "installed"]
