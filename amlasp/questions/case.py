"""One item made concrete (`Case`): below the modules that derive and grade answers, so that a task's
entry (`tasks.common.TaskEntry`) can name it without importing them."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..model import Atom, Domain, GroundAction, Problem
from ..pddl.plans import parse_action, parse_actions
from ..pddl.states import parse_atom
from .registry import Form, Task


@dataclass
class Case:
    """One item made concrete: the state asked about, and what its question names."""

    item: dict
    domain: Domain
    problem: Problem  # the problem with the state asked about as its initial state
    task: Task
    form: Form
    named: dict = field(default_factory=dict)  # "action", "plan", "sequence" when the question names one

    @property
    def state(self) -> frozenset[Atom]:
        return self.problem.init

    def actions(self, text: str, what: str = "") -> list[GroundAction]:
        """Ground actions written in a row, `(a x) (b y)`, checked against the item's PDDL; `what` names
        the text in errors (`its plan`)."""
        return parse_actions(text, self.domain, self.problem, self._source(what))

    def action(self, text: str, what: str = "") -> GroundAction:
        """One ground action, `(a x)` or `a x`."""
        return parse_action(text, self.domain, self.problem, self._source(what))

    def atom(self, text: str, what: str = "") -> Atom:
        """One ground atom, `(at c0 l1)` or `at c0 l1` (ACPBench's reach answers)."""
        return parse_atom(text, self.domain, self.problem, self._source(what))

    def _source(self, what: str) -> str:
        return f"item {self.item['id']}" + (f": {what}" if what else "")


__all__ = ["Case"]
