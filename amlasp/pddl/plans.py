"""Ground actions and plans: IPC plan files, and actions given on the command line.

A plan is read as far as it goes (`PlanReading`): the steps before its first line that cannot be read,
and that line's error; an empty text is the empty plan. `lenient` reading (`pddl.lenient`) repairs the
forms language models write first.

Every action is checked (`ground.Grounder`) against the problem's objects, their types and
(unless told otherwise) the domain's actions and arities, with `file:line:col` on errors.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Sequence

from ..errors import InputError
from ..model import Domain, GroundAction, Problem
from . import sexpr
from .ground import Grounder
from .source import read_text

if TYPE_CHECKING:
    from .lenient import Repair


def parse_action(text: str, domain: Domain, problem: Problem, source: str = "<command line>") -> GroundAction:
    """A ground action typed by a user, "(stack b1 b2)" or "stack b1 b2"; `source` names it in errors."""
    stripped = text.strip()
    col = len(text) - len(text.lstrip()) + 1
    if "(" in stripped or ")" in stripped:
        node = sexpr.read(stripped, source, 1, col)
    else:  # read as if the user had typed the parentheses: columns stay the user's
        node = sexpr.read(f"({stripped})", source, 1, col - 1)
        node.col = max(node.col, 1)  # the added '(' stands before the first column: the action starts there
    return Grounder(domain, problem.object_types(domain)).action(node, source)


def parse_actions(text: str, domain: Domain, problem: Problem, source: str = "<actions>") -> list[GroundAction]:
    """Ground actions written in a row, "(sail l0 l1) (board c0 l1)" (a walk, a sequence a question
    quotes); `source` names the text in errors."""
    node = sexpr.read(f"({text})", source, 1, 0)
    node.col = 1  # the added '(' stands before the first column
    grounder = Grounder(domain, problem.object_types(domain))
    return [grounder.action(a, source) for a in node]


_PLAN_LINE = re.compile(r"^(\s*)(?:\d+(?:\.\d+)?\s*:\s*)?(\(.*\))\s*(?:\[[^\]]*\])?\s*$")
#: An action of plain words, `(stack b1 b2)`: read without the s-expression reader (`Grounder.plain_action`).
_PLAIN = re.compile(r"\(\s*([^\s();?]+(?:\s+[^\s();?]+)*)\s*\)")


@dataclass(frozen=True)
class PlanReading:
    """A plan's text read as far as it goes, the one reading of every mode (one call, many, a batch, the
    API): the steps before the first line that cannot be read (all of them when `error` is None), that
    line's located error, and what `--lenient` reading repaired. The steps read are executed, so that a
    failure before the unreadable line is the plan's failure, as VAL reports it."""

    steps: tuple[GroundAction, ...]
    error: InputError | None = None
    repairs: tuple[Repair, ...] = ()

    @property
    def step(self) -> int | None:
        """The step (1-based) whose line could not be read; None when all were read, or when the text
        itself could not be (a missing file: its error has no line)."""
        return None if self.error is None or self.error.line is None else len(self.steps) + 1


def read_plan(path: str | Path, domain: Domain, problem: Problem, check_actions: bool = True
              ) -> list[GroundAction]:
    """IPC plan format: one `(action a b)` per line, `;` comments; `0: (a b) [1]` also read. An empty file
    is the empty plan. A line that cannot be read raises its error (`load_plan`: the steps before it)."""
    return parse_plan(read_text(path), domain, problem, str(path), check_actions)


def load_plan(path: str | Path, domain: Domain, problem: Problem, lenient: bool = False) -> PlanReading:
    """A plan file read as far as it goes (`PlanReading`); a file that cannot be read at all (missing,
    binary) raises its error. `lenient`: plans as language models write them (`pddl.lenient`)."""
    return read_plan_text(read_text(path), domain, problem, str(path), lenient=lenient)


def parse_plan(text: str, domain: Domain, problem: Problem, file: str = "<plan>", check_actions: bool = True
               ) -> list[GroundAction]:
    """`read_plan` of a plan's text (a batch file gives plans inline); `file` names it in errors."""
    reading = read_plan_text(text, domain, problem, file, check_actions)
    if reading.error is not None:
        raise reading.error
    return list(reading.steps)


def read_plan_text(text: str, domain: Domain, problem: Problem, file: str = "<plan>", check_actions: bool = True,
                   lenient: bool = False) -> PlanReading:
    """A plan's text read up to its first line that cannot be read (`PlanReading`); text with no action
    (empty, or comments only) is the empty plan, as VAL reads it."""
    grounder = Grounder(domain, problem.object_types(domain))
    repairs: Sequence[Repair] = ()
    if lenient:
        from .lenient import Names, lenient_lines
        lines, repairs = lenient_lines(text, Names((a.name for a in domain.actions), grounder.objects))
    else:
        lines = list(enumerate(text.split("\n"), 1))
    plan: list[GroundAction] = []
    known: dict[str, GroundAction] = {}  # a plan repeats its actions: each distinct text is checked once
    for i, raw in lines:  # one loop, no call a line: a batch reads hundreds of thousands of lines
        line = raw.split(";", 1)[0].rstrip()
        if not line.strip():
            continue
        m = _PLAN_LINE.match(line)
        act = known.get(m.group(2)) if m is not None else None
        if act is None:
            try:
                if m is None:
                    col = len(line) - len(line.lstrip()) + 1
                    raise InputError(f"expected one action like (stack b1 b2) per line, got '{line.strip()}'",
                                     file, i, col)
                act = known[m.group(2)] = _action(m, i, grounder, file, check_actions)
            except InputError as e:
                return PlanReading(tuple(plan), e, tuple(r for r in repairs if r.line <= i))
        plan.append(act)
    return PlanReading(tuple(plan), None, tuple(repairs))


def _action(m: re.Match, i: int, grounder: Grounder, file: str, check_actions: bool) -> GroundAction:
    """The action of plan line `i` (`m`: its match of `_PLAN_LINE`); InputError at its place. An object of
    the wrong type for its parameter is read: the step is then not applicable (the engine's `type` unmet,
    as VAL finds such a plan invalid), a verdict rather than a line that cannot be read."""
    text = m.group(2)
    plain = _PLAIN.fullmatch(text) if text.isprintable() else None
    if plain is not None:
        name, *args = plain.group(1).lower().split()
        act = grounder.plain_action(name, args, check_action=check_actions, check_types=False)
        if act is not None:
            return act
    node = sexpr.read(text, file, i, m.start(2) + 1)  # read again, for the error's place
    return grounder.action(node, file, check_action=check_actions, check_types=False)


__all__ = ["PlanReading", "load_plan", "parse_action", "parse_actions", "parse_plan", "read_plan", "read_plan_text"]
