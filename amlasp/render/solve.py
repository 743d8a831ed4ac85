"""`solve`'s result (`metrics.solve.SolveResult`): one row per problem, and the summary."""

from __future__ import annotations

from pathlib import Path

from rich.table import Table

from ..metrics.solve import ProblemStatus, SolveResult
from .formats import Format, rich_table, to_csv, to_json, to_latex, to_markdown

COLUMNS = ["problem", "status", "plan_length", "seconds", "detail"]
SUMMARY_COLUMNS = ["metric", "value", "count"]


def rows(result: SolveResult) -> list[list]:
    return [[p.to_dict()[c] for c in COLUMNS] for p in result.problems]


def summary_rows(result: SolveResult) -> list[list]:
    """The ratio of each category over all problems, with its count."""
    s = result.summary()
    out = [["solving_ratio", s["solving_ratio"], s["counts"]["solved"]]]
    out += [[f"{c}_ratio", s[f"{c}_ratio"], s["counts"][c]] for c in ProblemStatus if c != ProblemStatus.SOLVED]
    return out + [["problems", s["problems"], s["problems"]]]


def text(result: SolveResult, format: Format) -> str:
    """The result in a text format (json, csv, markdown, latex)."""
    if format == Format.JSON:
        return to_json(result.to_dict()) + "\n"
    if format == Format.CSV:
        return to_csv(COLUMNS, rows(result))
    if format == Format.MARKDOWN:
        return to_markdown(COLUMNS, rows(result)) + "\n" + to_markdown(SUMMARY_COLUMNS, summary_rows(result))
    if format == Format.LATEX:
        return (to_latex(COLUMNS, rows(result), caption=f"Problems solved with {Path(result.learned).name}")
                + to_latex(SUMMARY_COLUMNS, summary_rows(result), caption="Summary"))
    raise ValueError(f"not a text format: {format}")


def terminal(result: SolveResult) -> list[Table]:
    return [rich_table(f"{Path(result.learned).name} on {len(result.problems)} problem(s)", COLUMNS, rows(result)),
            rich_table("Summary (ratios over all problems)", SUMMARY_COLUMNS, summary_rows(result))]
