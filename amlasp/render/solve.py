"""`solve`'s result (`metrics.solve.SolveResult`): one row per problem, and the summary.

Every format shows the same two tables: `SolveResult.to_frame()` and `summary_frame()`."""

from __future__ import annotations

from pathlib import Path

from rich.console import RenderableType

from ..metrics.solve import SUMMARY_COLUMNS, SolveResult
from .broken import broken_lines
from .escape import markup
from .exports import Sheet, sheets_text
from .formats import Format, rich_table

LABELS = {"plan_length": "plan length", "error_class": "error class"}


def sheet(result: SolveResult) -> Sheet:
    return Sheet(result.columns, result.records(), LABELS)


def summary_sheet(result: SolveResult) -> Sheet:
    return Sheet(SUMMARY_COLUMNS, result.summary_records())


def text(result: SolveResult, format: Format, summary: bool = False) -> str:
    """The result in a text format (json, csv, markdown, latex); with `summary` only the summary."""
    return sheets_text(format, result.summary() if summary else result.to_dict(), sheet(result), summary_sheet(result),
                       (f"Problems solved with {Path(result.learned).name}", "Summary: each category's count, and "
                        f"its ratio over all {len(result.problems)} problems"), summary)


def terminal(result: SolveResult, summary: bool = False) -> list[RenderableType]:
    s, t = sheet(result), summary_sheet(result)
    totals = rich_table("Summary (ratios over all problems)", [t.label(c) for c in t.columns], t.shown())
    if summary:
        return [totals]
    return [rich_table(f"learned {Path(result.learned).name} on {len(result.problems)} problem(s), validated in "
                       f"reference {Path(result.reference).name}",
                       [s.label(c) for c in s.columns], s.shown()), totals,
            *(markup(line) for line in broken_lines(result.broken, "not planned with"))]
