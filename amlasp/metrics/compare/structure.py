"""The structure facts of one model, which `compare.lp` needs beyond its schema facts.

Literals are compared by their lifted atoms, so each atom is also given decomposed
(`atom_pred/3`, `atom_arg/3`: predicate and arguments, for renaming); a precondition
conjunct or a when-condition that is no literal is given as a skeleton (its shape with
atoms as `#`) and its atoms in order (`formula/4`, `fleaf/5`), so that two formulas match
when their shapes agree and their atoms match one by one. The display text of every unit
is kept to write the edits.
"""

from __future__ import annotations

from ...asp.costs import domain_cost_facts
from ...asp.facts import lifted_atom, lifted_parts
from ...asp.names import asp_name
from ...asp.schema import (
    ATOM_ARG,
    ATOM_PRED,
    CCOND,
    COST_ARG,
    COST_FN,
    FLEAF,
    FORMULA,
    NFUNCTION,
    NFUNCTION_PARAM,
    NUMERIC,
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
    Formula,
    Imply,
    Not,
    NumericEffect,
    Or,
    Predicate,
)
from ...pddl.writer import cost_text, effect_text

#: A skeleton and the lifted texts of its atoms, in order.
Skeleton = tuple[str, list[str]]


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
        """A formula's shape with atoms as `#`, and the lifted texts of its atoms in order.
        Conjuncts and disjuncts are sorted by shape and atoms, so that their order does not
        matter when names agree. Variables of quantifiers are numbered after those in scope."""
        def leaf(a: Atom, scope: dict[str, int]) -> Skeleton:
            return "#", [self.atom(a, scope)]

        def node(g: Formula, parts: list[Skeleton], scope: dict[str, int]) -> Skeleton:
            if isinstance(g, Comparison):
                return self.comparison(g, scope)
            if isinstance(g, Not):
                return f"(not {parts[0][0]})", parts[0][1]
            if isinstance(g, (And, Or)):
                parts = sorted(parts, key=lambda p: p[0] + "|" + ",".join(p[1]))
                op = "and" if isinstance(g, And) else "or"
                return f"({op}" + "".join(" " + sk for sk, _ in parts) + ")", [x for _, sub in parts for x in sub]
            if isinstance(g, Imply):
                return f"(imply {parts[0][0]} {parts[1][0]})", parts[0][1] + parts[1][1]
            q = "exists" if isinstance(g, Exists) else "forall"
            types = " ".join(asp_name(t) for _, t in g.variables)
            return f"({q} ({types}) {parts[0][0]})", parts[0][1]

        def inner(g: Formula, scope: dict[str, int]) -> dict[str, int]:
            if not isinstance(g, Quantified):
                return scope
            scope = dict(scope)
            for v, _ in g.variables:
                scope[v] = max(scope.values(), default=0) + 1
            return scope

        return fold(f, leaf, node, inner, params)

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

    def comparison(self, c: Comparison, params: dict[str, int]) -> Skeleton:
        """`>` and `>=` are read as `<` and `<=` with their sides swapped, so that `(> a b)` matches `(< b a)`."""
        op, left, right = c.op, c.left, c.right
        if op in (">", ">="):
            op, left, right = op.replace(">", "<"), right, left
        (sl, ll), (sr, lr) = self.expression(left, params), self.expression(right, params)
        return f"({op} {sl} {sr})", ll + lr

    def numeric_effect(self, e: NumericEffect, params: dict[str, int]) -> Skeleton:
        (sf, lf), (sv, lv) = self.expression(e.fluent, params), self.expression(e.value, params)
        return f"({e.op} {sf} {sv})", lf + lv

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
            sk, leaves = self.numeric_effect(e, local)
            if e.condition == TRUE and not e.variables:
                self._unit_facts(a, f"ne({k})", "eff", (sk, leaves))
                self.unit_text[(a, f"nu(ne({k}))")] = ("effect", str(e))
                continue
            csk, cleaves = self.skeleton(e.condition, local)
            head = " ".join(asp_name(t) for _, t in e.variables)
            self._unit_facts(a, f"ne({k})", "ceff", (f"(forall ({head}) (when {csk} {sk}))", cleaves + leaves))
            text = f"(when {formula_text(e.condition, typed)} {e})"
            if e.variables:
                text = f"(forall ({typed_text(e.variables, typed)}) {text})"
            self.unit_text[(a, f"nu(ne({k}))")] = ("conditional effect", text)

    def _unit_facts(self, a: str, fid: str, category: str, skeleton: Skeleton) -> None:
        sk, leaves = skeleton
        self.lines.append(NUMERIC.fact(self.tag, a, fid, category))
        self.lines.append(FORMULA.fact(self.tag, a, fid, _quote(sk)))
        self.lines += [FLEAF.fact(self.tag, a, fid, j, l) for j, l in enumerate(leaves, 1)]

    def _formula_facts(self, a: str, fid: str, f: Formula, params: dict[str, int]) -> str:
        sk, leaves = self.skeleton(f, params)
        self.lines.append(FORMULA.fact(self.tag, a, fid, _quote(sk)))
        self.lines += [FLEAF.fact(self.tag, a, fid, j, l) for j, l in enumerate(leaves, 1)]
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
            out += [ATOM_ARG.fact(text, i, x) for i, x in enumerate(args, 1)]
        return "\n".join(out) + "\n"


__all__ = ["Structure", "Skeleton"]
