"""Actions and atoms written as PDDL text (as answers, plans and ACPBench items write them), read back."""

from __future__ import annotations

import re

from amlasp.model import Atom, GroundAction


def actions(text: str) -> list[GroundAction]:
    """`(move a b) (stack x y)` → ground actions, lower case as our names are."""
    out = []
    for body in re.findall(r"\(([^()]*)\)", text):
        name, *args = body.lower().split()
        out.append(GroundAction(name, tuple(args)))
    return out


def atom(text: str) -> Atom:
    """`(on b1 b2)` → Atom("on", ("b1", "b2")), lower case."""
    name, *args = text.strip("() ").lower().split()
    return Atom(name, tuple(args))
