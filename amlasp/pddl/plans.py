"""Ground actions and plans: IPC plan files, and actions given on the command line.

Every action is checked against the problem's objects and (unless told otherwise) the
domain's actions and arities, with `file:line` on errors.
"""

from __future__ import annotations

import re
from pathlib import Path

from . import sexpr
from .source import read_text
from ..errors import InputError
from ..model import Domain, GroundAction, Problem


def ground_action(node: sexpr.SExpr, domain: Domain | None, objects: dict[str, str], file: str,
                  check_action: bool = True) -> GroundAction:
    """Check and build one ground action like (stack b1 b2); `check_action` also checks its name and arity."""
    if not isinstance(node, sexpr.List) or node.head() is None:
        raise InputError("expected an action like (stack b1 b2)", file, getattr(node, "line", None))
    name = node.head()
    for a in node[1:]:
        if not isinstance(a, sexpr.Token):
            raise InputError("nested parentheses in an action", file, a.line)
        if a not in objects:
            raise InputError(f"unknown object '{a}'", file, a.line)
    if check_action and domain is not None:
        d = domain.action(name)
        if d is None:
            raise InputError(f"unknown action '{name}'", file, node.line)
        if d.arity != len(node) - 1:
            raise InputError(f"action '{name}' takes {d.arity} argument(s), {len(node) - 1} given", file, node.line)
    return GroundAction(str(name), tuple(str(a) for a in node[1:]))


def parse_action(text: str, domain: Domain, problem: Problem, source: str = "<command line>") -> GroundAction:
    """A ground action typed by a user, "(stack b1 b2)" or "stack b1 b2"; `source` names it in errors."""
    text = text.strip()
    node = sexpr.read(text if text.startswith("(") else f"({text})", source)
    return ground_action(node, domain, problem.object_types(domain), source)


_PLAN_LINE = re.compile(r"^\s*(?:\d+(?:\.\d+)?\s*:\s*)?(\(.*\))\s*(?:\[[^\]]*\])?\s*$")


def read_plan(path: str | Path, domain: Domain, problem: Problem, check_actions: bool = True
              ) -> list[GroundAction]:
    """IPC plan format: one `(action a b)` per line, `;` comments; `0: (a b) [1]` also read."""
    return parse_plan(read_text(path), domain, problem, str(path), check_actions)


def parse_plan(text: str, domain: Domain, problem: Problem, file: str = "<plan>", check_actions: bool = True
               ) -> list[GroundAction]:
    """`read_plan` of a plan's text (a batch file gives plans inline); `file` names it in errors."""
    if not text.strip():
        raise InputError("empty file: no plan (an empty plan is a file with a comment line such as '; empty')",
                         file, 1)
    objs = problem.object_types(domain)
    plan: list[GroundAction] = []
    for i, raw in enumerate(text.splitlines(), 1):
        line = raw.split(";", 1)[0].strip()
        if not line:
            continue
        m = _PLAN_LINE.match(line)
        if not m:
            raise InputError(f"expected one action like (stack b1 b2) per line, got '{line[:40]}'", file, i)
        node = sexpr.read(m.group(1), file)
        sexpr.relocate(node, i)
        plan.append(ground_action(node, domain, objs, file, check_action=check_actions))
    return plan


__all__ = ["ground_action", "parse_action", "parse_plan", "read_plan"]
