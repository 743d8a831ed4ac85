"""Rendering results: rich tables for people; JSON, CSV, Markdown and LaTeX for machines and papers.

Every command builds plain rows (lists of dicts) and hands them here; no command
formats numbers itself.
"""

from __future__ import annotations

import csv
import io
import json
import math
import os
import tempfile
from pathlib import Path
from typing import Any, Iterable, Sequence

from rich.console import Console
from rich.table import Table

FORMATS = ("table", "json", "csv", "markdown", "latex")


def fmt(value: Any, digits: int = 3) -> str:
    """Numbers for people: fixed digits, `n/a` for undefined (never NaN)."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "n/a"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


def clean(value: Any) -> Any:
    """JSON-safe: NaN becomes null."""
    if isinstance(value, float) and math.isnan(value):
        return None
    if isinstance(value, dict):
        return {k: clean(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [clean(v) for v in value]
    return value


def to_json(obj: Any) -> str:
    return json.dumps(clean(obj), indent=2, sort_keys=False)


def rich_table(title: str, columns: Sequence[str], rows: Iterable[Sequence[Any]], caption: str | None = None) -> Table:
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


def to_markdown(columns: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    lines = ["| " + " | ".join(columns) + " |", "|" + "|".join("---" if i == 0 else "---:" for i in range(len(columns))) + "|"]
    for r in rows:
        lines.append("| " + " | ".join(fmt(v) for v in r) + " |")
    return "\n".join(lines) + "\n"


_LATEX_ESCAPE = {"&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_", "{": r"\{", "}": r"\}",
                 "~": r"\textasciitilde{}", "^": r"\textasciicircum{}", "\\": r"\textbackslash{}"}


def latex_escape(text: str) -> str:
    return "".join(_LATEX_ESCAPE.get(c, c) for c in text)


def to_latex(columns: Sequence[str], rows: Iterable[Sequence[Any]], caption: str | None = None,
             bold_max: Sequence[int] = ()) -> str:
    """A booktabs table; columns listed in `bold_max` get their best value in bold."""
    rows = [list(r) for r in rows]
    best = {}
    for c in bold_max:
        vals = [r[c] for r in rows if isinstance(r[c], (int, float)) and not isinstance(r[c], bool)]
        if vals:
            best[c] = max(vals)
    out = [r"\begin{table}[t]", r"\centering", r"\begin{tabular}{l" + "r" * (len(columns) - 1) + "}", r"\toprule",
           " & ".join(latex_escape(c) for c in columns) + r" \\", r"\midrule"]
    for r in rows:
        cells = []
        for i, v in enumerate(r):
            s = latex_escape(fmt(v))
            if i in best and v == best[i]:
                s = r"\textbf{" + s + "}"
            cells.append(s)
        out.append(" & ".join(cells) + r" \\")
    out += [r"\bottomrule", r"\end{tabular}"]
    if caption:
        out.append(r"\caption{" + latex_escape(caption) + "}")
    out.append(r"\end{table}")
    return "\n".join(out) + "\n"


def write_atomic(path: str | Path, text: str) -> None:
    """Write via a temporary file in the same directory and rename: no half-written outputs."""
    path = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=str(path.parent or "."))
    try:
        with os.fdopen(fd, "w") as fh:
            fh.write(text)
        umask = os.umask(0)
        os.umask(umask)
        # mkstemp makes the file private (0600); give it the mode a plain open() would
        os.chmod(tmp, path.stat().st_mode & 0o777 if path.exists() else 0o666 & ~umask)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def console(stderr: bool = False) -> Console:
    """A terminal keeps its width; a pipe or file gets a wide one so that tables are never cut."""
    c = Console(stderr=stderr, highlight=False, soft_wrap=False)
    if not c.is_terminal and "COLUMNS" not in os.environ:
        c = Console(stderr=stderr, highlight=False, soft_wrap=False, width=240)
    return c
