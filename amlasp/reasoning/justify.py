"""Plan justification: which single actions, or consecutive pairs, can be removed from a valid plan.

A plan is well-justified here when no single action and no pair of consecutive actions
can be removed with the rest still a valid plan (the check ACPBench asks). All shortened
plans run in one clingo program (encodings/justify.lp), grounded one layer at a time
(multi-shot): a shortened plan that meets the full plan's state at the same step is valid
from there on and stops, one whose next action is inapplicable stops too, so most take a
step or two. Each layer only reads atoms of earlier layers, so clingo's grounder computes
every run as facts; nothing is decoded but the answer.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..asp import size
from ..asp.compile import compile_domain
from ..asp.facts import action_term, domain_facts, problem_facts, start_facts
from ..asp.names import MODEL
from ..asp.run import Program, encoding
from ..asp.schema import CHECK, JUSTIFY_START, PLAN_LENGTH, PLAN_VALID, REMOVABLE, STEP
from ..model import Domain, GroundAction, Problem, with_goal_rules

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


def justify(domain: Domain, problem: Problem, plan: list[GroundAction]) -> JustifyResult:
    """Removable single actions and consecutive pairs of `plan` (none when the plan is not valid)."""
    domain = with_goal_rules(domain, [problem])
    plan = list(plan)
    n = len(plan)
    # the plan and each of its 2n shortened runs (skip one action or two), n steps each
    size.guard_steps("justify", domain, [(problem, (a.name for _ in range(2 * n + 1) for a in plan))])
    static = domain.static_predicates()
    rules = compile_domain(domain, MODEL, enumerate=False, check=True, effects=True, state="(K,t)", static=static)
    facts = [problem_facts(problem, 0, init=False), f"{CHECK.fact(MODEL)} {PLAN_LENGTH.fact(n)}",
             start_facts(problem.init, static, 0, JUSTIFY_START),
             "".join(STEP.fact(t, action_term(a)) for t, a in enumerate(plan))]
    program = Program([encoding("types"), encoding("semantics"), encoding("justify"), domain_facts(domain, MODEL),
                       *facts])
    program.add(rules.text, "eval", ["t"])
    program.add(encoding("frame"), "next", ["t"])
    program.ground()
    for t in range(n):  # two ground calls per layer: a part never reads what it derives (see justify.lp)
        program.ground(("eval", [t]))
        program.ground(("next", [t]))
    program.ground(("eval", [n]), ("final", [n]))
    single: list[int] = []
    pairs: list[int] = []
    answer = program.first() or ()
    valid = any(PLAN_VALID.matches(s) for s in answer)
    for r in REMOVABLE.select(answer):  # run skip(I,L)
        i, length = (x.number for x in r.run.arguments)
        (single if length == 1 else pairs).append(i)
    if not valid:
        return JustifyResult(plan, False)
    return JustifyResult(plan, True, sorted(single), sorted(pairs))
