"""`amlasp compare LEARNED REF`: syntactic metrics, similarity, equivalence and edit distance."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer
from rich.markup import escape
from rich.panel import Panel

from ..metrics.compare import LEGEND, CompareResult, compare as run_compare
from ..errors import InputError
from ..render import FORMATS, console, fmt, rich_table, to_csv, to_json, to_latex, to_markdown, write_atomic
from . import app, guarded, warn


def _text(result: CompareResult, format: str, explain: bool, caption: Optional[str]) -> str | None:
    """The output for machine formats (None for the rich table, which is printed directly)."""
    cols = list(CompareResult.TABLE_COLUMNS)
    rows = result.table_rows() + [result.macro_row()]
    if format == "json":
        return to_json(result.to_dict()) + "\n"
    if format == "csv":
        return to_csv(cols, rows)
    if format == "markdown":
        s = result.summary()
        extra = (f"\nEdit distance {s['edit_distance']} ({'proven optimal' if result.optimal else 'NOT proven optimal'}), "
                 f"action accuracy {fmt(s['action_accuracy'])}, precision {fmt(s['precision_macro'])} / "
                 f"{fmt(s['precision_cumulative'])}, recall {fmt(s['recall_macro'])} / {fmt(s['recall_cumulative'])} "
                 f"(macro / cumulative).\n\n{LEGEND}\n")
        if explain:
            extra += "\n" + "".join(f"- {e}\n" for e in result.edits)
        return to_markdown(cols, rows) + extra
    if format == "latex":
        s = result.summary()
        cap = caption or (f"{result.learned} against {result.reference}: edit distance {s['edit_distance']}"
                          f"{'' if result.optimal else ' (not proven optimal)'}, action accuracy "
                          f"{fmt(s['action_accuracy'])}. P is 1 when TP+FP=0 and R is 1 when TP+FN=0.")
        return to_latex(cols, rows, caption=cap)
    return None


def _pr(c) -> str:
    return f"{c.precision:.2f}/{c.recall:.2f}"


def _print_table(result: CompareResult, explain: bool) -> None:
    c = console()
    if not c.is_terminal:
        c.width = max(c.width, 132)
    cols = ("action", "pre+ P/R", "pre− P/R", "eff+ P/R", "eff− P/R", "sim", "equiv", "d par/pre/eff", "edits")
    rows = []
    for a in result.actions:
        name = a.action if a.learned is not None else f"{a.action} (missing)"
        if a.best_match is not None and a.best_match.replace("-", "_") != a.action.replace("-", "_"):
            name += f" ← {a.best_match}"
        k = a.counts
        rows.append([name, _pr(k["pre_pos"]), _pr(k["pre_neg"]), _pr(k["eff_pos"]), _pr(k["eff_neg"]), a.similarity,
                     a.equivalent, f"{a.param_distance}/{a.pre_distance}/{a.eff_distance}", len(a.edits)])
        if any(k[x].tp + k[x].fp + k[x].fn for x in ("ceff_pos", "ceff_neg", "pre_other")):
            rows.append(["  ↳ complex", _pr(k["pre_other"]), "", _pr(k["ceff_pos"]), _pr(k["ceff_neg"]), "", "", "", ""])
    c.print(rich_table(escape(f"{result.learned} vs {result.reference}"), cols, rows,
                       caption="P/R: precision/recall per category; sim: literal similarity; equiv: equal up to "
                               "renaming; d: parameter/precondition/effect distance under the best renaming"
                               + ("; ↳ complex: non-literal preconditions (pre+ column), conditional effects (eff±)"
                                  if any(r[0] == "  ↳ complex" for r in rows) else "")))
    s = result.summary()
    lines = [f"{label}: {fmt(a)}" + (f" / {fmt(b)}" if b is not None else "") for label, a, b in result.summary_rows()]
    if result.extra_actions:
        lines.append("learned actions absent from the reference (false positives in the cumulative figures): "
                     + ", ".join(e.action for e in result.extra_actions))
    missing = [a.action for a in result.actions if a.learned is None]
    if missing:
        lines.append("reference actions missing from the learned model (all literals false negatives): "
                     + ", ".join(missing))
    lines.append(f"parameters matched {dict(position='by position', align='by the best type-consistent bijection', best='by the best renaming')[result.mode]}"
                 f"; actions and predicates matched {'by the best renaming' if result.rename else 'by name'}")
    c.print(Panel(escape("\n".join(lines)), title="summary", expand=False))
    if result.mode == "align":
        for a in result.actions:
            if a.metric_param_mapping:
                c.print(escape(f"aligned parameters of {a.action}: "
                               + ", ".join(f"{l}→{r}" for l, r in a.metric_param_mapping)))
    for n in result.notes:
        c.print(f"[yellow]note[/yellow]: {escape(n)}")
    for t in result.type_differences:
        c.print(f"[yellow]types[/yellow]: {escape(t)}")
    if not result.optimal:
        c.print(f"[red]the edit distance {s['edit_distance']} is the best found within the time limit, not proven "
                f"optimal (proven lower bound: {fmt(result.bound)})[/red]")
    if explain:
        renamed = [(l, r) for l, r in result.predicate_mapping if l.replace("-", "_") != r.replace("-", "_")]
        if renamed:
            c.print("[bold]predicate renaming[/bold]: " + escape(", ".join(f"{l}→{r}" for l, r in renamed)))
        for a in result.actions:
            if a.best_match is None:
                continue
            pm = ", ".join(f"{l}→{r}" for l, r in a.param_mapping)
            same = a.best_match.replace("-", "_") == a.action.replace("-", "_")
            c.print(f"[bold]{escape(a.action)}[/bold]"
                    + escape(("" if same else f" ← learned {a.best_match}") + (f": {pm}" if pm else "")))
        for a in result.actions:
            for cc in a.conditions:
                k = cc.counts
                c.print(escape(f"{a.action}: conditional effects under {cc.condition} ({cc.side}): "
                        f"TP {k.tp}, FP {k.fp}, FN {k.fn}, P {fmt(k.precision)}, R {fmt(k.recall)}"))
        c.print(f"[bold]edits[/bold] ({len(result.edits)}):")
        for e in result.edits:
            c.print(f"  {escape(e)}")
    c.print(f"[dim]{escape(LEGEND)}[/dim]")


@app.command()
def compare(
    learned: Path = typer.Argument(..., help="learned PDDL domain"),
    reference: Path = typer.Argument(..., help="reference PDDL domain"),
    rename: bool = typer.Option(False, "--rename", help="choose the renaming of predicates, actions and parameters "
                                "with the fewest edits even where names agree, and compute all metrics under it"),
    align: bool = typer.Option(False, "--align", help="match parameters by the type-consistent bijection with the "
                               "most agreement instead of by position"),
    format: str = typer.Option("table", "--format", "-f", help="table, json, csv, markdown or latex"),
    explain: bool = typer.Option(False, "--explain", help="print the mappings and the list of edits"),
    time_limit: float = typer.Option(60.0, "--time-limit", help="seconds for proving the edit distance optimal"),
    caption: Optional[str] = typer.Option(None, "--caption", help="LaTeX caption"),
    out: Optional[Path] = typer.Option(None, "-o", "--output", help="write to this file (atomically)"),
):
    """Compare a learned domain with a reference: precision/recall per action and category, literal
    similarity, action equivalence, and the edit distance up to renaming (proven optimal by clingo)."""
    def run():
        if format not in FORMATS:
            raise InputError(f"unknown --format '{format}' (choose from {', '.join(FORMATS)})")
        if time_limit <= 0:
            raise InputError("--time-limit must be positive")
        if out is not None and out.exists() and out.resolve() in {learned.resolve(), reference.resolve()}:
            raise InputError("refusing to overwrite an input file", out)
        result = run_compare(learned, reference, align=align, rename=rename, time_limit=time_limit)
        warn(result.warnings)
        text = _text(result, format, explain, caption)
        if text is None:
            if out is not None:
                raise InputError("-o needs --format json, csv, markdown or latex")
            _print_table(result, explain)
        elif out is not None:
            write_atomic(out, text)
        else:
            typer.echo(text, nl=False)
    guarded(run)
