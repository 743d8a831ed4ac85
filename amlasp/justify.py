"""Plan justification: which single actions, or consecutive pairs, can be removed from a valid plan.

A plan is well-justified here when no single action and no pair of consecutive actions
can be removed with the rest still a valid plan (the check ACPBench asks). Each
candidate plan is validated by the core validator.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .engine import execute, execute_many
from .model import Domain, GroundAction, Problem


@dataclass
class JustifyResult:
    plan: list[GroundAction]
    valid: bool
    removable_single: list[int] = field(default_factory=list)  # 0-based indices
    removable_pairs: list[int] = field(default_factory=list)  # i: actions i and i+1

    @property
    def well_justified(self) -> bool:
        return self.valid and not self.removable_single and not self.removable_pairs


def justify(domain: Domain, problem: Problem, plan: list[GroundAction]) -> JustifyResult:
    """Shortened plans are executed layer by layer, all alive ones in one clingo call per layer.

    A shortened plan that reaches the state the full plan has at the same point is valid from
    there on (execution is deterministic), so it stops early; one whose next action is
    inapplicable stops too. Most shortened plans thus take a step or two.
    """
    plan = list(plan)
    full = execute(domain, problem, plan)
    result = JustifyResult(plan, full.valid)
    if not result.valid:
        return result
    n = len(plan)
    goal = tuple(problem.goal)
    # alive: (kind, i) -> (state, index of the next action to apply)
    alive = {("single", i): (full.states[i], i + 1) for i in range(n)}
    alive.update({("pair", i): (full.states[i], i + 2) for i in range(n - 1)})
    valid: list[tuple[str, int]] = []
    while alive:
        for key, (state, j) in list(alive.items()):
            if j >= n:
                if all((l.atom in state) == l.positive for l in goal):
                    valid.append(key)
                del alive[key]
            elif state == full.states[j]:
                valid.append(key)
                del alive[key]
        if not alive:
            break
        keys = sorted(alive)
        runs = execute_many(domain, problem, [[plan[alive[k][1]]] for k in keys],
                            starts=[alive[k][0] for k in keys])
        for k, r in zip(keys, runs):
            if r.executable:
                alive[k] = (r.states[1], alive[k][1] + 1)
            else:
                del alive[k]
    result.removable_single = sorted(i for kind, i in valid if kind == "single")
    result.removable_pairs = sorted(i for kind, i in valid if kind == "pair")
    return result
