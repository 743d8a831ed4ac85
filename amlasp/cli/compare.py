"""`amlasp compare LEARNED REF`: syntactic metrics, similarity, equivalence and edit distance."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from ..choices import RESULT_FORMATS
from . import EX, FORMAT_HELP, IPC, OUTPUT_HELP, SUMMARY_HELP, app, choice_option, examples, guarded, warn


@app.command(epilog=examples(
    f"amlasp compare {EX}/learned.pddl {EX}/domain.pddl --explain",
    f"amlasp compare {IPC}/learned/nolam/ferry.pddl {IPC}/domains/ferry.pddl -o ferry.csv"))
def compare(
    learned: Path = typer.Argument(..., help="learned PDDL domain"),
    reference: Path = typer.Argument(..., help="reference PDDL domain"),
    rename: bool = typer.Option(False, "--rename", help="choose the renaming of predicates, actions and parameters "
                                "with the fewest edits even where names agree, and compute all metrics under it"),
    align: bool = typer.Option(False, "--align", help="match parameters by the type-consistent bijection with the "
                               "most agreement instead of by position"),
    format: Optional[str] = choice_option(None, "--format", "-f", choices=RESULT_FORMATS, help=FORMAT_HELP),
    explain: bool = typer.Option(False, "--explain", help="print the mappings and the list of edits"),
    time_limit: float = typer.Option(60.0, "--time-limit", help="seconds for proving the edit distance optimal"),
    caption: Optional[str] = typer.Option(None, "--caption", help="LaTeX caption"),
    out: Optional[Path] = typer.Option(None, "-o", "--output", help=OUTPUT_HELP),
    summary: bool = typer.Option(False, "--summary", help=SUMMARY_HELP),
):
    """Syntactic comparison of a learned domain with a reference.

    Precision and recall per action and category, literal similarity, action equivalence, and
    the edit distance up to renaming (proven optimal by clingo).
    """
    def run():
        from ..errors import InputError
        from ..metrics.compare import compare as run_compare
        from ..render import compare as present
        from ..render.exports import deliver_result, output_format, written
        from ..render.output import refuse_overwrite
        form = output_format(format, out, RESULT_FORMATS)
        if time_limit <= 0:
            raise InputError("--time-limit must be positive")
        for target in written(form, out, summary):
            refuse_overwrite(target, [learned, reference])
        from ..experiments.suite import swapped
        warn(swapped(learned, reference))
        result = run_compare(learned, reference, align=align, rename=rename, time_limit=time_limit)
        warn(result.warnings)
        deliver_result(lambda f, only: present.text(result, f, explain, caption, only),
                       lambda only: present.terminal(result, explain, only), form, out, summary)
    guarded(run)
