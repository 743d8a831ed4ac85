"""The verdicts of many plans (`engine.validate_plans`) as a result: the list of `Execution`s it always
was, with `records()` and `to_frame()` like every other result."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable, Sequence

if TYPE_CHECKING:
    from .engine import Execution

#: The columns of `Validations.to_frame()`: one row per plan, as `validate -f json` writes its verdicts.
VALIDATION_COLUMNS = ("plan", "problem", "valid", "executable", "failed_step", "failed_action",
                      "unmet_preconditions", "unmet_goals", "plan_length")


class Validations(list):
    """The verdicts of `validate_plans`: a list of `Execution`, one per plan in order (what it was before it
    had a table), with `records()` and `to_frame()` like every other result."""

    def __init__(self, executions: Iterable["Execution"], problems: Sequence[str] = ()):
        super().__init__(executions)
        self.problems = list(problems)

    def records(self) -> list[dict]:
        return [{"plan": i, "problem": self.problems[i] if i < len(self.problems) else None, "valid": ex.valid,
                 "executable": ex.executable,
                 "failed_step": None if ex.failed_step is None else ex.failed_step + 1,
                 "failed_action": None if ex.failed_step is None else str(ex.plan[ex.failed_step]),
                 "unmet_preconditions": [str(u) for u in ex.unmet], "unmet_goals": [str(g) for g in ex.goal_unmet],
                 "plan_length": len(ex.plan)} for i, ex in enumerate(self)]

    def to_frame(self):
        """One row per plan (`VALIDATION_COLUMNS`; `plan` is its index in the input)."""
        import pandas as pd
        return pd.DataFrame(self.records(), columns=VALIDATION_COLUMNS)


__all__ = ["VALIDATION_COLUMNS", "Validations"]
