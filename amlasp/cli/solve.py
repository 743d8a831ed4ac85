"""`amlasp solve`: problem-solving metrics of a learned model (plan with it, validate in the reference)."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from ..errors import InputError
from ..render import FORMATS, console, rich_table, to_csv, to_json, to_latex, to_markdown, write_atomic
from ..metrics.solve import CATEGORIES, DEFAULT_MEMORY_MB, DEFAULT_TIMEOUT, SolveResult, solve as run_solve
from . import app, guarded, warn

_COLUMNS = ["problem", "status", "plan_length", "seconds", "detail"]


def _summary_rows(result: SolveResult) -> list[list]:
    s = result.summary()
    rows = [["solving_ratio", s["solving_ratio"], s["counts"]["solved"]]]
    rows += [[f"{c}_ratio", s[f"{c}_ratio"], s["counts"][c]] for c in CATEGORIES if c != "solved"]
    return rows + [["problems", s["problems"], s["problems"]]]


def render_solve(result: SolveResult, fmt: str) -> str | None:
    """Text for the machine formats; None for `table` (printed with rich)."""
    rows = [[p.to_dict()[c] for c in _COLUMNS] for p in result.problems]
    if fmt == "json":
        return to_json(result.to_dict()) + "\n"
    if fmt == "csv":
        return to_csv(_COLUMNS, rows)
    if fmt == "markdown":
        return to_markdown(_COLUMNS, rows) + "\n" + to_markdown(["metric", "value", "count"], _summary_rows(result))
    if fmt == "latex":
        return (to_latex(_COLUMNS, rows, caption=f"Problems solved with {Path(result.learned).name}")
                + to_latex(["metric", "value", "count"], _summary_rows(result), caption="Summary"))
    return None


@app.command()
def solve(
    learned: Path = typer.Argument(..., help="learned PDDL domain (plans are made with it)"),
    reference: Path = typer.Argument(..., help="reference PDDL domain (plans are validated in it)"),
    problems: Path = typer.Option(..., "--problems", "-p", help="directory of problem files (*.pddl), or one file"),
    timeout: float = typer.Option(DEFAULT_TIMEOUT, "--timeout", help="time limit per problem, seconds"),
    memory: Optional[int] = typer.Option(DEFAULT_MEMORY_MB, "--memory", help="memory limit of the planner, MB"),
    planner_config: str = typer.Option("greedy", "--planner-config",
                                       help="greedy (lazy GBFS, FF + CEA, preferred operators) or opt (A*, LM-cut)"),
    jobs: int = typer.Option(1, "--jobs", "-j", help="problems solved in parallel (process pool)"),
    format: str = typer.Option("table", "--format", "-f", help="table, json, csv, markdown or latex"),
    output: Optional[Path] = typer.Option(None, "--output", "-o", help="write the result here (atomically)"),
):
    """Plan with LEARNED on every problem and validate each plan in REFERENCE.

    Every problem lands in one category: solved, false_plan, no_plan, timeout, memout,
    error, invalid_model. Ratios are over all problems.
    """
    def run():
        if format not in FORMATS:
            raise InputError(f"unknown --format '{format}' (choose from {', '.join(FORMATS)})")
        if jobs < 1:
            raise InputError("--jobs must be at least 1")
        if memory is not None and memory < 1:
            raise InputError("--memory must be positive")
        if output is not None and output.resolve() in {learned.resolve(), reference.resolve()}:
            raise InputError("refusing to overwrite an input file", output)
        result = run_solve(learned, reference, problems, config=planner_config, timeout=timeout, memory_mb=memory,
                           jobs=jobs, progress=True)
        text = render_solve(result, format)
        if text is None:
            table = rich_table(f"{Path(result.learned).name} on {len(result.problems)} problem(s)", _COLUMNS,
                               [[p.to_dict()[c] for c in _COLUMNS] for p in result.problems])
            summary = rich_table("Summary (ratios over all problems)", ["metric", "value", "count"],
                                 _summary_rows(result))
            if output is not None:
                c = console()
                with c.capture() as cap:
                    c.print(table)
                    c.print(summary)
                write_atomic(output, cap.get())
            else:
                c = console()
                c.print(table)
                c.print(summary)
        elif output is not None:
            write_atomic(output, text)
        else:
            print(text, end="")
        if result.problems and all(p.status == "invalid_model" for p in result.problems):
            warn([f"the learned model cannot be used: {result.problems[0].detail}"])
    guarded(run)
