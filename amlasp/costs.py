"""What a plan costs: the one definition every command uses (validate, plan, solve, eval).

PDDL's `:action-costs`: with `(:metric minimize (total-cost))`, a plan costs the initial value of
`(total-cost)` plus the cost of each step (a number, or a static cost function's value in the
problem's `:init`; an action without a cost effect adds 0). Without that metric, or in a domain
without costs, every step costs 1 and a plan costs its length. This is how VAL computes its
plan "Value" and how Fast Downward counts a plan's cost.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from .model import Atom, Domain, GroundAction, Number, Problem


@dataclass(frozen=True)
class PlanCost:
    """A plan's cost, or why it has none: a step whose cost function has no value in :init."""

    value: Number | None
    undefined: str = ""  # the first cost left undefined, e.g. "(road-length a b)"

    def to_json(self) -> Number | None:
        return self.value


def uses_costs(domain: Domain, problem: Problem) -> bool:
    """Whether plans are measured by action costs (else by their length)."""
    return domain.action_costs and problem.metric


def action_cost(domain: Domain, problem: Problem, action: GroundAction) -> Number | None:
    """The cost of one step: its cost term's value (0 without a cost effect, 1 without action costs);
    None when its cost function has no value in :init, or the action is not the domain's."""
    if not uses_costs(domain, problem):
        return 1
    schema = domain.action(action.name)
    if schema is None or schema.arity != len(action.args):
        return None
    cost = schema.cost
    if cost is None:
        return 0
    if isinstance(cost, Atom):
        return problem.cost_table.get(cost.bind(schema.binding(action.args)))
    return cost


def cost_term(domain: Domain, action: GroundAction) -> Atom | None:
    """The ground cost function application of a step (None for a constant cost or none)."""
    schema = domain.action(action.name)
    if schema is None or not isinstance(schema.cost, Atom):
        return None
    return schema.cost.bind(schema.binding(action.args))


def plan_cost(domain: Domain, problem: Problem, plan: Sequence[GroundAction]) -> PlanCost:
    """The plan's cost (VAL's value): the start value of total-cost plus each step's cost."""
    if not uses_costs(domain, problem):
        return PlanCost(len(plan))
    total: Number = problem.cost_table.get(Atom("total-cost"), 0)
    for step in plan:
        c = action_cost(domain, problem, step)
        if c is None:
            term = cost_term(domain, step)
            return PlanCost(None, str(term) if term is not None else str(step))
        total += c
    return PlanCost(total)


__all__ = ["PlanCost", "uses_costs", "action_cost", "cost_term", "plan_cost"]
