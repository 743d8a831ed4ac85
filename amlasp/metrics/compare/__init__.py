"""Syntactic comparison of a learned model with a reference model (`amlasp compare`).

Both models become schema facts (`facts.domain_facts`, tags `learned` and `ref`) plus a few
structure facts (`structure.py`: the predicate and arguments of each lifted atom, skeletons of
non-literal formulas). Two clingo calls do the work (`driver.py`):

1. `encodings/compare.lp` + `encodings/edit.lp` under `phase(optimise)`: clingo chooses the
   injective renaming of predicates, actions and parameters with the fewest edits, and proves it
   optimal (or reports `optimal: false` when the time limit stops it first);
2. the same encodings under `phase(metrics)` with that renaming and the metric mapping given as
   facts: clingo counts TP/FP/FN/TN per action and category, the per-action distances, the
   equivalences and the edits.

Python only builds facts, reads answers (`reading.py`), and does the arithmetic of ratios
(`result.py`).
"""

from .driver import compare
from .result import LEGEND, ActionComparison, CompareResult, ConditionCounts, Counts, ExtraAction

__all__ = ["compare", "CompareResult", "ActionComparison", "ExtraAction", "Counts", "ConditionCounts", "LEGEND"]
