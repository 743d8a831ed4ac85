"""Planning with a (learned) model: our model → clean PDDL → unified-planning → Fast Downward.

Learned models are messy, so the planner never sees the learned file itself: it sees
PDDL written from our normalised model by `pddl.writer` (the requirements the model really
uses declared, empty preconditions/effects written as `(and)`).
The problem is re-written for that model (`planner_task`): predicates, types and
constants that the problem uses but the model does not declare are declared, so that
the planner works on the real problem (see docs/solve.md for why we declare rather than
drop them).

Fast Downward runs as a child process of unified-planning's PDDL planner, in a
temporary directory (its intermediate `output.sas` too). Limits: the time limit is the
wall-clock time of the planner process, enforced exactly by unified-planning (it kills
the process group); Fast Downward's own time limits are whole seconds minus the
driver's start-up, too coarse for short limits (they are given only as a backstop,
`ORPHAN_GRACE` seconds later). The memory limit is Fast Downward's `--overall-memory-limit`
(`setrlimit(RLIMIT_AS)` in the translator and search). An interrupt ends the planner's whole
process group (`run_planner`'s `finally`, `stop_planners`): it runs in a session of its own,
which the terminal's Ctrl-C does not reach.
"""

from __future__ import annotations

import math
import os
import re
import signal
import sys
import time
import warnings
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Optional

from ..enums import TextEnum
from ..model import Domain, GroundAction, Predicate, Problem, Typed, type_members
from ..pddl.writer import problem_to_pddl, to_pddl
from .untyped import has_either, types_as_predicates

#: Search configurations. `greedy` is the paper's: lazy greedy best-first search with the
#: FF and context-enhanced additive heuristics and preferred operators of both;
#: `opt` is A* with LM-cut (optimal plans).
CONFIGS: dict[str, str] = {
    "greedy": "let(hff,ff(),let(hcea,cea(),lazy_greedy([hff,hcea],preferred=[hff,hcea])))",
    "opt": "astar(lmcut())",
}

#: Seconds past the time limit after which Fast Downward ends itself (its CPU-time limit): the limit
#: is enforced by unified-planning, from the process that started the planner; should that process
#: be killed (`kill -9` of a bench worker), the planner it leaves behind still ends.
ORPHAN_GRACE = 30

# Fast Downward driver exit codes (https://www.fast-downward.org/latest/documentation/exit-codes/).
_PLAN_FOUND = {0, 1, 2, 3}
_UNSOLVABLE = {10, 11}  # the translator proved it, or a complete search exhausted the state space
_TIMEOUT = {21, 23}
_MEMOUT = {20, 22, 24}
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


@dataclass(frozen=True)
class PlannerTask:
    """The PDDL texts given to the planner, and what had to be declared to make them consistent."""

    domain: str
    problem: str
    declared: tuple[str, ...] = field(default=())  # human-readable notes
    source: str = ""  # the user's files the texts were made from, for messages
    derived: bool = False  # the domain has :derived rules, which unified-planning's reader drops: FD reads it


def _objects(model: Domain, problem: Problem, reference: Domain | None, notes: list[str]
             ) -> tuple[list[Typed], Domain, set[str]]:
    """The problem's objects that are not the model's constants (and the reference's constants the model
    lacks), and the model with the types of those objects that it lacks declared (with `notes`)."""
    model_consts = dict(model.constants)
    objects: list[Typed] = [(o, t) for o, t in problem.objects if o not in model_consts]
    if reference is not None:  # constants of the reference that the model does not have become objects
        extra = [(c, t) for c, t in reference.constants if c not in model_consts and c not in dict(objects)]
        if extra:
            notes.append("reference constants given as objects: " + ", ".join(c for c, _ in extra))
            objects += extra
    known_types = {"object"} | {t for t, _ in model.types}
    new_types: list[Typed] = []
    for _, t in objects:
        for m in type_members(t):  # an either type's members
            if m not in known_types:
                new_types.append((m, "object"))
                known_types.add(m)
    if new_types:
        notes.append("declared types the model lacks: " + ", ".join(t for t, _ in new_types))
    typed = replace(model, types=model.types + tuple(new_types))  # its costs and derived rules kept
    return objects, typed, known_types


def planner_task(model: Domain, problem: Problem, reference: Domain | None = None) -> PlannerTask:
    """Pair `model` with `problem` (parsed against `reference`), declaring what the model lacks.

    Predicates the problem uses but the model lacks are declared (with the reference's
    argument types where the model knows them); a predicate argument whose declared type
    does not fit an object the problem puts there is widened to `object` (predicate types
    constrain nothing in PDDL, but unified-planning rejects such atoms). Raises ValueError
    when the two cannot be paired (a predicate used with another arity).
    """
    notes: list[str] = []
    model_consts = dict(model.constants)
    objects, typed, known_types = _objects(model, problem, reference, notes)
    of_type = dict(model_consts)
    of_type.update(objects)
    ref_preds = {p.name: p for p in reference.predicates} if reference is not None else {}
    decl = {p.name: list(p.parameters) for p in model.predicates}
    added: list[str] = []
    for atom in sorted(list(problem.init) + [g.atom for g in problem.goal], key=str):
        if atom.predicate == "=":
            continue
        params = decl.get(atom.predicate)
        if params is None:
            rp = ref_preds.get(atom.predicate)
            params = [(f"?x{i}", t if rp is not None and t in known_types else "object")
                      for i, (_, t) in enumerate(rp.parameters if rp is not None and rp.arity == len(atom.args)
                                                 else [("", "object")] * len(atom.args))]
            decl[atom.predicate] = params
            added.append(atom.predicate)
        if len(params) != len(atom.args):
            raise ValueError(f"predicate '{atom.predicate}' takes {len(params)} argument(s) in the model, "
                             f"but the problem uses it with {len(atom.args)}")
        for i, (o, (v, t)) in enumerate(zip(atom.args, params)):
            if t != "object" and not typed.fits(of_type.get(o, "object"), t):
                params[i] = (v, "object")
    if added:
        notes.append("declared predicates the model lacks: " + ", ".join(added))
    preds = tuple(Predicate(n, tuple(ps)) for n, ps in decl.items())
    # An action without effects never changes a state, so no plan needs it; unified-planning
    # would write it without :effect, which Fast Downward rejects.
    actions = tuple(a for a in model.actions if a.effects)
    if len(actions) < len(model.actions):
        notes.append("left out actions without effects: " + ", ".join(a.name for a in model.actions if not a.effects))
    full = replace(typed, predicates=preds, actions=actions)  # costs and derived rules kept
    task = replace(problem, objects=tuple(objects))
    if has_either(full, task):
        full, task = types_as_predicates(full, task)
        notes.append("either types given to the planner as predicates (type-T)")
    return PlannerTask(to_pddl(full), problem_to_pddl(task, model.name, task.objects), tuple(notes),
                       f"{model.file or model.name}, {problem.file or problem.name}", bool(model.derived))


# --------------------------------------------------------------------------- running Fast Downward

def _engine_class():
    """A unified-planning Fast Downward engine that also passes the driver's memory limit."""
    from up_fast_downward import FastDownwardPDDLPlanner

    class LimitedFastDownward(FastDownwardPDDLPlanner):
        def __init__(self, search_config: str, memory_mb: int | None, timeout: float | None = None):
            super().__init__(fast_downward_search_config=search_config, log_level="info")
            self._limits: list[str] = []
            if timeout is not None:  # a backstop: a planner whose worker was killed still ends on its own
                self._limits += ["--overall-time-limit", f"{math.ceil(timeout) + ORPHAN_GRACE}s"]
            if memory_mb is not None:
                self._limits += ["--overall-memory-limit", f"{memory_mb}M"]
            self.exit_code: int | None = None

        def _base_cmd(self, plan_filename: str):
            # the translator's output.sas goes next to the plan, in unified-planning's temporary
            # directory: by default it lands in the working directory, where parallel runs collide
            cmd = super()._base_cmd(plan_filename)
            sas = os.path.join(os.path.dirname(plan_filename), "output.sas")
            return cmd[:2] + ["--sas-file", sas] + self._limits + cmd[2:]

        def _result_status(self, problem, plan, retval=None, log_messages=None):
            self.exit_code = retval
            return super()._result_status(problem, plan, retval, log_messages)

    return LimitedFastDownward


#: The engines of the planner calls going on in this process (`stop_planners`).
_RUNNING: set = set()


def _stop(engine) -> None:
    """End `engine`'s planner if it still runs: its whole process group (the driver, translator and
    search), since unified-planning starts it in a session of its own, out of reach of the terminal."""
    proc = getattr(engine, "_process", None)
    if proc is not None and proc.poll() is None:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except OSError:  # ended meanwhile
            pass


def stop_planners() -> None:
    """End every planner this process started that still runs (a bench worker told to stop)."""
    for engine in list(_RUNNING):
        _stop(engine)


def downward_root() -> Path:
    """Where up-fast-downward installed Fast Downward (its driver, translator and search binary)."""
    import importlib.util
    spec = importlib.util.find_spec("up_fast_downward")  # found, not imported (it imports unified-planning)
    if spec is None or spec.origin is None:
        raise RuntimeError("Fast Downward is not installed (pip install up-fast-downward)")
    return Path(spec.origin).parent / "downward"


class _Driven:
    """A planner started by `_run_driver` itself, held like an engine (its `_process`) for `stop_planners`."""

    def __init__(self, proc) -> None:
        self._process = proc


def _run_driver(task: PlannerTask, config: str, timeout: float, memory_mb: int | None) -> PlannerResult:
    """Fast Downward's driver on the texts themselves, for what unified-planning cannot hand it: a domain
    with derived predicates (its PDDL reader drops `:derived` without a word), and cost-optimal plans
    (`optimal_plan`). Same configurations, limits (the wall-clock limit kills the process group) and
    outcomes as through unified-planning."""
    import subprocess
    import tempfile

    driver = downward_root() / "fast-downward.py"
    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="amlasp-fd-") as tmp:
        d, p, plan_file = (os.path.join(tmp, n) for n in ("domain.pddl", "problem.pddl", "sas_plan"))
        Path(d).write_text(task.domain)
        Path(p).write_text(task.problem)
        # the time limit is ours (below); Fast Downward's own is a backstop, as through unified-planning:
        # a planner whose caller was killed (it runs in a session of its own) still ends
        limits = ["--overall-time-limit", f"{math.ceil(timeout) + ORPHAN_GRACE}s"] if math.isfinite(timeout) else []
        limits += ["--overall-memory-limit", f"{memory_mb}M"] if memory_mb is not None else []
        cmd = [sys.executable, str(driver), "--plan-file", plan_file, "--sas-file", os.path.join(tmp, "output.sas"),
               *limits, d, p, "--search", CONFIGS[config]]
        proc = subprocess.Popen(cmd, cwd=tmp, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                start_new_session=True)
        running = _Driven(proc)
        _RUNNING.add(running)  # ended by stop_planners as well
        try:
            logs, _ = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
            return PlannerResult(PlannerStatus.TIMEOUT, None, time.monotonic() - start,
                                 f"time limit of {timeout:g} s reached")
        finally:
            _RUNNING.discard(running)
            if proc.poll() is None:  # interrupted: nothing of it is left running
                _stop(running)
        code = proc.returncode
        seconds = time.monotonic() - start
        if code in _PLAN_FOUND and os.path.exists(plan_file):
            lines = [ln.strip().strip("()").split() for ln in Path(plan_file).read_text().splitlines()
                     if ln.strip() and not ln.startswith(";")]
            plan = tuple(GroundAction(x[0], tuple(x[1:])) for x in lines)
            return PlannerResult(PlannerStatus.PLAN, plan, seconds, "", code, logs)
    if code in _UNSOLVABLE:
        why = "the translator proved the goal unreachable" if code == 10 else "search space exhausted"
        return PlannerResult(PlannerStatus.NO_PLAN, None, seconds, why, code, logs)
    if code in _TIMEOUT:
        return PlannerResult(PlannerStatus.TIMEOUT, None, seconds, f"time limit of {timeout:g} s reached", code, logs)
    if code in _MEMOUT or (memory_mb is not None and any(m in logs for m in _OUT_OF_MEMORY)):
        return PlannerResult(PlannerStatus.MEMOUT, None, seconds, f"memory limit of {memory_mb} MB reached", code, logs)
    meaning = _EXIT_MEANING.get(code, f"exit code {code}")
    return PlannerResult(PlannerStatus.ERROR, None, seconds, f"Fast Downward: {meaning}: {_tail(logs)}", code, logs)


def _tail(text: str, n: int = 3, width: int = 300) -> str:
    """The planner's own last words, without the driver's bookkeeping lines."""
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    keep = [ln for ln in lines if not ln.startswith(("INFO", "[t=", "Driver aborting", "b'"))
            and "exit code" not in ln] or lines
    return " | ".join(keep[-n:])[-width:]


def run_planner(task: PlannerTask, config: str = "greedy", timeout: float = 60.0,
                memory_mb: int | None = None) -> PlannerResult:
    """Plan for `task`; every outcome is a `PlannerResult`, nothing is raised for planner trouble."""
    if config not in CONFIGS:
        raise ValueError(f"unknown planner configuration '{config}' (choose from {', '.join(CONFIGS)})")
    start = time.monotonic()
    if task.derived:
        return _run_driver(task, config, timeout, memory_mb)
    try:
        from unified_planning.io import PDDLReader
        # the global environment: the reader builds `forall` variables in it whatever it is given
        with warnings.catch_warnings():  # pyparsing deprecation notices from inside unified-planning
            warnings.simplefilter("ignore", DeprecationWarning)
            up_problem = PDDLReader().parse_problem_string(task.domain, task.problem)
    except Exception as e:  # the text is ours, so a rejection is about the model's content
        msg = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        msg = re.sub(r"\s*\(line:\s*\d+, col:\s*\d+\)", "", msg)  # a position in our text, not the user's
        where = f" ({task.source})" if task.source else ""
        return PlannerResult(PlannerStatus.INVALID_MODEL, None, time.monotonic() - start,
                             f"unified-planning cannot read the model{where}: {msg}")
    engine = _engine_class()(CONFIGS[config], memory_mb, timeout)
    _RUNNING.add(engine)
    # action costs given by static functions: Fast Downward reads them, unified-planning cannot tell it does
    engine.skip_checks = ":action-costs" in task.domain
    try:
        result = engine.solve(up_problem, timeout=timeout)
    except Exception as e:
        return PlannerResult(PlannerStatus.ERROR, None, time.monotonic() - start, f"{type(e).__name__}: {e}")
    finally:  # an interrupt (Ctrl-C, SIGTERM turned into an exception) must not leave the planner running
        _RUNNING.discard(engine)
        _stop(engine)
    seconds = time.monotonic() - start
    logs = "\n".join(m.message for m in result.log_messages or [])
    status, plan, detail = _outcome(result, engine.exit_code, logs, timeout, memory_mb)
    return PlannerResult(status, plan, seconds, detail, engine.exit_code, logs)


def _outcome(result, code: int | None, logs: str, timeout: float,
             memory_mb: int | None) -> tuple[PlannerStatus, Optional[tuple[GroundAction, ...]], str]:
    """What a finished planner run means: its status, the plan, a one-line reason."""
    from unified_planning.engines import PlanGenerationResultStatus as S
    if result.status == S.TIMEOUT and code is None:
        return PlannerStatus.TIMEOUT, None, f"time limit of {timeout:g} s reached"
    if code in _PLAN_FOUND and result.plan is not None:
        plan = tuple(GroundAction(ai.action.name, tuple(p.object().name for p in ai.actual_parameters))
                     for ai in result.plan.actions)
        return PlannerStatus.PLAN, plan, ""
    if code in _UNSOLVABLE:
        why = "the translator proved the goal unreachable" if code == 10 else "search space exhausted"
        return PlannerStatus.NO_PLAN, None, why
    if code in _TIMEOUT:
        return PlannerStatus.TIMEOUT, None, f"time limit of {timeout:g} s reached"
    if code in _MEMOUT or (memory_mb is not None and any(m in logs for m in _OUT_OF_MEMORY)):
        return PlannerStatus.MEMOUT, None, f"memory limit of {memory_mb} MB reached"
    meaning = _EXIT_MEANING.get(code, f"exit code {code}")
    return PlannerStatus.ERROR, None, f"Fast Downward: {meaning}: {_tail(logs)}"


def plan_with_fast_downward(model: Domain, problem: Problem, reference: Domain | None = None,
                            config: str = "greedy", timeout: float = 60.0,
                            memory_mb: int | None = None) -> PlannerResult:
    """Plan for `problem` with `model` (the problem may use vocabulary only `reference` declares)."""
    try:
        task = planner_task(model, problem, reference)
    except ValueError as e:
        return PlannerResult(PlannerStatus.INVALID_MODEL, None, 0.0, str(e))
    return run_planner(task, config, timeout, memory_mb)


def plan_with_driver(model: Domain, problem: Problem, config: str = "greedy", timeout: float = 60.0,
                     memory_mb: int | None = None) -> PlannerResult:
    """Plan for `problem` with a well-formed model (a reference domain) through Fast Downward's driver
    alone (`_run_driver`): the planner, configuration, limits and outcomes of `plan_with_fast_downward`,
    without unified-planning's reader, which costs about 0.6 s of Python a call (trajectory generation
    plans once per random step)."""
    try:
        task = planner_task(model, problem, model)
    except ValueError as e:
        return PlannerResult(PlannerStatus.INVALID_MODEL, None, 0.0, str(e))
    return _run_driver(task, config, timeout, memory_mb)


def optimal_plan(model: Domain, problem: Problem, timeout: float = 60.0) -> PlannerResult:
    """A cost-optimal plan by Fast Downward's A* with LM-cut, run directly (`_run_driver`) on the PDDL our
    writer makes: unified-planning refuses action costs given by static functions, and names shared by an
    action and a predicate, which Fast Downward reads."""
    return _run_driver(PlannerTask(to_pddl(model), problem_to_pddl(problem)), "opt", timeout, None)


__all__ = ["CONFIGS", "optimal_plan", "PlannerResult", "PlannerStatus", "PlannerTask", "planner_task", "run_planner",
           "plan_with_fast_downward", "plan_with_driver", "stop_planners", "downward_root"]
