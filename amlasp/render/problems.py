"""Problem comparison (`metrics.compare.problem_result.ProblemComparison`) as tables and texts."""

from __future__ import annotations

from rich.console import RenderableType
from rich.markup import escape

from ..metrics.compare.problem_result import EDIT_COLUMNS, ProblemComparison
from .exports import Sheet, sheets_text
from .formats import Format, rich_table


def edits_sheet(result: ProblemComparison) -> Sheet:
    return Sheet(EDIT_COLUMNS, result.records())


def summary_sheet(result: ProblemComparison) -> Sheet:
    return Sheet(("metric", "value"), result.summary_records())


def text(result: ProblemComparison, format: Format, summary: bool = False) -> str:
    """JSON, CSV (the edits; `summary`: the summary), Markdown or LaTeX (both tables)."""
    data = result.to_dict()["summary"] if summary else result.to_dict()
    return sheets_text(format, data, edits_sheet(result), summary_sheet(result),
                       (f"Edits turning {result.generated} into {result.reference}, under the best renaming of "
                        "objects.", f"{result.generated} against {result.reference}."), summary)


def lines(result: ProblemComparison) -> list[str]:
    """The verdicts, the renaming, the edits and solvability, one line each (plain text)."""
    out = []
    notion = result.notion
    out.append(f"equivalent ({notion}): {'yes' if result.equivalent else 'no'}")
    syn = result.syntactic
    out.append(f"edit distance (syntactic): {syn.edit_distance}"
               + (" (proven optimal)" if syn.optimal else f" (NOT proven optimal; lower bound {syn.bound})"))
    if result.semantic is not None:
        out.append(f"edit distance (semantic): {result.semantic.edit_distance}"
                   + (" (proven optimal)" if result.semantic.optimal else " (NOT proven optimal)"))
    out.append(result.semantic_reason)
    renamed = [(g, r) for g, r in (result.semantic or syn).mapping if g != r]
    if renamed:
        out.append("object renaming: " + ", ".join(f"{g}→{r}" for g, r in renamed))
    for e in (result.semantic or syn).edits:
        out.append(f"  {e}")
    s = result.solvable
    out.append(f"generated problem solvable: {s.answer} ({s.reason})")
    if s.plan:
        out.append("  plan: " + " ".join(s.plan))
    return out


def terminal(result: ProblemComparison, summary: bool = False) -> list[RenderableType]:
    s = summary_sheet(result)
    table = rich_table(escape(f"{result.generated} vs {result.reference}"), list(s.columns), s.shown())
    return [table] if summary else [table, *(escape(x) for x in lines(result))]


__all__ = ["text", "terminal", "lines", "edits_sheet", "summary_sheet"]
