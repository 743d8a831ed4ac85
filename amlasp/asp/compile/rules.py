"""Compiled rules as objects: a `Rule` of `BodyLiteral`s, each literal knowing its `Kind` and the
variables it binds, rendered to text once, so that a compiler asks a literal what it is instead of
parsing the text it wrote; and the `Scope` of PDDL variables a rule is written in."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Mapping

from ...model import Atom, Domain, is_var
from ..names import asp_name, atom_text


class Kind(Enum):
    """What a body literal reads: it decides the literal's place in a rule and what it binds."""

    STATE = "state"            # holds(S,F): an atom of the state
    DERIVED = "derived"        # derived(M,S,F): an atom of a derived predicate, computed in the state
    FIXED = "fixed"            # fixed(P,F): an atom of a static predicate, given once per problem
    COMPARISON = "comparison"  # X=Y, X!=Y
    TYPING = "typing"          # is_a(M,P,X,T), not not_a(M,P,X,T)
    AUX = "aux"                # aux(M,K,S,Vars): a complex condition
    JOIN = "join"              # aux(M,K,S,Vars): state atoms joined in a rule of their own (`Compiler.split_joins`)
    GUARD = "guard"            # state(S,P), app(...), query(...): what the rule is about


@dataclass(frozen=True)
class BodyLiteral:
    """One literal of a rule body: `atom`, or `not atom` when `negated`."""

    kind: Kind
    atom: str
    negated: bool = False
    variables: frozenset[str] = frozenset()  # the ASP variables of a state or fixed atom
    # (ASP variable, the predicate's type at its position): what the atom's declaration implies, not part of
    # the literal (two models' literals on the same atom are equal: eval compares preconditions so)
    declared: frozenset[tuple[str, str]] = field(default=frozenset(), compare=False)

    @property
    def joined(self) -> bool:
        """A positive state or fixed atom: what clingo's grounder joins on, binding its variables."""
        return self.kind in (Kind.STATE, Kind.FIXED, Kind.DERIVED, Kind.JOIN) and not self.negated

    @property
    def binds(self) -> frozenset[str]:
        return self.variables if self.joined else frozenset()

    def negate(self) -> BodyLiteral:
        return replace(self, negated=not self.negated)

    def __str__(self) -> str:
        return f"not {self.atom}" if self.negated else self.atom


def guard(atom: str) -> BodyLiteral:
    """A literal saying what the rule is about (`app(...)`, `both(...)`, `query(...)`)."""
    return BodyLiteral(Kind.GUARD, atom)


def comparison(text: str) -> BodyLiteral:
    """A comparison or assignment, `X!=Y`, `L_1<=U_1`."""
    return BodyLiteral(Kind.COMPARISON, text)


@dataclass(frozen=True)
class Rule:
    """`head :- body.`, or the fact `head.` when the body is empty."""

    head: str
    body: tuple[BodyLiteral, ...] = ()

    def __str__(self) -> str:
        return f"{self.head} :- {', '.join(map(str, self.body))}." if self.body else f"{self.head}."


@dataclass(frozen=True)
class Comment:
    text: str

    def __str__(self) -> str:
        return f"% {self.text}"


@dataclass(frozen=True)
class Scope:
    """The PDDL variables in view, with their ASP variable and their PDDL type."""

    variables: Mapping[str, str]  # PDDL variable → ASP variable
    types: Mapping[str, str]  # PDDL variable → PDDL type

    def term(self, t: str) -> str:
        return self.variables[t] if is_var(t) else asp_name(t)

    def atom(self, a: Atom) -> str:
        return atom_text(a.predicate, [self.term(x) for x in a.args])

    def variables_of(self, a: Atom) -> frozenset[str]:
        return frozenset(self.variables[x] for x in a.args if is_var(x))

    def declared_types(self, a: Atom, domain: Domain) -> frozenset[tuple[str, str]]:
        """(ASP variable, declared type) for each variable argument of `a`, from its predicate's declaration."""
        p = domain.predicate(a.predicate)
        if p is None or p.arity != len(a.args):
            return frozenset()
        return frozenset((self.variables[x], t) for x, (_, t) in zip(a.args, p.parameters) if is_var(x))


def program_text(rules: list[Rule | Comment]) -> str:
    """The rules as program text, a line each."""
    return "\n".join(map(str, rules)) + "\n"


__all__ = ["Kind", "BodyLiteral", "Rule", "Comment", "Scope", "guard", "comparison", "program_text"]
