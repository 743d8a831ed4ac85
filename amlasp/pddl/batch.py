"""Many plans to validate: plan files of one problem, or a batch file of JSON lines.

A batch file has one JSON object per line (blank lines are skipped):
`{"problem": "p01.pddl", "plan": "p01.plan"}`, where `plan` is a plan file, the text of a plan
(any string with a parenthesis: `"(pick-up a)\\n(stack a b)"`), or a list of actions
(`["(pick-up a)", "(stack a b)"]`); an optional `"name"` labels the plan in the output (default:
the plan file, or `FILE:LINE` for a plan given inline). Paths are relative to the batch file. Any other
key (`"model"`, `"id"`, ...) is the researcher's own field, passed through to the plan's verdict
(`PlanTask.fields`) when it is small (`Fields`). Each problem file is read once, however many plans
name it.

One bad plan never rejects the batch (issue 21): a plan, or the problem it names, that cannot be
read (an unknown object or action, a wrong arity, a malformed line, a missing file) is a task with
its `error`, located at `file:line:col`, and the step where reading stopped; `amlasp validate`
gives it the verdict `invalid` with that reason. Only a batch file that cannot be read as JSON
lines of plans is refused whole.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable, Sequence

from ..errors import InputError, warn_input
from ..limits import check_nesting
from ..model import Domain, GroundAction, Problem
from .parse import load_problem
from .plans import parse_action, parse_plan
from .source import read_text

_KEYS = ("problem", "plan", "name")  # a batch line's own keys; any other is the researcher's field

#: A field (a key of a batch line other than `_KEYS`) is kept when its value is a JSON scalar or a small
#: list or object: its compact JSON text at most FIELD_CHARS characters, its key at most FIELD_KEY_CHARS,
#: at most FIELDS of them a line. Anything else is left out of the verdict, with one warning per key.
FIELD_CHARS = 1000
FIELD_KEY_CHARS = 100
FIELDS = 50
#: Distinct field keys in a whole batch: each is a column of every verdict (CSV, the frame).
FIELD_KEYS = 200


@dataclass(frozen=True)
class PlanTask:
    """One plan to validate: how the output names it, its problem (file and model) and its steps."""

    name: str
    problem_file: str
    problem: Problem | None  # None when it could not be read (`error` says why)
    plan: list[GroundAction]
    error: InputError | None = None  # why the plan or its problem could not be read
    step: int | None = None  # the step (1-based) whose line could not be read, if one could not
    fields: dict = field(default_factory=dict)  # the batch line's other keys, passed through to its verdict
    plan_file: str | None = None  # where the plan was read from: a file ...
    plan_text: str | None = None  # ... or the batch line's text (a list of actions: one a line)


class Unreadable(Exception):
    """A plan that could not be read: the error, and the step (1-based) at which it was met."""

    def __init__(self, error: InputError, step: int | None):
        super().__init__(str(error))
        self.error, self.step = error, step


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
    """`amlasp validate DOMAIN PROBLEM PLAN [PLAN ...]`: plan files of one problem (which must be readable)."""
    p = Problems(domain).get(Path(problem))
    return [replace(_task(str(f), str(problem), p, lambda f=f: _plan_file(Path(f), domain, p)), plan_file=str(f))
            for f in plans]


class Fields:
    """The researcher's fields of a batch's lines (keys other than `_KEYS`), checked as untrusted: kept
    when small (`FIELD_CHARS`, `FIELD_KEY_CHARS`, `FIELDS`, `FIELD_KEYS`), else left out, said once per key and reason
    at the first line that had it (a batch of thousands of lines gets a few warnings, not thousands)."""

    def __init__(self, path: Path):
        self.path = path
        self._left: dict[tuple[str, str], list[int]] = {}  # (key, why) → the lines
        self._keys: set[str] = set()  # the keys kept so far

    def of(self, item: dict, n: int) -> dict:
        out: dict = {}
        for key, value in item.items():
            if key in _KEYS:
                continue
            why = self._refused(key, value, len(out))
            if not why and key not in self._keys and len(self._keys) >= FIELD_KEYS:
                why = f"more than {FIELD_KEYS} different fields in the batch"
            if why:
                self._left.setdefault((key[:FIELD_KEY_CHARS], why), []).append(n)
            else:
                out[key] = value
                self._keys.add(key)
        return out

    @staticmethod
    def _refused(key: str, value, kept: int) -> str:
        """Why a field is left out ("" if it is kept)."""
        if kept >= FIELDS:
            return f"more than {FIELDS} fields on a line"
        if len(key) > FIELD_KEY_CHARS or not key.isprintable():
            return f"a key must be printable and at most {FIELD_KEY_CHARS} characters"
        try:
            text = json.dumps(value, allow_nan=False, separators=(",", ":"))
        except ValueError:
            return "a number that is not finite"
        if len(text) > FIELD_CHARS:
            return f"a value of more than {FIELD_CHARS} characters of JSON"
        return ""

    def warn(self) -> None:
        for (key, why), lines in self._left.items():
            more = f" (and {len(lines) - 1} other line(s))" if len(lines) > 1 else ""
            warn_input(f"field {key!r} left out of the verdict: {why}{more}", self.path, lines[0])


def read_batch(path: str | Path, domain: Domain, problem: str | Path | None = None,
               keep_going: bool = True) -> list[PlanTask]:
    """The plans of a batch file; `problem` is the problem of lines that name none.
    `keep_going=False` (`amlasp --strict`): a problem that cannot be read (or is missing) raises its error
    rather than being the task's (`PlanTask.problem` None)."""
    path = Path(path)
    problem = Path(problem) if problem is not None else None
    problems = Problems(domain)
    base = path.parent
    fields = Fields(path)
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
        own = fields.of(item, n)
        if "problem" in item:
            if not isinstance(item["problem"], str):
                raise InputError("'problem' must be a file name", path, n)
            problem_file = base / item["problem"]
            if not _is_file(problem_file):  # this plan's own verdict, said at the line that names it
                error = InputError(f"no such problem file '{item['problem']}'", path, n)
                if not keep_going:
                    raise error
                tasks.append(PlanTask(_name(item, base, path, n), str(problem_file), None, [], error,
                                      **_source(item["plan"], base), fields=own))
                continue
        elif problem is not None:
            problem_file = problem
        else:
            raise InputError("no 'problem' on this line, and no PROBLEM given", path, n)
        value = item["plan"]
        if not (isinstance(value, str) or (isinstance(value, list) and all(isinstance(a, str) for a in value))):
            raise InputError("'plan' must be a plan file, a plan's text or a list of actions", path, n)
        name = _name(item, base, path, n)
        try:
            p = problems.get(problem_file)
        except InputError as e:
            if not keep_going:
                raise
            tasks.append(PlanTask(name, str(problem_file), None, [], e, **_source(value, base), fields=own))
            continue
        task = _task(name, str(problem_file), p, lambda v=value, p=p, n=n: _plan(v, domain, p, base, path, n))
        tasks.append(replace(task, **_source(value, base), fields=own))
    fields.warn()
    return tasks


def _source(value, base: Path) -> dict:
    """What a line's `plan` is: a file (`plan_file`, relative to the batch) or a plan's text (`plan_text`)."""
    if isinstance(value, list):
        return {"plan_text": "\n".join(v for v in value if isinstance(v, str))}
    if not isinstance(value, str):
        return {}
    return {"plan_text": value} if "(" in value else {"plan_file": str(base / value)}


def _is_file(path: Path) -> bool:
    """Whether `path` is a file; a name too long for the system is none (not an OSError)."""
    try:
        return path.is_file()
    except OSError:
        return False


def _name(item: dict, base: Path, path: Path, n: int) -> str:
    """A line's plan name: its `name`, else its plan file, else the batch file's line."""
    value = item["plan"]
    name = item.get("name", str(base / value) if isinstance(value, str) and "(" not in value else f"{path}:{n}")
    if not isinstance(name, str):
        raise InputError("'name' must be a string", path, n)
    return name


def _task(name: str, problem_file: str, problem: Problem, read: Callable[[], list[GroundAction]]) -> PlanTask:
    """The task of one plan whose steps `read()` gives, or an unreadable one with its error."""
    try:
        return PlanTask(name, problem_file, problem, read())
    except Unreadable as e:
        return PlanTask(name, problem_file, problem, [], e.error, e.step)


def _step_at(text: str, line: int | None) -> int | None:
    """The step of a plan's `text` at `line`: the action lines before it, plus one."""
    if line is None:
        return None
    return 1 + sum(1 for x in text.split("\n")[:line - 1] if x.split(";", 1)[0].strip())


def _plan(value: str | list[str], domain: Domain, problem: Problem, base: Path, path: Path, n: int
          ) -> list[GroundAction]:
    """A line's plan (a file, inline text, or a list of actions); an error in an inline plan is
    reported at the batch file's line."""
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
    return _plan_file(base / value, domain, problem)


def _plan_file(f: Path, domain: Domain, problem: Problem) -> list[GroundAction]:
    """A plan file's steps; Unreadable if the file or one of its lines cannot be read."""
    try:
        text = read_text(f)
    except InputError as e:
        raise Unreadable(e, None) from None
    try:
        return parse_plan(text, domain, problem, str(f))
    except InputError as e:
        raise Unreadable(e, _step_at(text, e.line)) from None


__all__ = ["PlanTask", "Unreadable", "plan_files", "read_batch"]
