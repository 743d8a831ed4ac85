"""`amlasp eval LEARNED REF --states ...`: predictive power (applicability and effects)."""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from ..errors import InputError
from ..metrics.evaluate import Evaluation, evaluate
from ..pddl.parse import load_domain
from ..render import FORMATS, console, rich_table, to_csv, to_json, to_latex, to_markdown, write_atomic
from . import app, guarded, warn

COLUMNS = ["action", "app TP", "app FP", "app TN", "app FN", "app P", "app R",
           "eff TP", "eff FP", "eff TN", "eff FN", "eff P", "eff R"]


def rows(ev: Evaluation) -> list[list]:
    """One row per reference action, then the averages and the cumulative (summed) scores."""
    out = []
    for a in ev.actions:
        name = a.action if a.in_learned else f"{a.action} (not learned)"
        out.append([name] + [getattr(a.applicability, k) for k in ("tp", "fp", "tn", "fn", "precision", "recall")]
                   + [getattr(a.effects, k) for k in ("tp", "fp", "tn", "fn", "precision", "recall")])
    blank = ""  # not a value (a count of a summary row), unlike None: undefined, shown n/a
    for x in ev.learned_only:
        out.append([f"{x.action} (learned only)", blank, x.fp, blank, blank, 0.0 if x.fp else None, blank]
                   + [blank] * 6)
    app_, eff = ev.applicability, ev.effects
    out.append([f"average (app over {app_.actions}, eff over {eff.actions} actions)", blank, blank, blank, blank,
                app_.precision_avg, app_.recall_avg, blank, blank, blank, blank, eff.precision_avg, eff.recall_avg])
    out.append(["cumulative", blank, blank, blank, blank, app_.precision_cumulative, app_.recall_cumulative,
                blank, blank, blank, blank, eff.precision_cumulative, eff.recall_cumulative])
    return out


def _table(ev: Evaluation, caption: str):
    table = rich_table("Predictive power (learned vs reference)", COLUMNS, rows(ev), caption)
    for col in table.columns[1:]:
        col.justify = "right"  # numbers, with blank cells in the summary rows
    return table


def _progress(enabled: bool):
    """A rich progress bar on stderr over the state files, then the clingo batches."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
    if not enabled:
        return None, None
    bar = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                   console=console(stderr=True), transient=True)
    tasks: dict[str, int] = {}
    labels = {"read": "reading state files", "solve": "grounding and solving"}

    def update(stage: str, done: int, total: int) -> None:
        if stage not in tasks:
            tasks[stage] = bar.add_task(labels.get(stage, stage), total=total)
        bar.update(tasks[stage], completed=done, total=total)
    return bar, update


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
        if format not in FORMATS:
            raise InputError(f"unknown --format '{format}' (choose from {', '.join(FORMATS)})")
        ref = load_domain(reference)
        lrn = load_domain(learned)
        warn(f"{learned}: {w}" for w in lrn.warnings)
        warn(f"{reference}: {w}" for w in ref.warnings)
        if output is not None and output.exists() and output.resolve() in {
                p.resolve() for p in [learned, reference, *states] if p.exists()}:
            raise InputError("refusing to overwrite an input file", output)
        bar, update = _progress(console(stderr=True).is_terminal)
        if bar is not None:
            with bar:
                ev = evaluate(lrn, ref, states, problems=problems, explain=explain, progress=update,
                              batch_states=batch_states)
        else:
            ev = evaluate(lrn, ref, states, problems=problems, explain=explain, batch_states=batch_states)
        if ev.ignored_literals:
            warn([f"{ev.ignored_literals} state literal(s) of predicate(s) {', '.join(ev.ignored_predicates)} "
                  f"are not declared by the learned model: it ignores them"])
        emit(ev, format, output)
    guarded(run)


def emit(ev: Evaluation, format: str, output: Path | None) -> None:
    caption = (f"{ev.states} states of {ev.problems} problem(s); P/R n/a: never applicable (app) or never "
               f"jointly applicable (eff)")
    if format == "table" and output is None:
        c = console()
        c.print(_table(ev, caption))
        if ev.learned_only_predicates:
            c.print(f"learned-only predicates (never true in a test state): {', '.join(ev.learned_only_predicates)}")
        if ev.mistakes:
            c.print(f"\n[bold]{len(ev.mistakes)} misprediction(s)[/bold]")
            for m in ev.mistakes:
                what = {"app-fp": "applicable only in the learned model", "app-fn": "applicable only in the reference",
                        "eff-fp": "predicted change, none in the reference", "eff-fn": "change the learned model misses"}
                lit = f" {m.literal}" if m.literal else ""
                c.print(f"  state {m.state} ({m.source}): {m.action}{lit}: {what[m.kind]}")
        return
    if format == "json":
        text = to_json(ev.to_dict())
    elif format == "csv":
        text = to_csv(COLUMNS, rows(ev))
    elif format == "markdown":
        text = to_markdown(COLUMNS, rows(ev))
    elif format == "latex":
        text = to_latex(COLUMNS, rows(ev), caption)
    else:  # table to a file
        from rich.console import Console
        import io
        buf = io.StringIO()
        Console(file=buf, width=160).print(_table(ev, caption))
        text = buf.getvalue()
    if output is None:
        print(text, end="" if text.endswith("\n") else "\n")
    else:
        write_atomic(output, text if text.endswith("\n") else text + "\n")
