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


def one_plan(domain: Path, problem: Path, plan: Path, format: str, output: Path | None = None) -> int:
    """Validate `plan` and print its report (`format`: table or json; `output`: -o's file); the exit code,
    0 valid or 1 invalid."""
    from ..pddl.plans import read_plan
    from ..reasoning import engine
    from ..render import reasoning as present
    from ..render.formats import Format, to_json
    from ..render.output import deliver
    d, p = load_task(domain, problem)
    ex = engine.execute(d, p, read_plan(plan, d, p), states=False, explain=True)
    deliver(to_json(present.execution_json(ex, states=False, verdict=True)) if format == Format.JSON
            else present.validate_lines(ex), output)
    return 0 if ex.valid else 1


__all__ = ["load_task", "one_plan"]
