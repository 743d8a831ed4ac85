"""Numeric fluents in a domain (`compare` only): `:functions`, numeric conditions and effects.

The `pddl` package reads numeric PDDL its own way and forgets positions; our checks of formulas
know atoms only. So, before either sees the domain, `take` replaces every numeric condition or
effect by a placeholder atom `(amlasp-numeric-K t1 ... tn)` whose arguments are the terms of its
fluents (the user's tokens, with their positions): the placeholder is checked like any atom
(variables in scope, constants declared), read by `pddl` inside `and`/`or`/`forall`/`when` like any
atom, and `restore` puts the numeric construct back in its place in our model. Expressions are
read here, iteratively, each error at its token.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from ..errors import InputError
from ..logic import fold, rebuild
from ..model import (
    Action,
    Arith,
    Atom,
    Comparison,
    Domain,
    Effect,
    Expr,
    Fluent,
    Formula,
    Num,
    NumericEffect,
    Predicate,
    canonical_name,
)
from . import check, sexpr
from .functions import decimal, declarations
from .suggest import did_you_mean

PLACEHOLDER = "amlasp-numeric-"
_ARITH = {"+": 2, "-": 1, "*": 2, "/": 2}  # operator → least number of operands


@dataclass
class Numeric:
    """What `take` took out of a domain: its functions and the numeric construct of each placeholder."""

    file: str
    functions: dict[str, tuple[sexpr.Token, list[tuple[sexpr.Token, str]]]] = field(default_factory=dict)
    constructs: dict[str, tuple[Comparison | tuple[str, Fluent, Expr], sexpr.List]] = field(default_factory=dict)

    def check(self, type_names: set[str], predicates: dict[str, sexpr.List]) -> None:
        """Every type of a function's parameter is declared; no function has a predicate's name (compare
        renames both in one namespace)."""
        for name, params in self.functions.values():
            check.known_types(params, type_names, self.file)
            if canonical_name(name) in {canonical_name(p) for p in predicates}:
                raise InputError(f"function '{name}' has the name of a predicate", self.file, at=name)


def number(tok: sexpr.Token, file: str) -> Num:
    """A number token as canonical text: `1.50` → `1.5`, `2.0` → `2`, `-0` → `0`."""
    text = format(decimal(tok, file).normalize(), "f")
    return Num("0" if text in ("-0", "+0") else text)


def take(root: sexpr.List, file: str) -> Numeric:
    """Remove `:functions`, replace numeric conditions and effects by placeholders declared in
    `:predicates` (in place)."""
    out = Numeric(file)
    for i, section in enumerate(root[2:], 2):
        if section.head() == ":functions":
            _functions(section, out)
            del root[i]
            break
    declared: list[sexpr.List] = []
    for section in root[2:]:
        if section.head() != ":action":
            continue
        for j in range(2, len(section) - 1):
            if section[j] in (":precondition", ":effect") and isinstance(section[j + 1], sexpr.List):
                section[j + 1] = _replace(section[j + 1], out, declared)
    if declared:
        _declare(root, declared)
    return out


def _functions(section: sexpr.List, out: Numeric) -> None:
    """`(:functions ...)` (`functions.declarations`), kept by name with the name's token."""
    for decl, params in declarations(section, out.file):
        out.functions[str(decl[0])] = (decl[0], params)


def _replace(root: sexpr.List, out: Numeric, declared: list[sexpr.List]) -> sexpr.List:
    """`root` with each numeric construct in it replaced by its placeholder (iteratively)."""
    if check.is_numeric(root):
        return _placeholder(root, out, declared)
    stack = [root]
    while stack:
        node = stack.pop()
        for i, child in enumerate(node):
            if not isinstance(child, sexpr.List):
                continue
            if check.is_numeric(child):
                node[i] = _placeholder(child, out, declared)
            else:
                stack.append(child)
    return root


def _placeholder(node: sexpr.List, out: Numeric, declared: list[sexpr.List]) -> sexpr.List:
    h = node.head()
    assert h is not None
    if len(node) != 3:
        raise InputError(f"'{h}' takes two arguments, {len(node) - 1} given", out.file, at=node)
    terms: list[sexpr.Token] = []
    if h in check.NUMERIC_EFFECTS:
        target = _expression(node[1], out, terms)
        if not isinstance(target, Fluent):
            raise InputError(f"expected a function term like (fuel ?t) as what '{h}' changes", out.file, at=node[1])
        construct: Comparison | tuple[str, Fluent, Expr] = (str(h), target, _expression(node[2], out, terms))
    else:
        left = _expression(node[1], out, terms)
        construct = Comparison(str(h), left, _expression(node[2], out, terms))
    name = f"{PLACEHOLDER}{len(out.constructs)}"
    out.constructs[name] = (construct, node)
    line = node.line
    declared.append(sexpr.List([sexpr.Token(name, line)] + [sexpr.Token(f"?a{i}", line) for i in range(len(terms))],
                               line, line))
    return sexpr.List([sexpr.Token(name, line, node.col)] + terms, line, node.end_line, node.col, node.end_col)


def _expression(root: sexpr.SExpr, out: Numeric, terms: list[sexpr.Token]) -> Expr:
    """A numeric expression: a number, a function term, or `(op e ...)` with op + - * /; the terms of
    its function terms are appended to `terms`. Post-order on an explicit stack."""
    done: list[Expr] = []
    stack: list[tuple[sexpr.SExpr, bool]] = [(root, False)]
    while stack:
        node, expanded = stack.pop()
        if isinstance(node, sexpr.Token):
            if not check.is_number(node):
                raise InputError(f"expected a number or a numeric expression like (fuel ?t), got '{node}'",
                                 out.file, at=node)
            done.append(number(node, out.file))
            continue
        h = node.head()
        if h in _ARITH:
            if expanded:
                n = len(node) - 1
                args = tuple(done[len(done) - n:])
                del done[len(done) - n:]
                done.append(Arith(str(h), args))
            else:
                if len(node) - 1 < _ARITH[h]:
                    raise InputError(f"'{h}' takes at least {_ARITH[h]} argument(s), {len(node) - 1} given",
                                     out.file, at=node)
                stack.append((node, True))
                stack.extend((a, False) for a in reversed(node[1:]))
            continue
        done.append(_fluent(node, out, terms))
    return done[0]


def _fluent(node: sexpr.List, out: Numeric, terms: list[sexpr.Token]) -> Fluent:
    h = node.head()
    if h is None:
        raise InputError("expected a numeric expression like (fuel ?t)", out.file, at=node)
    if h not in out.functions:
        raise InputError(f"undefined function '{h}'{did_you_mean(h, list(out.functions))}", out.file, at=node[0])
    arity = len(out.functions[h][1])
    if len(node) - 1 != arity:
        raise InputError(f"function '{h}' takes {arity} argument(s), {len(node) - 1} given", out.file, at=node[0])
    for a in node[1:]:
        if not isinstance(a, sexpr.Token):
            raise InputError(f"expected a variable or constant as an argument of '{h}', got a list", out.file, at=a)
        terms.append(a)
    return Fluent(str(h), tuple(str(a) for a in node[1:]))


def _declare(root: sexpr.List, declared: list[sexpr.List]) -> None:
    for section in root[2:]:
        if section.head() == ":predicates":
            section.extend(declared)
            return
    line = root[1].end_line
    root.insert(2, sexpr.List([sexpr.Token(":predicates", line), *declared], line, line))


# --------------------------------------------------------------------------- back into the model

def restore(domain: Domain, taken: Numeric) -> Domain:
    """`domain` (converted with placeholders) with its numeric constructs and functions put back."""
    functions = tuple(Predicate(name, tuple((str(v), str(t)) for v, t in params))
                      for name, params in taken.functions.values())
    predicates = tuple(p for p in domain.predicates if p.name not in taken.constructs)
    actions = tuple(_action(a, taken) for a in domain.actions) if taken.constructs else domain.actions
    return replace(domain, predicates=predicates, actions=actions, functions=functions)


def _action(a: Action, taken: Numeric) -> Action:
    effects: list[Effect] = []
    numeric: list[NumericEffect] = []
    for e in a.effects:
        cond = _condition(e.condition, taken)
        hit = taken.constructs.get(e.literal.atom.predicate)
        if hit is None:
            effects.append(Effect(e.literal, cond, e.variables))
            continue
        construct, node = hit
        if isinstance(construct, Comparison):
            raise InputError(f"'{construct.op}' is a condition, not an effect", taken.file, at=node)
        if not e.literal.positive:
            raise InputError(f"expected an effect like ({construct[0]} (f ?x) 1), got a negated one", taken.file,
                             at=node)
        numeric.append(NumericEffect(construct[0], construct[1], construct[2], cond, e.variables))
    return Action(a.name, a.parameters, _condition(a.precondition, taken), tuple(effects), a.line, tuple(numeric))


def _condition(f: Formula, taken: Numeric) -> Formula:
    """`f` with each placeholder atom replaced by its comparison."""
    def leaf(atom: Atom, _env) -> Formula:
        hit = taken.constructs.get(atom.predicate)
        if hit is None:
            return atom
        construct, node = hit
        if not isinstance(construct, Comparison):
            raise InputError(f"'{construct[0]}' is an effect, not a condition", taken.file, at=node)
        return construct
    return fold(f, leaf, lambda g, parts, _env: rebuild(g, parts))


__all__ = ["PLACEHOLDER", "Numeric", "take", "restore", "number"]
