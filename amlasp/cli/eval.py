"""`amlasp eval LEARNED REF --states ...`: predictive power (applicability and effects)."""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from ..choices import RESULT_FORMATS, Executor
from . import EX, IPC, examples, guarded, interrupted, keep_going, partial, warn
from .group import (
    EXECUTOR,
    LEARNED_DOMAIN,
    LENIENT_REFERENCE,
    REFERENCE_DOMAIN,
    RESULT_FORMAT,
    RESULT_OUTPUT,
    SCHEDULER,
    SUMMARY,
    app,
    jobs_option,
)

_STAGES = {"read": "reading state files", "solve": "grounding and solving", "states": "states evaluated"}


# long: its options are its signature, one a parameter
@app.command("eval", epilog=examples(
    f"amlasp eval {EX}/learned.pddl {EX}/domain.pddl --states {EX}/problem.pddl",
    f"amlasp eval {IPC}/learned/nolam/ferry.pddl {IPC}/domains/ferry.pddl --states {IPC}/trajectories/learning/ferry "
    f"--problems {IPC}/problems/learning/ferry -o ferry-eval.csv"))
def eval_command(
    learned: Path = LEARNED_DOMAIN,
    reference: Path = REFERENCE_DOMAIN,
    states: List[Path] = typer.Option(..., "--states", "-s",
                                      help="trajectory / JSON / JSON lines state / problem files, or "
                                           "directories of them"),
    problems: Optional[Path] = typer.Option(None, "--problems", "-p", help="directory of the states' problem files"),
    format: Optional[str] = RESULT_FORMAT,
    explain: bool = typer.Option(False, "--explain", help="list each misprediction, state by state"),
    output: Optional[Path] = RESULT_OUTPUT,
    summary: bool = SUMMARY,
    batch_states: Optional[int] = typer.Option(None, "--batch-states", min=1,
                                               help="states per clingo call, read and let go together "
                                                    "(default 10000: memory bound)"),
    lenient_reference: bool = LENIENT_REFERENCE,
    jobs: int = jobs_option(),
    executor: str = EXECUTOR,
    scheduler: Optional[str] = SCHEDULER,
):
    """Predictive power of LEARNED against REFERENCE on test states: applicability and effects, per action.

    A state file that cannot be read is a row of status error (its message on stderr too) and the others
    are scored: exit 2 after the results."""
    def run():
        from ..errors import Interrupted
        from ..jobs import Jobs
        from ..metrics.evaluate import evaluate
        from ..pddl.parse import load_domain, load_lenient
        from ..pddl.states import state_inputs
        from ..render import evaluate as present
        from ..render.exports import deliver_result, output_format, written
        from ..render.output import refuse_overwrite
        from ..render.progress import progress_bar
        form = output_format(format, output, RESULT_FORMATS)
        for target in written(form, output, summary):
            refuse_overwrite(target, [learned, reference, problems, *states, *state_inputs(states, problems)])
        from ..experiments.suite import swapped
        warn(swapped(learned, reference))
        ref = load_lenient(reference) if lenient_reference else load_domain(reference)
        # an undeclared predicate is scored as a learned-only predicate; a broken action is never applicable
        lrn = load_domain(learned, undeclared_predicates=True, recover=True)
        warn(f"{learned}: {w}" for w in lrn.warnings)
        warn(f"{reference}: {w}" for w in ref.warnings)
        where = Jobs(jobs, Executor.parse(executor), scheduler)
        try:
            with progress_bar(_STAGES, transient=True) as progress:
                ev = evaluate(lrn, ref, states, problems=problems, explain=explain, progress=progress,
                              keep_going=keep_going(), jobs=where,
                              **({"batch_states": batch_states} if batch_states else {}))
        except Interrupted as e:
            interrupted(e, "nothing was written (eval writes its result once every state is scored)")
            raise
        if ev.ignored_literals:
            warn([f"{ev.ignored_literals} state literal(s) of predicate(s) {', '.join(ev.ignored_predicates)} "
                  f"are not declared by the learned model: it ignores them"])
        deliver_result(lambda f, only: present.text(ev, f, only),
                       lambda only: present.terminal(ev, to_file=output is not None, summary=only,
                                                     names=(learned.name, reference.name)), form, output,
                       summary)
        partial([u.message for u in ev.unreadable], ev.state_files, "state files")
    guarded(run)
