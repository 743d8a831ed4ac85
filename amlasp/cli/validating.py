"""`amlasp validate` of one plan: the command's body, without Typer (`amlasp.launch.run_one_plan` calls it
for `validate DOMAIN PROBLEM PLAN`, the `validate` command for the same call with options)."""

from __future__ import annotations

from pathlib import Path

from . import warn


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


__all__ = ["load_task", "one_plan", "warm"]
