"""The result of `compare`: per-action counts and distances, and the metrics over them.

Pure data and arithmetic (precision, recall, F1, similarity, macro and cumulative pooling), so
that it can be built, combined and printed without clingo; render/compare.py presents it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Iterable, Sequence

from ...model import Broken
from ..aggregates import SUMMARY_COLUMNS

#: The columns of `CompareResult.to_frame()` and of the CSV, Markdown and LaTeX exports.
FRAME_COLUMNS = ("action", "learned", "pre_pos_precision", "pre_pos_recall", "pre_neg_precision", "pre_neg_recall",
                 "eff_pos_precision", "eff_pos_recall", "eff_neg_precision", "eff_neg_recall", "similarity",
                 "equivalent", "param_distance", "pre_distance", "eff_distance", "edits")

#: Numeric conditions, effects and conditional effects: shown when either model has numeric functions.
NUMERIC_CATEGORIES = ("pre_num", "eff_num", "ceff_num")
CATEGORIES = ("pre_pos", "pre_neg", "eff_pos", "eff_neg", "ceff_pos", "ceff_neg", "pre_other", "cost") \
    + NUMERIC_CATEGORIES
LITERAL_CATEGORIES = CATEGORIES[:4]
PRE_CATEGORIES = ("pre_pos", "pre_neg", "pre_other", "pre_num")
EFF_CATEGORIES = ("eff_pos", "eff_neg", "ceff_pos", "ceff_neg", "cost", "eff_num", "ceff_num")
#: The columns `to_frame()` adds for numeric models.
NUMERIC_COLUMNS = ("pre_num_precision", "pre_num_recall", "eff_num_precision", "eff_num_recall")

LEGEND = ("P = TP/(TP+FP), taken as 1 when TP+FP = 0; R = TP/(TP+FN), taken as 1 when TP+FN = 0; "
          "similarity = TP/(TP+FP+FN) over preconditions and effects (1 when both actions are empty). "
          "Mean over actions (JSON keys *_macro): per-action figures (all categories pooled) averaged over the "
          "reference's actions; cumulative: counts summed first, learned-only actions counted as false positives.")


@dataclass(frozen=True)
class Counts:
    """Confusion counts of one category; `tn` only for the four literal categories."""

    tp: int = 0
    fp: int = 0
    fn: int = 0
    tn: int | None = None

    @property
    def precision(self) -> float:
        return 1.0 if self.tp + self.fp == 0 else self.tp / (self.tp + self.fp)

    @property
    def recall(self) -> float:
        return 1.0 if self.tp + self.fn == 0 else self.tp / (self.tp + self.fn)

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 0.0 if p + r == 0 else 2 * p * r / (p + r)

    @property
    def jaccard(self) -> float:
        """TP/(TP+FP+FN): the literal similarity; 1 when both sides are empty."""
        n = self.tp + self.fp + self.fn
        return 1.0 if n == 0 else self.tp / n

    def __add__(self, other: "Counts") -> "Counts":
        tn = None if self.tn is None or other.tn is None else self.tn + other.tn
        return Counts(self.tp + other.tp, self.fp + other.fp, self.fn + other.fn, tn)

    def to_dict(self) -> dict:
        return {"tp": self.tp, "fp": self.fp, "fn": self.fn, "tn": self.tn, "precision": self.precision,
                "recall": self.recall, "f1": self.f1}


def pooled(counts: Iterable[Counts]) -> Counts:
    total = Counts(0, 0, 0, 0)
    for c in counts:
        total = total + c
    return total


@dataclass(frozen=True)
class ConditionCounts:
    """Conditional effects under one condition (of the reference, or one only the learned model has)."""

    condition: str
    side: str  # "reference" | "learned"
    counts: Counts


@dataclass(frozen=True)
class ActionComparison:
    """One reference action against its learned counterpart."""

    action: str  # reference name
    learned: str | None  # counterpart under the metric mapping (None: missing, all FN)
    counts: dict[str, Counts]
    conditions: tuple[ConditionCounts, ...]
    best_match: str | None  # counterpart under the best renaming
    equivalent: bool
    param_distance: int
    pre_distance: int
    eff_distance: int
    param_mapping: tuple[tuple[str, str], ...]  # (learned parameter, reference parameter), best renaming
    metric_param_mapping: tuple[tuple[str, str], ...]
    edits: tuple[str, ...]
    broken: Broken | None = None  # the learned counterpart, broken (scored as missing: `learned` is None)

    @property
    def pre(self) -> Counts:
        return pooled(self.counts[c] for c in PRE_CATEGORIES)

    @property
    def eff(self) -> Counts:
        return pooled(self.counts[c] for c in EFF_CATEGORIES)

    @property
    def all(self) -> Counts:
        return pooled(self.counts.values())

    @property
    def similarity(self) -> float:
        """1 − (|Δpre| + |Δeff|) / (|∪pre| + |∪eff|), 1 when both actions are empty."""
        return self.all.jaccard


@dataclass(frozen=True)
class ExtraAction:
    """A learned action without a reference counterpart (under the metric mapping)."""

    action: str
    counts: dict[str, Counts]
    edits: tuple[str, ...] = ()


@dataclass(frozen=True)
class CompareResult:
    """Everything `amlasp compare` reports; `.to_frame()` gives one row per reference action."""

    learned: str
    reference: str
    mode: str
    rename: bool
    actions: tuple[ActionComparison, ...]
    extra_actions: tuple[ExtraAction, ...]
    edit_distance: int
    optimal: bool
    edits: tuple[str, ...]
    predicate_mapping: tuple[tuple[str, str], ...]
    action_mapping: tuple[tuple[str, str], ...]
    type_differences: tuple[str, ...]
    notes: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()
    seconds: float = 0.0
    solve_seconds: float = 0.0
    bound: int | None = None  # proven lower bound when not optimal (None if unknown)
    function_mapping: tuple[tuple[str, str], ...] = ()
    numeric: bool = False  # either model has numeric functions: the numeric categories are shown
    components: Any = None  # components.Components: Text2World's four F1 figures (summary)
    broken: tuple[Broken, ...] = ()  # the learned model's definitions left out by its recovering read

    @property
    def broken_actions(self) -> tuple[Broken, ...]:
        """The learned actions and derived rules that could not be read (each scored as missing)."""
        return tuple(b for b in self.broken if b.kind in ("action", "derived"))

    @property
    def categories(self) -> tuple[str, ...]:
        """The categories shown: the numeric ones only for numeric models (their counts are 0 otherwise)."""
        return CATEGORIES if self.numeric else CATEGORIES[:len(CATEGORIES) - len(NUMERIC_CATEGORIES)]

    @property
    def frame_columns(self) -> tuple[str, ...]:
        """`FRAME_COLUMNS`, the numeric ones for numeric models, and `broken` (the error's class and place)
        when the learned model has broken definitions (a model without has the columns it always had)."""
        return FRAME_COLUMNS + (NUMERIC_COLUMNS if self.numeric else ()) + (("broken",) if self.broken else ())

    # ---- aggregates
    def _macro(self, pick) -> tuple[float, float, float]:
        if not self.actions:  # no reference actions: undefined (n/a, null in JSON)
            return (math.nan, math.nan, math.nan)
        cs = [pick(a) for a in self.actions]
        n = len(cs)
        return (sum(c.precision for c in cs) / n, sum(c.recall for c in cs) / n, sum(c.f1 for c in cs) / n)

    def _cumulative(self, cats: Sequence[str]) -> Counts:
        total = pooled(a.counts[c] for a in self.actions for c in cats)
        extra = pooled(e.counts[c] for e in self.extra_actions for c in cats)
        return Counts(total.tp, total.fp + extra.fp, total.fn, None)

    def macro(self, part: str = "all") -> tuple[float, float, float]:
        """(precision, recall, F1) averaged over the reference's actions; part = pre | eff | all."""
        return self._macro(lambda a: getattr(a, part))

    def cumulative(self, part: str = "all") -> Counts:
        cats = {"pre": PRE_CATEGORIES, "eff": EFF_CATEGORIES, "all": CATEGORIES}[part]
        return self._cumulative(cats)

    @property
    def similarity(self) -> float:
        return sum(a.similarity for a in self.actions) / len(self.actions) if self.actions else math.nan

    @property
    def action_accuracy(self) -> float:
        return sum(a.equivalent for a in self.actions) / len(self.actions) if self.actions else math.nan

    def summary(self) -> dict:
        pm, rm, fm = self.macro("all")
        c = self.cumulative("all")
        out: dict[str, Any] = {"precision_macro": pm, "recall_macro": rm, "f1_macro": fm,
               "precision_cumulative": c.precision, "recall_cumulative": c.recall, "f1_cumulative": c.f1,
               "similarity": self.similarity, "action_accuracy": self.action_accuracy,
               "edit_distance": self.edit_distance, "optimal": self.optimal}
        for part in ("pre", "eff"):
            p, r, f = self.macro(part)
            cc = self.cumulative(part)
            out.update({f"{part}_precision_macro": p, f"{part}_recall_macro": r,
                        f"{part}_precision_cumulative": cc.precision, f"{part}_recall_cumulative": cc.recall})
        out.update({"tp": c.tp, "fp": c.fp, "fn": c.fn, "reference_actions": len(self.actions),
                    "equivalent_actions": sum(a.equivalent for a in self.actions),
                    "missing_actions": sum(a.learned is None for a in self.actions),
                    "extra_actions": len(self.extra_actions)})
        if self.broken:
            out["broken_actions"] = len(self.broken_actions)
        if not self.optimal:
            out["edit_distance_lower_bound"] = self.bound
        if self.components is not None:
            out.update(self.components.to_dict())
        return out

    def to_dict(self) -> dict:
        """The `--format json` object (documented in docs/compare.md)."""
        def cats(counts: dict[str, Counts]) -> dict:
            return {k: counts[k].to_dict() for k in self.categories}
        actions = []
        for a in self.actions:
            d = {"action": a.action, "learned": a.learned, **cats(a.counts),
                 "pre": a.pre.to_dict(), "eff": a.eff.to_dict(), "all": a.all.to_dict(),
                 "conditions": [{"condition": c.condition, "side": c.side, **c.counts.to_dict()} for c in a.conditions],
                 "similarity": a.similarity, "equivalent": a.equivalent, "best_match": a.best_match,
                 "param_distance": a.param_distance, "pre_distance": a.pre_distance, "eff_distance": a.eff_distance,
                 "param_mapping": [list(p) for p in a.param_mapping],
                 "metric_param_mapping": [list(p) for p in a.metric_param_mapping], "edits": list(a.edits)}
            if self.broken:
                d["broken"] = a.broken.to_dict() if a.broken is not None else None
            actions.append(d)
        return {
            "learned": self.learned, "reference": self.reference, "mode": self.mode, "rename": self.rename,
            "actions": actions,
            "extra_actions": [{"action": e.action, **cats(e.counts), "edits": list(e.edits)}
                              for e in self.extra_actions],
            "summary": self.summary(),
            "mapping": {"predicates": [list(p) for p in self.predicate_mapping],
                        "actions": [list(p) for p in self.action_mapping],
                        **({"functions": [list(p) for p in self.function_mapping]} if self.numeric else {})},
            "edits": list(self.edits), "type_differences": list(self.type_differences),
            "notes": list(self.notes), "warnings": list(self.warnings), "legend": LEGEND,
            "seconds": self.seconds,
        } | ({"broken": [b.to_dict() for b in self.broken]} if self.broken else {})

    # ---- the tidy tables: one row per reference action, and the summary (docs/compare.md)
    def records(self, detailed: bool = False) -> list[dict]:
        """The rows of `to_frame()`; every export (CSV, Markdown, LaTeX) is made from them."""
        rows = []
        for a in self.actions:
            row: dict = {"action": a.action, "learned": a.learned}
            for k in LITERAL_CATEGORIES:
                row.update({f"{k}_precision": a.counts[k].precision, f"{k}_recall": a.counts[k].recall})
            row.update({"similarity": a.similarity, "equivalent": a.equivalent, "param_distance": a.param_distance,
                        "pre_distance": a.pre_distance, "eff_distance": a.eff_distance, "edits": len(a.edits)})
            if self.numeric:
                for k in ("pre_num", "eff_num"):
                    row.update({f"{k}_precision": a.counts[k].precision, f"{k}_recall": a.counts[k].recall})
            if self.broken:
                row["broken"] = f"{a.broken.error} at {a.broken.location}" if a.broken is not None else ""
            if detailed:
                for k in self.categories:
                    c = a.counts[k]
                    row.update({f"{k}_tp": c.tp, f"{k}_fp": c.fp, f"{k}_fn": c.fn, f"{k}_tn": c.tn,
                                f"{k}_precision": c.precision, f"{k}_recall": c.recall, f"{k}_f1": c.f1})
                for part in ("pre", "eff", "all"):
                    c = getattr(a, part)
                    row.update({f"{part}_precision": c.precision, f"{part}_recall": c.recall, f"{part}_f1": c.f1})
                row["best_match"] = a.best_match
            rows.append(row)
        return rows

    def to_frame(self, detailed: bool = False):
        """One row per reference action: P and R of the four literal categories, similarity,
        equivalence, distances, edits (the columns of `FRAME_COLUMNS`, as `-f csv` writes them).
        `detailed`: also TP/FP/FN/TN and F1 of every category (complex ones too), and the best match."""
        import pandas as pd
        return pd.DataFrame(self.records(detailed), columns=None if detailed and self.actions else self.frame_columns)

    def summary_records(self) -> list[dict]:
        """The rows of `summary_frame()`: each figure as a mean over the reference's actions and,
        where it has one, cumulative (counts summed first, learned-only actions included)."""
        n = len(self.actions)
        pm, rm, fm = self.macro("all")
        c = self.cumulative("all")
        rows = [("precision", pm, c.precision), ("recall", rm, c.recall), ("f1", fm, c.f1)]
        for part in ("pre", "eff"):
            p, r, _ = self.macro(part)
            cc = self.cumulative(part)
            rows += [(f"{part}_precision", p, cc.precision), (f"{part}_recall", r, cc.recall)]
        edits = sum(len(a.edits) for a in self.actions) / n if n else math.nan
        rows += [("similarity", self.similarity, c.jaccard), ("action_accuracy", self.action_accuracy, math.nan),
                 ("edit_distance", edits, self.edit_distance)]
        if self.components is not None:  # Text2World's: predicates over the domain, the rest averaged over actions
            k = self.components
            rows += [("predicate_f1", math.nan, k.predicate_f1), ("parameter_f1", k.parameter_f1, math.nan),
                     ("precondition_f1", k.precondition_f1, math.nan), ("effect_f1", k.effect_f1, math.nan)]
        if self.broken:  # a count: the learned actions and rules left out, each scored as missing
            rows.append(("broken_actions", math.nan, len(self.broken_actions)))
        return [dict(zip(SUMMARY_COLUMNS, (m, mean, n, cum))) for m, mean, cum in rows]

    def summary_frame(self):
        """The summary as a tidy table (`SUMMARY_COLUMNS`): one row per figure, NaN where undefined."""
        import pandas as pd
        return pd.DataFrame(self.summary_records(), columns=SUMMARY_COLUMNS)


__all__ = ["FRAME_COLUMNS", "NUMERIC_COLUMNS", "NUMERIC_CATEGORIES",
           "CompareResult", "ActionComparison", "ExtraAction", "Counts", "ConditionCounts", "pooled",
           "LEGEND", "CATEGORIES", "LITERAL_CATEGORIES", "PRE_CATEGORIES", "EFF_CATEGORIES"]
