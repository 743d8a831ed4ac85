"""Formulas of the model: ONE traversal, and the operations built on it.

Every walk over a `Formula` (negation normal form, free variables, atoms, renaming, text,
the skeletons of `compare`) is a `fold`: a post-order visit, as in Fast Downward's
`pddl/conditions.py`, written with an explicit stack so that a formula nested thousands
deep (learned and LLM-written PDDL can be) never hits Python's recursion limit. A
`scope` function passes an environment down (bound variables, parameter numbers), so
that operations that need the context above a node are folds too.
"""

from __future__ import annotations

from typing import Any, Callable, Iterator, Sequence, TypeVar, overload

# model's own reads of a conjunction (actions need them), re-exported with the other operations
from .model import (  # noqa: F401
    GOAL_PREFIX,
    TRUE,
    And,
    Arith,
    Atom,
    Comparison,
    Exists,
    Expr,
    Fluent,
    Forall,
    Formula,
    GoalCondition,
    Imply,
    Literal,
    Not,
    Or,
    Typed,
    conjunction_literals,
    conjuncts,
    is_var,
)

T = TypeVar("T")
E = TypeVar("E")

Quantified = (Exists, Forall)


def children(f: Formula) -> tuple[Formula, ...]:
    """The direct subformulas of `f`, in order (a numeric comparison has none: its parts are expressions)."""
    if isinstance(f, (Atom, Comparison)):
        return ()
    if isinstance(f, Not):
        return (f.arg,)
    if isinstance(f, (And, Or)):
        return f.args
    if isinstance(f, Imply):
        return (f.left, f.right)
    if isinstance(f, Quantified):
        return (f.body,)
    raise TypeError(f"not a formula: {f!r}")


def rebuild(f: Formula, parts: list[Formula] | tuple[Formula, ...]) -> Formula:
    """`f` with its direct subformulas replaced by `parts`."""
    if isinstance(f, (Atom, Comparison)):
        return f
    if isinstance(f, Not):
        return Not(parts[0])
    if isinstance(f, And):
        return And(tuple(parts))
    if isinstance(f, Or):
        return Or(tuple(parts))
    if isinstance(f, Imply):
        return Imply(parts[0], parts[1])
    if isinstance(f, Quantified):
        return type(f)(f.variables, parts[0])
    raise TypeError(f"not a formula: {f!r}")


@overload
def fold(f: Formula, atom: Callable[[Atom, None], T], node: Callable[[Formula, list[T], None], T],
         scope: Callable[[Formula, None], None] | None = None) -> T: ...


@overload
def fold(f: Formula, atom: Callable[[Atom, E], T], node: Callable[[Formula, list[T], E], T],
         scope: Callable[[Formula, E], E] | None, env: E) -> T: ...


def fold(f: Formula, atom: Callable[[Atom, Any], T], node: Callable[[Formula, list[T], Any], T],
         scope: Callable[[Formula, Any], Any] | None = None, env: Any = None) -> T:
    """Post-order fold: `atom(a, env)` at the leaves, `node(g, results of g's children, env)`
    above them; `scope(g, env)` gives the environment of g's children (default: env).
    Iterative: the depth of `f` is bounded by memory, not by the recursion limit."""
    stack: list[tuple[Formula, Any, bool]] = [(f, env, False)]
    results: list[T] = []
    while stack:
        g, here, expanded = stack.pop()
        if isinstance(g, Atom):
            results.append(atom(g, here))
            continue
        kids = children(g)
        if not expanded:
            stack.append((g, here, True))
            inner = scope(g, here) if scope is not None else here
            stack.extend((k, inner, False) for k in reversed(kids))
            continue
        n = len(kids)
        values = results[len(results) - n:] if n else []
        del results[len(results) - n:]
        results.append(node(g, values, here))
    return results[0]


def subformulas(f: Formula) -> Iterator[Formula]:
    """Every subformula of `f`, `f` first (pre-order), iteratively."""
    stack = [f]
    while stack:
        g = stack.pop()
        yield g
        stack.extend(reversed(children(g)))


def atoms(f: Formula) -> Iterator[Atom]:
    """The atoms of `f`, left to right (equality atoms included)."""
    return (g for g in subformulas(f) if isinstance(g, Atom))


def map_atoms(f: Formula, fn: Callable[[Atom, frozenset[str]], Atom]) -> Formula:
    """`f` with every atom replaced by `fn(atom, names bound by quantifiers above it)`."""
    unbound: frozenset[str] = frozenset()
    return fold(f, lambda a, bound: fn(a, bound), lambda g, parts, _: rebuild(g, parts),
                lambda g, bound: bound | {v for v, _ in g.variables} if isinstance(g, Quantified) else bound,
                unbound)


def _nnf_pair(g: Formula, parts: list[tuple[Formula, Formula]], _env) -> tuple[Formula, Formula]:
    """(NNF of g, NNF of (not g)) from the pairs of g's children."""
    if isinstance(g, Comparison):
        return g, Not(g)
    if isinstance(g, Not):
        return parts[0][1], parts[0][0]
    if isinstance(g, And):
        return And(tuple(p for p, _ in parts)), Or(tuple(n for _, n in parts))
    if isinstance(g, Or):
        return Or(tuple(p for p, _ in parts)), And(tuple(n for _, n in parts))
    if isinstance(g, Imply):  # (or (not l) r)
        (lp, ln), (rp, rn) = parts
        return Or((ln, rp)), And((lp, rn))
    if isinstance(g, Exists):
        return Exists(g.variables, parts[0][0]), Forall(g.variables, parts[0][1])
    if isinstance(g, Forall):
        return Forall(g.variables, parts[0][0]), Exists(g.variables, parts[0][1])
    raise TypeError(f"not a formula: {g!r}")


def nnf(f: Formula, negate: bool = False) -> Formula:
    """Negation normal form (of `not f` when `negate`): `Not` only directly above atoms."""
    pos, neg = fold(f, lambda a, _: (a, Not(a)), _nnf_pair)
    return neg if negate else pos


def free_vars(f: Formula) -> list[str]:
    """Variables of `f` not bound by a quantifier inside it, in order of first occurrence."""
    def node(g: Formula, parts: list[list[str]], _env) -> list[str]:
        if isinstance(g, Comparison):
            return list(dict.fromkeys(x for e in (g.left, g.right) for t in fluents(e) for x in t.args if is_var(x)))
        bound = {v for v, _ in g.variables} if isinstance(g, Quantified) else ()
        out: list[str] = []
        for p in parts:
            out.extend(v for v in p if v not in out and v not in bound)
        return out
    return fold(f, lambda a, _: list(dict.fromkeys(x for x in a.args if is_var(x))), node)


def bound_vars(f: Formula) -> set[str]:
    """Variables bound by a quantifier somewhere in `f`."""
    return {v for g in subformulas(f) if isinstance(g, Quantified) for v, _ in g.variables}


def top_literals(f: Formula) -> tuple[Literal, ...]:
    """The literal conjuncts at the top of `f` (its other conjuncts are left out)."""
    out = []
    for g in (f.args if isinstance(f, And) else (f,)):
        if isinstance(g, Atom):
            out.append(Literal(g, True))
        elif isinstance(g, Not) and isinstance(g.arg, Atom):
            out.append(Literal(g.arg, False))
    return tuple(out)


def fluents(e: Expr) -> list[Fluent]:
    """The function terms of a numeric expression, left to right (iteratively)."""
    out: list[Fluent] = []
    stack: list[Expr] = [e]
    while stack:
        x = stack.pop()
        if isinstance(x, Fluent):
            out.append(x)
        elif isinstance(x, Arith):
            stack.extend(reversed(x.args))
    return out


def typed_text(items: Sequence[Typed], typed: bool = True) -> str:
    """`?x - t ?y - u`, and untyped domains write no types. `object` stays implicit only after the
    last other type: in `?o ?r - receptacle` the `- receptacle` would type `?o` too, so an `object`
    before a typed name is written `?o - object`."""
    if not typed:
        return " ".join(n for n, _ in items)
    last = max((i for i, (_, t) in enumerate(items) if t != "object"), default=-1)
    return " ".join(n if i > last else f"{n} - {t}" for i, (n, t) in enumerate(items))


def text(f: Formula, typed: bool = True) -> str:
    """PDDL text of a formula."""
    def node(g: Formula, parts: list[str], _env) -> str:
        if isinstance(g, Comparison):
            return str(g)
        if isinstance(g, Not):
            return f"(not {parts[0]})"
        if isinstance(g, And):
            return "(and" + "".join(" " + p for p in parts) + ")"
        if isinstance(g, Or):
            return "(or" + "".join(" " + p for p in parts) + ")"
        if isinstance(g, Imply):
            return f"(imply {parts[0]} {parts[1]})"
        assert isinstance(g, Quantified)  # atoms are the leaves: fold gives them to `atom`, never to `node`
        q = "exists" if isinstance(g, Exists) else "forall"
        return f"({q} ({typed_text(g.variables, typed)}) {parts[0]})"
    return fold(f, lambda a, _: str(a), node)


def goal_condition(f: Formula, line: int | None = None, col: int | None = None) -> GoalCondition:
    """A goal conjunct that is no literal as the atom of its own 0-ary derived predicate (`model.GoalCondition`):
    named by a digest of its PDDL text, so that equal conditions (of one problem or many) are one predicate."""
    shown = text(f)
    import hashlib  # a goal condition's name only: not on a start-up's path
    return GoalCondition(Atom(GOAL_PREFIX + hashlib.sha256(shown.encode()).hexdigest()[:12], ()), True, f, shown,
                         line, col)


__all__ = ["TRUE", "fold", "children", "rebuild", "subformulas", "atoms", "map_atoms", "nnf", "free_vars",
           "bound_vars", "fluents", "conjuncts", "conjunction_literals", "top_literals", "typed_text", "text",
           "goal_condition"]
