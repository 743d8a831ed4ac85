"""Many plans to validate: plan files of one problem, or a batch file of JSON lines.

A batch file has one JSON object per line (blank lines are skipped):
`{"problem": "p01.pddl", "plan": "p01.plan"}`, where `plan` is a plan file, the text of a plan
(any string with a parenthesis: `"(pick-up a)\\n(stack a b)"`), or a list of actions
(`["(pick-up a)", "(stack a b)"]`); an optional `"name"` labels the plan in the output (default:
the plan file, or `FILE:LINE` for a plan given inline). Paths are relative to the batch file.
Each problem file is read once, however many plans name it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from ..errors import InputError
from ..limits import check_nesting
from ..model import Domain, GroundAction, Problem
from .parse import load_problem
from .plans import parse_action, parse_plan, read_plan
from .source import read_text

_KEYS = ("problem", "plan", "name")


@dataclass(frozen=True)
class PlanTask:
    """One plan to validate: how the output names it, its problem (file and model) and its steps."""

    name: str
    problem_file: str
    problem: Problem
    plan: list[GroundAction]


class Problems:
    """Problem files read once each, with one domain."""

    def __init__(self, domain: Domain):
        self.domain = domain
        self._read: dict[Path, Problem] = {}
        self._named: dict[Path, Problem] = {}  # as written: a batch names a problem again and again

    def get(self, path: Path) -> Problem:
        hit = self._named.get(path)
        if hit is not None:
            return hit
        key = path.resolve()
        if key not in self._read:
            self._read[key] = load_problem(path, self.domain)
        self._named[path] = self._read[key]
        return self._read[key]


def plan_files(domain: Domain, problem: str | Path, plans: Sequence[str | Path]) -> list[PlanTask]:
    """`amlasp validate DOMAIN PROBLEM PLAN [PLAN ...]`: plan files of one problem."""
    p = Problems(domain).get(Path(problem))
    return [PlanTask(str(f), str(problem), p, read_plan(f, domain, p)) for f in plans]


def read_batch(path: str | Path, domain: Domain, problem: str | Path | None = None) -> list[PlanTask]:
    """The plans of a batch file; `problem` is the problem of lines that name none."""
    path = Path(path)
    problem = Path(problem) if problem is not None else None
    problems = Problems(domain)
    base = path.parent
    tasks = []
    for n, line in enumerate(read_text(path).splitlines(), 1):
        if not line.strip():
            continue
        check_nesting(line, path, n)
        try:
            item = json.loads(line)
        except json.JSONDecodeError as e:
            raise InputError(f"not a JSON object: {e.msg} (column {e.colno})", path, n) from None
        except ValueError as e:  # a number of more than 4,300 digits
            raise InputError(f"not a JSON object: {e}", path, n) from None
        if not isinstance(item, dict) or "plan" not in item:
            raise InputError('expected an object like {"problem": "p.pddl", "plan": "p.plan"}', path, n)
        extra = sorted(set(item) - set(_KEYS))
        if extra:
            raise InputError(f"unknown key(s) {', '.join(map(repr, extra))}: expected {', '.join(_KEYS)}", path, n)
        if "problem" in item:
            if not isinstance(item["problem"], str):
                raise InputError("'problem' must be a file name", path, n)
            problem_file = base / item["problem"]
            if not _is_file(problem_file):  # said at the line that names it
                raise InputError(f"no such problem file '{item['problem']}'", path, n)
        elif problem is not None:
            problem_file = problem
        else:
            raise InputError("no 'problem' on this line, and no PROBLEM given", path, n)
        p = problems.get(problem_file)
        plan, default_name = _plan(item["plan"], domain, p, base, path, n)
        name = item.get("name", default_name)
        if not isinstance(name, str):
            raise InputError("'name' must be a string", path, n)
        tasks.append(PlanTask(name, str(problem_file), p, plan))
    return tasks


def _is_file(path: Path) -> bool:
    """Whether `path` is a file; a name too long for the system is none (not an OSError)."""
    try:
        return path.is_file()
    except OSError:
        return False


def _plan(value: object, domain: Domain, problem: Problem, base: Path, path: Path, n: int
          ) -> tuple[list[GroundAction], str]:
    """A line's plan (a file, inline text, or a list of actions) and its default name; an error in
    an inline plan is reported at the batch file's line."""
    if isinstance(value, list) and all(isinstance(a, str) for a in value):
        plan = []
        for i, a in enumerate(value, 1):
            try:
                plan.append(parse_action(a, domain, problem))
            except InputError as e:
                raise InputError(f"action {i}: {e.message}", path, n) from None
        return plan, f"{path}:{n}"
    if isinstance(value, str) and "(" in value:
        try:
            return parse_plan(value, domain, problem), f"{path}:{n}"
        except InputError as e:
            raise InputError(f"plan line {e.line}: {e.message}" if e.line else e.message, path, n) from None
    if isinstance(value, str):
        if not _is_file(base / value):
            raise InputError(f"no such plan file '{value}'", path, n)
        return read_plan(base / value, domain, problem), str(base / value)
    raise InputError("'plan' must be a plan file, a plan's text or a list of actions", path, n)


__all__ = ["PlanTask", "plan_files", "read_batch"]
