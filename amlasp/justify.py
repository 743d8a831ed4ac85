"""Plan justification: which single actions, or consecutive pairs, can be removed from a valid plan.

A plan is well-justified here when no single action and no pair of consecutive actions
can be removed with the rest still a valid plan (the check ACPBench asks). Each
candidate plan is validated by the core validator.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .engine import execute
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
    result = JustifyResult(list(plan), execute(domain, problem, plan).valid)
    if not result.valid:
        return result
    for i in range(len(plan)):
        if execute(domain, problem, plan[:i] + plan[i + 1:]).valid:
            result.removable_single.append(i)
    for i in range(len(plan) - 1):
        if execute(domain, problem, plan[:i] + plan[i + 2:]).valid:
            result.removable_pairs.append(i)
    return result
