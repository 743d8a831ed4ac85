"""A result's tidy tables as CSV, Markdown and LaTeX: the same rows as its `to_frame()`.

Each metric result gives its tables as records with snake_case column names (`records()`,
`summary_records()`; `to_frame()` and `summary_frame()` are those records in pandas). Here
they become text, so that an export cannot drift from the API:

- CSV, for machines: the column names as they are, full-precision numbers, empty cells for
  undefined values, booleans as True/False, so that `pd.read_csv` gives back the frame's dtypes;
  the summary is a table of its own (`-o x.csv` also writes `x.summary.csv`; `--summary` prints it).
- Markdown and LaTeX, for people: the same columns under short labels ("pre+ P"), numbers
  through `fmt`; LaTeX with booktabs, columns that share a first word grouped under it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from ..errors import InputError
from . import escape
from .formats import Format, fmt, to_csv, to_json
from .output import deliver

#: `-o FILE` without `--format`: the format its extension names.
SUFFIXES = {".json": Format.JSON, ".csv": Format.CSV, ".md": Format.MARKDOWN, ".markdown": Format.MARKDOWN,
            ".tex": Format.LATEX}


@dataclass(frozen=True)
class Sheet:
    """One tidy table: its columns (machine names), its records, and how people see them."""

    columns: Sequence[str]
    records: Sequence[Mapping[str, Any]]
    labels: Mapping[str, str] = field(default_factory=dict)  # column → label ("pre+ P"); default: the name
    names: Mapping[str, str] = field(default_factory=dict)  # a text value → its label ("app_precision" → ...)

    def label(self, column: str) -> str:
        return self.labels.get(column, column.replace("_", " "))

    def values(self) -> list[list[Any]]:
        return [[r.get(c) for c in self.columns] for r in self.records]

    def shown(self) -> list[list[str]]:
        """The cells as people read them: numbers through `fmt`, names through `names`."""
        return [[self.names.get(v, v) if isinstance(v, str) else fmt(v) for v in row] for row in self.values()]

    def numeric(self, i: int) -> bool:
        vals = [r[i] for r in self.values() if r[i] is not None]
        return bool(vals) and all(isinstance(v, (int, float)) for v in vals)


def _csv_value(v: Any) -> Any:
    return "" if v is None or (isinstance(v, float) and math.isnan(v)) else v


def sheet_csv(sheet: Sheet) -> str:
    return to_csv(sheet.columns, [[_csv_value(v) for v in row] for row in sheet.values()])


def sheet_markdown(sheet: Sheet, title: str | None = None) -> str:
    lines = [f"**{escape.markdown(title)}**", ""] if title else []
    lines += ["| " + " | ".join(escape.markdown(sheet.label(c)) for c in sheet.columns) + " |",
              "|" + "|".join("---:" if sheet.numeric(i) else "---" for i in range(len(sheet.columns))) + "|"]
    lines += ["| " + " | ".join(escape.markdown(c) for c in row) + " |" for row in sheet.shown()]
    return "\n".join(lines) + "\n"


def _groups(labels: list[str]) -> list[tuple[str, int, int]]:
    """Runs of two or more consecutive two-word labels that share their first word: (word, first, last)."""
    heads = [lab.split(" ", 1)[0] if " " in lab else None for lab in labels]
    out: list[tuple[str, int, int]] = []
    i = 0
    while i < len(labels):
        j, head = i, heads[i]
        while j + 1 < len(labels) and head is not None and heads[j + 1] == head:
            j += 1
        if j > i and head is not None:
            out.append((head, i, j))
        i = j + 1
    return out


def sheet_latex(sheet: Sheet, caption: str | None = None, label: str | None = None) -> str:
    """A booktabs table: numbers right-aligned, labels sharing a first word under one `\\multicolumn`."""
    labels = [sheet.label(c) for c in sheet.columns]
    groups = _groups(labels)
    in_group = {k: (word, a, b) for word, a, b in groups for k in range(a, b + 1)}
    spec = "".join("r" if sheet.numeric(i) else "l" for i in range(len(labels)))
    head: list[str] = []
    if groups:
        top, k = [], 0
        while k < len(labels):
            if k in in_group:
                word, a, b = in_group[k]
                top.append(rf"\multicolumn{{{b - a + 1}}}{{c}}{{{escape.latex(word)}}}")
                k = b + 1
            else:
                top.append("")
                k += 1
        head += [" & ".join(top) + r" \\",
                 " ".join(rf"\cmidrule(lr){{{a + 1}-{b + 1}}}" for _, a, b in groups)]
    bottom = [escape.latex(lab.split(" ", 1)[1] if k in in_group else lab) for k, lab in enumerate(labels)]
    head.append(" & ".join(bottom) + r" \\")
    body = [" & ".join(escape.latex(c) for c in row) + r" \\" for row in sheet.shown()]
    out = [r"\begin{table}[t]", r"\centering", rf"\begin{{tabular}}{{{spec}}}", r"\toprule", *head, r"\midrule",
           *body, r"\bottomrule", r"\end{tabular}"]
    if caption:
        out.append(r"\caption{" + escape.latex(caption) + "}")
    if label:
        out.append(rf"\label{{{label}}}")
    out.append(r"\end{table}")
    return "\n".join(out) + "\n"


def sheets_text(format: Format, data: Any, rows: Sheet, summary: Sheet, captions: tuple[str, str],
                only_summary: bool = False) -> str:
    """A result in a text format: `data` (its JSON object) as JSON; else its table of `rows` and its
    `summary` table (CSV: one of them; Markdown, LaTeX: both, each with its caption in LaTeX);
    with `only_summary` the summary alone (JSON: `data` is then the summary's object)."""
    if format == Format.JSON:
        return to_json(data) + "\n"
    if format == Format.CSV:
        return sheet_csv(summary if only_summary else rows)
    if format == Format.MARKDOWN:
        return ("" if only_summary else sheet_markdown(rows) + "\n") + sheet_markdown(summary)
    if format == Format.LATEX:
        return ("" if only_summary else sheet_latex(rows, captions[0]) + "\n") + sheet_latex(summary, captions[1])
    raise ValueError(f"not a text format: {format}")


def summary_path(output: Path) -> Path:
    """Where `-o x.csv` writes the summary table: `x.summary.csv`."""
    return output.with_name(f"{output.stem}.summary{output.suffix}")


def output_format(given: str | None, output: Path | None, allowed: Sequence[Format]) -> Format:
    """`--format` if given, else the format `-o`'s extension names, else the terminal table.

    Both given and disagreeing is a usage error: `-f json -o x.csv` would write JSON into a .csv."""
    implied = SUFFIXES.get(output.suffix.lower()) if output is not None else None
    if given is None:
        return Format.parse(implied.value, allowed) if implied is not None else Format.TABLE
    form = Format.parse(given, allowed)
    if implied is not None and implied != form:
        raise InputError(f"--format {form} but the extension of -o says {implied} "
                         f"(drop --format, or change the file name)")
    return form


def written(form: Format, output: Path | None, summary: bool) -> list[Path]:
    """The files a metric command writes: `-o x.csv` also writes the summary to `x.summary.csv`."""
    if output is None:
        return []
    return [output, summary_path(output)] if form == Format.CSV and not summary else [output]


def deliver_result(text: Callable[[Format, bool], str], terminal: Callable[[bool], list], form: Format,
                   output: Path | None, summary: bool) -> None:
    """A metric's result to stdout or `-o`: `text(format, summary_only)` for the text formats,
    `terminal(summary_only)` for the table; CSV into a file: the actions' table, and the summary
    table beside it (`x.summary.csv`), so that each file is one tidy table."""
    if form == Format.TABLE:
        deliver(terminal(summary), output)
        return
    if form == Format.CSV and output is not None and not summary:
        deliver(text(form, False), output)
        deliver(text(form, True), summary_path(output))
        return
    deliver(text(form, summary), output)


__all__ = ["Sheet", "sheet_csv", "sheet_markdown", "sheet_latex", "summary_path", "output_format", "SUFFIXES",
           "written", "deliver_result"]
