"""The verdicts of many plans (`validate_plans`, run by `engine`) as a result: the list of `Execution`s it
always was, with `records()` and `to_frame()` like every other result, and `summary(key)`, a row per group.

One verdict shape: `records()` is every output's row (`validate -f json|csv|markdown|latex`, the
frame), the same columns (`VALIDATION_COLUMNS`, `OPTIMAL_COLUMNS` with `--optimal`) then the batch
line's own fields (`Source.fields`), a verdict column winning over a field of its name (docs/validate.md)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Iterable, Sequence

from ..errors import error_class, warn_input
from ..jobs import Jobs
from ..model import Domain, Problem
from ..pddl.plans import PlanReading
from . import replay
from .engine import Run
from .execution import Execution

if TYPE_CHECKING:
    from .optimum import Optimum

#: The columns of a verdict: what the plan is (its label `name`, its problem, its file or its text), the
#: verdict (`status`: valid, invalid, unreadable, or error: its problem could not be read), where it
#: failed and why, and the metrics LLM-planning papers report (`executable_prefix`, `goals_unmet`,
#: `goal_share`, `plan_length`, `cost`).
VALIDATION_COLUMNS = ("name", "problem", "plan_file", "plan_text", "status", "valid", "executable", "failed_step",
                      "failed_action", "unmet_preconditions", "unmet_goals", "plan_length", "cost", "cost_undefined",
                      "unmet_goal_instances", "executable_prefix", "goals_unmet", "goal_share", "error", "error_class")
#: With `--optimal`: the problem's optimal cost (null unless `optimal_status` is solved) and cost / optimal.
OPTIMAL_COLUMNS = ("optimal_cost", "optimal_status", "cost_ratio")
#: The columns of `summary(key)`: one row per value of `key`.
SUMMARY_COLUMNS = ("group", "plans", "valid_share", "mean_executable_prefix", "unreadable_share", "error_share",
                   "mean_goal_share")


@dataclass(frozen=True)
class Source:
    """Where a verdict's plan came from: its label (`name`), problem, plan file or text, the batch line's
    own fields, and for a plan not validated whole, the reading error (`error`, `step`: the step whose line
    could not be read) or, for a problem that could not be read, its `error_class` too."""

    name: Any
    problem: str | None
    plan_file: str | None = None
    plan_text: str | None = None
    fields: dict = field(default_factory=dict)
    error: str | None = None
    step: int | None = None
    error_class: str | None = None
    extracted: dict | None = None  # `validate --from-text`: the plan read out of the answer (`Extraction.to_dict`)


def metrics(ex: "Execution") -> dict:
    """The metrics of one verdict (`validate`'s JSON, one plan or many): the steps executed before the first
    failure (or all), the goal conjuncts false where they end, and the share of the goal's conjuncts true."""
    return {"executable_prefix": ex.executable_prefix, "goals_unmet": [str(g) for g in ex.prefix_goal_unmet],
            "goal_share": ex.goal_share}


class Validations(list):
    """The verdicts of `validate_plans`: a list of `Execution`, one per plan in order (what it was before it
    had a table; None for a batch task whose problem could not be read), with `records()`, `to_frame()` and
    `summary(key)` like every other result."""

    def __init__(self, executions: Iterable["Execution | None"], problems: Sequence[str | None] = (),
                 sources: Sequence[Source] = (), optima: Sequence["Optimum | None"] | None = None):
        super().__init__(executions)
        self.problems = list(problems)
        self.sources = list(sources) or [Source(i, self.problems[i] if i < len(self.problems) else None)
                                         for i in range(len(self))]
        self.optima = None if optima is None else list(optima)

    @property
    def columns(self) -> tuple[str, ...]:
        """Every record's columns in order: the verdict's, then each field in the order first met."""
        own = (VALIDATION_COLUMNS + (OPTIMAL_COLUMNS if self.optima is not None else ())
               + (("repairs",) if any(ex is not None and ex.repairs for ex in self) else ())
               + (("extracted",) if any(s.extracted is not None for s in self.sources) else ()))
        extra = dict.fromkeys(k for s in self.sources for k in s.fields if k not in own)
        return own + tuple(extra)

    def records(self) -> list[dict]:
        columns = self.columns
        out = []
        for i, (ex, src) in enumerate(zip(self, self.sources)):
            row = {**src.fields, **_verdict(ex, src)}  # the verdict wins over a field of its name
            if self.optima is not None:
                row.update(_optimal(self.optima[i], row))
            out.append({c: row.get(c) for c in columns})
        return out

    def to_frame(self):
        """One row per plan (`columns`; `name` is its index in the input for plain `(problem, plan)` pairs)."""
        import pandas as pd
        return pd.DataFrame(self.records(), columns=list(self.columns))

    def summary(self, key: str) -> list[dict]:
        """One row per value of the column `key` (a field, or a verdict column such as `problem`), in the order
        first met: plans, the share valid, the mean executable prefix (of the plans that have one), the share
        unreadable and error, the mean goal share; with `--optimal`, the mean cost ratio of the plans with one."""
        groups: dict[str, list[dict]] = {}
        values: dict[str, Any] = {}
        for r in self.records():
            value = r.get(key)
            k = json.dumps(value, sort_keys=True)  # lists and objects group by their text
            groups.setdefault(k, []).append(r)
            values.setdefault(k, value)
        return [{"group": values[k], **_group(rows, self.optima is not None)} for k, rows in groups.items()]

    def summary_columns(self) -> tuple[str, ...]:
        return SUMMARY_COLUMNS + (("mean_cost_ratio",) if self.optima is not None else ())


def _mean(xs: list) -> float | None:
    xs = [x for x in xs if x is not None]
    return sum(xs) / len(xs) if xs else None


def _group(rows: list[dict], optimal: bool) -> dict:
    n = len(rows)
    out = {"plans": n, "valid_share": sum(r["status"] == "valid" for r in rows) / n,
           "mean_executable_prefix": _mean([r["executable_prefix"] for r in rows]),
           "unreadable_share": sum(r["status"] == "unreadable" for r in rows) / n,
           "error_share": sum(r["status"] == "error" for r in rows) / n,
           "mean_goal_share": _mean([r["goal_share"] for r in rows])}
    if optimal:
        out["mean_cost_ratio"] = _mean([r["cost_ratio"] for r in rows])
    return out


def _verdict(ex: "Execution | None", src: Source) -> dict:
    """One verdict's columns (`VALIDATION_COLUMNS`)."""
    head = {"name": src.name, "problem": src.problem, "plan_file": src.plan_file, "plan_text": src.plan_text}
    if ex is None:  # its problem could not be read: no verdict on the plan
        return {**head, "status": "error", "valid": False, "executable": False, "failed_step": src.step,
                "failed_action": None, "unmet_preconditions": [], "unmet_goals": [], "plan_length": None,
                "error": src.error, "error_class": src.error_class, "extracted": src.extracted}
    unreadable = ex.read_error is not None
    step = ex.failed_step
    read_step = src.step if src.error is not None else len(ex.plan) + 1
    # a reader that kept no step before the one it could not read (src.step) ran none: no prefix to tell
    prefix_known = not unreadable or step is not None or read_step is None or read_step == len(ex.plan) + 1
    row = {**head, "status": ex.status, "valid": ex.valid and not unreadable,
           "executable": ex.executable and not unreadable,
           "failed_step": step + 1 if step is not None else read_step if unreadable else None,
           "failed_action": str(ex.plan[step]) if step is not None else None,
           "unmet_preconditions": [str(u) for u in ex.unmet],
           "unmet_goals": [] if unreadable else [str(g) for g in ex.goal_unmet],
           "plan_length": None if unreadable else len(ex.plan),
           "cost": None if unreadable else ex.cost, "cost_undefined": ex.cost_undefined or None,
           "unmet_goal_instances": {str(g): [str(x) for x in xs] for g, xs in ex.goal_instances.items()} or None,
           **(metrics(ex) if prefix_known else {}),
           "error": str(ex.read_error) if unreadable else None,
           "repairs": [r.to_dict() for r in ex.repairs], "extracted": src.extracted}
    return row


def _optimal(opt: "Optimum | None", row: dict) -> dict:
    if opt is None:
        return {}
    return {"optimal_cost": opt.cost, "optimal_status": str(opt.status),
            "cost_ratio": opt.ratio(row["cost"]) if row["valid"] else None}


def validate_plans(domain: Domain, tasks: Iterable, explain: bool = True, optimal: bool = False,
                   optimal_timeout: float | None = None, jobs: Jobs = Jobs()) -> Validations:
    """Validate plans, each from its problem's initial state, in one grounding: one `Execution` per plan, in
    order, without its states (`amlasp validate` with many plans; `explain`). A task is a `(problem, plan)`
    pair (the plan its steps, or as read: `pddl.plans.PlanReading`), or a `pddl.batch.PlanTask` (`read_batch`,
    `plan_files`): its name, files and fields go to the records. A plan read only in part (a line that
    could not be read) has its steps before that line run, and its verdict is their failure or
    `unreadable` (`Execution.read_error`); a task whose problem could not be read has no Execution (None).
    `optimal`: each problem's optimal cost (`reasoning.optimum`, Fast Downward, each distinct problem
    searched once; `optimal_timeout` seconds each).
    `jobs`: where the work is done (amlasp/jobs.py): with more than one process or on Dask, the plans are
    split by problem into chunks, each validated by a worker (`parallel.py`); the verdicts are the same,
    in input order."""
    items = [_source(t) for t in tasks]
    pairs = [(p, reading) for p, reading, _ in items]
    if jobs.parallel and sum(p is not None for p, _ in pairs) > 1:
        from .parallel import validate_parallel
        # the steps only to the workers (a reading's error is put on its verdict here: errors do not pickle)
        out, optima = validate_parallel(verdicts, domain, [(p, PlanReading(r.steps)) for p, r in pairs], explain,
                                        optimal, optimal_timeout, jobs)
        for ex, (_, reading) in zip(out, pairs):
            if ex is not None:
                _as_read(ex, reading)
    else:
        out, optima = verdicts(domain, pairs, explain, optimal, optimal_timeout)
    result = Validations(out, [None if p is None else p.name for p, _, _ in items],
                         [src for _, _, src in items if src is not None] if all(i[2] for i in items) else (),
                         optima)
    _warn_clashes(result)
    return result


def verdicts(domain: Domain, pairs: Sequence[tuple[Problem | None, PlanReading]], explain: bool = True,
             optimal: bool = False, optimal_timeout: float | None = None
             ) -> tuple[list[Execution | None], list[Optimum | None] | None]:
    """The serial core of `validate_plans` (and a worker's part of it: `parallel.py`): each plan's
    Execution (None where its problem is None), all in one grounding, and with `optimal` each problem's
    optimum."""
    runs = [Run(p, list(reading.steps), frozenset(p.init)) for p, reading in pairs if p is not None]
    done = iter(replay.execute(domain, runs, explain))
    out: list[Execution | None] = []
    for p, reading in pairs:
        ex = next(done) if p is not None else None
        if ex is not None:
            _as_read(ex, reading)
        out.append(ex)
    optima: list[Optimum | None] | None = None
    if optimal:
        from .optimum import DEFAULT_TIMEOUT, Optima
        find = Optima(domain, DEFAULT_TIMEOUT if optimal_timeout is None else optimal_timeout)
        optima = [None if p is None else find(p) for p, _ in pairs]
    return out, optima


def _source(task) -> tuple[Problem | None, PlanReading, Source | None]:
    """A task's problem (None: unreadable), its plan as read, and `Source` (None for a pair)."""
    if isinstance(task, tuple):
        problem, plan = task
        return problem, plan if isinstance(plan, PlanReading) else PlanReading(tuple(plan)), None
    error = task.error
    return (task.problem, task.reading if task.problem is not None else PlanReading(()),
            Source(task.name, task.problem_file, task.plan_file, task.plan_text, task.fields,
                   None if error is None else str(error), task.step,
                   error_class(error) if task.problem is None and error is not None else None,
                   None if task.extracted is None else task.extracted.to_dict()))


def _warn_clashes(result: Validations) -> None:
    """A batch line's field named like a verdict column is left out (the verdict wins): said once per key."""
    own = set(VALIDATION_COLUMNS) | set(OPTIMAL_COLUMNS)
    seen: dict[str, int] = {}
    for src in result.sources:
        for k in src.fields:
            if k in own:
                seen[k] = seen.get(k, 0) + 1
    for k, n in seen.items():
        warn_input(f"field {k!r} of {n} batch line(s) left out: the verdict has a column of that name")


def _as_read(ex: Execution, reading: PlanReading) -> None:
    """`ex` of the steps `reading` read: its repairs, and its line that could not be read (the verdict
    when every step before it ran: the plan is not executable, and no goal is checked)."""
    ex.repairs = reading.repairs
    if reading.error is None:
        return
    ex.read_error, ex.valid = reading.error, False
    if ex.failed_step is None:
        ex.executable, ex.goal_unmet, ex.goal_instances, ex.cost, ex.cost_undefined = False, [], {}, None, ""


__all__ = ["VALIDATION_COLUMNS", "OPTIMAL_COLUMNS", "SUMMARY_COLUMNS", "Source", "Validations", "metrics",
           "validate_plans", "verdicts"]
