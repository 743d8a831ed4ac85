"""`amlasp questions`: the balance report of a generation, and the grades of answers."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from .escape import markup
from .formats import Format, rich_table, to_csv, to_json, to_latex, to_markdown

if TYPE_CHECKING:
    from ..questions.generate import Generation
    from ..questions.grade import Grades

BALANCE = ["task", "form", "items", "yes", "no", "labels", "answer_size", "mean_depth"]
SKIPS = ["task", "reason", "states"]


def balance_json(g: Generation) -> dict:
    return {"items": len(g.items), "per_task_and_form": g.wanted, "balance": g.balance(), "skipped": g.skips(),
            "shortfall": [{"task": str(t), "form": str(f), "missing": n} for (t, f), n in g.shortfall().items()],
            "gave_up": {str(t): why for t, why in g.gave_up.items()},
            "near_goal": {str(t): why for t, why in g.near_goal.items()}}


def balance_terminal(g: Generation, output: str) -> list[Any]:
    rows = [[r[c] for c in BALANCE] for r in g.balance()]
    out: list[Any] = [rich_table(f"{len(g.items)} item(s) written to {output}", BALANCE, rows,
                                 caption="labels: correct choice A/B/C/D; answer_size: min/median/max of gen "
                                         "answers (list length or number)")]
    if g.skipped:
        out.append(rich_table("States skipped (no proven question of a form, or undecided)", SKIPS,
                              [[r[c] for c in SKIPS] for r in g.skips()]))
    for (t, f), n in g.shortfall().items():
        out.append(f"[yellow]{markup(t)} {markup(f)}: {n} item(s) fewer than asked (the states gave no more proven "
                   "questions)[/yellow]")
    for t, why in g.near_goal.items():
        out.append(f"[yellow]{markup(t)}: {markup(why)}[/yellow]")
    for t, why in g.gave_up.items():
        out.append(f"[yellow]{markup(t)}: stopped: {markup(why)}[/yellow]")
    return out


GRADE = ["task", "form", "items", "answered", "correct", "ambiguous", "accuracy", "coverage", "precision", "recall"]
WRONG = ["id", "task", "form", "answer", "reason"]
GOLD = ["id", "task", "form", "disagreement"]
CHECKED = ["task", "form", "checked", "agree", "disagree", "undecided"]
UNDECIDED = ["id", "task", "form", "why"]
UNREADABLE = ["id", "task", "form", "problem"]
RECORD_ERRORS = ["input", "status", "error", "error_class"]


def grade_rows(g: Grades) -> list[list]:
    return [[r[c] for c in GRADE] for r in g.table()]


def wrong_path(output: Path) -> Path:
    """Where `-o x.csv` writes the wrong answers: `x.wrong.csv` (a CSV holds one table)."""
    return output.with_name(f"{output.stem}.wrong{output.suffix}")


def wrong_csv(g: Grades) -> str:
    """Every wrong answer with its reason, then every gold disagreement (as rows of id, task, form, reason)."""
    rows = [[w[c] for c in WRONG] for w in g.wrong_rows()]
    rows += [[d["id"], d["task"], d["form"], "", "gold: " + d["disagreement"]] for d in g.gold_rows()]
    rows += [[d["id"], d["task"], d["form"], "", "gold undecided: " + d["why"]] for d in g.undecided]
    rows += [[d["id"], d["task"], d["form"], "", "cannot read the item: " + d["problem"]] for d in g.unreadable]
    rows += [["", "", "", "", "cannot read the record: " + e["error"]] for e in g.error_rows()]
    return to_csv(WRONG, rows)


def grades_text(g: Grades, format: Format) -> str:
    """The grades in a text format: the accuracy table; json and markdown also every wrong answer and gold
    disagreement (csv: see `wrong_csv`; latex: the accuracy table, for a paper)."""
    rows = grade_rows(g)
    wrong = [[w[c] for c in WRONG] for w in g.wrong_rows()]
    gold = [[d[c] for c in GOLD] for d in g.gold_rows()]
    if format == Format.JSON:
        return to_json(g.to_dict()) + "\n"
    if format == Format.CSV:
        return to_csv(GRADE, rows)
    if format == Format.MARKDOWN:
        out = to_markdown(GRADE, rows)
        if wrong:
            out += "\n" + to_markdown(WRONG, wrong)
        if g.checked:
            out += "\n" + to_markdown(CHECKED, [[r[c] for c in CHECKED] for r in g.gold_summary()])
        if gold:
            out += "\n" + to_markdown(GOLD, gold)
        if g.undecided:
            out += "\n" + to_markdown(UNDECIDED, [[d[c] for c in UNDECIDED] for d in g.undecided])
        if g.unreadable:
            out += "\n" + to_markdown(UNREADABLE, [[d[c] for c in UNREADABLE] for d in g.unreadable])
        if g.errors:
            out += "\n" + to_markdown(RECORD_ERRORS, [[e[c] for c in RECORD_ERRORS] for e in g.error_rows()])
        return out
    if format == Format.LATEX:
        return to_latex(GRADE, rows, caption="Accuracy per task and form")
    raise ValueError(f"not a text format: {format}")


def grades_terminal(g: Grades, wrong_limit: int = 50) -> list[Any]:
    out: list[Any] = [] if not g.results else [  # no answers given (a gold check alone): no accuracy table
        rich_table("Accuracy per task and form", GRADE, grade_rows(g),
                   caption="accuracy: correct / answered; coverage: answered / items; precision/recall: mean over "
                           "set answers (the actions of app, the effects of prog and verify, the facts of a land "
                           "answer naming several)")]
    wrong = g.wrong_rows()
    if wrong:
        shown = wrong[:wrong_limit]
        out.append(rich_table(f"Wrong answers ({len(wrong)}" + (f", first {wrong_limit})" if len(wrong) > wrong_limit
                                                                 else ")"),
                              WRONG, [[w[c] for c in WRONG] for w in shown], whole=["id"]))
    if g.checked:
        out.append(rich_table("Gold answers checked (gen items re-derived)", CHECKED,
                              [[r[c] for c in CHECKED] for r in g.gold_summary()]))
    gold = g.gold_rows()
    if gold:
        out.append(rich_table(f"Gold answers the encodings disagree with ({len(gold)})", GOLD,
                              [[d[c] for c in GOLD] for d in gold], whole=["id"]))
    if g.undecided:
        out.append(rich_table(f"Gold checks left undecided by a limit ({len(g.undecided)})", UNDECIDED,
                              [[d[c] for c in UNDECIDED] for d in g.undecided], whole=["id"]))
    if g.unreadable:
        out.append(rich_table(f"Items that cannot be read, not graded ({len(g.unreadable)})", UNREADABLE,
                              [[d[c] for c in UNREADABLE] for d in g.unreadable], whole=["id"]))
    if g.errors:
        out.append(rich_table(f"Records that cannot be read ({len(g.errors)})", RECORD_ERRORS,
                              [[e[c] for c in RECORD_ERRORS] for e in g.error_rows()]))
    return out
