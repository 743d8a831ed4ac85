"""Trajectory generation (the paper's Step 1/3): plans of the reference model, perturbed at random.

For each trajectory: plan with the reference model (A* with LM-cut with probability
`p_opt`, the greedy configuration otherwise; when the optimal planner runs out of time or
memory, the greedy one takes over, recorded as config `opt>greedy`); follow the plan, but at each step, with
probability `p_rnd`, take a random applicable action instead and re-plan from the state it
leads to. A random action that leads to a state from which the planner finds no plan is
undone (backtrack) and another one is tried; when none is left, the plan is followed.
Seeds are derived from (seed, domain, trajectory index), so a run is reproducible and
trajectories can be made in any order or in parallel.

Output: the trajectory format of `benchmarks/ipc/trajectories`
(`(:trajectory (:state ...) (:action ...) ... (:state ...))`) as `OUT/<k>_<domain>_traj`, with
its problem copied to `OUT/problems/<k>_<domain>_prob.pddl` (so that `amlasp eval --states
OUT --problems OUT/problems` reads exactly the trajectories: problem files among the
states would count as extra initial states).
"""

from __future__ import annotations

import dataclasses
import random
import shutil
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

from ..errors import InputError
from ..external.fast_downward import plan_with_fast_downward
from ..files import plain_name, refuse_overwrite, write_atomic
from ..model import Atom, Domain, GoalCondition, GroundAction, Literal, Problem
from ..pddl.inputs import problem_files
from ..pddl.parse import load_domain, load_problem
from ..reasoning.engine import applicable, execute
from ..workers import ProgressCallback, run_pool

P_RND = 0.2
P_OPT = 0.3
SEED = 0
MAX_STEPS = 1000


@dataclass(frozen=True)
class Trajectory:
    """States s0..sn and the actions between them; how much randomness went in."""

    states: tuple[frozenset[Atom], ...]
    actions: tuple[GroundAction, ...]
    config: str
    random_steps: int = 0
    backtracks: int = 0
    replans: int = 0

    def text(self) -> str:
        out = ["(:trajectory", ""]
        for i, s in enumerate(self.states):
            out += ["(:state " + " ".join(sorted(str(a) for a in s)) + ")", ""]
            if i < len(self.actions):
                out += [f"(:action {self.actions[i]})", ""]
        return "\n".join(out + [")"]) + "\n"


@dataclass(frozen=True)
class TrajectoryOutcome:
    """One generated (or skipped) trajectory file."""

    trajectory: str
    problem: str
    status: str  # generated | existing | unsolved
    config: str = ""
    length: Optional[int] = None
    random_steps: int = 0
    backtracks: int = 0
    seconds: float = 0.0
    detail: str = ""

    def to_dict(self) -> dict:
        return dataclasses.asdict(self)


@dataclass(frozen=True)
class GenerationResult:
    outcomes: tuple[TrajectoryOutcome, ...]

    def to_frame(self):
        import pandas as pd
        return pd.DataFrame([o.to_dict() for o in self.outcomes],
                            columns=[f.name for f in dataclasses.fields(TrajectoryOutcome)])


def goal_reached(problem: Problem, state: frozenset[Atom], domain: Domain | None = None) -> bool:
    """Does `state` satisfy the goal? A goal over derived predicates of `domain` is checked by the
    validator, which computes them (a state holds basic atoms only), and so is a goal condition
    (`forall`, `or`, ...: `model.GoalCondition`), which needs `domain`."""
    conditions = any(isinstance(g, GoalCondition) for g in problem.goal)
    if conditions and domain is None:
        raise ValueError(f"the goal of {problem.name} has conditions that are no literals: give the domain")
    if domain is not None and (conditions or any(g.atom.predicate in domain.derived_predicates()
                                                 for g in problem.goal)):
        return execute(domain, problem, [], start=state, states=False).valid

    def holds(lit: Literal) -> bool:
        if lit.atom.predicate == "=":
            return (lit.atom.args[0] == lit.atom.args[1]) == lit.positive
        return (lit.atom in state) == lit.positive
    return all(holds(g) for g in problem.goal)


def _successor(domain: Domain, problem: Problem, state: frozenset[Atom], action: GroundAction) -> frozenset[Atom]:
    ex = execute(domain, problem, [action], start=state)
    if ex.failed_step is not None:
        raise RuntimeError(f"internal error: {action} is not applicable although planned or chosen as applicable")
    return ex.states[1]


def generate(domain: Domain, problem: Problem, rng: random.Random, p_rnd: float = P_RND, p_opt: float = P_OPT,
             timeout: float = 60.0, memory_mb: int | None = 4096, max_steps: int = MAX_STEPS
             ) -> Trajectory | str:
    """One trajectory, or the reason there is none (the reference planner found no plan)."""
    config = "opt" if rng.random() < p_opt else "greedy"

    def replan(state: frozenset[Atom]):
        nonlocal config
        task = dataclasses.replace(problem, init=state)
        if config == "opt":
            r = plan_with_fast_downward(domain, task, None, "opt", timeout, memory_mb)
            if r.status not in ("timeout", "memout", "error"):
                return r
            config = "opt>greedy"  # optimal planning is out of reach: the greedy planner from here on
        return plan_with_fast_downward(domain, task, None, "greedy", timeout, memory_mb)

    first = replan(problem.init)
    if first.status != "plan":
        return f"{config} planner: {first.status} {first.detail}".strip()
    todo = list(first.plan)
    state = problem.init
    states = [state]
    actions: list[GroundAction] = []
    random_steps = backtracks = replans = 0
    while not goal_reached(problem, state, domain) and len(actions) < max_steps:
        if not todo:  # cannot happen with a valid plan; guards against planner/validator disagreement
            raise RuntimeError(f"internal error: the plan ended before the goal of {problem.name}")
        action = todo[0]
        if rng.random() < p_rnd:
            candidates = [a for a in applicable(domain, problem, [state])[0] if a != todo[0]]
            rng.shuffle(candidates)
            for cand in candidates:
                nxt = _successor(domain, problem, state, cand)
                if goal_reached(problem, nxt, domain):
                    action, todo = cand, []
                    random_steps += 1
                    break
                replans += 1
                r = replan(nxt)
                if r.status == "plan":
                    action, todo = cand, [cand] + list(r.plan)
                    random_steps += 1
                    break
                backtracks += 1  # a dead end (or no plan within the limit): undo and try another
        state = _successor(domain, problem, state, action)
        todo = todo[1:]
        states.append(state)
        actions.append(action)
    return Trajectory(tuple(states), tuple(actions), config, random_steps, backtracks, replans)


def _job(args) -> TrajectoryOutcome:
    domain_path, problem_path, traj_path, prob_copy, seed_key, p_rnd, p_opt, timeout, memory_mb = args
    start = time.monotonic()
    domain = load_domain(domain_path)
    problem = load_problem(problem_path, domain)
    t = generate(domain, problem, random.Random(seed_key), p_rnd, p_opt, timeout, memory_mb)
    name = Path(traj_path).name
    if isinstance(t, str):
        return TrajectoryOutcome(name, Path(problem_path).name, "unsolved", "", None, 0, 0,
                                 time.monotonic() - start, t)
    if Path(prob_copy).resolve() != Path(problem_path).resolve():
        shutil.copyfile(problem_path, str(prob_copy) + ".tmp")
        Path(str(prob_copy) + ".tmp").replace(prob_copy)
    write_atomic(traj_path, t.text())  # last: an existing trajectory file means a finished one
    return TrajectoryOutcome(name, Path(problem_path).name, "generated", t.config, len(t.actions), t.random_steps,
                             t.backtracks, time.monotonic() - start)


def generate_trajectories(domain: str | Path, problems, out_dir: str | Path, *, count: int | None = None,
                          p_rnd: float = P_RND, p_opt: float = P_OPT, seed: int = SEED, timeout: float = 60.0,
                          memory_mb: int | None = 4096, name: str | None = None, jobs: int = 1,
                          progress: ProgressCallback | None = None) -> GenerationResult:
    """`count` trajectories (default: one per problem; problems are used in turn) into `out_dir`.

    Existing trajectory files are kept (a stopped run resumes); delete them to regenerate.
    `progress(f"trajectories {name}", done, total)` is called as trajectories are made.
    """
    for what, p in (("--p-rnd", p_rnd), ("--p-opt", p_opt)):
        if not 0.0 <= p <= 1.0:
            raise InputError(f"{what} must be a probability between 0 and 1")
    domain_path = Path(domain)
    load_domain(domain_path)  # bad input is reported before any work starts
    files = problem_files(problems)
    dom_name = plain_name(name, "--name") if name else domain_path.stem  # a part of every file name written
    count = len(files) if count is None else count
    if count < 1:
        raise InputError("--count must be at least 1")
    out = Path(out_dir)
    if out.exists() and not out.is_dir():
        raise InputError("not a directory", out)
    (out / "problems").mkdir(parents=True, exist_ok=True)
    work, outcomes = [], {}
    for k in range(count):
        src = files[k % len(files)]
        traj = out / f"{k}_{dom_name}_traj"
        copy = out / "problems" / f"{k}_{dom_name}_prob.pddl"
        refuse_overwrite(traj, [domain_path, *files])
        if copy.exists() and copy.resolve() != src.resolve() and copy.read_bytes() != src.read_bytes():
            raise InputError(f"exists and is not a copy of {src} (choose another output directory)", copy)
        if traj.exists():
            outcomes[k] = TrajectoryOutcome(traj.name, src.name, "existing")
            continue
        work.append((k, (str(domain_path), str(src), str(traj), str(copy), f"{seed}:{dom_name}:{k}", p_rnd, p_opt,
                         timeout, memory_mb)))
    results = run_pool(_job, [w for _, w in work], jobs, progress, f"trajectories {dom_name}")
    for (k, _), r in zip(work, results):
        outcomes[k] = r
    return GenerationResult(tuple(outcomes[k] for k in range(count)))


__all__ = ["Trajectory", "TrajectoryOutcome", "GenerationResult", "generate", "generate_trajectories",
           "goal_reached", "P_RND", "P_OPT", "SEED"]
