"""Predictive power of a learned model against a reference model on test states (`amlasp eval`).

`driver.py` runs it (`evaluate()`): the program of the domain pair (`asp/compile/pair.py`), the test
states as facts batch by batch (`states.py`), one clingo call per batch, its counts read
back into the result (`result.py`). docs/eval.md defines the metrics.
"""

from .driver import evaluate
from .result import (
    ActionScore,
    Confusion,
    Evaluation,
    LearnedOnly,
    Mistake,
    Summary,
    applicability_counts,
    effect_counts,
    summarise,
)

__all__ = ["evaluate", "Evaluation", "ActionScore", "LearnedOnly", "Confusion", "Summary", "Mistake",
           "applicability_counts", "effect_counts", "summarise"]
