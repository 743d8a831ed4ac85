"""Plan justification: which single actions, or consecutive pairs, can be removed from a valid plan.

A plan is well-justified here when no single action and no pair of consecutive actions
can be removed with the rest still a valid plan (the check ACPBench asks). The plan is
executed once (`engine.execute`, validate.lp), keeping its states S_0..S_n. A shortened run
skip(i, L) (steps i..i+L-1 left out) starts in S_i before step i+L; it is removable when it
meets the full run (its state before step t is S_t: execution is deterministic, so it is valid
from there on) or runs to the end and reaches the goal, and not when a step of it is
inapplicable. Most runs stop within a step or two, so the runs are executed in rounds, all
live runs of a round in one grounding (`engine.execute_many`, from their own states), one step
each in the first round and twice as many steps in each round after: a run of m steps costs
O(m) steps over O(log m) rounds. (Until issue 31 the runs were one multi-shot clingo program
grounded a layer at a time: 2n ground calls, each slower than the last; a 100,000-step plan
ran past 60 s. benchmarks/bench_justify.py.)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..goal_rules import with_goal_rules
from ..model import Atom, Domain, GroundAction, Problem
from .engine import PART_STEPS, Execution, execute, execute_many

if TYPE_CHECKING:
    import pandas as pd


@dataclass
class JustifyResult:
    plan: list[GroundAction]
    valid: bool
    removable_single: list[int] = field(default_factory=list)  # 0-based indices
    removable_pairs: list[int] = field(default_factory=list)  # i: actions i and i+1

    @property
    def well_justified(self) -> bool:
        return self.valid and not self.removable_single and not self.removable_pairs

    def to_frame(self) -> pd.DataFrame:
        """One row per removable action (`step` 1-based) or consecutive pair (`step`, `step`+1)."""
        import pandas as pd
        rows = [{"kind": "single", "step": i + 1, "actions": str(self.plan[i])} for i in self.removable_single]
        rows += [{"kind": "pair", "step": i + 1, "actions": f"{self.plan[i]} {self.plan[i + 1]}"}
                 for i in self.removable_pairs]
        return pd.DataFrame(rows, columns=["kind", "step", "actions"])


#: Runs executed in one grounding: more are taken a batch at a time, so that memory stays bounded.
BATCH_RUNS = 20000


def justify(domain: Domain, problem: Problem, plan: list[GroundAction]) -> JustifyResult:
    """Removable single actions and consecutive pairs of `plan` (none when the plan is not valid)."""
    domain = with_goal_rules(domain, [problem])
    plan = list(plan)
    n = len(plan)
    full = execute(domain, problem, plan)
    if not full.valid:
        return JustifyResult(plan, False)
    states = full.states  # S_0 .. S_n
    live = [_Run(i, length, states[i], i + length) for length in (1, 2) for i in range(n - length + 1)]
    removable: list[_Run] = []
    steps = 1
    while live:
        ahead = []
        for r in live:
            if r.state == states[r.at]:  # it meets the full run: valid from here on
                removable.append(r)
            else:
                ahead.append(r)
        live = []
        for r, ex in zip(ahead, _execute(domain, problem, plan, ahead, steps)):
            if ex.failed_step is not None:  # (a run that met the full run follows it: it never fails)
                continue
            end = min(r.at + steps, n)
            if ex.states[-1] == states[end] or (end == n and ex.valid):  # it met the full run, or reached the goal
                removable.append(r)
            elif end < n:
                live.append(_Run(r.first, r.length, ex.states[-1], end))
        steps = min(2 * steps, PART_STEPS)
    single = sorted(r.first for r in removable if r.length == 1)
    pairs = sorted(r.first for r in removable if r.length == 2)
    return JustifyResult(plan, True, single, pairs)


def _execute(domain: Domain, problem: Problem, plan: list[GroundAction], runs: list["_Run"], steps: int
             ) -> list[Execution]:
    """The next `steps` steps of each run, from its state, without the reasons of a failure; runs in one
    state before the same steps share one execution (a plan that cycles has many), BATCH_RUNS in a grounding."""
    distinct: dict[tuple[frozenset[Atom], tuple[GroundAction, ...]], int] = {}
    keys = [(r.state, tuple(plan[r.at:r.at + steps])) for r in runs]
    for key in keys:
        distinct.setdefault(key, len(distinct))
    todo = list(distinct)
    done: list[Execution] = []
    for batch in range(0, len(todo), BATCH_RUNS):
        part = todo[batch:batch + BATCH_RUNS]
        done += execute_many(domain, problem, [list(slice_) for _, slice_ in part], starts=[s for s, _ in part],
                             states=False, reasons=False, ends=True)
    return [done[distinct[key]] for key in keys]


@dataclass(frozen=True)
class _Run:
    """skip(first, length), in `state` before step `at` of the plan."""

    first: int
    length: int
    state: frozenset[Atom]
    at: int
