"""Fast Downward on a task we build (a state as the initial state, a compiled variant of the domain).

`plan_with_fast_downward` gives unified-planning the model as written; UP refuses a task in which an
action has the name of a predicate ("Name down already defined!": ACPBench's floor-tile has both an
action and a predicate `down`). Here such actions are renamed for the planner (`down` → `down-action`)
and the plan's action names mapped back, so that every task of a domain can be planned for.
"""

from __future__ import annotations

from dataclasses import replace

from ..external.fast_downward import PlannerResult, plan_with_fast_downward
from ..model import Domain, GroundAction, Problem


def plan(domain: Domain, problem: Problem, config: str = "greedy", time_limit: float = 60.0) -> PlannerResult:
    """`plan_with_fast_downward(domain, problem)` with action names that clash made distinct."""
    taken = {p.name for p in domain.predicates} | {t for t, _ in domain.types} | {"object"}
    renamed: dict[str, str] = {}
    names = {a.name for a in domain.actions}
    for a in domain.actions:
        if a.name in taken:
            new = f"{a.name}-action"
            while new in taken or new in names:
                new += "-"
            renamed[new] = a.name
    if renamed:
        back = {old: new for new, old in renamed.items()}
        domain = replace(domain, actions=tuple(replace(a, name=back.get(a.name, a.name)) for a in domain.actions))
    r = plan_with_fast_downward(domain, problem, reference=domain, config=config, timeout=time_limit)
    if renamed and r.plan is not None:
        r = replace(r, plan=tuple(GroundAction(renamed.get(a.name, a.name), a.args) for a in r.plan))
    return r


__all__ = ["plan"]
