"""`amlasp bench run|report`: the benchmark suite over learners and domains, and the paper's tables."""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from ..choices import REPORT_FORMATS, Aggregate, Executor, PlannerConfig
from . import IPC, examples, guarded, keep_going, names, say_erred, warn
from .group import LENIENT_REFERENCE, app, choice_option

bench_app = typer.Typer(no_args_is_help=True, help="Run the benchmark suite and report the paper's tables.")
app.add_typer(bench_app, name="bench")


# One parameter per option of a run (16 of them, ~60 lines): split, the options would be read in two places.
@bench_app.command("run", epilog=examples(
    f"amlasp bench run --learned {IPC}/learned/nolam --domain ferry --results ferry.jsonl",
    f"amlasp bench run --learned {IPC}/learned/nolam --domain ferry,miconic --task compare,eval -j 2 "
    f"--results syntax.jsonl"))
def run_command(
    learned: List[Path] = typer.Option(..., "--learned", "-l", help="directory of learned models <domain>.pddl; "
                                       "one per learner, repeatable"),
    learner: Optional[List[str]] = typer.Option(None, "--learner", help="learner names, one per --learned, "
                                                "repeatable or comma-separated (default: directory names)"),
    results: Path = typer.Option(Path("bench-results.jsonl"), "--results", "-r",
                                 help="results file (JSON lines), appended as units finish; a rerun resumes"),
    domain: Optional[List[str]] = typer.Option(None, "--domain", "-d", help="only these domains (repeatable, "
                                               "or comma-separated: a,b)"),
    task: Optional[List[str]] = typer.Option(None, "--task", help="only these of compare, eval, solve (repeatable "
                                             "or comma-separated)"),
    suite: Optional[Path] = typer.Option(None, "--suite", help="suite directory, or TOML manifest of your own "
                                         "domains (default: the IPC suite installed with amlasp; docs/bench.md)"),
    jobs: int = typer.Option(1, "--jobs", "-j", help="units run in parallel (process pool)"),
    executor: str = choice_option("process", "--executor", choices=tuple(Executor), help="where units run"),
    scheduler: Optional[str] = typer.Option(None, "--scheduler", help="Dask scheduler address (tcp://host:8786)"),
    timeout: float = typer.Option(60.0, "--timeout", help="planner time limit per problem, seconds"),
    memory: Optional[int] = typer.Option(4096, "--memory", help="planner memory limit, MB"),
    planner_config: str = choice_option("greedy", "--planner-config", choices=tuple(PlannerConfig),
                                        help="Fast Downward's search (see amlasp solve --help)"),
    keep_plans: Optional[Path] = typer.Option(None, "--keep-plans", help="write each plan and planner log to "
                                              "DIR/<learner>/<domain>/<problem>.plan|.log"),
    lenient_reference: bool = LENIENT_REFERENCE,
):
    """compare, eval (shipped test states) and solve (shipped problems) for every learner and domain."""
    def run():
        import signal

        from ..errors import InputError
        from ..experiments.bench import TASKS, RunInterrupted
        from ..experiments.bench import run as run_bench
        from ..render.output import console
        from ..render.progress import progress_bar
        Executor.parse(executor)
        if any(results.resolve() == p.resolve() for p in learned):
            raise InputError("refusing to write the results over an input", results)
        try:
            with progress_bar() as progress:
                s = run_bench(learned, results, learners=names(learner, "--learner"),
                              domains=names(domain, "--domain"), suite=suite, jobs=jobs, executor=executor,
                              scheduler=scheduler, config=planner_config, timeout=timeout, memory_mb=memory,
                              tasks=names(task, "--task") or TASKS, keep_plans=keep_plans, progress=progress,
                              lenient_reference=lenient_reference)
        except RunInterrupted as stop:  # one line: what is saved, and how to go on
            i = stop.summary
            name = signal.Signals(stop.signum).name
            console(stderr=True).print(f"amlasp: interrupted ({name}): {i.done_now} unit(s) "
                                       f"saved to {i.results} ({i.done_before + i.done_now} of {i.units} done in "
                                       "all); rerun the same command to resume", markup=False, soft_wrap=True)
            raise typer.Exit(128 + stop.signum) from None
        console(stderr=True).print(f"{s.done_now} unit(s) run, {s.done_before} already in {s.results}, "
                                   f"{s.errors} with errors, {s.seconds:.1f} s", markup=False)
        if s.failed:  # the units that could not be read (status error), each said, then how many failed
            if keep_going():
                say_erred([r["error"] for r in s.failed if r.get("status") == "error"], s.done_now, "units")
            raise units_failed(s)
        if s.done_now and s.unscored == s.done_now:  # nothing could be scored: a negative outcome, exit 1
            console(stderr=True).print(f"amlasp: none of the {s.done_now} unit(s) gave a figure (every learned "
                                       "model missing or unusable; see the errors in the results file)",
                                       markup=False)
            raise typer.Exit(1)
    guarded(run)


def units_failed(s) -> Exception:
    """A run with failed units ends non-zero: bad suite input as bad input, anything else as an internal error."""
    from ..errors import InputError
    first = s.failed[0]
    msg = (f"{len(s.failed)} of {s.done_now} unit(s) failed (first: {first['learner']}/{first['domain']} "
           f"{first['task']}: {first['error']}); rerun the same command to retry them")
    internal = any(r["error"].startswith(("internal error", "worker failed")) for r in s.failed)
    return RuntimeError(msg) if internal else InputError(msg)


@bench_app.command("report", epilog=examples(
    "amlasp bench report ferry.jsonl",
    "amlasp bench report ferry.jsonl -f latex -o tables.tex --plots figures/"))
def report_command(
    results: List[Path] = typer.Argument(..., help="results file(s) of amlasp bench run; files that share a "
                                         "learner are its seeds (tables show mean ± std)"),
    format: Optional[str] = choice_option(None, "--format", "-f", choices=REPORT_FORMATS,
                                          help="output format (default: the one -o's extension names, .csv .json "
                                          ".md .tex .html; else table)"),
    output: Optional[Path] = typer.Option(None, "--output", "-o", help="write the tables here (atomically); "
                                          "FILE.html: the whole page, as --html"),
    html: Optional[Path] = typer.Option(None, "--html", help="write the whole report as one self-contained "
                                        "HTML page (tables, figures, settings, notes)"),
    plots: Optional[Path] = typer.Option(None, "--plots", help="write the figures here (bars and heatmaps)"),
    plot_format: Optional[List[str]] = typer.Option(None, "--plot-format", help="png, svg and/or pdf, repeatable "
                                                    "or comma-separated (default all three)"),
    aggregate: str = choice_option("avg", "--aggregate", choices=tuple(Aggregate),
                                   help="avg: the mean over actions; cumulative: the counts summed first"),
):
    """The paper's tables 3-6 (domains as rows, learners as columns, best in bold), figures and an HTML page."""
    def run():
        from ..errors import InputError
        from ..experiments.report import report as make_report
        from ..files import write_atomic
        from ..render.bench import report_format, report_rich, report_text
        from ..render.formats import Format
        from ..render.output import console, deliver, refuse_overwrite
        from ..render.plots import NEEDS, PlotFormat, available
        from ..render.plots import plots as write_plots
        form = report_format(format, output)
        pages = [p for p in (output if form is None else None, html) if p is not None]
        Aggregate.parse(aggregate)
        image_formats = [PlotFormat.parse(f) for f in names(plot_format, "--plot-format") or ()] or list(PlotFormat)
        refuse_overwrite(output, list(results), "the results file")
        refuse_overwrite(html, list(results), "the results file")
        if plots is not None and not available():  # said before any table is printed or folder made
            raise InputError(f"--plots: {NEEDS}")
        rep = make_report(results, aggregate)
        if plots is not None:  # before anything is written: no figure file may be a results file
            from ..render.plots import figure_files
            refuse_overwrite(figure_files(rep, plots, image_formats), list(results), "the results file")
        if form is not None:
            deliver(report_rich(rep) if form == Format.TABLE else report_text(rep, form), output)
        if pages:
            from ..render.html import report_html
            text = report_html(rep)
            for page in pages:
                write_atomic(page, text)
                console(stderr=True).print(f"report page: {page}", markup=False)
            if not available():
                warn([f"the page has no figures: {NEEDS}"])
        if plots is not None:
            written = write_plots(rep, plots, image_formats)
            console(stderr=True).print(f"{len(written)} figure file(s) in {plots}", markup=False)
        warn(dict.fromkeys(f"{e['learner']}/{e['domain']} {e['task']}: {e['error']}" for e in rep.errors))  # once
    guarded(run)
