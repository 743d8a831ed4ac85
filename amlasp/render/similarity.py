"""Behavioural similarity (`metrics.similarity.SimilarityResult`) as tables and texts."""

from __future__ import annotations

from rich.console import RenderableType
from rich.markup import escape

from ..metrics.similarity import COLUMNS, SimilarityResult
from .exports import Sheet, sheets_text
from .formats import Format, rich_table

LABELS = {"proven_equivalent": "proven", "ew_gen_in_ref": "EW gen→ref", "ew_ref_in_gen": "EW ref→gen",
          "ew_mean": "EW mean", "prefix_gen_in_ref": "prefix gen→ref", "prefix_ref_in_gen": "prefix ref→gen",
          "plans_gen_valid_in_ref": "plans gen→ref", "plans_ref_valid_in_gen": "plans ref→gen",
          "gen_plans": "gen plans", "ref_plans": "ref plans"}


def rows_sheet(result: SimilarityResult) -> Sheet:
    return Sheet(COLUMNS, result.records(), LABELS)


def summary_sheet(result: SimilarityResult) -> Sheet:
    return Sheet(("metric", "value"), result.summary_records())


def text(result: SimilarityResult, format: Format, summary: bool = False) -> str:
    data = result.to_dict()["summary"] if summary else result.to_dict()
    return sheets_text(format, data, rows_sheet(result), summary_sheet(result),
                       (f"Behavioural similarity of {result.generated} and {result.reference} ({result.walks} walks "
                        f"of up to {result.length} steps, seed {result.seed}; {result.top_k} shortest plans).",
                        "Means over the problems."), summary)


def terminal(result: SimilarityResult, summary: bool = False) -> list[RenderableType]:
    s = summary_sheet(result)
    table = rich_table("summary (means over problems)", list(s.columns), s.shown())
    if summary:
        return [table]
    rows = rows_sheet(result)
    note = (f"{result.walks} walks of up to {result.length} steps per direction, seed {result.seed}; proven: diff "
            f"exhausted the reachable states without a disagreement (walk figures 1, not sampled); plans: the "
            f"{result.top_k} shortest plans of each model validated in the other")
    return [rich_table(escape(f"{result.generated} vs {result.reference}"), [rows.label(c) for c in rows.columns],
                       rows.shown(), caption=escape(note)), table]


__all__ = ["text", "terminal"]
