"""Predicted-cost agreement (`:action-costs`): on the steps the test trajectories took, does the
learned model give each action the reference's cost?

Costs never change applicability or effects, so eval's two families ignore them; this figure is
the costs' own. A step is counted when its problem minimises total-cost under the reference
(`costs.uses_costs`); each model's cost of the step is `costs.action_cost` with the problem's
values (a learned model without action costs predicts 1 a step, as PDDL counts such plans; a
learned action the model lacks, or a cost function without a value, predicts nothing: a
disagreement).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...costs import action_cost, uses_costs
from ...model import Domain
from ...pddl.states import StateSet


@dataclass
class CostAgreement:
    """Counts over the trajectories' steps: how many were compared, how many costs agreed."""

    steps: int = 0
    agree: int = 0
    by_action: dict[str, list[int]] = field(default_factory=dict)  # action → [steps, agree]

    def add(self, ref: Domain, learned: Domain, sets: list[StateSet]) -> None:
        for s in sets:
            if not s.actions or not uses_costs(ref, s.problem):
                continue
            for g in s.actions:
                if g is None or ref.action(g.name) is None:
                    continue
                expected = action_cost(ref, s.problem, g)
                predicted = action_cost(learned, s.problem, g) if learned.action(g.name) is not None else None
                same = predicted is not None and predicted == expected
                self.steps += 1
                self.agree += same
                counts = self.by_action.setdefault(g.name, [0, 0])
                counts[0] += 1
                counts[1] += same

    def to_dict(self) -> dict | None:
        """The JSON `cost_agreement` object; None when no step had costs."""
        if not self.steps:
            return None
        return {"steps": self.steps, "agree": self.agree, "agreement": self.agree / self.steps,
                "by_action": {a: {"steps": n, "agree": k, "agreement": k / n}
                              for a, (n, k) in sorted(self.by_action.items())}}


__all__ = ["CostAgreement"]
