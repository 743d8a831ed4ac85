"""Reasoning commands on one model: plan, reach, justify, landmarks; and diff between two models."""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from ..choices import Prover
from . import EX, IPC, examples, guarded, warn
from .group import ANSWER_FORMAT, DOMAIN_FILE, LEARNED_DOMAIN, PROBLEM_FILE, REFERENCE_DOMAIN, app, choice_option
from .planning import shortest_plans
from .validating import load_task


@app.command(epilog=examples(
    f"amlasp plan {EX}/domain.pddl {EX}/problem.pddl",
    f"amlasp plan {EX}/domain.pddl {EX}/problem.pddl --top 3 -f json"))
def plan(
    domain: Path = DOMAIN_FILE,
    problem: Path = PROBLEM_FILE,
    max_steps: int = typer.Option(30, "--max-steps", "-n", help="longest plan searched"),
    all_plans: bool = typer.Option(False, "--all", help="all shortest plans"),
    top: int = typer.Option(1, "--top", "-k", help="at most K distinct shortest plans (fewer if fewer exist); "
                            "with action costs the K cheapest"),
    time_limit: Optional[float] = typer.Option(None, "--time-limit", "-t", help="seconds (default: none)"),
    prover: str = choice_option("auto", "--prover", choices=tuple(Prover),
                                help="who proves the plan the shortest (with action costs, the cheapest): asp "
                                "(clingo), fd (Fast Downward's A* with LM-cut), auto (fd where it is installed; "
                                "docs/plan.md)"),
    format: str = ANSWER_FORMAT,
):
    """Shortest sequential plan(s), proven by Fast Downward's A* or clingo's incremental horizons; with action
    costs (:metric minimize (total-cost)), the cheapest. Every plan validated. Exit 0 plan, 1 none (docs/plan.md)."""
    def run():
        if shortest_plans(domain, problem, max_steps, all_plans, top, time_limit, prover, format):
            raise typer.Exit(1)
    guarded(run)


@app.command(epilog=examples(
    f'amlasp reach {EX}/domain.pddl {EX}/problem.pddl "(on b1 b3)"',
    f'amlasp reach {EX}/domain.pddl {EX}/problem.pddl --action "(stack b2 b3)"'))
def reach(
    domain: Path = DOMAIN_FILE,
    problem: Path = typer.Argument(..., help="PDDL problem file (objects; its initial state unless --state)"),
    literals: Optional[List[str]] = typer.Argument(None,
                                                   help='literals to reach, e.g. "(on b1 b2)" "(not (clear b1))"'),
    action: Optional[str] = typer.Option(None, "--action", "-a", help='action reachability: "(stack b1 b2)"'),
    state: Optional[str] = typer.Option(None, "--state",
                                        help="start state: a state file, or literals \"(on a b) ...\""),
    max_steps: int = typer.Option(30, "--max-steps", "-n", help="longest witness searched"),
    time_limit: Optional[float] = typer.Option(None, "--time-limit", "-t", help="seconds for the search"),
    prover: str = choice_option("auto", "--prover", choices=tuple(Prover),
                                help="who searches for the shortest witness: asp (clingo), fd (Fast Downward's A*), "
                                "auto (fd where it is installed; docs/plan.md)"),
    format: str = ANSWER_FORMAT,
):
    """Can a state with LITERALS (or where --action is applicable) be reached? yes (witness) / no (proof) / unknown."""
    def run():
        from ..errors import InputError
        from ..pddl.plans import parse_action
        from ..pddl.states import parse_literal, parse_state
        from ..reasoning.planning import reach as run_reach
        from ..render import reasoning as present
        from ..render.formats import ANSWER_FORMATS, Format, to_json
        from ..render.output import deliver
        Format.parse(format, ANSWER_FORMATS)
        by = Prover.parse(prover)
        d, p = load_task(domain, problem)
        if not literals and action is None:
            raise InputError("give literals to reach or --action")
        lits = [parse_literal(x, d, p) for x in literals or []]
        target = None if action is None else parse_action(action, d, p, "<--action>")
        start = None if state is None else parse_state(state, d, p)
        r = run_reach(d, p, lits, init=start, max_steps=max_steps, action=target, time_limit=time_limit, prover=by)
        deliver(to_json(present.reach_json(r)) if format == Format.JSON else present.reach_lines(r))
        raise typer.Exit({"yes": 0, "no": 1, "unknown": 3}[r.answer])
    guarded(run)


@app.command(epilog=examples(
    f"amlasp justify {EX}/domain.pddl {EX}/problem.pddl {EX}/plan.txt"))
def justify(
    domain: Path = DOMAIN_FILE,
    problem: Path = PROBLEM_FILE,
    plan_file: Path = typer.Argument(..., metavar="PLAN", help="plan file"),
    format: str = ANSWER_FORMAT,
):
    """Which actions, or consecutive pairs, can be removed from a valid plan? Exit 0 when well-justified."""
    def run():
        from ..pddl.plans import read_plan
        from ..reasoning.justify import justify as run_justify
        from ..render import reasoning as present
        from ..render.formats import ANSWER_FORMATS, Format, to_json
        from ..render.output import deliver
        Format.parse(format, ANSWER_FORMATS)
        d, p = load_task(domain, problem)
        steps = read_plan(plan_file, d, p)
        r = run_justify(d, p, steps)
        deliver(to_json(present.justify_json(r)) if format == Format.JSON else present.justify_lines(r))
        if not r.well_justified:
            raise typer.Exit(1)
    guarded(run)


@app.command(epilog=examples(
    f"amlasp landmarks {IPC}/domains/ferry.pddl {IPC}/problems/solving/ferry/0_ferry_prob.pddl",
    f'amlasp landmarks {EX}/domain.pddl {EX}/problem.pddl --check "(holding b2)"'))
def landmarks(
    domain: Path = DOMAIN_FILE,
    problem: Path = PROBLEM_FILE,
    check: Optional[str] = typer.Option(None, "--check", help='test one fact, e.g. "(holding b1)"'),
    format: str = ANSWER_FORMAT,
):
    """Fact landmarks with their proofs (sound: the delete relaxation with the fact forbidden)."""
    def run():
        from ..pddl.states import parse_literal
        from ..reasoning.landmarks import landmarks as run_landmarks
        from ..render import reasoning as present
        from ..render.formats import ANSWER_FORMATS, Format, to_json
        from ..render.output import deliver
        Format.parse(format, ANSWER_FORMATS)
        d, p = load_task(domain, problem)
        only = None
        if check is not None:
            lit = parse_literal(check, d, p)
            only = [lit.atom]
        r = run_landmarks(d, p, only=only)
        deliver(to_json(present.landmarks_json(r)) if format == Format.JSON
                else present.landmarks_terminal(r, check))
        if check is not None and not r.landmarks:
            raise typer.Exit(1)
    guarded(run)


@app.command("diff", epilog=examples(
    f"amlasp diff {EX}/learned.pddl {EX}/domain.pddl {EX}/problem.pddl --all",
    f"amlasp diff {IPC}/learned/nolam/miconic.pddl {IPC}/domains/miconic.pddl "
    f"{IPC}/problems/solving/miconic/1_miconic_prob.pddl -f json"))
def diff_cmd(
    learned: Path = LEARNED_DOMAIN,
    reference: Path = REFERENCE_DOMAIN,
    problems: List[Path] = typer.Argument(..., help="problem file(s)"),
    max_steps: int = typer.Option(10, "--max-steps", "-n", help="deepest layer explored"),
    max_states: int = typer.Option(20000, "--max-states", help="states explored at most, per problem"),
    all_layers: bool = typer.Option(False, "--all",
                                    help="keep exploring after the first disagreement (per-action table)"),
    format: str = ANSWER_FORMAT,
):
    """Find the shortest reference-valid action sequence to a state where the two models disagree."""
    def run():
        from ..pddl.parse import load_domain, load_problem
        from ..reasoning.diff import action_totals
        from ..reasoning.diff import diff as run_diff
        from ..render.escape import markup
        from ..render.formats import ANSWER_FORMATS, Format, rich_table, to_json
        from ..render.output import console
        Format.parse(format, ANSWER_FORMATS)
        ref = load_domain(reference)
        lrn = load_domain(learned)
        warn([f"{reference}: {w}" for w in ref.warnings] + [f"{learned}: {w}" for w in lrn.warnings])
        results = []
        for pf in problems:
            p = load_problem(pf, ref)
            results.append((pf, run_diff(lrn, ref, p, max_steps=max_steps, max_states=max_states,
                                         stop_at_first=not all_layers)))
        if format == "json":
            print(to_json([_diff_json(pf, r) for pf, r in results]))
        else:
            c = console()
            for pf, r in results:
                c.print(f"[bold]{markup(pf)}[/bold]: {r.verdict}")
                cx = r.counterexample
                if cx is not None:
                    c.print(markup(f"  path: {' '.join(map(str, cx.path)) or '(the initial state)'}"))
                    c.print(markup(f"  state: {' '.join(sorted(map(str, cx.state)))}"))
                    c.print(f"  [red]{markup(cx.action)}[/red] is {markup(cx.explanation)}")
                    for u in cx.unmet:
                        c.print(markup(f"    unmet: {u}"))
                    for k, v in cx.effects.items():
                        c.print(markup(f"    {k.replace('_', ' ')}: {' '.join(map(str, v))}"))
            totals = action_totals(r for _, r in results)
            if totals:
                c.print(rich_table("disagreements per action", ["action", "problems", "state-action pairs",
                                                                 "shortest path"],
                                   [[t.action, t.problems, t.pairs, t.shortest] for t in totals]))
        if any(r.counterexample for _, r in results):
            raise typer.Exit(1)
    guarded(run)


def _diff_json(pf: Path, r) -> dict:
    from ..reasoning.diff import KIND_TEXT
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
