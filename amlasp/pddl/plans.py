"""Ground actions and plans: IPC plan files, and actions given on the command line.

Every action is checked (`ground.Grounder`) against the problem's objects, their types and
(unless told otherwise) the domain's actions and arities, with `file:line:col` on errors.
"""

from __future__ import annotations

import re
from pathlib import Path

from ..errors import InputError
from ..model import Domain, GroundAction, Problem
from . import sexpr
from .ground import Grounder
from .source import read_text


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


def read_plan(path: str | Path, domain: Domain, problem: Problem, check_actions: bool = True
              ) -> list[GroundAction]:
    """IPC plan format: one `(action a b)` per line, `;` comments; `0: (a b) [1]` also read."""
    return parse_plan(read_text(path), domain, problem, str(path), check_actions)


def parse_plan(text: str, domain: Domain, problem: Problem, file: str = "<plan>", check_actions: bool = True
               ) -> list[GroundAction]:
    """`read_plan` of a plan's text (a batch file gives plans inline); `file` names it in errors."""
    if not text.strip():
        raise InputError("empty file: no plan (an empty plan is a file with a comment line such as '; empty')",
                         file, 1, 1)
    grounder = Grounder(domain, problem.object_types(domain))
    plan: list[GroundAction] = []
    known: dict[str, GroundAction] = {}  # a plan repeats its actions: each distinct text is checked once
    for i, raw in enumerate(text.split("\n"), 1):
        line = raw.split(";", 1)[0].rstrip()
        if not line.strip():
            continue
        m = _PLAN_LINE.match(line)
        if not m:
            col = len(line) - len(line.lstrip()) + 1
            raise InputError(f"expected one action like (stack b1 b2) per line, got '{line.strip()}'", file, i, col)
        act = known.get(m.group(2))
        if act is None:
            plain = _PLAIN.fullmatch(m.group(2)) if m.group(2).isprintable() else None
            if plain is not None:
                name, *args = plain.group(1).lower().split()
                act = grounder.plain_action(name, args, check_action=check_actions)
            if act is None:  # read again, for the error's place
                node = sexpr.read(m.group(2), file, i, m.start(2) + 1)
                act = grounder.action(node, file, check_action=check_actions)
            known[m.group(2)] = act
        plan.append(act)
    return plan


__all__ = ["parse_action", "parse_actions", "parse_plan", "read_plan"]
