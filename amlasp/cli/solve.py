"""`amlasp solve`: problem-solving metrics of a learned model (plan with it, validate in the reference)."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from ..choices import RESULT_FORMATS, PlannerConfig
from . import EX, IPC, examples, guarded, keep_going, partial, warn
from .group import LENIENT_REFERENCE, RESULT_FORMAT, RESULT_OUTPUT, SUMMARY, app, choice_option

# The defaults of --timeout and --memory are metrics/solve.py's (None here: that default); importing
# it here would make `amlasp --help` import what every command uses (clingo, the parser), so the help
# says them as text, escaped for rich (tests/cli/test_startup.py checks that they agree).


@app.command(epilog=examples(
    f"amlasp solve {EX}/learned.pddl {EX}/domain.pddl -p {EX}/problem.pddl",
    f"amlasp solve {IPC}/learned/nolam/ferry.pddl {IPC}/domains/ferry.pddl -p {IPC}/problems/solving/ferry "
    f"-j 2 -o ferry-solve.csv"))
def solve(
    learned: Path = typer.Argument(..., help="learned PDDL domain (plans are made with it)"),
    reference: Path = typer.Argument(..., help="reference PDDL domain (plans are validated in it)"),
    problems: Path = typer.Option(..., "--problems", "-p", help="directory of problem files (*.pddl), or one file"),
    timeout: Optional[float] = typer.Option(None, "--timeout",
                                            help=r"time limit per problem, seconds \[default: 60.0]"),
    memory: Optional[int] = typer.Option(None, "--memory", help=r"memory limit of the planner, MB \[default: 4096]"),
    planner_config: str = choice_option("greedy", "--planner-config", choices=tuple(PlannerConfig),
                                        help="greedy: lazy GBFS, FF + CEA, preferred operators; opt: A*, LM-cut"),
    jobs: int = typer.Option(1, "--jobs", "-j", help="problems solved in parallel (process pool)"),
    format: Optional[str] = RESULT_FORMAT,
    output: Optional[Path] = RESULT_OUTPUT,
    summary: bool = SUMMARY,
    keep_plans: Optional[Path] = typer.Option(None, "--keep-plans", help="write each plan and the planner's log "
                                              "to DIR/<problem>.plan and DIR/<problem>.log"),
    quality: bool = typer.Option(False, "--quality", help="the IPC quality score of each plan (best known cost / "
                                 "cost), the best known from the reference planner's plan"),
    best_costs: Optional[Path] = typer.Option(None, "--best-costs", help='JSON {"problem file name": best known '
                                              'cost}: the quality score against these'),
    lenient_reference: bool = LENIENT_REFERENCE,
):
    """Plan with LEARNED on every problem and validate each plan in REFERENCE.

    Every problem lands in one category: solved, false_plan, no_plan, timeout, memout,
    error, invalid_model. Ratios are over all problems. A problem file that cannot be read is a row of
    status error (its message on stderr too) and the others are solved: exit 2 after the results.
    """
    def run():
        from ..errors import InputError
        from ..metrics.solve import DEFAULT_MEMORY_MB, DEFAULT_TIMEOUT, read_best_costs
        from ..metrics.solve import solve as run_solve
        from ..render import solve as present
        from ..render.exports import deliver_result, output_format, written
        from ..render.output import refuse_overwrite
        from ..render.progress import progress_bar
        form = output_format(format, output, RESULT_FORMATS)
        config = PlannerConfig.parse(planner_config)
        if jobs < 1:
            raise InputError("--jobs must be at least 1")
        limit = DEFAULT_MEMORY_MB if memory is None else memory
        if limit < 1:
            raise InputError("--memory must be positive")
        for target in written(form, output, summary):
            refuse_overwrite(target, [learned, reference, problems, best_costs])
        from ..experiments.suite import swapped
        warn(swapped(learned, reference))
        best = read_best_costs(best_costs) if best_costs is not None else None
        with progress_bar() as progress:
            result = run_solve(learned, reference, problems, config=config.value,
                               timeout=DEFAULT_TIMEOUT if timeout is None else timeout, memory_mb=limit, jobs=jobs,
                               progress=progress, keep_plans=keep_plans, quality=quality, best_costs=best,
                               keep_going=keep_going(), lenient_reference=lenient_reference)
        deliver_result(lambda f, only: present.text(result, f, only), lambda only: present.terminal(result, only),
                       form, output, summary)
        if result.problems and all(p.status == "invalid_model" for p in result.problems):
            warn([f"the learned model cannot be used: {result.problems[0].detail}"])
        partial([p.detail for p in result.erred], len(result.problems), "problems")
    guarded(run)
