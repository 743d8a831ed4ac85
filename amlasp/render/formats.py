"""The output formats: numbers for people, and JSON, CSV, Markdown and LaTeX from plain rows.

Every result is turned into plain rows (lists of values) by its presentation module
(`render.compare`, `render.evaluate`, ...) and formatted here; no command formats numbers itself.
"""

from __future__ import annotations

import csv
import io
import json
import math
from typing import TYPE_CHECKING, Any, Iterable, Sequence

from ..choices import Choice
from ..files import clean

if TYPE_CHECKING:
    from rich.table import Table


class Format(Choice):
    """`--format`: how a command writes its result."""

    TABLE = "table"  # rich, for a terminal
    JSON = "json"
    CSV = "csv"
    MARKDOWN = "markdown"
    LATEX = "latex"

    @classmethod
    def option(cls) -> str:
        return "--format"


#: What each kind of command accepts, in the order its error message lists them.
ANSWER_FORMATS = (Format.TABLE, Format.JSON)  # one question answered (applicable, plan, ...), gen's summary
RESULT_FORMATS = tuple(Format)  # the metrics: compare, eval, solve
REPORT_FORMATS = (Format.TABLE, Format.CSV, Format.MARKDOWN, Format.LATEX, Format.JSON)  # bench report


def fmt(value: Any, digits: int = 3) -> str:
    """Numbers for people: fixed digits, `n/a` for undefined (never NaN)."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "n/a"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


def to_json(obj: Any) -> str:
    return json.dumps(clean(obj), indent=2, sort_keys=False)


def to_json_lines(objs: Iterable[Any]) -> str:
    """One compact JSON value per line (a stream a script reads line by line)."""
    return "".join(json.dumps(clean(o)) + "\n" for o in objs)


def rich_table(title: str, columns: Sequence[str], rows: Iterable[Sequence[Any]], caption: str | None = None) -> Table:
    """Numeric columns right-aligned; every cell through `fmt`."""
    from rich.table import Table  # rich only when a table is drawn
    table = Table(title=title, caption=caption, header_style="bold")
    rows = [list(r) for r in rows]
    for i, c in enumerate(columns):
        numeric = i > 0 and all(isinstance(r[i], (int, float)) or r[i] is None for r in rows)
        table.add_column(c, justify="right" if numeric else "left")
    for r in rows:
        table.add_row(*(fmt(v) for v in r))
    return table


def to_csv(columns: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(columns)
    for r in rows:
        w.writerow(["" if v is None else v for v in r])
    return buf.getvalue()


def markdown_header(columns: Sequence[str]) -> list[str]:
    """The header and alignment lines of a Markdown table (first column left, the rest right)."""
    return ["| " + " | ".join(columns) + " |",
            "|" + "|".join("---" if i == 0 else "---:" for i in range(len(columns))) + "|"]


def to_markdown(columns: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    lines = markdown_header(columns)
    for r in rows:
        lines.append("| " + " | ".join(fmt(v) for v in r) + " |")
    return "\n".join(lines) + "\n"


_LATEX_ESCAPE = {"&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_", "{": r"\{", "}": r"\}",
                 "~": r"\textasciitilde{}", "^": r"\textasciicircum{}", "\\": r"\textbackslash{}"}


def latex_escape(text: str) -> str:
    return "".join(_LATEX_ESCAPE.get(c, c) for c in text)


def to_latex(columns: Sequence[str], rows: Iterable[Sequence[Any]], caption: str | None = None) -> str:
    """A booktabs table."""
    out = [r"\begin{table}[t]", r"\centering", r"\begin{tabular}{l" + "r" * (len(columns) - 1) + "}", r"\toprule",
           " & ".join(latex_escape(c) for c in columns) + r" \\", r"\midrule"]
    out += [" & ".join(latex_escape(fmt(v)) for v in r) + r" \\" for r in rows]
    out += [r"\bottomrule", r"\end{tabular}"]
    if caption:
        out.append(r"\caption{" + latex_escape(caption) + "}")
    out.append(r"\end{table}")
    return "\n".join(out) + "\n"
