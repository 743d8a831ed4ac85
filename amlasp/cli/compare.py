"""`amlasp compare LEARNED REF`: syntactic metrics, similarity, equivalence and edit distance."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from . import app, guarded, warn


@app.command()
def compare(
    learned: Path = typer.Argument(..., help="learned PDDL domain"),
    reference: Path = typer.Argument(..., help="reference PDDL domain"),
    rename: bool = typer.Option(False, "--rename", help="choose the renaming of predicates, actions and parameters "
                                "with the fewest edits even where names agree, and compute all metrics under it"),
    align: bool = typer.Option(False, "--align", help="match parameters by the type-consistent bijection with the "
                               "most agreement instead of by position"),
    format: str = typer.Option("table", "--format", "-f", help="table, json, csv, markdown or latex"),
    explain: bool = typer.Option(False, "--explain", help="print the mappings and the list of edits"),
    time_limit: float = typer.Option(60.0, "--time-limit", help="seconds for proving the edit distance optimal"),
    caption: Optional[str] = typer.Option(None, "--caption", help="LaTeX caption"),
    out: Optional[Path] = typer.Option(None, "-o", "--output", help="write to this file (atomically)"),
):
    """Compare a learned domain with a reference: precision/recall per action and category, literal
    similarity, action equivalence, and the edit distance up to renaming (proven optimal by clingo)."""
    def run():
        from ..errors import InputError
        from ..metrics.compare import compare as run_compare
        from ..render import compare as present
        from ..render.formats import RESULT_FORMATS, Format
        from ..render.output import deliver, refuse_overwrite
        form = Format.parse(format, RESULT_FORMATS)
        if time_limit <= 0:
            raise InputError("--time-limit must be positive")
        refuse_overwrite(out, [learned, reference])
        result = run_compare(learned, reference, align=align, rename=rename, time_limit=time_limit)
        warn(result.warnings)
        if form == Format.TABLE:
            if out is not None:
                raise InputError("-o needs --format json, csv, markdown or latex")
            deliver(present.terminal(result, explain), min_width=present.MIN_WIDTH)
        else:
            deliver(present.text(result, form, explain, caption), out)
    guarded(run)
