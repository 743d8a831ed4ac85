"""Numbers for people (`fmt`, from `numbers`), and JSON, CSV, Markdown and LaTeX from plain rows; tables for the
terminal through `tables.FitTable` (the metric results' tidy tables are `render.exports`' job).

Every result is turned into plain rows (lists of values) by its presentation module
(`render.compare`, `render.evaluate`, ...) and formatted here; no command formats numbers itself.
"""

from __future__ import annotations

import csv
import io
import json
from typing import TYPE_CHECKING, Any, Iterable, Sequence

from ..choices import ANSWER_FORMATS, REPORT_FORMATS, RESULT_FORMATS, Format  # noqa: F401 (re-exported)
from ..files import clean
from . import escape
from .numbers import fmt  # noqa: F401 (re-exported: every presentation module formats through it)

if TYPE_CHECKING:
    from .tables import FitTable, Layout


def to_json(obj: Any) -> str:
    return json.dumps(clean(obj), indent=2, sort_keys=False)


def to_json_lines(objs: Iterable[Any]) -> str:
    """One compact JSON value per line (a stream a script reads line by line)."""
    return "".join(json.dumps(clean(o)) + "\n" for o in objs)


def rich_table(title: str, columns: Sequence[str], rows: Iterable[Sequence[Any]], caption: str | None = None,
               narrow: Layout | None = None, keep: int = 1, whole: Iterable[str] = ()) -> FitTable:
    """A table of plain rows for the terminal: every cell through `fmt`, numbers right-aligned, laid
    out to fit the terminal (`tables.FitTable`); `narrow`: a layout to use when this one does not fit;
    `whole`: columns never folded (ids)."""
    from .tables import FitTable, Layout  # rich only when a table is drawn
    layouts = [Layout(list(columns), [list(r) for r in rows], whole=frozenset(whole))] + (
        [narrow] if narrow is not None else [])
    return FitTable(title, layouts, caption, keep)


def to_csv(columns: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow([escape.csv_cell(c) for c in columns])
    for r in rows:
        w.writerow(["" if v is None else escape.csv_cell(v) for v in r])
    return buf.getvalue()


def markdown_header(columns: Sequence[str]) -> list[str]:
    """The header and alignment lines of a Markdown table (first column left, the rest right)."""
    return ["| " + " | ".join(escape.markdown(c) for c in columns) + " |",
            "|" + "|".join("---" if i == 0 else "---:" for i in range(len(columns))) + "|"]


def to_markdown(columns: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    lines = markdown_header(columns)
    for r in rows:
        lines.append("| " + " | ".join(escape.markdown(fmt(v)) for v in r) + " |")
    return "\n".join(lines) + "\n"


def to_latex(columns: Sequence[str], rows: Iterable[Sequence[Any]], caption: str | None = None) -> str:
    """A booktabs table."""
    out = [r"\begin{table}[t]", r"\centering", r"\begin{tabular}{l" + "r" * (len(columns) - 1) + "}", r"\toprule",
           " & ".join(escape.latex(c) for c in columns) + r" \\", r"\midrule"]
    out += [" & ".join(escape.latex(fmt(v)) for v in r) + r" \\" for r in rows]
    out += [r"\bottomrule", r"\end{tabular}"]
    if caption:
        out.append(r"\caption{" + escape.latex(caption) + "}")
    out.append(r"\end{table}")
    return "\n".join(out) + "\n"
