"""`amlasp plan`'s body, without Typer: the `plan` command calls it, and `amlasp.launch` too for a call whose
options need no Typer to read them (issue 33: the start-up of a call is most of a short plan's time)."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

from .validating import load_task


def shortest_plans(domain: Path, problem: Path, max_steps: int, all_plans: bool, top: int,
                   time_limit: Optional[float], prover: str, format: str) -> int:
    """The `plan` command with its options read: print the plan(s) found; the exit code, 0 a plan, 1 none."""
    from ..choices import ANSWER_FORMATS, Prover
    from ..costs import uses_costs
    from ..reasoning.planning import plan as run_plan
    from ..render.formats import Format
    Format.parse(format, ANSWER_FORMATS)
    by = Prover.parse(prover)
    d, p = load_task(domain, problem)
    asked = 0 if all_plans else max(top, 1)
    if uses_costs(d, p):  # :action-costs with (:metric minimize (total-cost)): the cheapest plans
        from ..reasoning.cheapest import cheapest
        r = cheapest(d, p, max_steps=max_steps, top=asked, time_limit=time_limit, prover=by)
    else:
        r = run_plan(d, p, max_steps=max_steps, top=asked, time_limit=time_limit, prover=by)
    # imported once the plan is found: Fast Downward starts sooner, and the validator these import loaded while it
    # searched (reasoning.planning)
    from ..render import reasoning as present
    from ..render.formats import to_json
    from ..render.output import deliver
    deliver(to_json(present.plan_json(r)) if format == Format.JSON else present.plan_lines(r, asked, time_limit))
    return 0 if r.status == "plan" else 1


__all__ = ["shortest_plans"]
