"""Core commands: applicable, step, validate, facts."""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from ..choices import ANSWER_FORMATS
from . import EX, IPC, examples, guarded, keep_going, partial, warn
from .group import app, choice_option
from .validating import answer_sentences, load_task, one_plan

FormatOpt = choice_option("table", "--format", "-f", choices=ANSWER_FORMATS, help="output format")


@app.command(epilog=examples(
    f"amlasp applicable {EX}/domain.pddl {EX}/problem.pddl",
    f"amlasp applicable {IPC}/domains/depots.pddl {IPC}/problems/learning/depots/0_depots_prob.pddl "
    f"--states {IPC}/trajectories/learning/depots/0_depots_traj -f json"))
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
    domain: Path = typer.Argument(..., help="PDDL domain file"),
    problem: Path = typer.Argument(..., help="PDDL problem file"),
    actions: List[str] = typer.Argument(..., help='ground actions, e.g. "(unstack b3 b1)" "(put_down b3)"'),
    format: str = FormatOpt,
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


@app.command(epilog=examples(
    f"amlasp validate {EX}/domain.pddl {EX}/problem.pddl {EX}/plan.txt",
    f"amlasp validate {EX}/learned.pddl {EX}/problem.pddl {EX}/plan.txt -f json"))
def validate(
    domain: Path = typer.Argument(..., help="PDDL domain file"),
    problem: Optional[Path] = typer.Argument(None, help="PDDL problem file (with --batch: the problem of lines "
                                             "that name none)"),
    plans: Optional[List[Path]] = typer.Argument(None, metavar="[PLAN]...",
                                                 help="plan file(s), one (action arg ...) per line"),
    batch: Optional[Path] = typer.Option(None, "--batch", help='JSON lines {"problem": FILE, "plan": FILE or '
                                         'plan text} (paths relative to it): many plans, one verdict each'),
    from_text: bool = typer.Option(False, "--from-text", help="each plan is a language model's raw answer: "
                                   "its plan (PDDL or English) is read out of it first (docs/llm.md)"),
    format: str = FormatOpt,
    lenient: bool = typer.Option(False, "--lenient", help="read plans as language models write them: code "
                                 "fences, step numbers, missing parentheses, commas, ... repaired and counted "
                                 "(docs/validate.md)"),
):
    """Check that each PLAN is executable and reaches the goal. Exit 0 all valid, 1 one invalid, 2 bad input.

    Many plans (several PLANs, or --batch) are validated in one clingo call, one verdict each:
    a table, or with -f json one JSON object per line.
    """
    def run():
        from ..errors import InputError, error_class
        from ..reasoning import engine
        from ..render import reasoning as present
        from ..render.formats import ANSWER_FORMATS, Format, to_json_lines
        from ..render.output import deliver
        Format.parse(format, ANSWER_FORMATS)
        if batch is None and (problem is None or not plans):
            raise InputError("give a PROBLEM and PLAN file(s), or --batch FILE")
        if batch is not None and plans:
            raise InputError("give PLAN files or --batch, not both")
        if batch is None and len(plans) == 1:  # one plan: its own report
            if one_plan(domain, problem, plans[0], format, lenient, from_text=from_text):
                raise typer.Exit(1)
            return
        from ..pddl.batch import plan_files, read_batch
        from ..pddl.parse import load_domain
        d = load_domain(domain)
        warn(d.warnings)
        answers = answer_sentences(d) if from_text else None
        tasks = (read_batch(batch, d, problem, keep_going=keep_going(), lenient=lenient, answers=answers)
                 if batch is not None else plan_files(d, problem, plans, lenient, answers=answers))
        checked = iter(engine.validate_plans(d, [(t.problem, t.reading) for t in tasks if t.problem is not None]))
        verdicts = [(t, next(checked) if t.problem is not None else None) for t in tasks]  # None: problem unread
        errors = [(str(t.error), t.step) if t.problem is None else (None, None) for t in tasks]
        # a plan whose problem cannot be read: an error row (docs/input.md, "Many inputs: partial runs")
        classes = [error_class(t.error) if t.problem is None and t.error is not None else None for t in tasks]
        if format == Format.JSON:
            deliver(to_json_lines(present.verdict_json(t.name, t.problem_file, ex, *e, c, extracted=t.extracted)
                                  for (t, ex), e, c in zip(verdicts, errors, classes)))
        else:
            deliver(present.verdicts_table([(t.name, ex, *e) for (t, ex), e in zip(verdicts, errors)],
                                           [c is not None for c in classes]))
        partial([str(t.error) for t, c in zip(tasks, classes) if c is not None], len(tasks), "batch records")
        if not all(ex is not None and ex.valid for _, ex in verdicts):
            raise typer.Exit(1)
    guarded(run)


@app.command(epilog=examples(
    f"amlasp facts {EX}/domain.pddl {EX}/problem.pddl --plan {EX}/plan.txt -o blocks.lp",
    f"amlasp facts {EX}/domain.pddl --no-rules"))
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
