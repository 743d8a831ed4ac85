"""The result of `evaluate`: confusion counts per reference action, and the scores over them.

Pure data and arithmetic (docs/eval.md defines the metrics); render/evaluate.py presents it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

from ...errors import Unreadable
from ...model import Broken
from ..aggregates import SUMMARY_COLUMNS

#: The columns of `Evaluation.to_frame()` and of the CSV, Markdown and LaTeX exports.
FRAME_COLUMNS = ("action", "arity", "in_learned", "learned_only",  # (JSON's `joint` is app_tp)
                 "app_tp", "app_fp", "app_tn", "app_fn", "app_precision", "app_recall",
                 "eff_tp", "eff_fp", "eff_tn", "eff_fn", "eff_precision", "eff_recall")
#: The columns added when a state file could not be read: its row (status error), after the actions' rows.
ERROR_COLUMNS = ("input", "status", "error", "error_class")


@dataclass(frozen=True)
class Confusion:
    """TP/FP/TN/FN of one metric family; precision/recall None when undefined (shown n/a)."""

    tp: int = 0
    fp: int = 0
    tn: int = 0
    fn: int = 0
    precision: float | None = None
    recall: float | None = None

    @property
    def defined(self) -> bool:
        return self.precision is not None

    def to_dict(self) -> dict:
        return {"tp": self.tp, "fp": self.fp, "tn": self.tn, "fn": self.fn,
                "precision": self.precision, "recall": self.recall}


def _ratio(num: int, den: int) -> float:
    """The paper's convention: an empty denominator means nothing was wrong, 1."""
    return num / den if den else 1.0


def applicability_counts(tp: int, fp: int, tn: int, fn: int) -> Confusion:
    """P = TP/(TP+FP) (1 if the learned model never allows it), R = TP/(TP+FN) (1 if the
    reference never allows it); n/a when neither model allows the action in any test state."""
    if tp + fp + fn == 0:
        return Confusion(tp, fp, tn, fn)
    return Confusion(tp, fp, tn, fn, _ratio(tp, tp + fp), _ratio(tp, tp + fn))


def effect_counts(tp: int, fp: int, tn: int, fn: int, joint: int) -> Confusion:
    """P = TP/(TP+FP), 1 when nothing is predicted to change; R = TP/(TP+FN), 1 when nothing
    changes; n/a when the action is never applicable in both models (`joint` = 0)."""
    if joint == 0:
        return Confusion(tp, fp, tn, fn)
    return Confusion(tp, fp, tn, fn, _ratio(tp, tp + fp), _ratio(tp, tp + fn))


@dataclass(frozen=True)
class ActionScore:
    """One reference action: both metric families."""

    action: str
    arity: int
    applicability: Confusion
    effects: Confusion
    joint: int  # (state, ground action) pairs applicable in both models
    in_learned: bool = True  # the learned model has an action of this name and arity
    untyped_fp: int = 0  # FPs on ground actions the reference's typing does not allow
    broken: Broken | None = None  # the learned action of this name, broken: never applicable (`in_learned` False)


@dataclass(frozen=True)
class LearnedOnly:
    """A learned action with no reference action of that name and arity: all its instances are FPs."""

    action: str
    arity: int
    fp: int


@dataclass(frozen=True)
class Mistake:
    """One misprediction in one state (`--explain`)."""

    state: int  # index over all test states, 0-based
    source: str  # state file and the state's position in it
    kind: str  # app-fp | app-fn | eff-fp | eff-fn
    action: str
    literal: str | None = None  # for effects: the literal predicted (fp) or missed (fn)


@dataclass(frozen=True)
class Summary:
    precision_avg: float | None
    recall_avg: float | None
    actions: int  # how many actions the averages are taken over
    precision_cumulative: float | None
    recall_cumulative: float | None

    def to_dict(self) -> dict:
        return {"precision_avg": self.precision_avg, "recall_avg": self.recall_avg, "actions": self.actions,
                "precision_cumulative": self.precision_cumulative, "recall_cumulative": self.recall_cumulative}


def summarise(scores: Sequence[Confusion], extra_fp: int = 0) -> Summary:
    """Averages over the actions where the metric is defined; cumulative over summed counts."""
    defined = [c for c in scores if c.defined]
    if not defined:
        return Summary(None, None, 0, None, None)
    tp = sum(c.tp for c in defined)
    fp = sum(c.fp for c in defined) + extra_fp
    fn = sum(c.fn for c in defined)
    return Summary(sum(c.precision or 0.0 for c in defined) / len(defined),  # defined: neither is None
                   sum(c.recall or 0.0 for c in defined) / len(defined),
                   len(defined), _ratio(tp, tp + fp), _ratio(tp, tp + fn))


@dataclass(frozen=True)
class Evaluation:
    """Predictive power of a learned model on a set of test states."""

    actions: tuple[ActionScore, ...]
    learned_only: tuple[LearnedOnly, ...]
    states: int
    problems: int
    ignored_literals: int  # state literals whose predicate the learned model does not declare
    ignored_predicates: tuple[str, ...] = ()
    learned_only_predicates: tuple[str, ...] = ()  # never true in a test state (closed world)
    mistakes: tuple[Mistake, ...] = ()
    timings: dict = field(default_factory=dict, compare=False)
    cost_agreement: dict | None = None  # with action costs: costs.CostAgreement.to_dict()
    #: the state files that could not be read (a partial run): not in any count above
    unreadable: tuple[Unreadable, ...] = ()
    state_files: int = field(default=0, compare=False)  # the files read, with those that could not be
    broken: tuple[Broken, ...] = ()  # the learned model's definitions left out by its recovering read

    @property
    def applicability(self) -> Summary:
        return summarise([a.applicability for a in self.actions])

    @property
    def effects(self) -> Summary:
        return summarise([a.effects for a in self.actions])

    def summary(self) -> dict:
        """Both metric families over all actions, and what the test states held that the models do not share."""
        app_with_extra = summarise([a.applicability for a in self.actions], sum(x.fp for x in self.learned_only))
        return {
            "states": self.states, "problems": self.problems,
            "applicability": {**self.applicability.to_dict(),
                              "precision_cumulative_with_learned_only": app_with_extra.precision_cumulative},
            "effects": self.effects.to_dict(),
            "ignored_literals": self.ignored_literals,
            "ignored_predicates": list(self.ignored_predicates),
            "learned_only_predicates": list(self.learned_only_predicates),
            **({"cost_agreement": self.cost_agreement} if self.cost_agreement else {}),
            **({"broken_actions": sum(b.kind in ("action", "derived") for b in self.broken)} if self.broken else {}),
            **({"errors": len(self.unreadable)} if self.unreadable else {}),
        }

    def to_dict(self) -> dict:
        """The `--format json` object (docs/eval.md); None for undefined values."""
        return {
            "actions": [{"action": a.action, "arity": a.arity, "in_learned": a.in_learned, "joint": a.joint,
                         "applicability": {**a.applicability.to_dict(), "untyped_fp": a.untyped_fp},
                         "effects": a.effects.to_dict(),
                         **({"broken": a.broken.to_dict() if a.broken else None} if self.broken else {})}
                        for a in self.actions],
            "learned_only_actions": [{"action": x.action, "arity": x.arity, "fp": x.fp} for x in self.learned_only],
            "summary": self.summary(),
            **({"mistakes": [m.__dict__ for m in self.mistakes]} if self.mistakes else {}),
            **({"broken": [b.to_dict() for b in self.broken]} if self.broken else {}),
            **({"errors": self.error_records()} if self.unreadable else {}),
        }

    def error_records(self) -> list[dict]:
        """One row per state file that could not be read: `ERROR_COLUMNS`."""
        return [{"input": u.input, "status": "error", "error": u.message, "error_class": u.error_class}
                for u in self.unreadable]

    @property
    def columns(self) -> tuple[str, ...]:
        """`FRAME_COLUMNS`; `broken` (the error's class and place) when the learned model has broken definitions,
        and `ERROR_COLUMNS` when a state file could not be read (a run without either has the columns it always
        had)."""
        return FRAME_COLUMNS + (("broken",) if self.broken else ()) + (ERROR_COLUMNS if self.unreadable else ())

    # ---- the tidy tables: one row per action, and the summary (docs/eval.md)
    def records(self) -> list[dict]:
        """The rows of `to_frame()`; every export (CSV, Markdown, LaTeX) is made from them."""
        rows = []
        for a in self.actions:
            row = {"action": a.action, "arity": a.arity, "in_learned": a.in_learned, "learned_only": False}
            for fam, c in (("app", a.applicability), ("eff", a.effects)):
                row.update({f"{fam}_{k}": v for k, v in c.to_dict().items()})
            if self.broken:
                row["broken"] = f"{a.broken.error} at {a.broken.location}" if a.broken is not None else ""
            rows.append(row)
        for x in self.learned_only:  # its instances are FPs; nothing else is defined
            row = dict.fromkeys(self.columns)
            row.update({"action": x.action, "arity": x.arity, "in_learned": True, "learned_only": True,
                        "app_tp": 0, "app_fp": x.fp, "app_fn": 0, "app_precision": 0.0 if x.fp else None})
            rows.append(row)
        if self.unreadable:  # the actions' rows are ok; then a row per state file that could not be read
            rows = [{**r, "status": "ok"} for r in rows] + [{**dict.fromkeys(FRAME_COLUMNS), **e}
                                                            for e in self.error_records()]
        return rows

    def to_frame(self):
        """One row per reference action, then per learned-only action (`FRAME_COLUMNS`, as `-f csv`
        writes them): TP/FP/TN/FN, precision and recall of applicability (app_) and effects (eff_)."""
        import pandas as pd
        return pd.DataFrame(self.records(), columns=self.columns)

    def summary_records(self) -> list[dict]:
        """The rows of `summary_frame()`: precision and recall of each family as a mean over the
        actions where it is defined (`actions` says how many) and cumulative (counts summed first)."""
        extra = summarise([a.applicability for a in self.actions], sum(x.fp for x in self.learned_only))
        rows = []
        for fam, s in (("app", self.applicability), ("eff", self.effects)):
            rows += [(f"{fam}_precision", s.precision_avg, s.actions, s.precision_cumulative),
                     (f"{fam}_recall", s.recall_avg, s.actions, s.recall_cumulative)]
        rows.append(("app_precision_with_learned_only", None, self.applicability.actions, extra.precision_cumulative))
        return [dict(zip(SUMMARY_COLUMNS, r)) for r in rows]

    def summary_frame(self):
        """The summary as a tidy table (`SUMMARY_COLUMNS`): one row per figure, NaN where undefined."""
        import pandas as pd
        return pd.DataFrame(self.summary_records(), columns=SUMMARY_COLUMNS)


__all__ = ["FRAME_COLUMNS", "Evaluation", "ActionScore", "LearnedOnly", "Confusion", "Summary", "Mistake",
           "applicability_counts", "effect_counts", "summarise"]
