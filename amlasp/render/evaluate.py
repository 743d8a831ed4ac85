"""`eval`'s result (`metrics.evaluate.Evaluation`) as tables and texts."""

from __future__ import annotations

from rich.console import RenderableType
from rich.table import Table

from ..metrics.evaluate import Evaluation
from .formats import Format, rich_table, to_csv, to_json, to_latex, to_markdown

COLUMNS = ["action", "app TP", "app FP", "app TN", "app FN", "app P", "app R",
           "eff TP", "eff FP", "eff TN", "eff FN", "eff P", "eff R"]

_MISTAKE = {"app-fp": "applicable only in the learned model", "app-fn": "applicable only in the reference",
            "eff-fp": "predicted change, none in the reference", "eff-fn": "change the learned model misses"}


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


def caption(ev: Evaluation) -> str:
    return (f"{ev.states} states of {ev.problems} problem(s); P/R n/a: never applicable (app) or never "
            f"jointly applicable (eff)")


def table(ev: Evaluation) -> Table:
    t = rich_table("Predictive power (learned vs reference)", COLUMNS, rows(ev), caption(ev))
    for col in t.columns[1:]:
        col.justify = "right"  # numbers, with blank cells in the summary rows
    return t


def text(ev: Evaluation, format: Format) -> str:
    """The result in a text format (json, csv, markdown, latex)."""
    if format == Format.JSON:
        return to_json(ev.to_dict()) + "\n"
    if format == Format.CSV:
        return to_csv(COLUMNS, rows(ev))
    if format == Format.MARKDOWN:
        return to_markdown(COLUMNS, rows(ev))
    if format == Format.LATEX:
        return to_latex(COLUMNS, rows(ev), caption(ev))
    raise ValueError(f"not a text format: {format}")


def terminal(ev: Evaluation, to_file: bool = False) -> list[RenderableType]:
    """The table, the learned-only predicates and the mispredictions (--explain); into a file the
    table only (the lists are for reading at the terminal: --format json has them all)."""
    out: list[RenderableType] = [table(ev)]
    if to_file:
        return out
    if ev.learned_only_predicates:
        out.append(f"learned-only predicates (never true in a test state): {', '.join(ev.learned_only_predicates)}")
    if ev.mistakes:
        out.append(f"\n[bold]{len(ev.mistakes)} misprediction(s)[/bold]")
        for m in ev.mistakes:
            lit = f" {m.literal}" if m.literal else ""
            out.append(f"  state {m.state} ({m.source}): {m.action}{lit}: {_MISTAKE[m.kind]}")
    return out
