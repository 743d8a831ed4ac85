"""`amlasp gen ...`: generators of benchmark data (test trajectories)."""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from ..choices import ANSWER_FORMATS
from . import IPC, examples, guarded, warn
from .group import REFERENCE_DOMAIN, app, choice_option

# The defaults of --p-rnd, --p-opt and --seed are experiments/trajectories.py's (None here: that
# default); importing it here would make `amlasp --help` import what every command uses, so the help
# says them as text, escaped for rich (tests/cli/test_startup.py checks that they agree).

gen_app = typer.Typer(no_args_is_help=True, help="Generate benchmark data (test trajectories).")
app.add_typer(gen_app, name="gen")


@gen_app.command(epilog=examples(
    f"amlasp gen trajectories {IPC}/domains/ferry.pddl -p {IPC}/problems/learning/ferry -o trajs -n 5"))
def trajectories(
    domain: Path = REFERENCE_DOMAIN,
    problems: List[Path] = typer.Option(..., "--problems", "-p",
                                        help="directory of problem files (*.pddl) or a file; repeatable"),
    output: Path = typer.Option(..., "--output", "-o",
                                help="directory for <k>_<domain>_traj (problems copied to OUTPUT/problems)"),
    count: Optional[int] = typer.Option(None, "--count", "-n", help="trajectories (default: one per problem)"),
    p_rnd: Optional[float] = typer.Option(None, "--p-rnd",
                                          help=r"probability of a random action at each step \[default: 0.2]"),
    p_opt: Optional[float] = typer.Option(None, "--p-opt", help="fraction of trajectories planned optimally (A*, "
                                          r"LM-cut) \[default: 0.3]"),
    seed: Optional[int] = typer.Option(None, "--seed",
                                       help=r"random seed (the same seed gives the same files) \[default: 0]"),
    timeout: float = typer.Option(60.0, "--timeout", help="time limit per planner call, seconds"),
    memory: Optional[int] = typer.Option(4096, "--memory", help="memory limit per planner call, MB"),
    name: Optional[str] = typer.Option(None, "--name", help="domain name in file names (default: file stem)"),
    jobs: int = typer.Option(1, "--jobs", "-j", help="trajectories generated in parallel"),
    format: str = choice_option("table", "--format", "-f", choices=ANSWER_FORMATS,
                                 help="output format (the summary)"),
):
    """Trajectories as in the paper: reference plans with random detours (re-planned, dead ends undone).

    Existing trajectory files in OUTPUT are kept, so an interrupted run resumes.
    """
    def run():
        from ..errors import InputError
        from ..experiments.trajectories import P_OPT, P_RND, SEED, generate_trajectories
        from ..render.formats import ANSWER_FORMATS, Format, rich_table, to_json
        from ..render.output import deliver
        from ..render.progress import progress_bar
        form = Format.parse(format, ANSWER_FORMATS)
        if jobs < 1:
            raise InputError("--jobs must be at least 1")
        with progress_bar() as progress:
            result = generate_trajectories(domain, problems, output, count=count,
                                           p_rnd=P_RND if p_rnd is None else p_rnd,
                                           p_opt=P_OPT if p_opt is None else p_opt,
                                           seed=SEED if seed is None else seed, timeout=timeout, memory_mb=memory,
                                           name=name, jobs=jobs, progress=progress)
        rows = [o.to_dict() for o in result.outcomes]
        if form == Format.JSON:
            deliver(to_json(rows))
            return
        cols = ["trajectory", "problem", "status", "config", "length", "random_steps", "backtracks", "seconds"]
        deliver([rich_table(f"Trajectories in {output}", cols, [[r[c] for c in cols] for r in rows])])
        warn(f"{r['trajectory']}: no trajectory, {r['detail']}" for r in rows if r["status"] == "unsolved")
    guarded(run)
