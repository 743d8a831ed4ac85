"""Core commands: applicable, step, validate, facts."""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from ..choices import ANSWER_FORMATS, RESULT_FORMATS, Executor
from . import (
    EX,
    EXECUTOR_HELP,
    FORMAT_HELP,
    IPC,
    JOBS_HELP,
    SCHEDULER_HELP,
    examples,
    guarded,
    interrupted,
    keep_going,
    partial,
    warn,
)
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


# long: its options are its signature (one a parameter), and the one-plan, many-plan and batch paths
@app.command(epilog=examples(
    f"amlasp validate {EX}/domain.pddl {EX}/problem.pddl {EX}/plan.txt",
    f"amlasp validate {IPC}/domains/blocksworld.pddl --batch benchmarks/plans/blocksworld/plans.jsonl "
    "--group-by problem -o verdicts.csv"))
def validate(
    domain: Path = typer.Argument(..., help="PDDL domain file"),
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
    format: Optional[str] = choice_option(None, "--format", "-f", choices=RESULT_FORMATS, help=FORMAT_HELP),
    output: Optional[Path] = typer.Option(None, "-o", "--output", help="write to this file (atomically); with "
                                          "--group-by the summary goes to FILE.summary.EXT"),
    lenient: bool = typer.Option(False, "--lenient", help="read plans as language models write them: code "
                                 "fences, step numbers, missing parentheses, commas, ... repaired and counted "
                                 "(docs/validate.md)"),
    from_text: bool = typer.Option(False, "--from-text", help="each plan is a language model's raw answer: "
                                   "its plan (PDDL or English) is read out of it first (docs/llm.md)"),
    jobs: int = typer.Option(1, "--jobs", "-j", min=1, help=JOBS_HELP + " (many plans: chunks of whole problems)"),
    executor: str = choice_option("process", "--executor", choices=tuple(Executor), help=EXECUTOR_HELP),
    scheduler: Optional[str] = typer.Option(None, "--scheduler", help=SCHEDULER_HELP),
):
    """Check that each PLAN is executable and reaches the goal. Exit 0 all valid, 1 one invalid, 2 bad input.

    Many plans (several PLANs, or --batch) are validated in one clingo call, one verdict each:
    a table, JSON lines (-f json), or CSV, Markdown, LaTeX (one row each, every column).
    """
    def run():
        from ..errors import InputError
        from ..reasoning.validations import validate_plans
        from ..render import reasoning as present
        from ..render.exports import output_format, summary_path
        from ..render.formats import Format, to_json_lines
        from ..render.output import deliver, refuse_overwrite
        form = output_format(format, output, RESULT_FORMATS)
        if batch is None and (problem is None or not plans):
            raise InputError("give a PROBLEM and PLAN file(s), or --batch FILE")
        if batch is not None and plans:
            raise InputError("give PLAN files or --batch, not both")
        if optimal_timeout is not None and not (optimal_timeout > 0):
            raise InputError("--optimal-timeout must be a positive number of seconds")
        inputs = [domain, problem, batch, *(plans or [])]
        summary_file = summary_path(output) if output is not None and group_by is not None else None
        refuse_overwrite(output, inputs)
        refuse_overwrite(summary_file, inputs)
        one = (batch is None and len(plans) == 1 and form in (Format.TABLE, Format.JSON) and group_by is None
               and not optimal)
        if one:  # one plan: its own report
            if one_plan(domain, problem, plans[0], form, lenient, output, from_text=from_text):
                raise typer.Exit(1)
            return
        from ..pddl.batch import plan_files, read_batch
        from ..pddl.parse import load_domain
        from ..reasoning.validations import OPTIMAL_COLUMNS, VALIDATION_COLUMNS
        d = load_domain(domain)
        warn(d.warnings)
        answers = answer_sentences(d) if from_text else None
        tasks = (read_batch(batch, d, problem, keep_going=keep_going(), lenient=lenient, answers=answers)
                 if batch is not None else plan_files(d, problem, plans, lenient, answers=answers))
        if output is not None:  # the files the batch named: inputs too
            named = [f for f in {Path(x) for t in tasks for x in (t.problem_file, t.plan_file) if x} if _exists(f)]
            refuse_overwrite(output, named)
            refuse_overwrite(summary_file, named)
        if group_by is not None and group_by not in {*VALIDATION_COLUMNS, *(OPTIMAL_COLUMNS if optimal else ()),
                                                     *(k for t in tasks for k in t.fields)}:
            raise InputError(f"--group-by {group_by!r}: no batch line has that field, and no verdict has that "
                             "column")
        from ..errors import Interrupted
        from ..jobs import Jobs
        try:
            verdicts = validate_plans(d, tasks, optimal=optimal, optimal_timeout=optimal_timeout,
                                      jobs=Jobs(jobs, Executor.parse(executor), scheduler))
        except Interrupted as e:
            interrupted(e, "nothing was written (the verdicts are written once every plan is validated)")
            raise
        records = verdicts.records()
        columns = verdicts.columns
        groups = verdicts.summary(group_by) if group_by is not None else None
        scolumns = verdicts.summary_columns()
        if form == Format.JSON:
            text = to_json_lines(present.verdict_json(r) for r in records)
            stext = None if groups is None else to_json_lines({"group_by": group_by, **g} for g in groups)
        elif form == Format.TABLE:
            text = present.verdicts_table(records, optimal)
            stext = None if groups is None else present.summary_table(groups, group_by, scolumns)
        else:
            text = present.verdicts_text(form, columns, records)
            stext = None if groups is None else present.verdicts_text(form, scolumns, groups)
        _deliver_verdicts(deliver, text, stext, output, summary_file, "" if form == Format.JSON else "\n")
        erred = [r["error"] for r in records if r["status"] == "error"]
        partial(erred, len(tasks), "batch records")
        if not all(r["status"] == "valid" for r in records):
            raise typer.Exit(1)
    guarded(run)


def _exists(path: Path) -> bool:
    """Whether `path` is there; a name too long for the system is not (no OSError)."""
    try:
        return path.exists()
    except OSError:
        return False


def _deliver_verdicts(deliver, text, summary, output: Optional[Path], summary_file: Optional[Path],
                      between: str) -> None:
    """The verdicts to stdout or -o; a summary (--group-by) after them on stdout (`between` the two texts),
    or into its own file."""
    if summary is None:
        deliver(text, output)
    elif output is not None:
        deliver(text, output)
        deliver(summary, summary_file)
    elif isinstance(text, str):
        deliver(text + between + summary)
    else:
        deliver([*text, *summary])


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
