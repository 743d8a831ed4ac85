"""`solve`'s result (`metrics.solve.SolveResult`): one row per problem, and the summary.

Every format shows the same two tables: `SolveResult.to_frame()` and `summary_frame()`."""

from __future__ import annotations

from pathlib import Path

from rich.console import RenderableType

from ..metrics.solve import FRAME_COLUMNS, SUMMARY_COLUMNS, SolveResult
from .exports import Sheet, sheet_csv, sheet_latex, sheet_markdown
from .formats import Format, rich_table, to_json

LABELS = {"plan_length": "plan length"}


def sheet(result: SolveResult) -> Sheet:
    return Sheet(FRAME_COLUMNS, result.records(), LABELS)


def summary_sheet(result: SolveResult) -> Sheet:
    return Sheet(SUMMARY_COLUMNS, result.summary_records())


def text(result: SolveResult, format: Format, summary: bool = False) -> str:
    """The result in a text format (json, csv, markdown, latex); with `summary` only the summary."""
    if format == Format.JSON:
        return to_json(result.summary() if summary else result.to_dict()) + "\n"
    if format == Format.CSV:
        return sheet_csv(summary_sheet(result) if summary else sheet(result))
    if format == Format.MARKDOWN:
        return ("" if summary else sheet_markdown(sheet(result)) + "\n") + sheet_markdown(summary_sheet(result))
    if format == Format.LATEX:
        return (("" if summary else sheet_latex(sheet(result), f"Problems solved with {Path(result.learned).name}")
                 + "\n") + sheet_latex(summary_sheet(result), "Summary: each category's count, and its ratio over "
                                                               f"all {len(result.problems)} problems"))
    raise ValueError(f"not a text format: {format}")


def terminal(result: SolveResult, summary: bool = False) -> list[RenderableType]:
    s, t = sheet(result), summary_sheet(result)
    totals = rich_table("Summary (ratios over all problems)", [t.label(c) for c in t.columns], t.shown())
    if summary:
        return [totals]
    return [rich_table(f"{Path(result.learned).name} on {len(result.problems)} problem(s)",
                       [s.label(c) for c in s.columns], s.shown()), totals]
