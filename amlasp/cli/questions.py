"""`amlasp questions generate|grade`: reasoning-about-action questions with proven answers, and grading."""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from ..choices import ANSWER_FORMATS, RESULT_FORMATS, Executor, Scoring
from ..errors import InputError
from ..questions.registry import NAMES
from . import IPC, examples, guarded, interrupted, keep_going, partial, warn
from .group import EXECUTOR, REFERENCE_DOMAIN, RESULT_FORMAT, SCHEDULER, app, choice_option, jobs_option

questions_app = typer.Typer(no_args_is_help=True, help="Questions about actions and plans with proven answers "
                                                       "(ACPBench's tasks and more): generate them, grade answers.")
app.add_typer(questions_app, name="questions")

ALL_TASKS = ",".join(NAMES)
FERRY = f"{IPC}/domains/ferry.pddl {IPC}/problems/solving/ferry/0_ferry_prob.pddl"
QX = "examples/questions"


def parse_names(text: str, enum, option: str) -> tuple:
    """`a,b,c` → members of `enum`, in the given order, each once."""
    out = []
    for name in (x.strip().lower() for x in text.split(",")):
        if not name:
            continue
        try:
            member = enum(name)
        except ValueError:
            raise InputError(f"unknown {option} '{name}' (choose from {', '.join(m.value for m in enum)})") from None
        if member not in out:
            out.append(member)
    if not out:
        raise InputError(f"{option} names nothing")
    return tuple(out)


def parse_range(text: str, option: str) -> tuple[int, int]:
    """`3` or `1-5` → (low, high), both at least 0."""
    try:
        lo, _, hi = text.partition("-")
        low, high = int(lo), int(hi or lo)
    except ValueError:
        raise InputError(f"{option} takes N or MIN-MAX, e.g. 1-5 (got '{text}')") from None
    if low < 0 or high < low:
        raise InputError(f"{option} {text}: need 0 <= MIN <= MAX")
    return low, high


# long: its options are its signature, one a parameter
@questions_app.command(epilog=examples(
    f"amlasp questions generate {FERRY} --tasks app,val,nexta -n 2 --seed 1 -o items.jsonl"))
def generate(
    domain: Path = REFERENCE_DOMAIN,
    problems: List[Path] = typer.Argument(..., help="problem file(s); states are drawn from each in turn"),
    tasks: List[str] = typer.Option([ALL_TASKS], "--tasks", "-t", help="tasks, comma-separated or repeated "
                                    "(default: all, in this order)"),
    forms: List[str] = typer.Option(["gen,bool,mcq"], "--forms", help="forms, comma-separated or repeated: gen, "
                                    "bool, mcq"),
    per_task: int = typer.Option(10, "--per-task", "-n", help="items per task and form"),
    seed: int = typer.Option(0, "--seed", help="random seed (the same arguments and seed give the same file)"),
    depth: str = typer.Option("0-5", "--depth", help="length of the random walk to each state: N or MIN-MAX"),
    objects: Optional[str] = typer.Option(None, "--objects", help="use only problems with MIN-MAX objects"),
    templates: Optional[Path] = typer.Option(None, "--templates", help="sentence templates (TOML) for the domain "
                                             "(default: the shipped ones for the domain's name, else generic)"),
    time_limit: float = typer.Option(10.0, "--time-limit", help="seconds per planner call"),
    explore: int = typer.Option(300, "--explore", help="states breadth-first search may visit (reach, areach)"),
    output: Optional[Path] = typer.Option(None, "--output", "-o", help="items as JSON lines (default: stdout)"),
    format: str = choice_option("table", "--format", "-f", choices=ANSWER_FORMATS, help="the balance report's format"),
    jobs: int = jobs_option(" (a task per worker)"),
    executor: str = EXECUTOR,
    scheduler: Optional[str] = SCHEDULER,
):
    """Generate questions whose answers the encodings prove; print the balance report."""
    def run():
        from ..errors import Interrupted
        from ..jobs import Jobs
        from ..questions.generate import Options, load_sources
        from ..questions.generate import generate as run_generate
        from ..questions.items import Form
        from ..questions.registry import Task
        from ..render import questions as present
        from ..render.formats import Format, to_json
        from ..render.output import console, deliver, refuse_overwrite
        from ..render.progress import progress_bar
        report = Format.parse(format, ANSWER_FORMATS)
        if per_task < 1:
            raise InputError("--per-task must be at least 1")
        refuse_overwrite(output, [domain, *problems, *([templates] if templates else [])])
        options = Options(parse_names(",".join(tasks or [ALL_TASKS]), Task, "task"),
                          parse_names(",".join(forms or ["gen,bool,mcq"]), Form, "form"), per_task, seed,
                          parse_range(depth, "--depth"), time_limit, explore)
        sources = load_sources(domain, problems, templates, options)
        warn(sources[0].domain.warnings if sources else ())
        if objects is not None:
            lo, hi = parse_range(objects, "--objects")
            sources = [s for s in sources if lo <= len(s.problem.objects) <= hi]
            if not sources:
                raise InputError(f"no problem has between {lo} and {hi} objects")
        where = Jobs(jobs, Executor.parse(executor), scheduler)
        try:
            with progress_bar({"items": "items (all tasks)"}, transient=True) as progress:
                result = run_generate(sources, options, progress, where)
        except Interrupted as e:
            interrupted(e, "nothing was written (the items are written once every task is done)")
            raise
        deliver(result.jsonl(), output)
        body = to_json(present.balance_json(result)) if report == Format.JSON else \
            present.balance_terminal(result, str(output) if output else "stdout")
        if output is None:  # the items went to stdout: the report goes to stderr
            c = console(stderr=True)
            for r in [body] if isinstance(body, str) else body:
                c.print(r, markup=r is not body)  # JSON is not console markup
        else:
            deliver(body)
    guarded(run)


@questions_app.command(epilog=examples(
    f"amlasp questions grade {QX}/items.jsonl {QX}/answers.jsonl",
    f"amlasp questions grade {QX}/items.jsonl {QX}/answers.jsonl -o grades.csv"))
def grade(
    items: Path = typer.Argument(..., help="items: our JSON lines, or an ACPBench file (a JSON list)"),
    answers: Optional[Path] = typer.Argument(None, help='answers as JSON lines {"id": ..., "answer": ...}'),
    check_gold: Optional[bool] = typer.Option(None, "--check-gold/--no-check-gold",
                                              help="re-derive every gen item's answer from its PDDL and list "
                                                   "disagreements (default: on without ANSWERS)"),
    time_limit: float = typer.Option(10.0, "--time-limit", help="seconds per planner call"),
    format: Optional[str] = RESULT_FORMAT,
    output: Optional[Path] = typer.Option(None, "--output", "-o", help="write the report to this file (atomically); "
                                          "with CSV the wrong answers go to FILE.wrong.csv"),
    scoring: str = choice_option("exact", "--scoring", choices=list(Scoring),
                                 help="exact: by meaning; acpbench: ACPBench's own evaluator (its parser, its "
                                      "per-task rules), to report beside"),
    acpbench_seconds: Optional[float] = typer.Option(
        None, "--acpbench-time-limit", min=0.001,
        help="with --scoring acpbench: seconds per planner run of ACPBench's evaluator, after which the answer "
             "scores 0 as there (default: its own, 3 for reach and areach, 5 for nexta)"),
):
    """Grade answers semantically (accuracy per task and form, why each wrong answer is wrong); check gold answers."""
    def run():
        from ..errors import Unreadable, error_class
        from ..questions.grade import grade as run_grade
        from ..render import questions as present
        from ..render.exports import output_format
        from ..render.formats import Format
        from ..render.output import deliver, refuse_overwrite
        from ..render.progress import progress_bar
        form = output_format(format, output, RESULT_FORMATS)
        beside = present.wrong_path(output) if form == Format.CSV and output is not None else None
        for target in (output, beside):
            refuse_overwrite(target, [items] + ([answers] if answers else []))
        its, given, errors = _read_records(items, answers)
        records = len(its) + len(given) + len(errors)
        check = check_gold if check_gold is not None else answers is None
        if not given and not check:
            raise InputError("nothing to do: give ANSWERS, or --check-gold")
        with progress_bar(transient=True) as progress:
            result = run_grade(its, given, check_gold=check, time_limit=time_limit, progress=progress,
                               scoring=str(Scoring.parse(scoring)), acpbench_seconds=acpbench_seconds,
                               unread=[Unreadable(f"{e.file}:{e.line}", str(e), error_class(e)) for e in errors])
        if result.unreadable and not keep_going():  # --strict: an error, before any output
            warn([d["problem"] + " (not graded)" for d in result.unreadable])
        if result.unknown_answers:
            warn([f"{len(result.unknown_answers)} answer(s) for ids no item has, e.g. {result.unknown_answers[0]}"])
        if form == Format.TABLE:
            deliver(present.grades_terminal(result), output)
        else:
            deliver(present.grades_text(result, form), output)
        if beside is not None:
            deliver(present.wrong_csv(result), beside)
        partial([e.message for e in result.errors] + [d["problem"] + " (not graded)" for d in result.unreadable],
                records, "items and answers")
    guarded(run)


def _read_records(items: Path, answers: Optional[Path]) -> tuple[list, dict, list[InputError]]:
    """The items, the answers and the records not read: those are rows, or with --strict an error (the
    first); when no item (or no answer) is read at all, the first one's error."""
    from ..questions.answers import read_answers
    from ..questions.gold import load_items
    bad_items: list[InputError] | None = [] if keep_going() else None
    bad_answers: list[InputError] | None = [] if keep_going() else None
    its = load_items(items, bad_items)
    if bad_items and not its:
        raise bad_items[0]
    given = read_answers(answers, bad_answers) if answers is not None else {}
    if bad_answers and not given:
        raise bad_answers[0]
    return its, given, (bad_items or []) + (bad_answers or [])
