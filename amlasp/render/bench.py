"""The paper's tables (`experiments.report`) as CSV, Markdown, LaTeX, JSON and rich tables.

In every drawn table the best value of each row and metric is marked (bold) when there is more
than one learner; a learner with several seeds shows mean ± standard deviation; the mean row says
over how many domains it is taken; n/a is written `n/a` everywhere.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Callable

from ..choices import REPORT_FORMATS
from ..errors import InputError
from ..experiments.report import DOMAINS_ROW, MEAN, Report, Table
from . import escape
from .escape import Markup
from .formats import Format, fmt, markdown_header, rich_table, to_csv, to_json

if TYPE_CHECKING:
    from .tables import FitTable

PM = {"text": " ± ", "latex": r" $\pm$ "}


def columns(table: Table) -> list[str]:
    return ["domain"] + [f"{l} {lab}" for l in table.learners for _, lab, _ in table.metrics]


def cells(table: Table, mark: Callable[[str], str], pm: str = PM["text"]) -> list[list[str]]:
    """Formatted rows; `mark` wraps the best value of each row and metric, `pm` joins mean and std."""
    out = []
    for r in table.row_labels():
        row = [table.mean_label() if r == MEAN else ("domains in the mean" if r == DOMAINS_ROW else r)]
        for l in table.learners:
            for key, _, higher in table.metrics:
                v = table.cell(r, l, key)
                if r == DOMAINS_ROW:
                    row.append(str(v))
                    continue
                std = table.cell_std(r, l, key)
                s = fmt(v) + (pm + fmt(std) if std is not None and v is not None else "")
                best = table.best(r, key, higher)
                row.append(mark(s) if v is not None and best is not None and
                           abs(v - best) < 1e-9 and len(table.learners) > 1 else s)
        out.append(row)
    return out


def table_markdown(table: Table) -> str:
    lines = [f"**{escape.markdown(table.title)}**", "", *markdown_header(columns(table))]
    lines += ["| " + " | ".join([escape.markdown(r[0]), *r[1:]]) + " |" for r in cells(table, lambda s: f"**{s}**")]
    return "\n".join(lines) + "\n"


def table_latex(table: Table) -> str:
    """Learners as column groups (`\\multicolumn`), the mean row(s) under a rule."""
    k = len(table.metrics)
    head1 = " & ".join(["Domain"] + [rf"\multicolumn{{{k}}}{{c}}{{{escape.latex(l)}}}" for l in table.learners])
    rules = " ".join(rf"\cmidrule(lr){{{2 + i * k}-{1 + (i + 1) * k}}}" for i in range(len(table.learners)))
    head2 = " & ".join([""] + [escape.latex(lab) for _ in table.learners for _, lab, _ in table.metrics])
    body = []
    for i, r in enumerate(cells(table, lambda s: r"\textbf{" + s + "}", PM["latex"])):
        if i == len(table.domains):
            body.append(r"\midrule")
        body.append(" & ".join([escape.latex(r[0])] + r[1:]) + r" \\")
    return "\n".join([r"\begin{table}[t]", r"\centering", r"\begin{tabular}{l" + "r" * (k * len(table.learners))
                      + "}", r"\toprule", head1 + r" \\", rules, head2 + r" \\", r"\midrule", *body,
                      r"\bottomrule", r"\end{tabular}", r"\caption{" + escape.latex(table.title) + "}",
                      rf"\label{{tab:{table.name}}}", r"\end{table}"]) + "\n"


def table_rich(table: Table) -> FitTable:
    """Fitted to the terminal; the cells are formatted text ("0.600 ± 0.141"), right-aligned as numbers."""
    return rich_table(table.title, columns(table), cells(table, lambda s: Markup(f"[bold]{s}[/bold]")))


def report_csv(report: Report) -> str:
    """Long form (`Report.to_frame()`): one row per table, domain, learner and metric."""
    frame = report.to_frame()
    return to_csv(list(frame.columns), [list(r) for r in frame.itertuples(index=False)])


#: `bench report -o FILE`: the extensions it knows (the page, and the text formats of `render.exports`).
HTML_SUFFIXES = (".html", ".htm")


def report_format(given: str | None, output: Path | None) -> Format | None:
    """The format `bench report` writes: `--format`, else the one `-o`'s extension names (None: the HTML
    page), else the terminal table. An extension that names no format is refused rather than given a
    box-drawn table, and `--format` disagreeing with the extension as well."""
    from .exports import SUFFIXES
    suffix = output.suffix.lower() if output is not None else ""
    implied = SUFFIXES.get(suffix)
    if given is None:
        if output is None:
            return Format.TABLE
        if suffix in HTML_SUFFIXES:
            return None
        if implied is None:
            known = ", ".join(sorted(SUFFIXES) + list(HTML_SUFFIXES[:1]))
            raise InputError(f"-o {output}: the extension '{suffix}' names no format (use one of {known}, or "
                             "--format)")
        return Format.parse(implied.value, REPORT_FORMATS)
    form = Format.parse(given, REPORT_FORMATS)
    if implied is not None and implied != form or suffix in HTML_SUFFIXES:
        raise InputError(f"--format {form} but the extension of -o says {implied or 'html'} "
                         "(drop --format, or change the file name)")
    return form


def report_text(report: Report, format: Format) -> str:
    """The whole report in a text format (csv, markdown, latex, json)."""
    if format == Format.CSV:
        return report_csv(report)
    if format == Format.MARKDOWN:
        return "\n".join(table_markdown(t) for t in report.tables)
    if format == Format.LATEX:
        return "\n".join(table_latex(t) for t in report.tables)
    if format == Format.JSON:
        return to_json(report.to_dict())
    raise ValueError(f"not a text format: {format}")


def report_rich(report: Report) -> list[FitTable]:
    return [table_rich(t) for t in report.tables]
