"""Answers to one question about one model (`reasoning/`): applicable, step, validate, plan, reach,
justify, landmarks; for each, its JSON object and its lines for a terminal (console markup)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional, Sequence

from ..model import GoalCondition
from ..reasoning.validations import metrics
from .escape import Markup
from .escape import markup as m
from .formats import Format, rich_table, to_csv, to_latex, to_markdown

if TYPE_CHECKING:
    from rich.console import RenderableType

    from ..model import GroundAction, Literal
    from ..pddl.response import Extraction
    from ..reasoning.engine import Execution
    from ..reasoning.justify import JustifyResult
    from ..reasoning.landmarks import LandmarkResult
    from ..reasoning.planning import PlanResult, ReachResult


# ---------------------------------------------------------------- applicable, step, validate

def applicable_json(result: Sequence[Sequence[GroundAction]]) -> list[dict]:
    return [{"state": i, "applicable": [str(a) for a in acts]} for i, acts in enumerate(result)]


def applicable_lines(result: Sequence[Sequence[GroundAction]]) -> list[str]:
    out = []
    for i, acts in enumerate(result):
        out.append(f"[bold]state {i}[/bold]: {len(acts)} applicable action(s)")
        out += [f"  {m(a)}" for a in acts]
    return out


def execution_json(ex: Execution, states: bool = True, verdict: bool = False,
                   extracted: Extraction | None = None) -> dict:
    """Where the plan stopped (1-based step) and why; with `states`, every state reached; `verdict`
    (validate's report): its `status` and metrics (`validations.metrics`) after the keys it always had, as
    a batch's record has them; with `extracted` (`validate --from-text`), the plan as read out of the answer."""
    out: dict[str, Any] = {
        "valid": ex.valid,
        "executable": ex.executable,
        "failed_step": None if ex.failed_step is None else ex.failed_step + 1,
        "failed_action": None if ex.failed_step is None else str(ex.plan[ex.failed_step]),
        "unmet_preconditions": [str(u) for u in ex.unmet],
        "unmet_goals": [str(g) for g in ex.goal_unmet],
        "plan_length": len(ex.plan),
        "cost": ex.cost,
        "states": [sorted(str(a) for a in s) for s in ex.states],
    }
    if not states:
        out.pop("states")
    if ex.cost_undefined:
        out["cost_undefined"] = ex.cost_undefined
    if ex.goal_instances:  # only for a goal condition (`forall`) missed: other outputs keep their keys
        out["unmet_goal_instances"] = {str(g): [str(x) for x in xs] for g, xs in ex.goal_instances.items()}
    if ex.read_error is not None:  # a line could not be read: where, and why (a batch's record says the same)
        out.update(failed_step=out["failed_step"] if ex.failed_step is not None else unreadable_step(ex),
                   plan_length=None, error=str(ex.read_error))
    if verdict or ex.read_error is not None:
        out["status"] = ex.status
    if verdict:
        out.update(metrics(ex))  # issue 32: what LLM-planning papers report, after the keys it always had
    if ex.repairs:
        out["repairs"] = [r.to_dict() for r in ex.repairs]
    if extracted is not None:
        out["extracted"] = extracted.to_dict()
    return out


def unreadable_step(ex: Execution) -> int | None:
    """The step whose line could not be read (None: a file not read at all, whose error has no line)."""
    return None if ex.read_error is None or ex.read_error.line is None else len(ex.plan) + 1


def extracted_lines(x: Extraction | None) -> list[str]:
    """`validate --from-text`: where the plan was read in the answer, and its steps on one line."""
    if x is None or x.lines is None:
        return []
    how = ", ".join(f"{n} {k}" for k in ("pddl", "english") if (n := sum(s.how == k for s in x.steps)))
    of = f", the last of {x.blocks} plans in it" if x.blocks > 1 else ""
    return [f"read from the answer's lines {x.lines[0]}-{x.lines[1]} ({how}{m(of)}): "
            + m(" ".join(s.action for s in x.steps))]


def _state_text(state) -> str:
    return " ".join(sorted(str(a) for a in state))


def step_lines(ex: Execution) -> list[str]:
    """Each state reached, and the action that failed."""
    out = [f"[bold]state 0[/bold]: {m(_state_text(ex.states[0]))}"]
    for i, st in enumerate(ex.states[1:], 1):
        out.append(f"[bold]{m(ex.plan[i - 1])}[/bold] → [bold]state {i}[/bold]: {m(_state_text(st))}")
    if ex.failed_step is not None:
        out.append(f"[red]step {ex.failed_step + 1}: {m(ex.plan[ex.failed_step])} is not applicable[/red]; "
                   f"unmet: {m(', '.join(map(str, ex.unmet)))}")
    return out


def validate_lines(ex: Execution) -> list[str]:
    return _verdict_lines(ex) + _repair_lines(ex)


def _verdict_lines(ex: Execution) -> list[str]:
    steps = ex.plan
    if ex.valid:
        return [f"[green]valid[/green]: {len(steps)} step(s), goal reached, {_cost_text(ex)}"]
    if ex.failed_step is not None:
        return ([f"[red]invalid[/red]: step {ex.failed_step + 1}, {m(steps[ex.failed_step])}, is not applicable"]
                + [f"  unmet precondition: {m(u)}" for u in ex.unmet]
                + ([f"  (a later line could not be read: {m(ex.read_error)})"] if ex.read_error else []))
    if ex.read_error is not None:
        step = unreadable_step(ex)
        return [f"[red]unreadable[/red]: {f'step {step}: ' if step else ''}{m(ex.read_error)}"
                + (f" (the {len(steps)} step(s) before it are executable)" if steps else "")]
    return ([f"[red]invalid[/red]: all {len(steps)} step(s) executable, but the goal is not reached"]
            + [line for g in ex.goal_unmet for line in [f"  unmet goal: {m(g)}", *_instance_lines(ex, g)]])


def _repair_lines(ex: Execution) -> list[str]:
    """What lenient reading repaired, counted by kind."""
    if not ex.repairs:
        return []
    kinds: dict[str, int] = {}
    for r in ex.repairs:
        kinds[r.kind] = kinds.get(r.kind, 0) + 1
    return [f"  read leniently: {len(ex.repairs)} repair(s): " + ", ".join(f"{k} {n}" for k, n in kinds.items())]


#: The false instances of an unmet `forall` goal shown in text (all of them in JSON).
SHOWN_INSTANCES = 10


def _instance_lines(ex: Execution, g: Literal) -> list[str]:
    """Under an unmet `forall` goal condition, its instances that are false at the end (as VAL's advice)."""
    xs = ex.goal_instances.get(g) if isinstance(g, GoalCondition) else None  # only conditions have instances
    if not xs:
        return []
    more = f" and {len(xs) - SHOWN_INSTANCES} more" if len(xs) > SHOWN_INSTANCES else ""
    return [f"    false for: {m(', '.join(map(str, xs[:SHOWN_INSTANCES])))}{more}"]


def _cost_text(ex: Execution) -> str:
    if ex.cost_undefined:
        return f"cost undefined ({ex.cost_undefined} has no value)"
    return f"cost {ex.cost:g}" if ex.cost is not None else "cost unknown"


def verdict_json(record: dict) -> dict:
    """One plan of many (`validate` with several plans or `--batch`): its record (`Validations.records`),
    every column in every line, as CSV and the frame have them (docs/validate.md)."""
    return record


def _why(r: dict) -> str:
    if r["status"] == "error" or r["status"] == "unreadable":
        return r["error"] or ""
    if r["failed_step"] is not None:
        return "unmet: " + ", ".join(r["unmet_preconditions"])
    return "" if r["valid"] else "goal: " + ", ".join(r["unmet_goals"])


_VERDICT_STYLE = {"valid": "green", "invalid": "red", "unreadable": "red", "error": "red"}


def _goals(r: dict) -> str:
    """The share of the goal's conjuncts true where the executed prefix ends, as a percentage."""
    share = r.get("goal_share")
    return "" if share is None else f"{share:.0%}"


def verdicts_table(records: Sequence[dict], optimal: bool = False) -> list[RenderableType]:
    """Many plans: one row each (plan, verdict, cost, failing step and action, the share of the goal met where
    the executed prefix ends, why; with `optimal`, the optimal cost), the counts of each verdict in the title.
    The executable prefix is the step before the failing one, or the plan's length: a column in every other
    format, not here (80 columns)."""
    counts = {k: sum(r["status"] == k for r in records) for k in _VERDICT_STYLE}
    title = f"{len(records)} plan(s): {counts['valid']} valid, {counts['invalid']} invalid" + "".join(
        f", {counts[k]} {k}" for k in ("unreadable", "error") if counts[k])
    columns = ["plan", "verdict", "cost"] + (["optimal"] if optimal else []) + ["step", "action", "goals", "why"]
    rows = []
    for r in records:
        style = _VERDICT_STYLE.get(r["status"], "red")
        opt = [r["optimal_cost"] if r["optimal_cost"] is not None else r["optimal_status"]] if optimal else []
        rows.append([str(r["name"]), Markup(f"[{style}]{r['status']}[/{style}]"),
                     "" if r["cost"] is None else f"{r['cost']:g}", *opt,
                     "" if r["failed_step"] is None else str(r["failed_step"]), r["failed_action"] or "",
                     _goals(r), _why(r)])
    return [rich_table(title, columns, rows)]


def summary_table(rows: Sequence[dict], key: str, columns: Sequence[str]) -> list[RenderableType]:
    """`validate --group-by KEY`: one row per group."""
    return [rich_table(f"by {key}: {len(rows)} group(s)", [key if c == "group" else c for c in columns],
                       [[_cell(r[c]) for c in columns] for r in rows])]


def _cell(value) -> object:
    """A cell of a text table: numbers and text as they are, lists and objects as their compact JSON."""
    if isinstance(value, (list, dict)) or value is None or isinstance(value, bool):
        import json
        return "" if value is None else json.dumps(value, separators=(",", ":"))
    return value


def verdicts_text(form: Format, columns: Sequence[str], records: Sequence[dict]) -> str:
    """The verdicts (or a summary's rows) as CSV, Markdown or LaTeX: one row each, every column; a list or
    an object as its compact JSON, escaped for the format (render.formats)."""
    rows = [[_cell(r.get(c)) for c in columns] for r in records]
    if form == Format.CSV:
        return to_csv(columns, rows)
    if form == Format.MARKDOWN:
        return to_markdown(columns, rows)
    return to_latex(columns, rows)


# ---------------------------------------------------------------- plan, reach

def plan_json(r: PlanResult) -> dict:
    out: dict = {"status": r.status, "length": r.length, "plans": [[str(a) for a in x] for x in r.plans],
                 "reason": r.reason or None, "prover": r.prover}
    if r.optimal is not None:  # action costs: each plan's cost, and what proved them the cheapest
        out.update(costs=r.costs, cost=r.costs[0] if r.costs else None, cost_optimal=r.optimal,
                   optimality=r.method)
    return out


#: Who proved an answer, in words (`PlanResult.prover`).
PROVER_TEXT = {"asp": "clingo", "fd": "Fast Downward's A*", "asp + fd": "Fast Downward's A*, enumerated by clingo"}


def plan_lines(r: PlanResult, asked: int = 1, time_limit: float | None = None) -> list[str]:
    """`asked`: how many plans were asked for (`--top K`; 0: `--all`), so that finding fewer is said;
    without a time limit fewer means the enumeration ended: there are no others."""
    if r.status != "plan":
        return [f"[red]{'unsolvable' if r.status == 'unsolvable' else 'no plan'}[/red]: {m(r.reason)}"]
    if r.optimal is not None:
        return cheapest_lines(r, asked)
    n, k = len(r.plans), r.length
    plans = "plan" if n == 1 else "plans"
    if asked == 0 and time_limit is not None:
        head = f"{n} shortest {plans} of length {k} (all found within the time limit)"
    elif asked == 0:
        head = f"all {n} shortest {plans} of length {k}" if n > 1 else f"the only shortest plan, of length {k}"
    elif asked == 1:
        head = f"a shortest plan, of length {k}"
    elif n < asked:
        none = f"there is no other of length {k}" if time_limit is None else "no other found within the time limit"
        head = f"{n} shortest {plans} of length {k} ({asked} asked; {none})"
    else:
        head = f"{n} shortest {plans} of length {k} (the first {n} found; there may be more)"
    by = f"; proven shortest by {PROVER_TEXT[r.prover]}" if r.prover else ""
    out = [f"[green]{head}[/green] (validated{by})"]
    for i, x in enumerate(r.plans, 1):
        out.append(f"[bold]plan {i}[/bold]")
        out += [f"  {m(a)}" for a in x]
    return out


def cheapest_lines(r: PlanResult, asked: int) -> list[str]:
    """Plans under action costs: each with its cost, and how far they are proven the cheapest."""
    n = len(r.plans)
    what = "the cheapest plan" if asked == 1 else f"all {n} cheapest plans" if asked == 0 else \
        f"the {n} cheapest plans" + (f" ({asked} asked; there are no others)" if n < asked else "")
    proof = f"proven optimal by {r.method}" if r.optimal else r.reason
    out = [f"[green]{what}[/green], cost {r.costs[0]:g} ({m(proof)}; validated)"]
    for i, (x, c) in enumerate(zip(r.plans, r.costs), 1):
        out.append(f"[bold]plan {i}[/bold]: cost {c:g}, {len(x)} step(s)")
        out += [f"  {m(str(a))}" for a in x]
    return out


def reach_json(r: ReachResult) -> dict:
    return {"answer": r.answer, "witness": None if r.witness is None else [str(a) for a in r.witness],
            "reason": r.reason, "prover": r.prover}


def reach_lines(r: ReachResult) -> list[str]:
    colour = {"yes": "green", "no": "red", "unknown": "yellow"}[r.answer]
    rest = r.reason.removeprefix(r.answer) if r.reason.startswith(r.answer) else f": {r.reason}"
    by = f" (by {PROVER_TEXT[r.prover]})" if r.prover else ""
    return [f"[{colour}]{r.answer}[/{colour}]{m(rest)}{by}"] + [f"  {m(a)}" for a in r.witness or []]


# ---------------------------------------------------------------- justify, landmarks

def justify_json(r: JustifyResult) -> dict:
    steps = r.plan
    return {"valid": r.valid, "well_justified": r.well_justified,
            "removable_actions": [{"step": i + 1, "action": str(steps[i])} for i in r.removable_single],
            "removable_pairs": [{"step": i + 1, "actions": [str(steps[i]), str(steps[i + 1])]}
                                for i in r.removable_pairs]}


def justify_lines(r: JustifyResult) -> list[str]:
    steps = r.plan
    if not r.valid:
        return ["[red]the plan is not valid[/red] (see `amlasp validate`)"]
    if r.well_justified:
        return [f"[green]well-justified[/green]: no single action or consecutive pair of the {len(steps)} "
                "can be removed"]
    return ([m(f"removable: step {i + 1} {steps[i]}") for i in r.removable_single]
            + [m(f"removable pair: steps {i + 1}-{i + 2} {steps[i]} {steps[i + 1]}") for i in r.removable_pairs])


def landmark_rows(r: LandmarkResult) -> list[dict]:
    return [{"fact": str(l.fact), "kind": l.kind, "proof": l.proof} for l in r.landmarks]


def landmarks_json(r: LandmarkResult) -> dict:
    return {"landmarks": landmark_rows(r), "candidates": r.candidates, "unsolvable": r.unsolvable or None}


def landmarks_terminal(r: LandmarkResult, check: Optional[str]) -> list[RenderableType]:
    """All landmarks as a table, or the verdict on the one fact of `--check`."""
    rows = landmark_rows(r)
    if r.unsolvable:
        return [f"[red]{m(r.unsolvable)}[/red]"]
    if check is not None:
        if rows:
            return [f"[green]landmark[/green]: {m(rows[0]['fact'])} — {m(rows[0]['proof'])}"]
        return ["[yellow]not proven a landmark[/yellow]: the goal stays reachable in the delete relaxation "
                "without it (the test is sound, not complete)"]
    shared = _shared_proofs([x["proof"] for x in rows])
    caption = "\n".join(f"proof {n}: {p}" for p, n in shared.items()) or None
    return [rich_table(f"fact landmarks ({len(rows)})", ["fact", "kind", "proof"],
                       [[x["fact"], x["kind"], f"proof {shared[x['proof']]} (below)" if x["proof"] in shared
                         else x["proof"]] for x in rows], caption=caption)]


#: A proof longer than this that several landmarks share is said once, under the table, and referred to.
_LONG_PROOF = 40


def _shared_proofs(proofs: list[str]) -> dict[str, int]:
    """Long proofs given for more than one fact → their number, in order of first use."""
    seen = [p for p in dict.fromkeys(proofs) if len(p) > _LONG_PROOF and proofs.count(p) > 1]
    return {p: n for n, p in enumerate(seen, 1)}
