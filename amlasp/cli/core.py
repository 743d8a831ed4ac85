"""Core commands: applicable, step, validate, facts."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import List, Optional

import typer

from ..reasoning import engine
from ..errors import InputError
from ..asp.facts import domain_facts, plan_facts, problem_facts, state_facts
from ..asp.compile import compile_domain
from ..asp.run import encoding
from ..pddl.parse import load_domain, load_problem
from ..render import console, to_json, write_atomic
from ..pddl.plans import parse_action, read_plan
from ..pddl.states import load_states
from . import app, guarded, warn

FormatOpt = typer.Option("table", "--format", "-f", help="table or json")


def load_task(domain: Path, problem: Path):
    """A domain (its repair warnings printed) and a problem read with it."""
    d = load_domain(domain)
    warn(d.warnings)
    return d, load_problem(problem, d)


def _check_format(fmt: str, allowed=("table", "json")) -> None:
    if fmt not in allowed:
        raise InputError(f"unknown --format '{fmt}' (choose from {', '.join(allowed)})")


@app.command()
def applicable(
    domain: Path = typer.Argument(..., help="PDDL domain file"),
    problem: Path = typer.Argument(..., help="PDDL problem file (objects, and the initial state)"),
    states: Optional[List[Path]] = typer.Option(None, "--states", "-s", help="trajectory / JSON state files or dirs"),
    problems: Optional[Path] = typer.Option(None, "--problems", help="where the trajectories' own problems are "
                                            "(N_dom_prob.pddl for N_dom_traj); default: next to them, else PROBLEM"),
    format: str = FormatOpt,
):
    """List the applicable ground actions in the initial state, or in each state of --states."""
    def run():
        _check_format(format)
        d, p = load_task(domain, problem)
        if states:
            sets = load_states(states, d, problems_dir=problems, problem=p)
            # each set may come from its own problem: all in one grounding
            result = [acts for per_set in engine.applicable_many(d, [(ss.problem, ss.states) for ss in sets])
                      for acts in per_set]
        else:
            result = engine.applicable(d, p)
        if format == "json":
            print(to_json([{"state": i, "applicable": [str(a) for a in acts]} for i, acts in enumerate(result)]))
            return
        c = console()
        for i, acts in enumerate(result):
            c.print(f"[bold]state {i}[/bold]: {len(acts)} applicable action(s)")
            for a in acts:
                c.print(f"  {a}")
    guarded(run)


def _state_text(state) -> str:
    return " ".join(sorted(str(a) for a in state))


@app.command()
def step(
    domain: Path = typer.Argument(..., help="PDDL domain file"),
    problem: Path = typer.Argument(..., help="PDDL problem file"),
    actions: List[str] = typer.Argument(..., help='ground actions, e.g. "(unstack b3 b1)" "(put_down b3)"'),
    format: str = FormatOpt,
):
    """Apply ground actions in sequence from the initial state; print each resulting state."""
    def run():
        _check_format(format)
        d, p = load_task(domain, problem)
        plan = [parse_action(a, d, p) for a in actions]
        ex = engine.execute(d, p, plan)
        if format == "json":
            print(to_json(_execution_json(ex)))
        else:
            c = console()
            c.print(f"[bold]state 0[/bold]: {_state_text(ex.states[0])}")
            for i, st in enumerate(ex.states[1:], 1):
                c.print(f"[bold]{plan[i - 1]}[/bold] → [bold]state {i}[/bold]: {_state_text(st)}")
            if ex.failed_step is not None:
                c.print(f"[red]step {ex.failed_step + 1}: {plan[ex.failed_step]} is not applicable[/red]; "
                        f"unmet: {', '.join(map(str, ex.unmet))}")
        if ex.failed_step is not None:
            raise typer.Exit(1)
    guarded(run)


def _execution_json(ex) -> dict:
    return {
        "valid": ex.valid,
        "executable": ex.executable,
        "failed_step": None if ex.failed_step is None else ex.failed_step + 1,
        "failed_action": None if ex.failed_step is None else str(ex.plan[ex.failed_step]),
        "unmet_preconditions": [str(u) for u in ex.unmet],
        "unmet_goals": [str(g) for g in ex.goal_unmet],
        "plan_length": len(ex.plan),
        "states": [sorted(str(a) for a in s) for s in ex.states],
    }


@app.command()
def validate(
    domain: Path = typer.Argument(..., help="PDDL domain file"),
    problem: Path = typer.Argument(..., help="PDDL problem file"),
    plan: Path = typer.Argument(..., help="plan file, one (action arg ...) per line"),
    format: str = FormatOpt,
):
    """Check that PLAN is executable and reaches the goal. Exit 0 valid, 1 invalid, 2 bad input."""
    def run():
        _check_format(format)
        d, p = load_task(domain, problem)
        steps = read_plan(plan, d, p)
        ex = engine.execute(d, p, steps)
        if format == "json":
            out = _execution_json(ex)
            out.pop("states")
            print(to_json(out))
        else:
            c = console()
            if ex.valid:
                c.print(f"[green]valid[/green]: {len(steps)} step(s), goal reached")
            elif ex.failed_step is not None:
                c.print(f"[red]invalid[/red]: step {ex.failed_step + 1}, {steps[ex.failed_step]}, is not applicable")
                for u in ex.unmet:
                    c.print(f"  unmet precondition: {u}")
            else:
                c.print(f"[red]invalid[/red]: all {len(steps)} step(s) executable, but the goal is not reached")
                for g in ex.goal_unmet:
                    c.print(f"  unmet goal: {g}")
        if not ex.valid:
            raise typer.Exit(1)
    guarded(run)


@app.command()
def facts(
    domain: Path = typer.Argument(..., help="PDDL domain file"),
    problem: Optional[Path] = typer.Argument(None, help="PDDL problem file"),
    states: Optional[List[Path]] = typer.Option(None, "--states", "-s", help="trajectory / JSON state files"),
    plan: Optional[Path] = typer.Option(None, "--plan", help="plan file"),
    tag: str = typer.Option("m", "--tag", help="model tag used in the facts"),
    rules: bool = typer.Option(True, "--rules/--no-rules", help="include the compiled action rules and encoding"),
    out: Optional[Path] = typer.Option(None, "-o", "--output", help="write to this file (atomically)"),
):
    """Export ASP facts (docs/facts.md) so that you can run your own clingo queries."""
    def run():
        d = load_domain(domain)
        warn(d.warnings)
        parts = [domain_facts(d, tag)]
        if rules:
            parts.append("% compiled action rules (see encodings/semantics.lp)\n")
            parts.append(compile_domain(d, tag, enumerate=True, check=True, effects=True).text)
            parts.append(encoding("semantics"))
        if problem is not None:
            p = load_problem(problem, d)
            parts.append(problem_facts(p, 0))
            if states:
                sets = load_states(states, d, problem=p)
                text, _ = state_facts([s for ss in sets for s in ss.states], 0)
                parts.append(text)
            else:
                text, _ = state_facts([p.init], 0)
                parts.append("% the initial state as state 0\n" + text)
            if plan is not None:
                parts.append(plan_facts(read_plan(plan, d, p)))
        elif states or plan:
            raise InputError("--states and --plan need a PROBLEM file")
        text = "".join(parts)
        if out is None:
            sys.stdout.write(text)
        else:
            inputs = [domain, problem, plan] + [f for x in states or [] for f in (x.iterdir() if x.is_dir() else [x])]
            if out.exists() and out.resolve() in {Path(x).resolve() for x in inputs if x}:
                raise InputError("refusing to overwrite an input file", out)
            write_atomic(out, text)
    guarded(run)
