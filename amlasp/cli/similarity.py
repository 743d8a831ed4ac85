"""`amlasp similarity GEN REF --problems DIR`: behavioural similarity of two domains (docs/llm.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from ..choices import RESULT_FORMATS
from . import EX, IPC, examples, guarded
from .group import REFERENCE_DOMAIN, RESULT_FORMAT, RESULT_OUTPUT, SUMMARY, app


@app.command(epilog=examples(
    f"amlasp similarity {EX}/learned.pddl {EX}/domain.pddl --problems {EX}/problem.pddl",
    f"amlasp similarity {IPC}/learned/nolam/ferry.pddl {IPC}/domains/ferry.pddl "
    f"--problems {IPC}/problems/learning/ferry/0_ferry_prob.pddl --walks 20 --seed 1 -f json"))
def similarity(
    generated: Path = typer.Argument(..., help="generated (or learned) PDDL domain"),
    reference: Path = REFERENCE_DOMAIN,
    problems: Path = typer.Option(..., "--problems", help="a problem file or a folder of them (read by both domains)"),
    walks: int = typer.Option(100, "--walks", help="random walks per problem and direction"),
    length: int = typer.Option(10, "--length", help="steps per walk at most"),
    seed: int = typer.Option(0, "--seed", help="the walks' seed (same seed, same walks)"),
    top_k: int = typer.Option(5, "--top-k", help="shortest plans of each model validated in the other"),
    max_steps: int = typer.Option(20, "--max-steps", help="longest plan searched for the plan sets"),
    plan_time: float = typer.Option(10.0, "--plan-time", help="seconds of plan search per model and problem"),
    format: Optional[str] = RESULT_FORMAT,
    out: Optional[Path] = RESULT_OUTPUT,
    summary: bool = SUMMARY,
):
    """Behavioural similarity: walks of each model executed in the other (Exploration-Walk style, both
    directions and their mean), the K shortest plans of each validated in the other, and a proof of
    equivalence instead of sampling where diff exhausts a problem's reachable states."""
    def run():
        from ..metrics.similarity import similarity as run_similarity
        from ..render import similarity as present
        from ..render.exports import deliver_result, output_format, written
        from ..render.output import refuse_overwrite
        from ..render.progress import progress_bar
        form = output_format(format, out, RESULT_FORMATS)
        for target in written(form, out, summary):
            refuse_overwrite(target, [generated, reference, problems])
        with progress_bar({"problems": "problems"}, transient=True) as progress:
            result = run_similarity(generated, reference, problems, walks=walks, length=length, seed=seed,
                                    top_k=top_k, max_steps=max_steps, plan_time=plan_time,
                                    progress=progress)
        deliver_result(lambda f, only: present.text(result, f, only), lambda only: present.terminal(result, only),
                       form, out, summary)
    guarded(run)
