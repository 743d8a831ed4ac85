"""`amlasp validate`'s body, without Typer: `one_plan` (`amlasp.launch` calls it for `validate DOMAIN PROBLEM
PLAN`) and `many_plans` (every form: the `validate` command calls it, and `amlasp.launch` too for a call whose
options need no Typer to read them)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Optional, Sequence

from . import interrupted, keep_going, say_erred, warn


def load_task(domain: Path, problem: Path):
    """A domain (its repair warnings printed) and a problem read with it."""
    from ..pddl.parse import load_domain, load_problem
    d = load_domain(domain)
    warn(f"{domain}: {w}" for w in d.warnings)
    return d, load_problem(problem, d)


def answer_sentences(domain) -> dict[str, str]:
    """`--from-text`: the English of the domain's actions, read in an answer besides their names."""
    from ..questions.language import action_sentences
    return action_sentences(domain)


def one_plan(domain: Path, problem: Path, plan: Path, format: str, lenient: bool = False,
             output: Path | None = None, *, from_text: bool = False) -> int:
    """Validate `plan` and print its report (`format`: table or json; `output`: -o's file); the exit code,
    0 valid, or 1 invalid or unreadable (a line that cannot be read is a verdict, as in a batch; a file that
    cannot be read at all is bad input). `lenient`: plans as language models write them (`pddl.lenient`).
    `from_text`: `plan` is a language model's answer, its plan read out of it first (pddl/response.py)."""
    from ..pddl.plans import load_plan
    from ..reasoning.validations import validate_plans
    from ..render import reasoning as present
    from ..render.formats import Format, to_json
    from ..render.output import deliver
    d, p = load_task(domain, problem)
    extracted = None
    if from_text:
        from ..pddl.response import read_answer
        from ..pddl.source import read_text
        reading, extracted = read_answer(read_text(plan), d, p, str(plan), answer_sentences(d))
    else:
        reading = load_plan(plan, d, p, lenient)
    ex = validate_plans(d, [(p, reading)])[0]
    deliver(to_json(present.execution_json(ex, states=False, verdict=True, extracted=extracted))
            if format == Format.JSON else present.validate_lines(ex) + present.extracted_lines(extracted), output)
    return 0 if ex.valid else 1


def many_plans(domain: Path, problem: Optional[Path], plans: Sequence[Path], batch: Optional[Path],
               group_by: Optional[str], optimal: bool, optimal_timeout: Optional[float], format: Optional[str],
               output: Optional[Path], lenient: bool, from_text: bool, jobs: int = 1, executor: str = "process",
               scheduler: Optional[str] = None) -> int:
    """The `validate` command with its options read: one plan's report, or a verdict per plan (several
    PLANs or --batch); the exit code, 0 all valid, 1 one invalid, 2 a batch record that could not be read
    (after the verdicts of the others)."""
    from ..choices import RESULT_FORMATS
    from ..errors import InputError
    from ..render.exports import output_format, summary_path
    from ..render.formats import Format
    from ..render.output import deliver, refuse_overwrite
    form = output_format(format, output, RESULT_FORMATS)
    if batch is None and (problem is None or not plans):
        raise InputError("give a PROBLEM and PLAN file(s), or --batch FILE")
    if batch is not None and plans:
        raise InputError("give PLAN files or --batch, not both")
    if optimal_timeout is not None and not (optimal_timeout > 0):
        raise InputError("--optimal-timeout must be a positive number of seconds")
    inputs = [domain, problem, batch, *plans]
    summary_file = summary_path(output) if output is not None and group_by is not None else None
    refuse_overwrite(output, inputs)
    refuse_overwrite(summary_file, inputs)
    if batch is None and len(plans) == 1 and form in (Format.TABLE, Format.JSON) and group_by is None \
            and not optimal:  # one plan: its own report
        assert problem is not None
        return one_plan(domain, problem, plans[0], form, lenient, output, from_text=from_text)
    from ..pddl.batch import plan_files, read_batch
    from ..pddl.parse import load_domain
    from ..reasoning.validations import OPTIMAL_COLUMNS, VALIDATION_COLUMNS
    d = load_domain(domain)
    warn(d.warnings)
    answers = answer_sentences(d) if from_text else None
    if batch is not None:
        tasks = read_batch(batch, d, problem, keep_going=keep_going(), lenient=lenient, answers=answers)
    else:
        assert problem is not None  # said above: plans need a problem
        tasks = plan_files(d, problem, list(plans), lenient, answers=answers)
    if output is not None:  # the files the batch named: inputs too
        named = [f for f in {Path(x) for t in tasks for x in (t.problem_file, t.plan_file) if x} if _exists(f)]
        refuse_overwrite(output, named)
        refuse_overwrite(summary_file, named)
    if group_by is not None and group_by not in {*VALIDATION_COLUMNS, *(OPTIMAL_COLUMNS if optimal else ()),
                                                 *(k for t in tasks for k in t.fields)}:
        raise InputError(f"--group-by {group_by!r}: no batch line has that field, and no verdict has that column")
    verdicts = _validated(d, tasks, optimal, optimal_timeout, jobs, executor, scheduler)
    records = verdicts.records()
    text, stext = _verdicts_text(form, verdicts, records, group_by, optimal)
    _deliver_verdicts(deliver, text, stext, output, summary_file, "" if form == Format.JSON else "\n")
    erred = [r["error"] for r in records if r["status"] == "error"]
    if erred:  # a partial run (docs/input.md): its complete results written, then exit 2
        say_erred(erred, len(tasks), "batch records")
        return 2
    return 0 if all(r["status"] == "valid" for r in records) else 1


def _validated(d: Any, tasks: list, optimal: bool, optimal_timeout: Optional[float], jobs: int, executor: str,
               scheduler: Optional[str]) -> Any:
    """The batch's verdicts, in `jobs` workers (--executor, --scheduler); Ctrl-C says nothing was written."""
    from ..choices import Executor
    from ..errors import Interrupted
    from ..jobs import Jobs
    from ..reasoning.validations import validate_plans
    try:
        return validate_plans(d, tasks, optimal=optimal, optimal_timeout=optimal_timeout,
                              jobs=Jobs(jobs, Executor.parse(executor), scheduler))
    except Interrupted as e:
        interrupted(e, "nothing was written (the verdicts are written once every plan is validated)")
        raise


def _verdicts_text(form: Any, verdicts: Any, records: list, group_by: Optional[str], optimal: bool) -> tuple[Any, Any]:
    """The verdicts in `form` (text, or a table's lines), and the summary per group (--group-by) or None."""
    from ..render import reasoning as present
    from ..render.formats import Format, to_json_lines
    groups = verdicts.summary(group_by) if group_by is not None else None
    scolumns = verdicts.summary_columns()
    text: Any
    stext: Any = None
    if form == Format.JSON:
        text = to_json_lines(present.verdict_json(r) for r in records)
        if group_by is not None and groups is not None:
            stext = to_json_lines({"group_by": group_by, **g} for g in groups)
    elif form == Format.TABLE:
        text = present.verdicts_table(records, optimal)
        if group_by is not None and groups is not None:
            stext = present.summary_table(groups, group_by, scolumns)
    else:
        text = present.verdicts_text(form, verdicts.columns, records)
        if groups is not None:
            stext = present.verdicts_text(form, scolumns, groups)
    return text, stext


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


def warm(domain: str, problem: str, plan: str) -> None:
    """Run once, on a small task's texts, all that a one-plan call runs (reading, the engine and its
    encodings, the report as text and JSON, rich's terminal output): `amlasp server`'s children start
    warm with it, and a server stays free of presentation code of its own."""
    import io

    import clingo.ast  # noqa: F401 (the compiled rules of a domain are parsed with it)
    from rich.console import Console

    from ..pddl.parse import parse_domain, parse_problem
    from ..pddl.plans import read_plan_text
    from ..reasoning.validations import validate_plans
    from ..render import reasoning as present
    from ..render.formats import to_json
    from ..render.output import _plain
    d = parse_domain(domain, "warm-up")
    p = parse_problem(problem, d, "warm-up")
    ex = validate_plans(d, [(p, read_plan_text(plan, d, p, "warm-up"))])[0]  # one_plan's own path
    lines = present.validate_lines(ex)
    to_json(present.execution_json(ex, states=False, verdict=True))
    _plain(lines)
    c = Console(file=io.StringIO(), force_terminal=True, width=80, highlight=False, soft_wrap=False)
    for line in lines:
        c.print(line)


__all__ = ["load_task", "many_plans", "one_plan", "warm"]
