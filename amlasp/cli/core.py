"""Core commands: applicable, step, validate, facts."""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from . import EX, IPC, examples, guarded, warn
from .group import ANSWER_FORMAT, DOMAIN_FILE, EXECUTOR, PROBLEM_FILE, RESULT_FORMAT, SCHEDULER, app, jobs_option
from .validating import load_task, many_plans


@app.command(epilog=examples(
    f"amlasp applicable {EX}/domain.pddl {EX}/problem.pddl",
    f"amlasp applicable {IPC}/domains/depots.pddl {IPC}/problems/learning/depots/0_depots_prob.pddl "
    f"--states {IPC}/trajectories/learning/depots/0_depots_traj -f json"))
def applicable(
    domain: Path = DOMAIN_FILE,
    problem: Path = typer.Argument(..., help="PDDL problem file (objects, and the initial state)"),
    states: Optional[List[Path]] = typer.Option(None, "--states", "-s", help="trajectory / JSON state files or dirs"),
    problems: Optional[Path] = typer.Option(None, "--problems", help="where the trajectories' own problems are "
                                            "(N_dom_prob.pddl for N_dom_traj); default: next to them, else PROBLEM"),
    format: str = ANSWER_FORMAT,
):
    """List the applicable ground actions in the initial state, or in each state of --states."""
    def run():
        from ..pddl.states import load_states
        from ..reasoning import engine
        from ..render import reasoning as present
        from ..render.formats import ANSWER_FORMATS, Format, to_json
        from ..render.output import deliver
        Format.parse(format, ANSWER_FORMATS)
        d, p = load_task(domain, problem)
        if states:
            sets = load_states(states, d, problems_dir=problems, problem=p)
            # each set may come from its own problem: all in one grounding
            result = [acts for per_set in engine.applicable_many(d, [(ss.problem, ss.states) for ss in sets])
                      for acts in per_set]
        else:
            result = engine.applicable(d, p)
        deliver(to_json(present.applicable_json(result)) if format == Format.JSON else present.applicable_lines(result))
    guarded(run)




@app.command(epilog=examples(
    f'amlasp step {EX}/domain.pddl {EX}/problem.pddl "(unstack b3 b1)" "(put_down b3)"'))
def step(
    domain: Path = DOMAIN_FILE,
    problem: Path = PROBLEM_FILE,
    actions: List[str] = typer.Argument(..., help='ground actions, e.g. "(unstack b3 b1)" "(put_down b3)"'),
    format: str = ANSWER_FORMAT,
):
    """Apply ground actions in sequence from the initial state; print each resulting state."""
    def run():
        from ..pddl.plans import parse_action
        from ..reasoning import engine
        from ..render import reasoning as present
        from ..render.formats import ANSWER_FORMATS, Format, to_json
        from ..render.output import deliver
        Format.parse(format, ANSWER_FORMATS)
        d, p = load_task(domain, problem)
        plan = [parse_action(a, d, p) for a in actions]
        ex = engine.execute(d, p, plan)
        deliver(to_json(present.execution_json(ex)) if format == Format.JSON else present.step_lines(ex))
        if ex.failed_step is not None:
            raise typer.Exit(1)
    guarded(run)


# long: its options are its signature (one a parameter), and the one-plan, many-plan and batch paths
@app.command(epilog=examples(
    f"amlasp validate {EX}/domain.pddl {EX}/problem.pddl {EX}/plan.txt",
    f"amlasp validate {IPC}/domains/blocksworld.pddl --batch benchmarks/plans/blocksworld/plans.jsonl "
    "--group-by problem -o verdicts.csv"))
def validate(
    domain: Path = DOMAIN_FILE,
    problem: Optional[Path] = typer.Argument(None, help="PDDL problem file (with --batch: the problem of lines "
                                             "that name none)"),
    plans: Optional[List[Path]] = typer.Argument(None, metavar="[PLAN]...",
                                                 help="plan file(s), one (action arg ...) per line"),
    batch: Optional[Path] = typer.Option(None, "--batch", help='JSON lines {"problem": FILE, "plan": FILE or '
                                         'plan text, ...your own fields} (paths relative to it): many plans, '
                                         'one verdict each'),
    group_by: Optional[str] = typer.Option(None, "--group-by", metavar="KEY",
                                           help="add a summary per value of KEY (a batch field such as model, "
                                           "or a column such as problem)"),
    optimal: bool = typer.Option(False, "--optimal", help="each problem's optimal cost (Fast Downward, A* with "
                                 "LM-cut) and the plan's cost / optimal"),
    optimal_timeout: Optional[float] = typer.Option(None, "--optimal-timeout", metavar="SECONDS",
                                                    help="time for each problem's optimal search (default 60)"),
    format: Optional[str] = RESULT_FORMAT,
    output: Optional[Path] = typer.Option(None, "-o", "--output", help="write to this file (atomically); with "
                                          "--group-by the summary goes to FILE.summary.EXT"),
    lenient: bool = typer.Option(False, "--lenient", help="read plans as language models write them: code "
                                 "fences, step numbers, missing parentheses, commas, ... repaired and counted "
                                 "(docs/validate.md)"),
    from_text: bool = typer.Option(False, "--from-text", help="each plan is a language model's raw answer: "
                                   "its plan (PDDL or English) is read out of it first (docs/llm.md)"),
    jobs: int = jobs_option(" (many plans: chunks of whole problems)"),
    executor: str = EXECUTOR,
    scheduler: Optional[str] = SCHEDULER,
):
    """Check that each PLAN is executable and reaches the goal. Exit 0 all valid, 1 one invalid, 2 bad input.

    Many plans (several PLANs, or --batch) are validated in one clingo call, one verdict each:
    a table, JSON lines (-f json), or CSV, Markdown, LaTeX (one row each, every column).
    """
    def run():
        code = many_plans(domain, problem, plans or [], batch, group_by, optimal, optimal_timeout, format, output,
                          lenient, from_text, jobs, executor, scheduler)
        if code:
            raise typer.Exit(code)
    guarded(run)


@app.command(epilog=examples(
    f"amlasp facts {EX}/domain.pddl {EX}/problem.pddl --plan {EX}/plan.txt -o blocks.lp",
    f"amlasp facts {EX}/domain.pddl --no-rules"))
def facts(
    domain: Path = DOMAIN_FILE,
    problem: Optional[Path] = typer.Argument(None, help="PDDL problem file"),
    states: Optional[List[Path]] = typer.Option(None, "--states", "-s", help="trajectory / JSON state files"),
    plan: Optional[Path] = typer.Option(None, "--plan", help="plan file"),
    tag: str = typer.Option("m", "--tag", help="model tag used in the facts"),
    rules: bool = typer.Option(True, "--rules/--no-rules", help="include the compiled action rules and encoding"),
    out: Optional[Path] = typer.Option(None, "-o", "--output", help="write to this file (atomically)"),
):
    """Export ASP facts (docs/facts.md) so that you can run your own clingo queries."""
    def run():
        from ..asp.facts import check_tag, facts_program
        from ..errors import InputError
        from ..files import write_atomic
        from ..pddl.parse import load_domain, load_problem
        from ..pddl.plans import read_plan
        from ..pddl.states import load_states, state_inputs
        from ..render.output import refuse_overwrite, write_stdout
        check_tag(tag)
        refuse_overwrite(out, [domain, problem, plan, *state_inputs(states or [])])
        d = load_domain(domain)
        warn(f"{domain}: {w}" for w in d.warnings)
        if problem is None and (states or plan):
            raise InputError("--states and --plan need a PROBLEM file")
        p = load_problem(problem, d) if problem is not None else None
        given = [s for ss in load_states(states, d, problem=p) for s in ss.states] if p is not None and states else None
        steps = read_plan(plan, d, p) if p is not None and plan is not None else None
        text = facts_program(d, p, given, steps, tag, rules)
        if out is None:
            write_stdout(text)
        else:
            write_atomic(out, text)
    guarded(run)
