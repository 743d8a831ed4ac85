"""To our model (`amlasp.model`): a domain from the `pddl` package's objects, a problem from its s-expression.

Conversion is where names meet their declarations: every predicate, variable, constant and
type used is checked against what was declared (`pddl` does not), and the error points at
the line of the use, found in our s-expression (the `pddl` objects carry no lines).
"""

from __future__ import annotations

import pddl.logic.base as pl
import pddl.logic.effects as pe
import pddl.logic.predicates as pp
import pddl.logic.terms as pt

from . import sexpr
from .suggest import did_you_mean
from .declarations import DomainDeclarations, Named, type_names
from .repair import OBJECT_ALIAS
from ..errors import InputError, UnsupportedError
from ..logic import conjuncts
from ..model import (
    TRUE, Action, And, Atom, Domain, Effect, Exists, Forall, Formula, Imply, Literal, Not, Or, Predicate, Problem,
    Typed,
)


class _Converter:
    """Turns `pddl` objects into ours, checking names against the declarations."""

    def __init__(self, file: str, predicates: dict[str, Predicate], constants: dict[str, str],
                 types: set[str]):
        self.file = file
        self.predicates = predicates
        self.constants = constants
        self.types = types

    def type_of(self, tags, line: int) -> str:
        names = sorted(tags)
        if not names:
            return "object"
        if len(names) > 1:
            raise UnsupportedError("unsupported feature: (either ...) types", self.file, line)
        t = "object" if names[0] == OBJECT_ALIAS else str(names[0])
        if t not in self.types:
            raise InputError(f"undeclared type '{t}'", self.file, line)
        return t

    def term(self, t, scope: dict[str, str], node: sexpr.SExpr) -> str:
        if isinstance(t, pt.Variable):
            name = "?" + t.name
            if name not in scope:
                raise InputError(f"undeclared variable {name}", self.file, _line_of(node, name))
            return name
        name = str(t.name)
        if name not in self.constants:
            raise InputError(f"unknown object or constant '{name}'", self.file, _line_of(node, name))
        return name

    def atom(self, f, scope: dict[str, str], node: sexpr.SExpr) -> Atom:
        if isinstance(f, pp.EqualTo):
            return Atom("=", (self.term(f.left, scope, node), self.term(f.right, scope, node)))
        name = str(f.name)
        decl = self.predicates.get(name)
        hit = sexpr.find(node, name)
        line = hit.line if hit is not None else getattr(node, "line", None)
        if decl is None:
            guess = did_you_mean(name, self.predicates)  # an atom's arguments are terms: not an operator's typo
            raise InputError(f"undefined predicate '{name}'{guess}", self.file, line)
        if len(f.terms) != decl.arity:
            raise InputError(f"predicate '{name}' takes {decl.arity} argument(s), {len(f.terms)} given",
                             self.file, line)
        return Atom(name, tuple(self.term(t, scope, node) for t in f.terms))

    def variables(self, vs, node: sexpr.SExpr) -> tuple[Typed, ...]:
        return tuple(sorted(("?" + v.name, self.type_of(v.type_tags, _line_of(node, "?" + v.name))) for v in vs))

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
        raise UnsupportedError(f"unsupported condition {f}", self.file, getattr(node, "line", None))

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
        raise UnsupportedError(f"unsupported effect {e}", self.file, getattr(node, "line", None))

    def action(self, a, name: str, node: sexpr.List) -> Action:
        params = tuple(("?" + v.name, self.type_of(v.type_tags, _line_of(node, "?" + v.name))) for v in a.parameters)
        seen = set()
        for v, _ in params:
            if v in seen:
                raise InputError(f"parameter {v} declared twice in action '{name}'", self.file, _line_of(node, v))
            seen.add(v)
        scope = dict(params)
        pre_node = _key_node(node, ":precondition")
        eff_node = _key_node(node, ":effect")
        pre = self.formula(a.precondition, scope, pre_node) if a.precondition is not None else TRUE
        effs = tuple(self.effects(a.effect, scope, eff_node)) if a.effect is not None else ()
        return Action(name, params, _flatten(pre), effs, node.line)


def _line_of(node: sexpr.SExpr, word: str) -> int | None:
    hit = sexpr.find_token(node, word)
    return hit.line if hit is not None else getattr(node, "line", None)


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
    conv = _Converter(file, predicates, {str(c): t for c, t in declared.constants}, declared.type_names)
    for p in parsed.predicates:
        node = declared.predicates.get(str(p.name))
        params = tuple(("?" + t.name, conv.type_of(t.type_tags, node.line if node else None)) for t in p.terms)
        predicates[str(p.name)] = Predicate(str(p.name), params)
    by_name = {str(a.name): a for a in parsed.actions}
    actions = tuple(conv.action(by_name[n], n, node) for n, node in declared.actions.items())
    return Domain(
        name=name,
        types=tuple((str(t), p) for t, p in declared.types),
        constants=tuple((str(c), t) for c, t in declared.constants),
        predicates=tuple(predicates[str(p.head())] for p in declared.predicates.values()),
        actions=actions,
        file=file,
        warnings=tuple(warnings),
    )


# --------------------------------------------------------------------------- problems

def to_problem(name: str, domain_name: str, objects: Named, sections: dict[str, sexpr.List], domain: Domain,
               file: str) -> Problem:
    """The Problem of checked declarations: its `:init` atoms and `:goal` literals are checked here."""
    constants = dict(domain.constants)
    constants.update({str(o): t for o, t in objects})
    preds = {p.name: p for p in domain.predicates}
    init = {ground_atom(item, preds, constants, file) for item in sections[":init"][1:]}
    goal_section = sections[":goal"]
    if len(goal_section) > 2:
        raise InputError("(:goal ...) takes one formula: wrap the literals in (and ...)", file, goal_section[2].line)
    goal_node = goal_section[1] if len(goal_section) > 1 else sexpr.List([], goal_section.line, goal_section.line)
    conv = _Converter(file, preds, constants, type_names(domain.types))
    goal = _goal_literals(goal_node, conv, file)
    return Problem(name, domain_name, tuple((str(o), t) for o, t in objects), frozenset(init), goal, file)


def _goal_literals(node: sexpr.SExpr, conv: _Converter, file: str) -> tuple[Literal, ...]:
    out: list[Literal] = []

    def walk(n: sexpr.SExpr) -> None:
        if not isinstance(n, sexpr.List):
            raise InputError("expected a literal in :goal", file, getattr(n, "line", None))
        h = n.head()
        if h == "and":
            for c in n[1:]:
                walk(c)
        elif h == "not" and len(n) == 2 and isinstance(n[1], sexpr.List) and n[1].head() not in ("and", "or", "not"):
            out.append(Literal(_ground(n[1], conv, file), False))
        elif h in ("or", "exists", "forall", "imply", "not"):
            raise UnsupportedError(f"unsupported feature: '{h}' in a goal (goals must be conjunctions of literals)",
                                   file, n.line)
        elif len(n) == 0:
            return
        else:
            out.append(Literal(_ground(n, conv, file), True))

    walk(node)
    return tuple(out)


def _ground(n: sexpr.List, conv: _Converter, file: str) -> Atom:
    if n.head() == "=":
        if len(n) != 3:
            raise InputError("'=' takes two arguments", file, n.line)
        for a in n[1:]:
            if a not in conv.constants:
                raise InputError(f"unknown object '{a}'", file, getattr(a, 'line', n.line))
        return Atom("=", tuple(str(a) for a in n[1:]))
    return ground_atom(n, conv.predicates, conv.constants, file)


def ground_atom(node: sexpr.SExpr, predicates: dict[str, Predicate], objects: dict[str, str] | set[str],
                file: str) -> Atom:
    """Check and build one ground atom like (on b1 b2): used for init, goals, states and plans."""
    if not isinstance(node, sexpr.List) or node.head() is None:
        raise InputError(f"expected a ground atom like (on a b), got '{node}'", file, getattr(node, "line", None))
    name = node.head()
    if name == "not":
        raise InputError("negative literals are not allowed here (states are closed-world: list true atoms)",
                         file, node.line)
    decl = predicates.get(name)
    if decl is None:
        raise InputError(f"undefined predicate '{name}'", file, node.line)
    args = node[1:]
    if len(args) != decl.arity:
        raise InputError(f"predicate '{name}' takes {decl.arity} argument(s), {len(args)} given", file, node.line)
    for a in args:
        if not isinstance(a, sexpr.Token):
            raise InputError("nested parentheses in an atom", file, a.line)
        if a not in objects:
            raise InputError(f"unknown object '{a}'", file, a.line)
    return Atom(name, tuple(str(a) for a in args))


__all__ = ["to_domain", "to_problem", "ground_atom"]
