"""The structure facts of one model, which `compare.lp` needs beyond its schema facts.

Literals are compared by their lifted atoms, so each atom is also given decomposed
(`atom_pred/3`, `atom_arg/3`: predicate and arguments, for renaming); a precondition
conjunct, a when-condition that is no literal, or a numeric condition or effect is given as a
tree (`formula/4` its root's shape, `fnode/5`, `fkid/6`, `fleaf/5`, `fvar/6`) whose shapes do not
depend on names, so that compare.lp matches two formulas node by node under a renaming: children
in order, the operands of `and`/`or` as sets, quantified variables by compatible types. The
display text of every unit is kept to write the edits.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from ...asp.costs import domain_cost_facts
from ...asp.facts import lifted_atom, lifted_parts
from ...asp.names import asp_name
from ...asp.schema import (
    ATOM_ARG,
    ATOM_KEY,
    ATOM_PRED,
    CCOND,
    COST_ARG,
    COST_FN,
    FKID,
    FLEAF,
    FNODE,
    FORMULA,
    FVAR,
    NFUNCTION,
    NFUNCTION_PARAM,
    NUMERIC,
    PRED_SIG,
    SIG_PARAM,
)
from ...logic import Quantified, conjunction_literals, fold, top_literals, typed_text
from ...logic import text as formula_text
from ...model import (
    TRUE,
    Action,
    And,
    Arith,
    Atom,
    Comparison,
    Domain,
    Exists,
    Expr,
    Fluent,
    Forall,
    Formula,
    Imply,
    Not,
    NumericEffect,
    Or,
    Predicate,
)
from ...pddl.writer import cost_text, effect_text

#: A numeric expression's skeleton and the lifted texts of its function terms, in order.
Skeleton = tuple[str, list[str]]


@dataclass(frozen=True)
class Node:
    """A node of a formula's tree: its shape, which leaves names out (atoms are `#`, a quantifier
    counts its variables), so that a renamed copy has the same shapes; an atom (a leaf), or its
    children, in order or (`unordered`: the operands of `and`/`or`) as a set; the types of the
    variables a quantifier binds (compared by compatibility, like parameters)."""

    shape: str
    atom: str | None = None
    kids: tuple[Node, ...] = ()
    unordered: bool = False
    types: tuple[str, ...] = ()


def _inner(op: str, kids: list[Node], unordered: bool = False, types: tuple[str, ...] = ()) -> Node:
    """An inner node. Its shape is a digest of its operator, the number of variables it binds and its
    children's shapes (sorted when unordered), so that it stays short at any depth."""
    if unordered:
        kids = sorted(kids, key=lambda k: k.shape)
    text = f"{op}/{len(types)}(" + " ".join(k.shape for k in kids) + ")"
    return Node(hashlib.blake2b(text.encode(), digest_size=8).hexdigest(), kids=tuple(kids), unordered=unordered,
                types=types)


def _sequence(shape: str, leaves: list[str]) -> Node:
    """A numeric condition or effect: its expression's text with function terms as `#`, and the
    function terms, in order."""
    return Node(shape, kids=tuple(Node("#", atom=x) for x in leaves))


def _quote(text: str) -> str:
    """`text` as a clingo string."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def static_costs(d: Domain) -> tuple[Predicate, ...]:
    """The static functions of `d`'s action costs (not `total-cost`): renamed like numeric fluents."""
    return tuple(f for f in d.cost_functions if f.name != "total-cost")


class Structure:
    """Structure facts of one model: atom decomposition, formula skeletons, condition texts,
    and the display text of every unit (for edits)."""

    def __init__(self, domain: Domain, tag: str):
        self.tag = tag
        self.lines: list[str] = []
        self.atoms: dict[str, tuple[str, list[str]]] = {}
        self.unit_text: dict[tuple[str, str], tuple[str, str]] = {}  # (action, unit) → (kind, text)
        typed = bool(domain.types) or any(t != "object" for a in domain.actions for _, t in a.parameters)
        # numeric fluents, and the static functions of action costs: renamed like predicates
        for f in domain.functions + static_costs(domain):
            self.lines.append(NFUNCTION.fact(tag, asp_name(f.name), f.arity))
            self.lines += [NFUNCTION_PARAM.fact(tag, asp_name(f.name), i, asp_name(t))
                           for i, (_, t) in enumerate(f.parameters, 1)]
        for a in domain.actions:
            self._action(a, typed)
            self._numeric(a, typed)
            self._cost(a)
        if domain.cost_functions:
            self.lines.append(domain_cost_facts(domain, tag))
        self._signatures(domain.predicates)

    def _signatures(self, predicates: tuple[Predicate, ...]) -> None:
        """The predicates' signatures (their argument types in order) with how many predicates share
        each: the true negatives' universe is a sum of products over them (compare.lp), whose terms
        are then per signature, not per predicate (a grounded domain's thousands are one 0-ary one)."""
        count: dict[tuple[str, ...], int] = {}
        for q in predicates:
            sig = tuple(asp_name(t) for _, t in q.parameters)
            count[sig] = count.get(sig, 0) + 1
        for g, (sig, k) in enumerate(sorted(count.items())):
            self.lines.append(PRED_SIG.fact(self.tag, g, len(sig), k))
            self.lines += [SIG_PARAM.fact(self.tag, g, i, t) for i, t in enumerate(sig, 1)]

    def _cost(self, action: Action) -> None:
        """An action's cost effect, a unit of its own (category `cost`): a function term given
        decomposed (`cost_fn/4`, `cost_arg/4`), so that its arguments match under the renaming."""
        if action.cost is None:
            return
        a = asp_name(action.name)
        self.unit_text[(a, "cost")] = ("cost effect", cost_text(action.cost))
        if isinstance(action.cost, Atom):
            params = {v: i for i, (v, _) in enumerate(action.parameters, 1)}
            _, args = lifted_parts(action.cost, params)
            self.lines.append(COST_FN.fact(self.tag, a, asp_name(action.cost.predicate), len(args)))
            self.lines += [COST_ARG.fact(self.tag, a, i, x) for i, x in enumerate(args, 1)]

    def atom(self, atom: Atom, params: dict[str, int]) -> str:
        text = lifted_atom(atom, params)
        if text not in self.atoms:
            self.atoms[text] = lifted_parts(atom, params)
        return text

    def skeleton(self, f: Formula, params: dict[str, int]) -> Skeleton:
        """A formula's text with atoms as `#` (conjuncts and disjuncts sorted by shape and atoms),
        and the lifted texts of its atoms in order: the key that groups one model's conditional
        effects by condition (`ccond/4`), in that model's names. Matching uses `tree`."""
        def leaf(a: Atom, scope: dict[str, int]) -> Skeleton:
            return "#", [self.atom(a, scope)]

        def node(g: Formula, parts: list[Skeleton], scope: dict[str, int]) -> Skeleton:
            if isinstance(g, Comparison):
                c = self.comparison(g, scope)
                return c.shape, [str(k.atom) for k in c.kids]
            if isinstance(g, Not):
                return f"(not {parts[0][0]})", parts[0][1]
            if isinstance(g, (And, Or)):
                parts = sorted(parts, key=lambda p: p[0] + "|" + ",".join(p[1]))
                op = "and" if isinstance(g, And) else "or"
                return f"({op}" + "".join(" " + sk for sk, _ in parts) + ")", [x for _, sub in parts for x in sub]
            if isinstance(g, Imply):
                return f"(imply {parts[0][0]} {parts[1][0]})", parts[0][1] + parts[1][1]
            assert isinstance(g, (Exists, Forall))
            q = "exists" if isinstance(g, Exists) else "forall"
            types = " ".join(asp_name(t) for _, t in g.variables)
            return f"({q} ({types}) {parts[0][0]})", parts[0][1]

        return fold(f, leaf, node, _scope, params)

    def tree(self, f: Formula, params: dict[str, int]) -> Node:
        """A formula as a tree of `Node`s whose shapes do not depend on names: atoms are `#`, the
        operands of `and`/`or` are sorted by shape alone (compare.lp matches them as sets), and a
        quantifier shows how many variables it binds, not their types (matched by compatibility).
        Variables of quantifiers are numbered after those in scope."""
        def leaf(a: Atom, scope: dict[str, int]) -> Node:
            return Node("#", atom=self.atom(a, scope))

        def node(g: Formula, kids: list[Node], scope: dict[str, int]) -> Node:
            if isinstance(g, Comparison):
                return self.comparison(g, scope)
            if isinstance(g, Not):
                return _inner("not", kids)
            if isinstance(g, (And, Or)):
                return _inner("and" if isinstance(g, And) else "or", kids, unordered=True)
            if isinstance(g, Imply):
                return _inner("imply", kids)
            assert isinstance(g, (Exists, Forall))
            return _inner("exists" if isinstance(g, Exists) else "forall", kids,
                          types=tuple(asp_name(t) for _, t in g.variables))

        return fold(f, leaf, node, _scope, params)

    def expression(self, e: Expr, params: dict[str, int]) -> Skeleton:
        """A numeric expression's shape with function terms as `#` (numbers and operators kept), and
        the lifted texts of its function terms in order (iteratively)."""
        out: list[str] = []
        leaves: list[str] = []
        stack: list[Expr | str] = [e]
        while stack:
            x = stack.pop()
            if isinstance(x, str):
                out.append(x)
            elif isinstance(x, Fluent):
                out.append("#")
                leaves.append(self.atom(Atom(x.function, x.args), params))
            elif isinstance(x, Arith):
                stack.append(")")
                for arg in reversed(x.args):
                    stack += [arg, " "]
                out.append("(" + x.op)
            else:
                out.append(x.value)
        return "".join(out), leaves

    def comparison(self, c: Comparison, params: dict[str, int]) -> Node:
        """`>` and `>=` are read as `<` and `<=` with their sides swapped, so that `(> a b)` matches `(< b a)`."""
        op, left, right = c.op, c.left, c.right
        if op in (">", ">="):
            op, left, right = op.replace(">", "<"), right, left
        (sl, ll), (sr, lr) = self.expression(left, params), self.expression(right, params)
        return _sequence(f"({op} {sl} {sr})", ll + lr)

    def numeric_effect(self, e: NumericEffect, params: dict[str, int]) -> Node:
        (sf, lf), (sv, lv) = self.expression(e.fluent, params), self.expression(e.value, params)
        return _sequence(f"({e.op} {sf} {sv})", lf + lv)

    def _numeric(self, action: Action, typed: bool) -> None:
        """Numeric units: each top-level numeric condition np(J), each numeric effect ne(K) (of category
        ceff under `when` or `forall`, its condition and bound variables part of its skeleton)."""
        a = asp_name(action.name)
        params = {v: i for i, (v, _) in enumerate(action.parameters, 1)}
        parts = action.precondition.args if isinstance(action.precondition, And) else (action.precondition,)
        for j, g in enumerate((g for g in parts if isinstance(g, Comparison)), 1):
            self._unit_facts(a, f"np({j})", "pre", self.comparison(g, params))
            self.unit_text[(a, f"nu(np({j}))")] = ("precondition", str(g))
        for k, e in enumerate(action.numeric_effects):
            local = dict(params)
            for i, (v, _) in enumerate(e.variables, 1):
                local[v] = len(params) + i
            effect = self.numeric_effect(e, local)
            if e.condition == TRUE and not e.variables:
                self._unit_facts(a, f"ne({k})", "eff", effect)
                self.unit_text[(a, f"nu(ne({k}))")] = ("effect", str(e))
                continue
            self._unit_facts(a, f"ne({k})", "ceff", _inner("forall-when", [self.tree(e.condition, local), effect],
                                                           types=tuple(asp_name(t) for _, t in e.variables)))
            text = f"(when {formula_text(e.condition, typed)} {e})"
            if e.variables:
                text = f"(forall ({typed_text(e.variables, typed)}) {text})"
            self.unit_text[(a, f"nu(ne({k}))")] = ("conditional effect", text)

    def _unit_facts(self, a: str, fid: str, category: str, root: Node) -> None:
        self.lines.append(NUMERIC.fact(self.tag, a, fid, category))
        self._tree_facts(a, fid, root)

    def _tree_facts(self, a: str, fid: str, root: Node) -> None:
        """`formula/4` (the root's shape) and the nodes of the tree, numbered in pre-order from 0
        (`fnode/5`, `fkid/6`: position 0 for an unordered child, `fleaf/5`, `fvar/6`)."""
        self.lines.append(FORMULA.fact(self.tag, a, fid, _quote(root.shape)))
        stack, count = [(root, 0)], 1
        while stack:
            n, i = stack.pop()
            self.lines.append(FNODE.fact(self.tag, a, fid, i, _quote(n.shape)))
            if n.atom is not None:
                self.lines.append(FLEAF.fact(self.tag, a, fid, i, n.atom))
            self.lines += [FVAR.fact(self.tag, a, fid, i, j, t) for j, t in enumerate(n.types, 1)]
            for j, kid in enumerate(n.kids, 1):
                self.lines.append(FKID.fact(self.tag, a, fid, i, 0 if n.unordered else j, count))
                stack.append((kid, count))
                count += 1

    def _formula_facts(self, a: str, fid: str, f: Formula, params: dict[str, int]) -> str:
        """The tree facts of `f`, and its key (`skeleton`) for `ccond/4`."""
        self._tree_facts(a, fid, self.tree(f, params))
        sk, leaves = self.skeleton(f, params)
        return sk + "|" + ",".join(leaves)

    def _action(self, action: Action, typed: bool) -> None:
        a = asp_name(action.name)
        params = {v: i for i, (v, _) in enumerate(action.parameters, 1)}
        lits = conjunction_literals(action.precondition)
        top = lits if lits is not None else top_literals(action.precondition)
        for l in top:
            L = self.atom(l.atom, params)
            self.unit_text[(a, f"lit(pre,{'pos' if l.positive else 'neg'},{L})")] = ("precondition", str(l))
        if lits is None:
            parts = action.precondition.args if isinstance(action.precondition, And) else (action.precondition,)
            j = 0
            for g in parts:
                if isinstance(g, (Atom, Comparison)) or isinstance(g, Not) and isinstance(g.arg, Atom):
                    continue
                j += 1
                self._formula_facts(a, f"p({j})", g, params)
                self.unit_text[(a, f"pf({j})")] = ("precondition", formula_text(g, typed))
        for k, e in enumerate(action.effects):
            if e.unconditional:
                L = self.atom(e.literal.atom, params)
                sign = "pos" if e.literal.positive else "neg"
                self.unit_text[(a, f"lit(eff,{sign},{L})")] = ("effect", str(e.literal))
                continue
            local = dict(params)
            for j, (v, _) in enumerate(e.variables, 1):
                local[v] = len(params) + j
            self.atom(e.literal.atom, local)
            cond = conjunction_literals(e.condition)
            head = ",".join(asp_name(t) for _, t in e.variables)
            if cond is None:
                text = "complex:" + self._formula_facts(a, f"w({k})", e.condition, local)
            else:
                text = ";".join(sorted(f"{'pos' if l.positive else 'neg'}:{self.atom(l.atom, local)}" for l in cond))
            self.lines.append(CCOND.fact(self.tag, a, k, _quote(head + "|" + text)))
            self.unit_text[(a, f"ce({k})")] = ("conditional effect", effect_text(e, typed))

    def facts(self) -> str:
        out = list(self.lines)
        for text, (pred, args) in self.atoms.items():
            out.append(ATOM_PRED.fact(text, pred, len(args)))
            out.append(ATOM_KEY.fact(text, _quote(_constants(pred, args))))
            out += [ATOM_ARG.fact(text, i, x) for i, x in enumerate(args, 1)]
        return "\n".join(out) + "\n"


def _constants(pred: str, args: list[str]) -> str:
    """An atom's constants and where they are (`1=a;3=b`; an equality's in order of name, its sides
    match crosswise too): two atoms match only when these agree, since a constant matches the same
    constant only, and a variable only a variable."""
    if pred == "eq":
        return ";".join(sorted(x for x in args if x.startswith("c(")))
    return ";".join(f"{i}={x}" for i, x in enumerate(args, 1) if x.startswith("c("))


def _scope(g: Formula, scope: dict[str, int]) -> dict[str, int]:
    """The variables in scope inside `g`: a quantifier's numbered after those outside it."""
    if not isinstance(g, Quantified):
        return scope
    scope = dict(scope)
    for v, _ in g.variables:
        scope[v] = max(scope.values(), default=0) + 1
    return scope


__all__ = ["Structure", "Skeleton"]
