"""`amlasp bench run|report`: the benchmark suite over learners and domains, and the paper's tables."""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from ..experiments.bench import AGGREGATES, EXECUTORS, TASKS, report as make_report, run as run_bench
from ..errors import InputError
from ..render import console, write_atomic
from . import app, guarded

bench_app = typer.Typer(no_args_is_help=True, help="Run the benchmark suite and report the paper's tables.")
app.add_typer(bench_app, name="bench")


@bench_app.command("run")
def run_command(
    learned: List[Path] = typer.Option(..., "--learned", "-l", help="directory of learned models <domain>.pddl; "
                                       "one per learner, repeatable"),
    learner: Optional[List[str]] = typer.Option(None, "--learner", help="learner names, one per --learned "
                                                "(default: directory names)"),
    results: Path = typer.Option(Path("bench-results.jsonl"), "--results", "-r",
                                 help="results file (JSON lines), appended as units finish; a rerun resumes"),
    domain: Optional[List[str]] = typer.Option(None, "--domain", "-d", help="only these domains (repeatable)"),
    task: Optional[List[str]] = typer.Option(None, "--task", help="only these of compare, eval, solve"),
    suite: Optional[Path] = typer.Option(None, "--suite", help="suite directory (default: the repository's "
                                         "benchmarks/)"),
    jobs: int = typer.Option(1, "--jobs", "-j", help="units run in parallel (process pool)"),
    executor: str = typer.Option("process", "--executor", help="process or dask"),
    scheduler: Optional[str] = typer.Option(None, "--scheduler", help="Dask scheduler address (tcp://host:8786)"),
    timeout: float = typer.Option(60.0, "--timeout", help="planner time limit per problem, seconds"),
    memory: Optional[int] = typer.Option(4096, "--memory", help="planner memory limit, MB"),
    planner_config: str = typer.Option("greedy", "--planner-config", help="greedy or opt"),
):
    """compare, eval (shipped test states) and solve (shipped problems) for every learner and domain."""
    def run():
        if executor not in EXECUTORS:
            raise InputError(f"unknown --executor '{executor}' (choose from {', '.join(EXECUTORS)})")
        if any(results.resolve() == p.resolve() for p in learned):
            raise InputError("refusing to write the results over an input", results)
        s = run_bench(learned, results, learners=learner, domains=domain, suite=suite, jobs=jobs, executor=executor,
                      scheduler=scheduler, config=planner_config, timeout=timeout, memory_mb=memory,
                      tasks=task or TASKS, progress=True)
        c = console(stderr=True)
        c.print(f"{s.done_now} unit(s) run, {s.done_before} already in {s.results}, {s.errors} with errors, "
                f"{s.seconds:.1f} s")
    guarded(run)


@bench_app.command("report")
def report_command(
    results: Path = typer.Argument(..., help="results file of amlasp bench run"),
    format: str = typer.Option("table", "--format", "-f", help="table, csv, markdown, latex or json"),
    output: Optional[Path] = typer.Option(None, "--output", "-o", help="write the tables here (atomically)"),
    plots: Optional[Path] = typer.Option(None, "--plots", help="write per-domain precision/recall plots here"),
    plot_format: Optional[List[str]] = typer.Option(None, "--plot-format", help="png and/or svg (default both)"),
    aggregate: str = typer.Option("avg", "--aggregate", help="avg (over actions) or cumulative (summed counts)"),
):
    """The paper's tables 3-6 (domains as rows, learners as columns, best in bold) and plots."""
    def run():
        if format not in ("table", "csv", "markdown", "latex", "json"):
            raise InputError(f"unknown --format '{format}' (choose from table, csv, markdown, latex, json)")
        if aggregate not in AGGREGATES:
            raise InputError(f"unknown --aggregate '{aggregate}' (choose from {', '.join(AGGREGATES)})")
        for f in plot_format or ():
            if f not in ("png", "svg"):
                raise InputError(f"unknown --plot-format '{f}' (choose from png, svg)")
        if output is not None and output.resolve() == results.resolve():
            raise InputError("refusing to overwrite the results file", output)
        rep = make_report(results, aggregate)
        if format == "table":
            c = console()
            if output is not None:
                with c.capture() as cap:
                    for t in rep.tables:
                        c.print(t.rich())
                write_atomic(output, cap.get())
            else:
                for t in rep.tables:
                    c.print(t.rich())
        else:
            text = {"csv": rep.csv, "markdown": rep.markdown, "latex": rep.latex, "json": rep.json}[format]()
            if output is not None:
                write_atomic(output, text)
            else:
                print(text, end="" if text.endswith("\n") else "\n")
        if plots is not None:
            written = rep.plots(plots, plot_format or ("png", "svg"))
            console(stderr=True).print(f"{len(written)} plot(s) in {plots}")
        for e in rep.errors:
            console(stderr=True).print(f"amlasp: warning: {e['learner']}/{e['domain']} {e['task']}: {e['error']}")
    guarded(run)
