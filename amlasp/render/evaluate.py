"""`eval`'s result (`metrics.evaluate.Evaluation`) as tables and texts.

Every format shows the same two tables: one row per action (`Evaluation.to_frame()`) and the
summary (`summary_frame()`: each figure as a mean over actions and cumulative)."""

from __future__ import annotations

from rich.console import RenderableType

from ..metrics.aggregates import SUMMARY_COLUMNS
from ..metrics.evaluate import Evaluation
from ..metrics.evaluate.result import ERROR_COLUMNS, FRAME_COLUMNS
from .broken import broken_lines
from .escape import markup
from .exports import Sheet, sheets_text
from .formats import Format, rich_table
from .tables import FitTable, Layout

#: How people see the columns of `Evaluation.to_frame()` (Markdown, LaTeX, terminal); CSV keeps the names.
LABELS = {"in_learned": "in learned", "learned_only": "learned only",
          **{f"{fam}_{k}": f"{fam} {k.upper() if len(k) == 2 else k[0].upper()}"
             for fam in ("app", "eff") for k in ("tp", "fp", "tn", "fn", "precision", "recall")}}
SUMMARY_LABELS = {"mean_over_actions": "mean over actions"}
METRICS = {"app_precision": "applicability precision", "app_recall": "applicability recall",
           "eff_precision": "effect precision", "eff_recall": "effect recall",
           "app_precision_with_learned_only": "applicability precision incl. learned-only actions"}

_MISTAKE = {"app-fp": "applicable only in the learned model", "app-fn": "applicable only in the reference",
            "eff-fp": "predicted change, none in the reference", "eff-fn": "change the learned model misses"}


def sheet(ev: Evaluation) -> Sheet:
    return Sheet(ev.columns, ev.records(), LABELS)


def summary_sheet(ev: Evaluation) -> Sheet:
    return Sheet(SUMMARY_COLUMNS, ev.summary_records(), SUMMARY_LABELS, METRICS)


def caption(ev: Evaluation) -> str:
    return (f"{_count(ev.states, 'state')} of {_count(ev.problems, 'problem')}; P/R n/a: never applicable (app) or "
            f"never jointly applicable (eff)")


def text(ev: Evaluation, format: Format, summary: bool = False) -> str:
    """The result in a text format (json, csv, markdown, latex); with `summary` only the summary."""
    return sheets_text(format, ev.summary() if summary else ev.to_dict(), sheet(ev), summary_sheet(ev),
                       (caption(ev), f"Summary over {_count(ev.states, 'state')}: each figure as a mean over the "
                                     "actions where it is defined and cumulative (counts summed first)."), summary)


def table(ev: Evaluation, names: tuple[str, str] = ("learned", "reference")) -> FitTable:
    """One row per action (as the exports), the counts under their family (app, eff)."""
    s = sheet(ev)
    cols = [c for c in FRAME_COLUMNS if c not in ("arity", "in_learned", "learned_only")]
    rows = []
    for r in ev.records()[:len(ev.records()) - len(ev.unreadable)]:  # the actions (the erred files: `errors`)
        missing = " (broken)" if r.get("broken") else " (not learned)"
        name = r["action"] + ("" if r["in_learned"] else missing) + (" (learned only)" if r["learned_only"] else "")
        rows.append([name] + [r[c] for c in cols[1:]])
    return FitTable(f"Predictive power: learned {names[0]} against reference {names[1]}",
                    [Layout([s.label(c) for c in cols], rows)], caption(ev))


def terminal(ev: Evaluation, to_file: bool = False, summary: bool = False,
             names: tuple[str, str] = ("learned", "reference")) -> list[RenderableType]:
    """The tables, the learned-only predicates and the mispredictions (--explain); into a file the
    tables only (the lists are for reading at the terminal: --format json has them all)."""
    s = summary_sheet(ev)
    totals = rich_table(f"Summary over {_count(ev.states, 'state')}", [s.label(c) for c in s.columns], s.shown())
    if summary:
        return [totals]
    out: list[RenderableType] = [table(ev, names), totals, *errors(ev)]
    if to_file:
        return out
    out += [markup(line) for line in broken_lines(ev.broken, "never applicable: its applicable instances are "
                                                               "false negatives")]
    if ev.learned_only_predicates:
        out.append(markup("learned-only predicates (never true in a test state): "
                          + ", ".join(ev.learned_only_predicates)))
    if ev.mistakes:
        out.append(f"\n[bold]{len(ev.mistakes)} misprediction(s)[/bold]")
        for m in ev.mistakes:
            lit = f" {m.literal}" if m.literal else ""
            out.append(markup(f"  state {m.state} ({m.source}): {m.action}{lit}: {_MISTAKE[m.kind]}"))
    return out


def errors(ev: Evaluation) -> list[RenderableType]:
    """The state files that could not be read (a partial run): a table of their rows, or nothing."""
    if not ev.unreadable:
        return []
    cols = ERROR_COLUMNS
    return [rich_table(f"{_count(len(ev.unreadable), 'state file')} could not be read (not scored)",
                       [c.replace("_", " ") for c in cols], [[r[c] for c in cols] for r in ev.error_records()])]


def _count(n: int, noun: str) -> str:
    """`1 state`, `2 states` (a count with its noun in the right number)."""
    return f"{n:,} {noun}" + ("" if n == 1 else "s")
