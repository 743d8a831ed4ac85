"""Problem-solving metrics: plan with the learned model, validate in the reference model.

Every problem lands in exactly one category (`ProblemStatus`); ratios are over all
problems, nothing is dropped. Plans come from Fast Downward (`external/fast_downward.py`) and
are validated by amlasp's own ASP validator (`reasoning.engine.execute` on the reference
model), so a plan that uses an action the reference lacks is a false plan, not a crash.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional, Sequence

from ..choices import PlannerConfig  # noqa: F401 (re-exported: the API names it here too)
from ..costs import plan_cost
from ..enums import TextEnum
from ..errors import InputError, Unreadable
from ..external.fast_downward import CONFIGS, PlannerStatus, plan_with_fast_downward
from ..model import Broken, Domain, GroundAction, Number, Problem
from ..pddl.inputs import problem_files  # noqa: F401 (re-exported: the API names it here too)
from ..pddl.parse import load_domain, load_lenient, load_problem
from ..reasoning.engine import execute
from ..workers import ProgressCallback, run_pool  # noqa: F401 (re-exported: the API names them here too)


class ProblemStatus(TextEnum):
    """The category of one problem: the learned model's plan is valid in the reference, or is not;
    or the planner gave none (the planner's own statuses, `PlannerStatus`, other than a plan)."""

    SOLVED = "solved"
    FALSE_PLAN = "false_plan"
    NO_PLAN = PlannerStatus.NO_PLAN.value
    TIMEOUT = PlannerStatus.TIMEOUT.value
    MEMOUT = PlannerStatus.MEMOUT.value
    ERROR = PlannerStatus.ERROR.value
    INVALID_MODEL = PlannerStatus.INVALID_MODEL.value


DEFAULT_TIMEOUT = 60.0
DEFAULT_MEMORY_MB = 4096

#: The columns of `SolveResult.to_frame()` and of the exports; those of its summary table.
FRAME_COLUMNS = ("problem", "status", "plan_length", "cost", "quality", "seconds", "detail")
SUMMARY_COLUMNS = ("status", "problems", "ratio")


@dataclass(frozen=True)
class ProblemOutcome:
    """One problem: its category, the plan's length, the planning time and a one-line reason."""

    problem: str
    status: ProblemStatus
    plan_length: Optional[int] = None
    seconds: float = 0.0
    detail: str = ""
    plan: Optional[tuple[GroundAction, ...]] = field(default=None, compare=False)
    log: str = field(default="", compare=False, repr=False)  # the planner's output (or why it did not run)
    cost: Optional[Number] = None  # of a valid plan, in the reference (costs.plan_cost: its length without costs)
    best: Optional[Number] = None  # the best known cost (given, or the reference planner's), with quality asked
    #: where the time went (bench records): Fast Downward's processes (both runs with quality), validating the plan
    planner_seconds: float = field(default=0.0, compare=False)
    validation_seconds: float = field(default=0.0, compare=False)
    #: a problem file that could not be read (status error, `detail` its located message): the error's class
    error_class: Optional[str] = None

    @property
    def quality(self) -> Optional[float]:
        """The IPC quality score: best known cost / this plan's cost (1 when both are 0), 0 unsolved;
        None when no best cost is known."""
        if self.best is None:
            return None
        if self.status is not ProblemStatus.SOLVED or self.cost is None:
            return 0.0
        return 1.0 if self.cost == 0 else min(self.best, self.cost) / self.cost

    def plan_text(self) -> Optional[str]:
        """The plan in the IPC format Fast Downward writes (`sas_plan`), or None without a plan."""
        if self.plan is None:
            return None
        if self.cost is not None and self.cost != len(self.plan):
            return "".join(f"{a}\n" for a in self.plan) + f"; cost = {self.cost} (general cost)\n"
        return "".join(f"{a}\n" for a in self.plan) + f"; cost = {len(self.plan)} (unit cost)\n"

    def to_dict(self) -> dict:
        out = {"problem": self.problem, "status": self.status.value, "plan_length": self.plan_length,
               "cost": self.cost, "quality": self.quality, "seconds": round(self.seconds, 3), "detail": self.detail}
        if self.best is not None:
            out["best_cost"] = self.best
        if self.error_class is not None:
            out["error_class"] = self.error_class
        return out

    @classmethod
    def unreadable(cls, row: Unreadable) -> "ProblemOutcome":
        """The row of a problem file that could not be read: status error, its located message."""
        return cls(Path(row.input).name, ProblemStatus.ERROR, detail=row.message, log=row.message + "\n",
                   error_class=row.error_class)


@dataclass(frozen=True)
class SolveResult:
    """The outcomes of one learned model on a set of problems."""

    learned: str
    reference: str
    config: str
    problems: tuple[ProblemOutcome, ...]
    broken: tuple[Broken, ...] = ()  # the learned model's definitions left out by its recovering read

    def count(self, status: ProblemStatus) -> int:
        return sum(1 for p in self.problems if p.status == status)

    def ratio(self, status: ProblemStatus) -> float:
        return self.count(status) / len(self.problems) if self.problems else float("nan")

    @property
    def solving_ratio(self) -> float:
        return self.ratio(ProblemStatus.SOLVED)

    @property
    def false_plan_ratio(self) -> float:
        return self.ratio(ProblemStatus.FALSE_PLAN)

    @property
    def erred(self) -> tuple[ProblemOutcome, ...]:
        """The problems whose file could not be read (status error, with an `error_class`)."""
        return tuple(p for p in self.problems if p.error_class is not None)

    def summary(self) -> dict:
        out: dict[str, Any] = {f"{c}_ratio" if c != ProblemStatus.SOLVED else "solving_ratio": self.ratio(c)
                               for c in ProblemStatus}
        out["problems"] = len(self.problems)
        out["counts"] = {c.value: self.count(c) for c in ProblemStatus}
        if self.erred:  # problems that could not be read: counted in `error` (and unsolved) above
            out["errors"] = len(self.erred)
        scores = [p.quality for p in self.problems if p.quality is not None]
        if scores:  # the IPC score: the sum over the problems, and its mean
            out["quality"] = sum(scores)
            out["quality_mean"] = sum(scores) / len(scores)
        if self.broken:
            out["broken_actions"] = sum(b.kind in ("action", "derived") for b in self.broken)
        return out

    def to_dict(self) -> dict:
        return {"problems": [p.to_dict() for p in self.problems], "summary": self.summary(),
                **({"broken": [b.to_dict() for b in self.broken]} if self.broken else {})}

    # ---- the tidy tables (docs/solve.md)
    def records(self) -> list[dict]:
        """The rows of `to_frame()`, one per problem; the exports are made from them."""
        return [p.to_dict() for p in self.problems]

    @property
    def columns(self) -> tuple[str, ...]:
        """`FRAME_COLUMNS`, and `error_class` when a problem file could not be read."""
        return FRAME_COLUMNS + (("error_class",) if self.erred else ())

    def to_frame(self):
        """One row per problem (`columns`, as `-f csv` writes them)."""
        import pandas as pd
        return pd.DataFrame(self.records(), columns=self.columns)

    def summary_records(self) -> list[dict]:
        """The rows of `summary_frame()`: each category with its count and its ratio over all problems."""
        return [{"status": c.value, "problems": self.count(c), "ratio": self.ratio(c)} for c in ProblemStatus]

    def summary_frame(self):
        """The summary as a tidy table (`SUMMARY_COLUMNS`): one row per category, in `ProblemStatus` order."""
        import pandas as pd
        return pd.DataFrame(self.summary_records(), columns=SUMMARY_COLUMNS)


# --------------------------------------------------------------------------- one problem

def _validate(reference: Domain, problem: Problem, steps: Sequence[GroundAction]) -> tuple[ProblemStatus, str]:
    ex = execute(reference, problem, steps)
    if ex.valid:
        return ProblemStatus.SOLVED, f"valid plan of {len(steps)} step(s)"
    if ex.failed_step is not None:
        why = "; ".join(str(u) for u in ex.unmet) or "not applicable"
        return ProblemStatus.FALSE_PLAN, (f"step {ex.failed_step + 1}, {steps[ex.failed_step]}, is not applicable "
                                          f"in the reference: unmet {why}")
    return ProblemStatus.FALSE_PLAN, (f"all {len(steps)} step(s) executable but the goal is not reached: unmet "
                                      + ", ".join(str(g) for g in ex.goal_unmet))


def solve_problem(learned: Domain | str, reference: Domain, problem: Problem, name: str, config: str = "greedy",
                  timeout: float = DEFAULT_TIMEOUT, memory_mb: int | None = DEFAULT_MEMORY_MB,
                  quality: bool = False, best: Number | None = None) -> ProblemOutcome:
    """Plan with `learned` (or, given a string, the reason the model is invalid), validate in `reference`.

    `quality`: also the IPC quality score, against `best` (the best known cost) or, when it is None,
    the cost of the reference planner's plan (Fast Downward with `config` on the reference model)."""
    ref_child = 0.0
    if quality and best is None:
        best, ref_child = _reference_run(reference, problem, config, timeout, memory_mb)
    if isinstance(learned, str):
        return ProblemOutcome(name, ProblemStatus.INVALID_MODEL, None, 0.0, learned, log=learned + "\n", best=best,
                              planner_seconds=ref_child)
    r = plan_with_fast_downward(learned, problem, reference, config, timeout, memory_mb)
    log = r.log or r.detail + "\n"
    child = ref_child + r.planner_seconds
    if r.status != PlannerStatus.PLAN:
        return ProblemOutcome(name, ProblemStatus(r.status.value), None, r.seconds, r.detail, log=log, best=best,
                              planner_seconds=child)
    t = time.monotonic()
    plan = r.plan or ()  # a plan found: the planner gave it
    status, detail = _validate(reference, problem, plan)
    cost = plan_cost(reference, problem, plan).value if status is ProblemStatus.SOLVED else None
    return ProblemOutcome(name, status, len(plan), r.seconds, detail, r.plan, log, cost, best, child,
                          time.monotonic() - t)


def reference_cost(reference: Domain, problem: Problem, config: str, timeout: float,
                   memory_mb: int | None) -> Number | None:
    """The cost of the reference planner's plan (the best known cost when none is given), None without one."""
    return _reference_run(reference, problem, config, timeout, memory_mb)[0]


def _reference_run(reference: Domain, problem: Problem, config: str, timeout: float,
                   memory_mb: int | None) -> tuple[Number | None, float]:
    """`reference_cost`, and the seconds spent in Fast Downward's processes for it."""
    r = plan_with_fast_downward(reference, problem, None, config, timeout, memory_mb)
    cost = plan_cost(reference, problem, r.plan).value if r.status is PlannerStatus.PLAN and r.plan else None
    return cost, r.planner_seconds


def kept_files(directory: str | Path, problem: str, folders: Sequence[str] = ()) -> tuple[Path, Path]:
    """`--keep-plans`: the plan and log files of `problem` in `directory/folders...`.

    Each folder (a learner's, a domain's name) and the problem's file name must be plain names,
    and the files must lie inside `directory` once links and `..` are resolved: a name from an
    option or a manifest never leads a write (or a deletion) elsewhere (`files.inside`)."""
    from ..files import inside, plain_name
    for f in folders:
        plain_name(f, "--keep-plans: the name")
    stem = Path(plain_name(Path(problem).name, "--keep-plans: the problem file")).stem
    return inside(directory, *folders, f"{stem}.plan"), inside(directory, *folders, f"{stem}.log")


def refuse_kept_over_inputs(directory: str | Path, problems: Sequence[tuple[Sequence[str], str]],
                            inputs: Sequence[str | Path | None]) -> None:
    """Before any work: no kept plan or log (`(folders, problem)` each) may be one of the inputs."""
    from ..files import refuse_overwrite
    targets = [f for folders, problem in problems for f in kept_files(directory, problem, folders)]
    refuse_overwrite(targets, inputs, "an input file (--keep-plans)")


def keep_plan(directory: str | Path, problem: str, plan_text: Optional[str], log: str,
              folders: Sequence[str] = ()) -> None:
    """`--keep-plans`: `<problem stem>.plan` (when there is a plan) and `<problem stem>.log` in
    `directory/folders...` (`kept_files`)."""
    from ..files import cannot_write, write_atomic
    plan, log_file = kept_files(directory, problem, folders)
    try:
        plan.parent.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise cannot_write(e, plan.parent) from None
    if plan_text is not None:
        write_atomic(plan, plan_text)
    else:  # no stale plan of an earlier run next to this run's log
        plan.unlink(missing_ok=True)
    write_atomic(log_file, log)


def read_best_costs(path: str | Path) -> dict[str, Number]:
    """`--best-costs FILE`: a JSON object of problem file names and their best known costs."""
    import json

    from ..pddl.source import read_text
    try:
        data = json.loads(read_text(path))
    except (ValueError, RecursionError) as e:
        raise InputError(f"not a JSON object of best costs: {str(e).splitlines()[0][:80]}", str(path)) from None
    if not isinstance(data, dict) or not all(isinstance(k, str) and isinstance(v, (int, float))
                                             and not isinstance(v, bool) and v >= 0 for k, v in data.items()):
        raise InputError('expected {"problem file name": best known cost (a number >= 0), ...}', str(path))
    return data


def _solve_star(args) -> ProblemOutcome:
    return solve_problem(*args)


# --------------------------------------------------------------------------- many problems

def load_learned(learned: str | Path | Domain, recover: bool = True) -> Domain | str:
    """The learned model, or the reason it cannot be used (an invalid model is a result, not an error).
    Read with recovery: it plans with the actions it has, its broken ones left out (`Domain.broken`, a
    warning each: `amlasp --strict` refuses it instead); `recover=False`: its first error makes it invalid."""
    if isinstance(learned, Domain):
        return learned
    try:
        return load_domain(learned, recover=recover)
    except InputError as e:
        if not Path(learned).is_file():
            raise
        return str(e)


def _read_problem(file: Path, reference: Domain, keep_going: bool) -> Problem | InputError:
    """The problem, or (with `keep_going`) why it cannot be read."""
    try:
        return load_problem(file, reference)
    except InputError as e:
        if not keep_going:
            raise
        return e


def solve(learned: str | Path | Domain, reference: str | Path | Domain, problems, *, config: str = "greedy",
          timeout: float = DEFAULT_TIMEOUT, memory_mb: int | None = DEFAULT_MEMORY_MB, jobs: int = 1,
          progress: ProgressCallback | None = None, keep_plans: str | Path | None = None,
          quality: bool = False, best_costs: dict[str, Number] | None = None,
          keep_going: bool = False, lenient_reference: bool = False, recover: bool = True) -> SolveResult:
    """Solve every problem with the learned model and validate each plan in the reference model.

    `problems` is a directory of `*.pddl`, a file, or a list of files; they are read with the
    reference model. A learned model that cannot be read makes every problem `invalid_model`.
    `progress("solving", done, total)` is called as problems are done. `keep_plans=DIR` writes each
    plan and the planner's log there (`keep_plan`). `quality`: the IPC quality score of each plan,
    against `best_costs` (problem file name → best known cost) or the reference planner's plan.
    `keep_going`: a problem file that cannot be read is a row of status error (its located message,
    `error_class`) and the others are solved; else its error is raised. When no problem can be read,
    the first one's error is raised either way (docs/input.md, "Many inputs: partial runs").
    `lenient_reference`: the reference read as leniently as a learned model (`pddl.parse.load_lenient`).
    `recover=False`: the learned model read strictly (a broken action makes it `invalid_model`; AMLGym's view).
    """
    if config not in CONFIGS:
        raise InputError(f"unknown planner configuration '{config}' (choose from {', '.join(CONFIGS)})")
    if timeout <= 0:
        raise InputError("--timeout must be positive")
    ref = reference if isinstance(reference, Domain) else \
        load_lenient(reference) if lenient_reference else load_domain(reference)
    files = problem_files(problems)
    if keep_plans is not None and len({f.stem for f in files}) < len(files):
        raise InputError("--keep-plans needs problem files with distinct names (their plans are <name>.plan)")
    if keep_plans is not None:
        refuse_kept_over_inputs(keep_plans, [((), f.name) for f in files],
                                [learned if not isinstance(learned, Domain) else learned.file, ref.file, *files])
    probs = [_read_problem(f, ref, keep_going) for f in files]
    erred = [p for p in probs if isinstance(p, InputError)]
    if probs and len(erred) == len(probs):  # nothing to solve: the first error, as before
        raise erred[0]
    model = load_learned(learned, recover)
    given = best_costs or {}
    work = [(model, ref, p, f.name, config, timeout, memory_mb, quality or f.name in given, given.get(f.name))
            for p, f in zip(probs, files) if isinstance(p, Problem)]
    solved = iter(list(run_pool(_solve_star, work, jobs, progress, "solving")))
    outcomes = [next(solved) if isinstance(p, Problem) else ProblemOutcome.unreadable(Unreadable.of(f, p))
                for p, f in zip(probs, files)]
    if keep_plans is not None:
        for o in outcomes:
            keep_plan(keep_plans, o.problem, o.plan_text(), o.log)
    name = learned.file or learned.name if isinstance(learned, Domain) else str(learned)
    rname = ref.file or ref.name
    return SolveResult(str(name), str(rname), config, tuple(outcomes),
                       model.broken if isinstance(model, Domain) else ())


__all__ = ["FRAME_COLUMNS", "SUMMARY_COLUMNS", "PlannerConfig", "ProblemStatus", "ProblemOutcome", "SolveResult",
           "solve", "solve_problem", "reference_cost", "read_best_costs", "problem_files", "keep_plan", "kept_files",
           "refuse_kept_over_inputs", "load_learned", "run_pool", "ProgressCallback"]
