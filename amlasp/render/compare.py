"""`compare`'s result (`metrics.compare.CompareResult`) as tables, summaries and texts."""

from __future__ import annotations

from typing import Optional

from rich.console import RenderableType

from ..metrics.aggregates import SUMMARY_COLUMNS
from ..metrics.compare import LEGEND, CompareResult
from .broken import broken_lines
from .escape import markup as escape
from .exports import Sheet, sheet_csv, sheet_latex, sheet_markdown
from .formats import Format, fmt, rich_table, to_json
from .tables import FitTable, Layout

#: How people see the columns of `CompareResult.to_frame()` (Markdown, LaTeX); CSV keeps the names.
LABELS = {"pre_pos_precision": "pre+ P", "pre_pos_recall": "pre+ R", "pre_neg_precision": "pre- P",
          "pre_neg_recall": "pre- R", "eff_pos_precision": "eff+ P", "eff_pos_recall": "eff+ R",
          "eff_neg_precision": "eff- P", "eff_neg_recall": "eff- R", "similarity": "sim", "equivalent": "equiv",
          "param_distance": "d par", "pre_distance": "d pre", "eff_distance": "d eff", "pre_num_precision": "npre P",
          "pre_num_recall": "npre R", "eff_num_precision": "neff P", "eff_num_recall": "neff R"}
#: The summary's columns and figures for people: one vocabulary with eval's.
SUMMARY_LABELS = {"mean_over_actions": "mean over actions"}
METRICS = {"pre_precision": "precondition precision", "pre_recall": "precondition recall",
           "eff_precision": "effect precision", "eff_recall": "effect recall", "f1": "F1",
           "action_accuracy": "action accuracy", "edit_distance": "edit distance",
           "predicate_f1": "predicate F1 (T2W)", "parameter_f1": "parameter F1 (T2W)",
           "precondition_f1": "precondition F1 (T2W)", "effect_f1": "effect F1 (T2W)",
           "broken_actions": "broken actions"}


def sheet(result: CompareResult, people: bool = False) -> Sheet:
    """One row per reference action (`to_frame()`'s records); for people (Markdown, LaTeX) without
    the `learned` column when every learned counterpart has the reference action's name."""
    cols = list(result.frame_columns)
    if people and all(a.learned == a.action for a in result.actions):
        cols.remove("learned")
    return Sheet(cols, result.records(), LABELS)


def summary_sheet(result: CompareResult) -> Sheet:
    return Sheet(SUMMARY_COLUMNS, result.summary_records(), SUMMARY_LABELS, METRICS)


def _distance_note(result: CompareResult) -> str:
    if result.optimal:
        return f"edit distance {result.edit_distance} (proven optimal)"
    return (f"edit distance {result.edit_distance}: the best found within the time limit, NOT proven optimal "
            f"(proven lower bound: {fmt(result.bound)})")


def text(result: CompareResult, format: Format, explain: bool, caption: Optional[str], summary: bool = False) -> str:
    """The result in a text format (json, csv, markdown, latex); with `summary` only the summary."""
    if format == Format.JSON:
        return to_json(result.to_dict()["summary"] if summary else result.to_dict()) + "\n"
    if format == Format.CSV:
        return sheet_csv(summary_sheet(result) if summary else sheet(result))
    if summary:
        return (sheet_markdown(summary_sheet(result)) if format == Format.MARKDOWN
                else sheet_latex(summary_sheet(result), caption or _summary_caption(result)))
    if format == Format.MARKDOWN:
        extra = f"\n{_distance_note(result)[0].upper()}{_distance_note(result)[1:]}.\n\n{LEGEND}\n"
        if explain:
            extra += "\n" + "".join(f"- {e}\n" for e in result.edits)
        return sheet_markdown(sheet(result, people=True)) + "\n" + sheet_markdown(summary_sheet(result)) + extra
    if format == Format.LATEX:
        s = result.summary()
        cap = caption or (f"{result.learned} against {result.reference}: edit distance {s['edit_distance']}"
                          f"{'' if result.optimal else ' (not proven optimal)'}, action accuracy "
                          f"{fmt(s['action_accuracy'])}. P is 1 when TP+FP=0 and R is 1 when TP+FN=0.")
        return sheet_latex(sheet(result, people=True), cap) + "\n" + sheet_latex(summary_sheet(result),
                                                                                  _summary_caption(result))
    raise ValueError(f"not a text format: {format}")


def _summary_caption(result: CompareResult) -> str:
    return (f"Summary of {result.learned} against {result.reference}: each figure as a mean over the reference's "
            f"actions and cumulative (counts summed first).")


def terminal(result: CompareResult, explain: bool, summary: bool = False) -> list[RenderableType]:
    """For people: P/R per action and category, the summary table, notes, and with `explain` the
    mappings and edits; strings are console markup. `summary`: the summary table only."""
    s = summary_sheet(result)
    table = rich_table("summary", [s.label(c) for c in s.columns], s.shown())
    if summary:
        return [table, escape(_distance_note(result))]
    out: list[RenderableType] = [_table(result), table]
    out += [escape(line) for line in _summary_lines(result)]
    if result.mode == "align":
        for a in result.actions:
            if a.metric_param_mapping:
                out.append(escape(f"aligned parameters of {a.action}: "
                                  + ", ".join(f"{l}→{r}" for l, r in a.metric_param_mapping)))
    out += [f"[yellow]note[/yellow]: {escape(n)}" for n in result.notes]
    out += [f"[yellow]types[/yellow]: {escape(t)}" for t in result.type_differences]
    if explain:
        out += _explanation(result)
    out.append(f"[dim]{escape(LEGEND)}[/dim]")
    return out


_WIDE = ("action", "pre+ P/R", "pre- P/R", "eff+ P/R", "eff- P/R", "sim", "equiv", "d par/pre/eff", "edits")
_CAPTION = ("P/R: precision/recall per category; sim: literal similarity; equiv: equal up to renaming; "
            "d: parameter/precondition/effect distance under the best renaming")


def _table(result: CompareResult) -> FitTable:
    """P/R side by side ("1.00/0.83") where the terminal is wide enough, else P over R."""
    wide, narrow = [], []
    complex_rows = numeric_rows = False
    for a in result.actions:
        name = a.action if a.learned is not None else f"{a.action} ({'broken' if a.broken else 'missing'})"
        if a.best_match is not None and a.best_match.replace("-", "_") != a.action.replace("-", "_"):
            name += f" ← {a.best_match}"
        k = a.counts
        cats = [k["pre_pos"], k["pre_neg"], k["eff_pos"], k["eff_neg"]]
        rest = [a.similarity, a.equivalent, f"{a.param_distance}/{a.pre_distance}/{a.eff_distance}", len(a.edits)]
        wide.append([name, *map(_pr, cats), *rest])
        narrow.append([name, *map(_p_over_r, cats), *rest])
        if any(k[x].tp + k[x].fp + k[x].fn for x in ("ceff_pos", "ceff_neg", "pre_other")):
            complex_rows = True
            extra = [k["pre_other"], None, k["ceff_pos"], k["ceff_neg"]]
            wide.append(["  ↳ complex", *(_pr(c) if c else "" for c in extra), "", "", "", ""])
            narrow.append(["  ↳ complex", *(_p_over_r(c) if c else "" for c in extra), "", "", "", ""])
        if any(k[x].tp + k[x].fp + k[x].fn for x in ("pre_num", "eff_num", "ceff_num")):
            numeric_rows = True
            extra = [k["pre_num"], None, k["eff_num"], k["ceff_num"]]
            wide.append(["  ↳ numeric", *(_pr(c) if c else "" for c in extra), "", "", "", ""])
            narrow.append(["  ↳ numeric", *(_p_over_r(c) if c else "" for c in extra), "", "", "", ""])
    caption = _CAPTION + ("; ↳ complex: non-literal preconditions (pre+ column), conditional effects (eff±)"
                          if complex_rows else "")
    caption += ("; ↳ numeric: numeric conditions (pre+ column), effects (eff+), conditional effects (eff-)"
                if numeric_rows else "")
    return FitTable(f"learned {result.learned} vs reference {result.reference}",
                    [Layout(_WIDE, wide, caption=caption),
                     Layout(_WIDE[:7] + ("d p/p/e", "edits"), narrow, lines=True, caption=caption.replace(
                         "P/R: precision/recall per category",
                         "P/R: precision (above) and recall (below) per category"))])


def _pr(c) -> str:
    return f"{c.precision:.2f}/{c.recall:.2f}"


def _p_over_r(c) -> str:
    return f"{c.precision:.2f}\n{c.recall:.2f}"


def _summary_lines(result: CompareResult) -> list[str]:
    lines = [_distance_note(result)]
    if result.extra_actions:
        lines.append("learned actions absent from the reference (false positives in the cumulative figures): "
                     + ", ".join(e.action for e in result.extra_actions))
    missing = [a.action for a in result.actions if a.learned is None and a.broken is None]
    lines += broken_lines(result.broken, "scored as missing: all literals false negatives")
    if missing:
        lines.append("reference actions missing from the learned model (all literals false negatives): "
                     + ", ".join(missing))
    matched = dict(position="by position", align="by the best type-consistent bijection",
                   best="by the best renaming")[result.mode]
    lines.append(f"parameters matched {matched}"
                 f"; actions and predicates matched {'by the best renaming' if result.rename else 'by name'}")
    return lines


def _explanation(result: CompareResult) -> list[str]:
    """--explain: the renaming of predicates and parameters, conditional effects, every edit."""
    out = []
    renamed = [(l, r) for l, r in result.predicate_mapping if l.replace("-", "_") != r.replace("-", "_")]
    if renamed:
        out.append("[bold]predicate renaming[/bold]: " + escape(", ".join(f"{l}→{r}" for l, r in renamed)))
    renamed = [(l, r) for l, r in result.function_mapping if l.replace("-", "_") != r.replace("-", "_")]
    if renamed:
        out.append("[bold]function renaming[/bold]: " + escape(", ".join(f"{l}→{r}" for l, r in renamed)))
    for a in result.actions:
        if a.best_match is None:
            continue
        pm = ", ".join(f"{l}→{r}" for l, r in a.param_mapping)
        same = a.best_match.replace("-", "_") == a.action.replace("-", "_")
        out.append(f"[bold]{escape(a.action)}[/bold]"
                   + escape(("" if same else f" ← learned {a.best_match}") + (f": {pm}" if pm else "")))
    for a in result.actions:
        for cc in a.conditions:
            k = cc.counts
            out.append(escape(f"{a.action}: conditional effects under {cc.condition} ({cc.side}): "
                              f"TP {k.tp}, FP {k.fp}, FN {k.fn}, P {fmt(k.precision)}, R {fmt(k.recall)}"))
    out.append(f"[bold]edits[/bold] ({len(result.edits)}):")
    out += [f"  {escape(e)}" for e in result.edits]
    return out
