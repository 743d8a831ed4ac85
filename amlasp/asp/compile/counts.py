"""eval's rules that count instead of making atoms: `count(app,N,K,C)` of the learned model's own
instances (`instances`) and `count(effc,N,K,C)` of changes counted rule by rule (`ChangeCounts`),
each one aggregate over the jointly applicable instances, weighted by `weight(S,W)` (eval.lp)."""

from __future__ import annotations

from typing import Sequence

from ..schema import COUNT, WEIGHT
from .rules import BodyLiteral, Rule, guard
from .slots import S


def _sum(n: int, family: str, kind: str, elements: Sequence[str]) -> str:
    """`count(family,N,kind,C) :- C = #sum{ elements }.`"""
    return str(Rule(COUNT(family, n, kind, "C"), (guard(f"C = #sum{{ {' ; '.join(elements)} }}"),)))


def instances(n: int, kind: str, term: str, body: Sequence[BodyLiteral], conditions: Sequence[str]) -> str:
    """`count(app,N,kind,C)`: the instances `term` of the learned precondition `body` (weighted) that
    meet one of `conditions` (literals), counted in one aggregate, never made atoms."""
    lits = ", ".join(map(str, body))
    weight = WEIGHT(S, "W")
    return _sum(n, "app", kind, [f"W,{S},{term} : {lits}, {c}, {weight}" for c in conditions])


class ChangeCounts:
    """`count(effc,N,tp|fp|fn,C)` of one slot's change rules (instance `term`): each element counts
    the joint instances (`both(S,N,A)` among `literals`) where a rule changes its atom, or with
    `less`, subtracts those where it does not (the caller adds them whole: `joint_changes`)."""

    def __init__(self, n: int, term: str):
        self.n, self.term = n, term
        self.elements: dict[str, list[str]] = {"tp": [], "fp": [], "fn": []}

    def add(self, kind: str, rule: int, literals: Sequence[str], less: bool = False) -> None:
        """Rule number `rule` (its changes are told apart by it) of kind tp, fp or fn."""
        sign = "-W" if less else "W"
        self.elements[kind].append(f"{sign},{S},{self.term},{rule} : {', '.join([*literals, WEIGHT(S, 'W')])}")

    def rules(self) -> list[str]:
        return [_sum(self.n, "effc", kind, el) for kind, el in self.elements.items() if el]


__all__ = ["instances", "ChangeCounts"]
