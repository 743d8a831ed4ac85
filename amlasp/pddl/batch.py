"""Many plans to validate: plan files of one problem, or a batch file of JSON lines.

A batch file has one JSON object per line (blank lines are skipped):
`{"problem": "p01.pddl", "plan": "p01.plan"}`, where `plan` is a plan file (a string that names an
existing file), else the text of a plan (`"(pick-up a)\\n(stack a b)"`; `""` is the empty plan, and
any other text is read as a plan too), or a list of actions (`["(pick-up a)", "(stack a b)"]`; `[]`
the empty plan); an optional `"name"` labels the plan in the output (default: the plan file, or
`FILE:LINE` for a plan given inline). Paths are relative to the batch file. Each problem file is read
once, however many plans name it. Any other
key (`"model"`, `"id"`, ...) is the researcher's own field, passed through to the plan's verdict
(`PlanTask.fields`) when it is small (`Fields`).

One bad plan never rejects the batch (issue 21): a plan with a line that cannot be read (an unknown
object or action, a wrong arity, a malformed line) is read as far as it goes (`pddl.plans.PlanReading`:
the steps before that line and its located error), and `amlasp validate` runs those steps and gives
the verdict, their failure or `unreadable`, as it does for one plan; so does a plan file that cannot be
read at all (no step read). A problem that cannot be read is a task with its `error` and no problem.
Only a batch file that cannot be read as JSON lines of plans is refused whole.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping, Sequence

from ..errors import InputError, warn_input
from ..limits import check_nesting
from ..model import Domain, GroundAction, Problem
from .parse import load_problem
from .plans import PlanReading, load_plan, parse_action, read_plan_text
from .source import read_text

if TYPE_CHECKING:  # read_answer imported where it is used: only --from-text reads answers (10 ms)
    from .response import Extraction

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
    plan: list[GroundAction]  # the steps read: all, or those before the line that could not be read
    error: InputError | None = None  # why the plan (a line of it) or its problem could not be read
    step: int | None = None  # the step (1-based) whose line could not be read, if one could not
    repairs: tuple = ()  # what lenient reading repaired (`pddl.lenient.Repair`)
    extracted: Extraction | None = None  # `validate --from-text`: the plan read out of the answer
    fields: dict = field(default_factory=dict)  # the batch line's other keys, passed through to its verdict
    plan_file: str | None = None  # where the plan was read from: a file ...
    plan_text: str | None = None  # ... or the batch line's text (a list of actions: one a line)

    @property
    def reading(self) -> PlanReading:
        """The plan as read, for `validations.validate_plans` (a task whose problem was read)."""
        return PlanReading(tuple(self.plan), self.error, self.repairs)


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


def plan_files(domain: Domain, problem: str | Path, plans: Sequence[str | Path], lenient: bool = False, *,
               answers: Mapping[str, str] | None = None) -> list[PlanTask]:
    """`amlasp validate DOMAIN PROBLEM PLAN [PLAN ...]`: plan files of one problem (which must be readable);
    with `answers` (`--from-text`: the actions' English, `questions.language.action_sentences`) each file is
    a language model's answer, its plan read out of it (`response.read_answer`)."""
    p = Problems(domain).get(Path(problem))
    return [replace(_task(str(f), str(problem), p, *_plan_file(Path(f), domain, p, lenient, answers)), plan_file=str(f))
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
               keep_going: bool = True, lenient: bool = False, *, answers: Mapping[str, str] | None = None
               ) -> list[PlanTask]:
    """The plans of a batch file; `problem` is the problem of lines that name none.
    `keep_going=False` (`amlasp --strict`): a problem that cannot be read (or is missing) raises its error
    rather than being the task's (`PlanTask.problem` None). `lenient`: plans as language models write
    them (`pddl.lenient`). With `answers` (as `plan_files`) each `plan` is an answer: a file, or its text."""
    path = Path(path)
    problem = Path(problem) if problem is not None else None
    problems = Problems(domain)
    base = path.parent
    fields = Fields(path)
    tasks = []
    for n, line in enumerate(read_text(path).splitlines(), 1):
        if not line.strip():
            continue
        item = _item(line, path, n)
        value = item["plan"]
        file = _plan_path(value, base)
        name = _name(item, file, path, n)
        own = fields.of(item, n)
        source: dict[str, Any] = {"plan_file": str(file)} if file is not None else {"plan_text": _text(value)}
        if "problem" in item:
            if not isinstance(item["problem"], str):
                raise InputError("'problem' must be a file name", path, n)
            problem_file = base / item["problem"]
            if not _is_file(problem_file):  # this plan's own verdict, said at the line that names it
                error = InputError(f"no such problem file '{item['problem']}'", path, n)
                if not keep_going:
                    raise error
                tasks.append(PlanTask(name, str(problem_file), None, [], error, **source, fields=own))
                continue
        elif problem is not None:
            problem_file = problem
        else:
            raise InputError("no 'problem' on this line, and no PROBLEM given", path, n)
        try:
            p = problems.get(problem_file)
        except InputError as e:
            if not keep_going:
                raise
            tasks.append(PlanTask(name, str(problem_file), None, [], e, **source, fields=own))
            continue
        if file is not None:
            task = _task(name, str(problem_file), p, *_plan_file(file, domain, p, lenient, answers))
        elif answers is not None:
            task = _task(name, str(problem_file), p, *_answer(value, domain, p, path, n, answers))
        else:
            task = _task(name, str(problem_file), p, _plan(value, domain, p, path, n, lenient))
        tasks.append(replace(task, **source, fields=own))
    fields.warn()
    return tasks


def _item(line: str, path: Path, n: int) -> dict:
    """A batch line as a JSON object with a plan (a file, a text, or a list of actions), or its error."""
    check_nesting(line, path, n)
    try:
        item = json.loads(line)
    except json.JSONDecodeError as e:
        raise InputError(f"not a JSON object: {e.msg} (column {e.colno})", path, n) from None
    except ValueError as e:  # a number of more than 4,300 digits
        raise InputError(f"not a JSON object: {e}", path, n) from None
    if not isinstance(item, dict) or "plan" not in item:
        raise InputError('expected an object like {"problem": "p.pddl", "plan": "p.plan"}', path, n)
    value = item["plan"]
    if not (isinstance(value, str) or (isinstance(value, list) and all(isinstance(a, str) for a in value))):
        raise InputError("'plan' must be a plan file, a plan's text or a list of actions", path, n)
    return item


def _text(value: str | list[str]) -> str:
    """A line's inline plan as text (`plan_text`): a list of actions, one a line."""
    return "\n".join(value) if isinstance(value, list) else value


def _is_file(path: Path) -> bool:
    """Whether `path` is a file; a name too long for the system, or with a NUL, is none (no OSError)."""
    try:
        return path.is_file()
    except (OSError, ValueError):
        return False


def _plan_path(value: str | list[str], base: Path) -> Path | None:
    """The plan file a line's `plan` names: a one-line string that names an existing file; else None
    (plan text or a list of actions)."""
    if not isinstance(value, str) or not value.strip() or "\n" in value:
        return None
    f = base / value
    return f if _is_file(f) else None


def _name(item: dict, file: Path | None, path: Path, n: int) -> str:
    """A line's plan name: its `name`, else its plan file, else the batch file's line."""
    name = item.get("name", str(file) if file is not None else f"{path}:{n}")
    if not isinstance(name, str):
        raise InputError("'name' must be a string", path, n)
    return name


def _task(name: str, problem_file: str, problem: Problem, reading: PlanReading,
          extracted: Extraction | None = None) -> PlanTask:
    """The task of one plan as read (up to a line that could not be read, with its error)."""
    return PlanTask(name, problem_file, problem, list(reading.steps), reading.error, reading.step, reading.repairs,
                    extracted)


def _answer(value: str | list[str], domain: Domain, problem: Problem, path: Path, n: int,
            answers: Mapping[str, str]) -> tuple[PlanReading, Extraction]:
    """A line's inline answer (its text, or a list of its lines), its plan read out of it; an error is
    reported at the batch file's line, with its place in the answer."""
    text = "\n".join(value) if isinstance(value, list) else value
    from .response import read_answer
    reading, x = read_answer(text, domain, problem, str(path), answers)
    e = reading.error
    if e is None:
        return reading, x
    where = f"answer line {e.line}, column {e.col}: " if e.line else ""
    return PlanReading(reading.steps, InputError(where + e.message, path, n, kind=e.kind)), x


def _plan(value: str | list[str], domain: Domain, problem: Problem, path: Path, n: int, lenient: bool
          ) -> PlanReading:
    """A line's inline plan (text, or a list of actions) read as far as it goes; an error is reported at
    the batch file's line, with the plan's own line (`plan line K`) or action (`action K`)."""
    if isinstance(value, list):
        steps: list[GroundAction] = []
        repairs: list = []
        for i, a in enumerate(value, 1):
            try:
                if lenient:
                    one = read_plan_text(a, domain, problem, "<action>", lenient=True)
                    repairs += (replace(r, line=i) for r in one.repairs)  # its line: the action's place
                    if one.error is not None:
                        raise one.error
                    steps += one.steps
                else:
                    steps.append(parse_action(a, domain, problem))
            except InputError as e:
                return PlanReading(tuple(steps), InputError(f"action {i}: {e.message}", path, n, kind=e.kind),
                                   tuple(repairs))
        return PlanReading(tuple(steps), None, tuple(repairs))
    reading = read_plan_text(value, domain, problem, lenient=lenient)
    error = reading.error
    if error is None:
        return reading
    message = f"plan line {error.line}: {error.message}" if error.line else error.message
    if "(" not in value and len(value.split()) == 1:  # one word, no action: a plan file meant?
        message += f" (nor does it name a plan file: no such file '{value.strip()}')"
    return PlanReading(reading.steps, InputError(message, path, n, kind=error.kind), reading.repairs)


def _plan_file(f: Path, domain: Domain, problem: Problem, lenient: bool, answers: Mapping[str, str] | None = None
               ) -> tuple[PlanReading] | tuple[PlanReading, Extraction]:
    """A plan file read as far as it goes (an answer's plan, with `answers`, and what was extracted); one
    that cannot be read at all (missing, binary): no step, its error."""
    try:
        if answers is not None:
            from .response import read_answer
            return read_answer(read_text(f), domain, problem, str(f), answers)
        return (load_plan(f, domain, problem, lenient),)
    except InputError as e:
        return (PlanReading((), e),)


__all__ = ["PlanTask", "plan_files", "read_batch"]
