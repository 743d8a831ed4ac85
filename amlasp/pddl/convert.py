"""To our model (`amlasp.model`): a domain from the `pddl` package's objects, a problem from its s-expression.

A domain's names were checked against their declarations on the s-expression (`formulas`),
where every token has its position; the checks kept here are a second line of defence, and
point at the first token of the name they are about (the `pddl` objects carry no positions).
A problem's atoms are checked by `ground.Grounder`, like every other ground atom.
"""

from __future__ import annotations

import pddl.logic.base as pl
import pddl.logic.effects as pe
import pddl.logic.predicates as pp
import pddl.logic.terms as pt

from ..errors import InputError, UnsupportedError
from ..logic import conjuncts
from ..model import (
    TRUE,
    Action,
    And,
    Atom,
    Derived,
    Domain,
    Effect,
    Exists,
    Forall,
    Formula,
    Imply,
    Literal,
    Not,
    Or,
    Predicate,
    Problem,
    Typed,
    either_type,
)
from . import sexpr
from .declarations import DomainDeclarations, Named
from .ground import Grounder
from .repair import OBJECT_ALIAS, unescape_variable


class _Converter:
    """Turns `pddl` objects into ours, checking names against the declarations."""

    def __init__(self, file: str, predicates: dict[str, Predicate], constants: dict[str, str],
                 types: set[str]):
        self.file = file
        self.predicates = predicates
        self.constants = constants
        self.types = types

    def type_of(self, tags, at: sexpr.SExpr | None) -> str:
        """The type of `pddl`'s tags: one name, or several for `(either ...)` (`model.either_type`)."""
        names = ["object" if n == OBJECT_ALIAS else str(n) for n in tags]
        if not names:
            return "object"
        for t in names:
            if t not in self.types:
                raise InputError(f"undeclared type '{t}'", self.file, at=at)
        return either_type(names)

    def term(self, t, scope: dict[str, str], node: sexpr.SExpr) -> str:
        if isinstance(t, pt.Variable):
            name = _var(t)
            if name not in scope:
                raise InputError(f"undeclared variable '{name}'", self.file, at=_token(node, name))
            return name
        name = str(t.name)
        if name not in self.constants:
            raise InputError(f"unknown constant '{name}'", self.file, at=_token(node, name))
        return name

    def atom(self, f, scope: dict[str, str], node: sexpr.SExpr) -> Atom:
        if isinstance(f, pp.EqualTo):
            return Atom("=", (self.term(f.left, scope, node), self.term(f.right, scope, node)))
        name = str(f.name)
        decl = self.predicates.get(name)
        if decl is None:  # formulas.check_actions refuses these first, at the faulty token
            raise InputError(f"undefined predicate '{name}'", self.file, at=_token(node, name))
        if len(f.terms) != decl.arity:
            raise InputError(f"predicate '{name}' takes {decl.arity} argument(s), {len(f.terms)} given",
                             self.file, at=_token(node, name))
        return Atom(name, tuple(self.term(t, scope, node) for t in f.terms))

    def variables(self, vs, node: sexpr.SExpr) -> tuple[Typed, ...]:
        return tuple(sorted((_var(v), self.type_of(v.type_tags, _token(node, _var(v)))) for v in vs))

    def formula(self, f, scope: dict[str, str], node: sexpr.SExpr) -> Formula:
        if isinstance(f, (pp.Predicate, pp.EqualTo)):
            return self.atom(f, scope, node)
        if isinstance(f, pl.Not):
            return Not(self.formula(f.argument, scope, node))
        if isinstance(f, pl.And):
            return And(tuple(self.formula(g, scope, node) for g in f.operands))
        if isinstance(f, pl.Or):
            return Or(tuple(self.formula(g, scope, node) for g in f.operands))
        if isinstance(f, pl.Imply):
            left, right = f.operands
            return Imply(self.formula(left, scope, node), self.formula(right, scope, node))
        if isinstance(f, (pl.ForallCondition, pl.ExistsCondition)):
            vs = self.variables(f.variables, node)
            inner = dict(scope, **dict(vs))
            body = self.formula(f.condition, inner, node)
            return Forall(vs, body) if isinstance(f, pl.ForallCondition) else Exists(vs, body)
        raise UnsupportedError(f"unsupported feature: condition '{f}'", self.file, at=node)

    def effects(self, e, scope: dict[str, str], node: sexpr.SExpr, cond: Formula = TRUE,
                vs: tuple[Typed, ...] = ()) -> list[Effect]:
        if isinstance(e, pl.And):
            return [x for g in e.operands for x in self.effects(g, scope, node, cond, vs)]
        if isinstance(e, pe.Forall):
            new = self.variables(e.variables, node)
            return self.effects(e.effect, dict(scope, **dict(new)), node, cond, vs + new)
        if isinstance(e, pe.When):
            c = self.formula(e.condition, scope, node)
            c = c if cond == TRUE else And((cond, c))
            return self.effects(e.effect, scope, node, c, vs)
        if isinstance(e, pl.Not) and isinstance(e.argument, pp.Predicate):
            return [Effect(Literal(self.atom(e.argument, scope, node), False), cond, vs)]
        if isinstance(e, pp.Predicate):
            return [Effect(Literal(self.atom(e, scope, node), True), cond, vs)]
        raise UnsupportedError(f"unsupported feature: effect '{e}'", self.file, at=node)

    def action(self, a, name: str, node: sexpr.List) -> Action:
        params = tuple((_var(v), self.type_of(v.type_tags, _token(node, _var(v)))) for v in a.parameters)
        scope = dict(params)
        pre_node = _key_node(node, ":precondition")
        eff_node = _key_node(node, ":effect")
        pre = self.formula(a.precondition, scope, pre_node) if a.precondition is not None else TRUE
        effs = tuple(self.effects(a.effect, scope, eff_node)) if a.effect is not None else ()
        return Action(name, params, _flatten(pre), effs, node.line)


def _var(v) -> str:
    """A `pddl` variable's name as the user wrote it (`repair.escape_variables`)."""
    return "?" + unescape_variable(str(v.name))


def _token(node: sexpr.SExpr, word: str) -> sexpr.SExpr:
    """The first token `word` in `node` (or `node` itself): where an error about `word` points."""
    hit = sexpr.find_token(node, word)
    return hit if hit is not None else node


def _key_node(action: sexpr.List, key: str) -> sexpr.SExpr:
    for i, x in enumerate(action):
        if x == key and i + 1 < len(action):
            return action[i + 1]
    return action


def _flatten(f: Formula) -> Formula:
    """A conjunction (or a literal) as one flat `And`, so that literal lists are easy to read off."""
    if isinstance(f, (And, Atom)) or isinstance(f, Not) and isinstance(f.arg, Atom):
        return And(tuple(conjuncts(f)))
    return f


def to_domain(parsed, name: str, declared: DomainDeclarations, warnings: list[str], file: str) -> Domain:
    """The Domain of `pddl`'s `parsed` domain, in the order and with the lines of our declarations."""
    predicates: dict[str, Predicate] = {}
    conv = _Converter(file, predicates, {str(c): str(t) for c, t in declared.constants}, declared.type_names)
    for p in parsed.predicates:
        node = declared.predicates.get(str(p.name))
        params = tuple((_var(t), conv.type_of(t.type_tags, node)) for t in p.terms)
        predicates[str(p.name)] = Predicate(str(p.name), params)
    by_name = {str(a.name): a for a in parsed.actions}
    actions = tuple(conv.action(by_name[n], n, node) for n, node in declared.actions.items())
    derived = _derived(conv, parsed, declared)
    return Domain(
        name=name,
        types=tuple((str(t), str(p)) for t, p in declared.types),
        constants=tuple((str(c), str(t)) for c, t in declared.constants),
        predicates=tuple(predicates[str(p.head())] for p in declared.predicates.values()),
        actions=actions,
        file=file,
        warnings=tuple(warnings),
        derived=derived,
    )


def _derived(conv: _Converter, parsed, declared: DomainDeclarations) -> tuple[Derived, ...]:
    """The :derived rules, in the order of their predicates' first rule in the file (`pddl` keeps them as
    a set: rules of one predicate are ordered by their text), each with the line of that first rule."""
    first: dict[str, sexpr.List] = {}
    for node in declared.derived:
        first.setdefault(str(node[1].head()), node)
    rules = sorted(getattr(parsed, "derived_predicates", ()) or (), key=lambda r: (
        list(first).index(str(r.predicate.name)), str(r.condition)))
    out = []
    for r in rules:
        node = first[str(r.predicate.name)]
        params = tuple((_var(t), conv.type_of(t.type_tags, _token(node[1], _var(t)))) for t in r.predicate.terms)
        body = _flatten(conv.formula(r.condition, dict(params), node[2]))
        out.append(Derived(str(r.predicate.name), params, body, node.line))
    return tuple(out)


# --------------------------------------------------------------------------- problems

def to_problem(name: str, domain_name: str, objects: Named, sections: dict[str, sexpr.List], domain: Domain,
               file: str) -> Problem:
    """The Problem of checked declarations: its `:init` atoms and `:goal` literals are checked here."""
    table = dict(domain.constants)
    table.update({str(o): str(t) for o, t in objects})
    grounder = Grounder(domain, table)
    init = {grounder.atom(item, file) for item in sections[":init"][1:]}
    goal_section = sections[":goal"]
    if len(goal_section) > 2:
        raise InputError("(:goal ...) takes one formula: wrap the literals in (and ...)", file, at=goal_section[2])
    goal_node = goal_section[1] if len(goal_section) > 1 else sexpr.List([], goal_section.line, goal_section.line)
    goal = _goal_literals(goal_node, grounder, file)
    return Problem(name, domain_name, tuple((str(o), str(t)) for o, t in objects), frozenset(init), goal, file)


def _goal_literals(node: sexpr.SExpr, grounder: Grounder, file: str) -> tuple[Literal, ...]:
    """A goal is a conjunction of literals (nested `and`s flattened, an empty one allowed); iterative."""
    out: list[Literal] = []
    todo = [node]
    while todo:
        n = todo.pop()
        if not isinstance(n, sexpr.List):
            raise InputError(f"expected a literal in :goal, got '{n}'", file, at=n)
        h = n.head()
        if h == "and":
            todo.extend(reversed(n[1:]))
        elif h == "not" and len(n) == 2 and isinstance(n[1], sexpr.List) and n[1].head() not in ("and", "or", "not"):
            out.append(Literal(grounder.atom(n[1], file, equality=True, derived=True), False))
        elif h in ("or", "exists", "forall", "imply", "not"):
            raise UnsupportedError(f"unsupported feature: '{h}' in a goal (goals must be conjunctions of literals)",
                                   file, at=n)
        elif len(n) == 0:
            continue
        else:
            out.append(Literal(grounder.atom(n, file, equality=True, derived=True), True))
    return tuple(out)


__all__ = ["to_domain", "to_problem"]
