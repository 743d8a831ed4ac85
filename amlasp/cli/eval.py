"""`amlasp eval LEARNED REF --states ...`: predictive power (applicability and effects)."""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from . import app, guarded, warn

_STAGES = {"read": "reading state files", "solve": "grounding and solving"}


@app.command("eval")
def eval_command(
    learned: Path = typer.Argument(..., help="learned PDDL domain"),
    reference: Path = typer.Argument(..., help="reference PDDL domain"),
    states: List[Path] = typer.Option(..., "--states", "-s",
                                      help="trajectory / JSON state / problem files, or directories of them"),
    problems: Optional[Path] = typer.Option(None, "--problems", "-p", help="directory of the states' problem files"),
    format: str = typer.Option("table", "--format", "-f", help="table, json, csv, markdown or latex"),
    explain: bool = typer.Option(False, "--explain", help="list each misprediction, state by state"),
    output: Optional[Path] = typer.Option(None, "-o", "--output", help="write the result to this file (atomically)"),
    batch_states: int = typer.Option(40000, "--batch-states", help="states per clingo call (memory bound)"),
):
    """Predictive power of LEARNED against REF on test states: applicability and effects, per action."""
    def run():
        from ..metrics.evaluate import evaluate
        from ..pddl.parse import load_domain
        from ..pddl.states import state_inputs
        from ..render import evaluate as present
        from ..render.formats import RESULT_FORMATS, Format
        from ..render.output import deliver, refuse_overwrite
        from ..render.progress import progress_bar
        form = Format.parse(format, RESULT_FORMATS)
        ref = load_domain(reference)
        lrn = load_domain(learned)
        warn(f"{learned}: {w}" for w in lrn.warnings)
        warn(f"{reference}: {w}" for w in ref.warnings)
        refuse_overwrite(output, [learned, reference, problems, *states, *state_inputs(states, problems)])
        with progress_bar(_STAGES, transient=True) as progress:
            ev = evaluate(lrn, ref, states, problems=problems, explain=explain, progress=progress,
                          batch_states=batch_states)
        if ev.ignored_literals:
            warn([f"{ev.ignored_literals} state literal(s) of predicate(s) {', '.join(ev.ignored_predicates)} "
                  f"are not declared by the learned model: it ignores them"])
        deliver(present.terminal(ev, to_file=output is not None) if form == Format.TABLE else present.text(ev, form),
                output)
    guarded(run)
