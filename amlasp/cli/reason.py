"""Reasoning commands on one model: plan, reach, justify, landmarks; and diff between two models."""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from ..reasoning.diff import KIND_TEXT, diff as run_diff
from ..errors import InputError
from ..reasoning.justify import justify as run_justify
from ..reasoning.landmarks import landmarks as run_landmarks
from ..pddl.parse import load_domain, load_problem
from ..reasoning.planning import plan as run_plan, reach as run_reach
from ..render import console, rich_table, to_json
from ..pddl.plans import parse_action, read_plan
from ..pddl.states import parse_literal, parse_state
from . import app, guarded, warn
from .core import _check_format, load_task


@app.command()
def plan(
    domain: Path = typer.Argument(..., help="PDDL domain file"),
    problem: Path = typer.Argument(..., help="PDDL problem file"),
    max_steps: int = typer.Option(30, "--max-steps", "-n", help="longest plan searched"),
    all_plans: bool = typer.Option(False, "--all", help="all shortest plans"),
    top: int = typer.Option(1, "--top", "-k", help="the first K distinct shortest plans"),
    time_limit: Optional[float] = typer.Option(None, "--time-limit", "-t", help="seconds (default: none)"),
    format: str = typer.Option("table", "--format", "-f", help="table or json"),
):
    """Shortest sequential plan(s) by incremental ASP planning (clingo multi-shot). Exit 0 plan, 1 none."""
    def run():
        _check_format(format)
        d, p = load_task(domain, problem)
        r = run_plan(d, p, max_steps=max_steps, top=0 if all_plans else max(top, 1), time_limit=time_limit)
        if format == "json":
            print(to_json({"status": r.status, "length": r.length, "plans": [[str(a) for a in x] for x in r.plans],
                           "reason": r.reason or None}))
        else:
            c = console()
            if r.status == "plan":
                c.print(f"[green]{len(r.plans)} shortest plan(s) of length {r.length}[/green] (validated)")
                for i, x in enumerate(r.plans, 1):
                    c.print(f"[bold]plan {i}[/bold]")
                    for a in x:
                        c.print(f"  {a}")
            else:
                c.print(f"[red]{'unsolvable' if r.status == 'unsolvable' else 'no plan'}[/red]: {r.reason}")
        if r.status != "plan":
            raise typer.Exit(1)
    guarded(run)


@app.command()
def reach(
    domain: Path = typer.Argument(..., help="PDDL domain file"),
    problem: Path = typer.Argument(..., help="PDDL problem file (objects; its initial state unless --state)"),
    literals: Optional[List[str]] = typer.Argument(None, help='literals to reach, e.g. "(on b1 b2)" "(not (clear b1))"'),
    action: Optional[str] = typer.Option(None, "--action", "-a", help='action reachability: "(stack b1 b2)"'),
    state: Optional[str] = typer.Option(None, "--state", help="start state: a state file, or literals \"(on a b) ...\""),
    max_steps: int = typer.Option(30, "--max-steps", "-n", help="longest witness searched"),
    time_limit: Optional[float] = typer.Option(None, "--time-limit", "-t", help="seconds for the search"),
    format: str = typer.Option("table", "--format", "-f", help="table or json"),
):
    """Can a state with LITERALS (or where --action is applicable) be reached? yes (witness) / no (proof) / unknown."""
    def run():
        _check_format(format)
        d, p = load_task(domain, problem)
        if not literals and action is None:
            raise InputError("give literals to reach or --action")
        lits = [parse_literal(x, d, p) for x in literals or []]
        target = None if action is None else parse_action(action, d, p, "<--action>")
        start = None if state is None else parse_state(state, d, p)
        r = run_reach(d, p, lits, init=start, max_steps=max_steps, action=target, time_limit=time_limit)
        if format == "json":
            print(to_json({"answer": r.answer, "witness": None if r.witness is None else [str(a) for a in r.witness],
                           "reason": r.reason}))
        else:
            c = console()
            colour = {"yes": "green", "no": "red", "unknown": "yellow"}[r.answer]
            rest = r.reason.removeprefix(r.answer) if r.reason.startswith(r.answer) else f": {r.reason}"
            c.print(f"[{colour}]{r.answer}[/{colour}]{rest}")
            for a in r.witness or []:
                c.print(f"  {a}")
        raise typer.Exit({"yes": 0, "no": 1, "unknown": 3}[r.answer])
    guarded(run)


@app.command()
def justify(
    domain: Path = typer.Argument(..., help="PDDL domain file"),
    problem: Path = typer.Argument(..., help="PDDL problem file"),
    plan_file: Path = typer.Argument(..., metavar="PLAN", help="plan file"),
    format: str = typer.Option("table", "--format", "-f", help="table or json"),
):
    """Which actions, or consecutive pairs, can be removed from a valid plan? Exit 0 when well-justified."""
    def run():
        _check_format(format)
        d, p = load_task(domain, problem)
        steps = read_plan(plan_file, d, p)
        r = run_justify(d, p, steps)
        if format == "json":
            print(to_json({"valid": r.valid, "well_justified": r.well_justified,
                           "removable_actions": [{"step": i + 1, "action": str(steps[i])} for i in r.removable_single],
                           "removable_pairs": [{"step": i + 1, "actions": [str(steps[i]), str(steps[i + 1])]}
                                               for i in r.removable_pairs]}))
        else:
            c = console()
            if not r.valid:
                c.print("[red]the plan is not valid[/red] (see `amlasp validate`)")
            elif r.well_justified:
                c.print(f"[green]well-justified[/green]: no single action or consecutive pair of the {len(steps)} "
                        "can be removed")
            else:
                for i in r.removable_single:
                    c.print(f"removable: step {i + 1} {steps[i]}")
                for i in r.removable_pairs:
                    c.print(f"removable pair: steps {i + 1}-{i + 2} {steps[i]} {steps[i + 1]}")
        if not r.well_justified:
            raise typer.Exit(1)
    guarded(run)


@app.command()
def landmarks(
    domain: Path = typer.Argument(..., help="PDDL domain file"),
    problem: Path = typer.Argument(..., help="PDDL problem file"),
    check: Optional[str] = typer.Option(None, "--check", help='test one fact, e.g. "(holding b1)"'),
    format: str = typer.Option("table", "--format", "-f", help="table or json"),
):
    """Fact landmarks with their proofs (sound: the delete relaxation with the fact forbidden)."""
    def run():
        _check_format(format)
        d, p = load_task(domain, problem)
        only = None
        if check is not None:
            lit = parse_literal(check, d, p)
            only = [lit.atom]
        r = run_landmarks(d, p, only=only)
        rows = [{"fact": str(l.fact), "kind": l.kind, "proof": l.proof} for l in r.landmarks]
        if format == "json":
            print(to_json({"landmarks": rows, "candidates": r.candidates, "unsolvable": r.unsolvable or None}))
        else:
            c = console()
            if r.unsolvable:
                c.print(f"[red]{r.unsolvable}[/red]")
            elif check is not None:
                if rows:
                    c.print(f"[green]landmark[/green]: {rows[0]['fact']} — {rows[0]['proof']}")
                else:
                    c.print("[yellow]not proven a landmark[/yellow]: the goal stays reachable in the delete relaxation "
                            "without it (the test is sound, not complete)")
            else:
                c.print(rich_table(f"fact landmarks ({len(rows)})", ["fact", "kind", "proof"],
                                   [[x["fact"], x["kind"], x["proof"]] for x in rows]))
        if check is not None and not rows:
            raise typer.Exit(1)
    guarded(run)


@app.command("diff")
def diff_cmd(
    learned: Path = typer.Argument(..., help="learned PDDL domain"),
    reference: Path = typer.Argument(..., help="reference PDDL domain"),
    problems: List[Path] = typer.Argument(..., help="problem file(s)"),
    max_steps: int = typer.Option(10, "--max-steps", "-n", help="deepest layer explored"),
    max_states: int = typer.Option(20000, "--max-states", help="states explored at most, per problem"),
    all_layers: bool = typer.Option(False, "--all", help="keep exploring after the first disagreement (per-action table)"),
    format: str = typer.Option("table", "--format", "-f", help="table or json"),
):
    """Find the shortest reference-valid action sequence to a state where the two models disagree."""
    def run():
        _check_format(format)
        ref = load_domain(reference)
        lrn = load_domain(learned)
        warn(ref.warnings + lrn.warnings)
        results = []
        for pf in problems:
            p = load_problem(pf, ref)
            results.append((pf, run_diff(lrn, ref, p, max_steps=max_steps, max_states=max_states,
                                         stop_at_first=not all_layers)))
        if format == "json":
            print(to_json([_diff_json(pf, r) for pf, r in results]))
        else:
            c = console()
            table = {}
            for pf, r in results:
                c.print(f"[bold]{pf}[/bold]: {r.verdict}")
                cx = r.counterexample
                if cx is not None:
                    c.print(f"  path: {' '.join(map(str, cx.path)) or '(the initial state)'}")
                    c.print(f"  state: {' '.join(sorted(map(str, cx.state)))}")
                    c.print(f"  [red]{cx.action}[/red] is {cx.explanation}")
                    for u in cx.unmet:
                        c.print(f"    unmet: {u}")
                    for k, v in cx.effects.items():
                        c.print(f"    {k.replace('_', ' ')}: {' '.join(map(str, v))}")
                for name, a in r.actions.items():
                    t = table.setdefault(name, [0, 0, None])
                    t[0] += 1
                    t[1] += a.pairs
                    n = len(a.shortest.path) if a.shortest else None
                    t[2] = n if t[2] is None else min(t[2], n)
            if table:
                c.print(rich_table("disagreements per action", ["action", "problems", "state-action pairs",
                                                                 "shortest path"],
                                   [[k, *v] for k, v in sorted(table.items())]))
        if any(r.counterexample for _, r in results):
            raise typer.Exit(1)
    guarded(run)


def _diff_json(pf: Path, r) -> dict:
    cx = r.counterexample
    return {
        "problem": str(pf), "verdict": r.verdict, "explored_states": r.explored_states, "depth": r.depth,
        "exhausted": r.exhausted,
        "counterexample": None if cx is None else {
            "path": [str(a) for a in cx.path], "state": sorted(map(str, cx.state)), "action": str(cx.action),
            "kind": cx.kind, "explanation": KIND_TEXT[cx.kind], "unmet": [str(u) for u in cx.unmet],
            "effects": {k: [str(a) for a in v] for k, v in cx.effects.items()}},
        "actions": [{"action": a.action, "pairs": a.pairs,
                     "shortest": None if a.shortest is None else len(a.shortest.path)} for a in r.actions.values()],
    }
