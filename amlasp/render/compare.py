"""`compare`'s result (`metrics.compare.CompareResult`) as tables, summaries and texts."""

from __future__ import annotations

from typing import Optional

from rich.console import RenderableType
from rich.markup import escape
from rich.panel import Panel

from ..metrics.compare import LEGEND, CompareResult
from .formats import Format, fmt, rich_table, to_csv, to_json, to_latex, to_markdown

#: The machine formats' table: one row per reference action, then the macro average.
COLUMNS = ("action", "learned", "pre+ P", "pre+ R", "pre− P", "pre− R", "eff+ P", "eff+ R", "eff− P",
           "eff− R", "sim", "equiv", "d par", "d pre", "d eff", "edits")

#: The least width of a pipe for the terminal table (its caption and nine columns).
MIN_WIDTH = 132


def rows(result: CompareResult) -> list[list]:
    out = []
    for a in result.actions:
        c = a.counts
        out.append([a.action, a.learned or "—", c["pre_pos"].precision, c["pre_pos"].recall,
                    c["pre_neg"].precision, c["pre_neg"].recall, c["eff_pos"].precision, c["eff_pos"].recall,
                    c["eff_neg"].precision, c["eff_neg"].recall, a.similarity, a.equivalent,
                    a.param_distance, a.pre_distance, a.eff_distance, len(a.edits)])
    return out


def macro_row(result: CompareResult) -> list:
    """The table's last row: each numeric column averaged over the reference's actions."""
    table = rows(result)
    out: list = ["macro average", ""]
    for i in range(2, len(COLUMNS)):
        vals = [float(r[i]) for r in table]
        out.append(sum(vals) / len(vals) if vals else None)
    return out


def summary_rows(result: CompareResult) -> list[list]:
    """(label, macro or only value, cumulative or None)."""
    s = result.summary()
    return [["precision (macro / cumulative)", s["precision_macro"], s["precision_cumulative"]],
            ["recall (macro / cumulative)", s["recall_macro"], s["recall_cumulative"]],
            ["precondition P (macro / cumulative)", s["pre_precision_macro"], s["pre_precision_cumulative"]],
            ["precondition R (macro / cumulative)", s["pre_recall_macro"], s["pre_recall_cumulative"]],
            ["effect P (macro / cumulative)", s["eff_precision_macro"], s["eff_precision_cumulative"]],
            ["effect R (macro / cumulative)", s["eff_recall_macro"], s["eff_recall_cumulative"]],
            ["similarity (average)", s["similarity"], None],
            ["action accuracy (equivalent / reference actions)", s["action_accuracy"], None],
            ["edit distance" + (" (proven optimal)" if result.optimal else
                                f" (best found, NOT proven optimal; lower bound {result.bound})"),
             result.edit_distance, None]]


def text(result: CompareResult, format: Format, explain: bool, caption: Optional[str]) -> str:
    """The result in a text format (json, csv, markdown, latex)."""
    cols = list(COLUMNS)
    table = rows(result) + [macro_row(result)]
    s = result.summary()
    if format == Format.JSON:
        return to_json(result.to_dict()) + "\n"
    if format == Format.CSV:
        return to_csv(cols, table)
    if format == Format.MARKDOWN:
        extra = (f"\nEdit distance {s['edit_distance']} ({'proven optimal' if result.optimal else 'NOT proven optimal'}), "
                 f"action accuracy {fmt(s['action_accuracy'])}, precision {fmt(s['precision_macro'])} / "
                 f"{fmt(s['precision_cumulative'])}, recall {fmt(s['recall_macro'])} / {fmt(s['recall_cumulative'])} "
                 f"(macro / cumulative).\n\n{LEGEND}\n")
        if explain:
            extra += "\n" + "".join(f"- {e}\n" for e in result.edits)
        return to_markdown(cols, table) + extra
    if format == Format.LATEX:
        cap = caption or (f"{result.learned} against {result.reference}: edit distance {s['edit_distance']}"
                          f"{'' if result.optimal else ' (not proven optimal)'}, action accuracy "
                          f"{fmt(s['action_accuracy'])}. P is 1 when TP+FP=0 and R is 1 when TP+FN=0.")
        return to_latex(cols, table, caption=cap)
    raise ValueError(f"not a text format: {format}")


def terminal(result: CompareResult, explain: bool) -> list[RenderableType]:
    """For people: P/R per action and category, a summary panel, notes, and with `explain` the
    mappings and edits; strings are console markup."""
    out: list[RenderableType] = [_table(result), Panel(escape("\n".join(_summary_lines(result))), title="summary",
                                                       expand=False)]
    if result.mode == "align":
        for a in result.actions:
            if a.metric_param_mapping:
                out.append(escape(f"aligned parameters of {a.action}: "
                                  + ", ".join(f"{l}→{r}" for l, r in a.metric_param_mapping)))
    out += [f"[yellow]note[/yellow]: {escape(n)}" for n in result.notes]
    out += [f"[yellow]types[/yellow]: {escape(t)}" for t in result.type_differences]
    if not result.optimal:
        out.append(f"[red]the edit distance {result.edit_distance} is the best found within the time limit, not "
                   f"proven optimal (proven lower bound: {fmt(result.bound)})[/red]")
    if explain:
        out += _explanation(result)
    out.append(f"[dim]{escape(LEGEND)}[/dim]")
    return out


def _pr(c) -> str:
    return f"{c.precision:.2f}/{c.recall:.2f}"


def _table(result: CompareResult):
    cols = ("action", "pre+ P/R", "pre− P/R", "eff+ P/R", "eff− P/R", "sim", "equiv", "d par/pre/eff", "edits")
    table = []
    for a in result.actions:
        name = a.action if a.learned is not None else f"{a.action} (missing)"
        if a.best_match is not None and a.best_match.replace("-", "_") != a.action.replace("-", "_"):
            name += f" ← {a.best_match}"
        k = a.counts
        table.append([name, _pr(k["pre_pos"]), _pr(k["pre_neg"]), _pr(k["eff_pos"]), _pr(k["eff_neg"]), a.similarity,
                      a.equivalent, f"{a.param_distance}/{a.pre_distance}/{a.eff_distance}", len(a.edits)])
        if any(k[x].tp + k[x].fp + k[x].fn for x in ("ceff_pos", "ceff_neg", "pre_other")):
            table.append(["  ↳ complex", _pr(k["pre_other"]), "", _pr(k["ceff_pos"]), _pr(k["ceff_neg"]), "", "", "",
                          ""])
    return rich_table(escape(f"{result.learned} vs {result.reference}"), cols, table,
                      caption="P/R: precision/recall per category; sim: literal similarity; equiv: equal up to "
                              "renaming; d: parameter/precondition/effect distance under the best renaming"
                              + ("; ↳ complex: non-literal preconditions (pre+ column), conditional effects (eff±)"
                                 if any(r[0] == "  ↳ complex" for r in table) else ""))


def _summary_lines(result: CompareResult) -> list[str]:
    lines = [f"{label}: {fmt(a)}" + (f" / {fmt(b)}" if b is not None else "") for label, a, b in summary_rows(result)]
    if result.extra_actions:
        lines.append("learned actions absent from the reference (false positives in the cumulative figures): "
                     + ", ".join(e.action for e in result.extra_actions))
    missing = [a.action for a in result.actions if a.learned is None]
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
