"""Many candidates against one reference (`metrics.compare.many.ManyResult`) as tables and texts."""

from __future__ import annotations

from rich.console import RenderableType
from rich.markup import escape

from ..metrics.compare.many import ManyResult
from .exports import Sheet, sheets_text
from .formats import Format, rich_table

#: The terminal's short labels (the exports keep the column names).
LABELS = {"edit_distance": "edits", "f1_macro": "F1", "similarity": "sim", "action_accuracy": "acc",
          "predicate_f1": "pred F1", "parameter_f1": "par F1", "precondition_f1": "pre F1", "effect_f1": "eff F1",
          "equivalent_notion": "notion", "semantic_edit_distance": "sem edits", "plan_length": "plan",
          "error_class": "error class"}


def rows_sheet(result: ManyResult) -> Sheet:
    return Sheet(result.columns, result.records(), LABELS)


def summary_sheet(result: ManyResult) -> Sheet:
    return Sheet(("metric", "value"), result.summary_records())


def text(result: ManyResult, format: Format, summary: bool = False) -> str:
    data = result.to_dict()["summary"] if summary else result.to_dict()
    return sheets_text(format, data, rows_sheet(result), summary_sheet(result),
                       (f"Candidates against {result.reference}.", f"Summary of the candidates against "
                                                                    f"{result.reference}."), summary)


def terminal(result: ManyResult, summary: bool = False) -> list[RenderableType]:
    s = summary_sheet(result)
    table = rich_table("summary", list(s.columns), s.shown())
    if summary:
        return [table]
    cols = [c for c in result.columns if c not in ("error", "seconds")]
    rows = [[r["status"] if c == "status" else r.get(c) for c in cols] for r in result.records()]
    shown = Sheet(cols, [dict(zip(cols, r)) for r in rows], LABELS)
    out: list[RenderableType] = [rich_table(escape(f"candidates vs {result.reference}"),
                                            [shown.label(c) for c in cols], shown.shown()), table]
    out += [escape(f"{r['candidate']}: {r['error']}") for r in result.records() if r["status"] == "error"]
    return out


__all__ = ["text", "terminal", "rows_sheet", "summary_sheet"]
