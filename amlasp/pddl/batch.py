"""Many plans to validate: plan files of one problem, or a batch file of JSON lines.

A batch file has one JSON object per line (blank lines are skipped):
`{"problem": "p01.pddl", "plan": "p01.plan"}`, where `plan` is a plan file, the text of a plan
(any string with a parenthesis: `"(pick-up a)\\n(stack a b)"`), or a list of actions
(`["(pick-up a)", "(stack a b)"]`); an optional `"name"` labels the plan in the output (default:
the plan file, or `FILE:LINE` for a plan given inline). Paths are relative to the batch file.
Each problem file is read once, however many plans name it.

One bad plan never rejects the batch (issue 21): a plan, or the problem it names, that cannot be
read (an unknown object or action, a wrong arity, a malformed line, a missing file) is a task with
its `error`, located at `file:line:col`, and the step where reading stopped; `amlasp validate`
gives it the verdict `invalid` with that reason. Only a batch file that cannot be read as JSON
lines of plans is refused whole.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Mapping, Sequence, Union

from ..errors import InputError
from ..limits import check_nesting
from ..model import Domain, GroundAction, Problem
from .parse import load_problem
from .plans import parse_action, parse_plan
from .response import Extraction, ResponseError, read_response
from .source import read_text

_KEYS = ("problem", "plan", "name")


@dataclass(frozen=True)
class PlanTask:
    """One plan to validate: how the output names it, its problem (file and model) and its steps."""

    name: str
    problem_file: str
    problem: Problem | None  # None when it could not be read (`error` says why)
    plan: list[GroundAction]
    error: InputError | None = None  # why the plan or its problem could not be read
    step: int | None = None  # the step (1-based) whose line could not be read, if one could not
    extracted: Extraction | None = None  # `validate --from-text`: the plan read out of the answer


class Unreadable(Exception):
    """A plan that could not be read: the error, and the step (1-based) at which it was met."""

    def __init__(self, error: InputError, step: int | None, extracted: Extraction | None = None):
        super().__init__(str(error))
        self.error, self.step, self.extracted = error, step, extracted


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


def plan_files(domain: Domain, problem: str | Path, plans: Sequence[str | Path], *,
               answers: Mapping[str, str] | None = None) -> list[PlanTask]:
    """`amlasp validate DOMAIN PROBLEM PLAN [PLAN ...]`: plan files of one problem (which must be readable);
    with `answers` (`--from-text`: the actions' English, `questions.language.action_sentences`) each file is
    a language model's answer, its plan read out of it (`response.read_response`)."""
    p = Problems(domain).get(Path(problem))
    return [_task(str(f), str(problem), p, lambda f=f: _plan_file(Path(f), domain, p, answers)) for f in plans]


def read_batch(path: str | Path, domain: Domain, problem: str | Path | None = None,
               keep_going: bool = True, *, answers: Mapping[str, str] | None = None) -> list[PlanTask]:
    """The plans of a batch file; `problem` is the problem of lines that name none.
    `keep_going=False` (`amlasp --strict`): a problem that cannot be read (or is missing) raises its error
    rather than being the task's (`PlanTask.problem` None). With `answers` (as `plan_files`) each `plan` is
    an answer: a file, or its text when it has a line break, a parenthesis or a space (a list: its lines)."""
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
            if not _is_file(problem_file):  # this plan's own verdict, said at the line that names it
                error = InputError(f"no such problem file '{item['problem']}'", path, n)
                if not keep_going:
                    raise error
                tasks.append(PlanTask(_name(item, base, path, n, answers is not None), str(problem_file), None, [],
                                      error))
                continue
        elif problem is not None:
            problem_file = problem
        else:
            raise InputError("no 'problem' on this line, and no PROBLEM given", path, n)
        value = item["plan"]
        if not (isinstance(value, str) or (isinstance(value, list) and all(isinstance(a, str) for a in value))):
            raise InputError("'plan' must be a plan file, a plan's text or a list of actions", path, n)
        name = _name(item, base, path, n, answers is not None)
        try:
            p = problems.get(problem_file)
        except InputError as e:
            if not keep_going:
                raise
            tasks.append(PlanTask(name, str(problem_file), None, [], e))
            continue
        tasks.append(_task(name, str(problem_file), p,
                           lambda v=value, p=p, n=n: _plan(v, domain, p, base, path, n, answers)))
    return tasks


def _is_file(path: Path) -> bool:
    """Whether `path` is a file; a name too long for the system is none (not an OSError)."""
    try:
        return path.is_file()
    except OSError:
        return False


def _inline(value: str, answer: bool) -> bool:
    """A batch line's `plan` string is the plan's text, not a file: it has a parenthesis (an answer: or a
    line break or a space)."""
    return "(" in value or (answer and any(c in value for c in "\n "))


def _name(item: dict, base: Path, path: Path, n: int, answer: bool = False) -> str:
    """A line's plan name: its `name`, else its plan file, else the batch file's line."""
    value = item["plan"]
    name = item.get("name", str(base / value) if isinstance(value, str) and not _inline(value, answer)
                    else f"{path}:{n}")
    if not isinstance(name, str):
        raise InputError("'name' must be a string", path, n)
    return name


_Read = Union[list[GroundAction], tuple[list[GroundAction], Extraction]]


def _task(name: str, problem_file: str, problem: Problem, read: Callable[[], _Read]) -> PlanTask:
    """The task of one plan whose steps `read()` gives (with the extraction, for an answer), or an
    unreadable one with its error."""
    try:
        got = read()
    except Unreadable as e:
        return PlanTask(name, problem_file, problem, [], e.error, e.step, e.extracted)
    plan, extracted = got if isinstance(got, tuple) else (got, None)
    return PlanTask(name, problem_file, problem, plan, extracted=extracted)


def _step_at(text: str, line: int | None) -> int | None:
    """The step of a plan's `text` at `line`: the action lines before it, plus one."""
    if line is None:
        return None
    return 1 + sum(1 for x in text.split("\n")[:line - 1] if x.split(";", 1)[0].strip())


def _plan(value: str | list[str], domain: Domain, problem: Problem, base: Path, path: Path, n: int,
          answers: Mapping[str, str] | None = None) -> _Read:
    """A line's plan (a file, inline text, or a list of actions); an error in an inline plan is
    reported at the batch file's line."""
    if answers is not None and (isinstance(value, list) or _inline(value, True)):
        text = "\n".join(value) if isinstance(value, list) else value
        try:
            return read_response(text, domain, problem, str(path), answers)
        except ResponseError as e:
            where = f"answer line {e.line}, column {e.col}: " if e.line else ""
            raise Unreadable(InputError(where + e.message, path, n), e.step, e.extraction) from None
    if isinstance(value, list):
        plan = []
        for i, a in enumerate(value, 1):
            try:
                plan.append(parse_action(a, domain, problem))
            except InputError as e:
                raise Unreadable(InputError(f"action {i}: {e.message}", path, n), i) from None
        return plan
    if "(" in value:
        try:
            return parse_plan(value, domain, problem)
        except InputError as e:
            error = InputError(f"plan line {e.line}: {e.message}" if e.line else e.message, path, n)
            raise Unreadable(error, _step_at(value, e.line)) from None
    return _plan_file(base / value, domain, problem, answers)


def _plan_file(f: Path, domain: Domain, problem: Problem, answers: Mapping[str, str] | None = None) -> _Read:
    """A plan file's steps (an answer's, with `answers`); Unreadable if the file or one of its lines cannot be read."""
    try:
        text = read_text(f)
    except InputError as e:
        raise Unreadable(e, None) from None
    if answers is not None:
        try:
            return read_response(text, domain, problem, str(f), answers)
        except ResponseError as e:
            raise Unreadable(e, e.step, e.extraction) from None
    try:
        return parse_plan(text, domain, problem, str(f))
    except InputError as e:
        raise Unreadable(e, _step_at(text, e.line)) from None


__all__ = ["PlanTask", "Unreadable", "plan_files", "read_batch"]
