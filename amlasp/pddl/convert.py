"""To our model (`amlasp.model`): a domain or a problem from its checked s-expression.

The declarations (`declarations`) and formulas (`formulas`) were checked on the s-expression, where
every token has its position; what is converted here is known to be well formed, so the conversion
is a direct walk of the tree. The checks kept here are a second line of defence and point at the
token they are about. A problem's atoms are checked by `ground.Grounder`, like every other ground
atom. (Until issue 24 the `pddl` package read the domain's text a second time and this module
converted its objects: that cost 80 ms on the first domain of a process and 8 ms on each later one;
tests/pddl/test_convert_oracle.py keeps it as the oracle this conversion is checked against.)
"""

from __future__ import annotations

from ..errors import InputError, UnsupportedError, warn_input
from ..limits import MAX_DEPTH
from ..logic import conjuncts, goal_condition
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
    GoalCondition,
    Imply,
    Literal,
    Not,
    Or,
    Predicate,
    Problem,
    Typed,
    spliced,
)
from . import formulas, sexpr
from .declarations import DomainDeclarations, Named, type_names, typed_names
from .ground import Grounder

#: The deepest condition the conversion passes on (real models nest less than 10 deep): the later
#: stages (negation normal form, the compilation to rules) recurse on formulas.
MAX_FORMULA_DEPTH = 200


class _Converter:
    """Turns checked s-expressions into our formulas and effects; names checked against the declarations."""

    def __init__(self, file: str, arity: dict[str, int], constants: set[str], types: set[str]):
        self.file = file
        self.arity = arity
        self.constants = constants
        self.types = types

    def typed(self, items: list[sexpr.SExpr], sort: bool = False) -> tuple[Typed, ...]:
        """A typed list of variables: (name, type) in the order given (sorted for a quantifier)."""
        out = []
        for v, t in typed_names(items, self.file):
            if str(t) not in self.types and not str(t).startswith("(either "):
                raise InputError(f"undeclared type '{t}'", self.file, at=t if isinstance(t, sexpr.Token) else v)
            out.append((str(v), str(t)))
        return tuple(sorted(out)) if sort else tuple(out)

    def term(self, t: sexpr.SExpr, scope: dict[str, str]) -> str:
        if not isinstance(t, sexpr.Token):
            raise InputError("expected a variable or constant, got a list", self.file, at=t)
        if t.startswith("?"):
            if t not in scope:
                raise InputError(f"undeclared variable '{t}'", self.file, at=t)
        elif t not in self.constants:
            raise InputError(f"unknown constant '{t}'", self.file, at=t)
        return str(t)

    def atom(self, node: sexpr.List, scope: dict[str, str]) -> Atom:
        name = node[0] if isinstance(node, sexpr.List) and node and isinstance(node[0], sexpr.Token) else node.head()
        args = node[1:]
        if name != "=":
            n = self.arity.get(name) if name is not None else None
            if n is None:
                raise InputError(f"undefined predicate '{name}'", self.file, at=node)
            if len(args) != n:
                raise InputError(f"predicate '{name}' takes {n} argument(s), {len(args)} given", self.file,
                                 at=node[0])
        terms = []
        for t in args:  # `term`'s answer for a variable in scope or a constant, without a call
            if isinstance(t, sexpr.Token) and (t in scope if t[:1] == "?" else t in self.constants):
                terms.append(str(t))
            else:
                terms.append(self.term(t, scope))
        return Atom(str(name), tuple(terms))

    def formula(self, root: sexpr.SExpr, scope: dict[str, str]) -> Formula:
        """A condition, converted bottom-up with an explicit stack: it may nest as deep as the reader allows."""
        done: list[Formula] = []  # converted subformulas, in order
        depth: list[int] = []  # the nesting of each, after and/or are flattened
        # (node, its scope, its quantified variables once its children are pushed; None before)
        todo: list[tuple[sexpr.SExpr, dict[str, str], tuple[Typed, ...] | None]] = [(root, scope, None)]
        while todo:
            node, sc, vs = todo.pop()
            if not isinstance(node, sexpr.List) or not node:
                raise InputError(f"expected a condition, got '{node}'", self.file, at=node)
            h = node.head()
            if h not in ("not", "and", "or", "imply", "forall", "exists"):
                done.append(self.atom(node, sc))
                depth.append(0)
                continue
            quantified = h in ("forall", "exists")
            if vs is None:  # first visit: its children, then the node again
                vs = self.typed(list(node[1]), sort=True) if quantified else ()
                inner = dict(sc, **dict(vs)) if quantified else sc
                todo.append((node, sc, vs))
                todo.extend((c, inner, None) for c in reversed(node[2:] if quantified else node[1:]))
                continue
            n = 1 if quantified else len(node) - 1
            args = done[len(done) - n:]
            deep = depth[len(depth) - n:]
            below = max(deep, default=0)
            del done[len(done) - n:], depth[len(depth) - n:]
            if below >= MAX_FORMULA_DEPTH:
                raise InputError(f"nesting too deep: a condition nests more than {MAX_FORMULA_DEPTH} levels (after "
                                 f"'and' and 'or' are flattened), more than the rest of amlasp takes; keep "
                                 f"{MAX_DEPTH.env} (now {MAX_DEPTH.value():g}) below a few hundred", self.file, at=node)
            if h == "not":
                done.append(Not(args[0]))
            elif h in ("and", "or"):
                kind = And if h == "and" else Or
                done.append(_junction(kind, args))
                if not isinstance(done[-1], kind):  # one operand, standing for itself
                    depth.append(below)
                else:  # a spliced operand of the same kind adds no level
                    depth.append(1 + max((d - 1 if isinstance(f, kind) else d for f, d in zip(args, deep)), default=0))
                continue
            elif h == "imply":
                done.append(Imply(args[0], args[1]))
            else:
                done.append(Forall(vs, args[0]) if h == "forall" else Exists(vs, args[0]))
            depth.append(below + 1)
        return done[0]

    def literals(self, node: sexpr.SExpr, scope: dict[str, str]) -> list[Formula] | None:
        """The literals of a precondition `(and l1 ... ln)` of literals only (most are so), None for any other:
        `_flatten(formula(node))` is then `And` of them, each once (`_junction`), which this is without the
        stack of `formula`; an error is the same, raised by `atom` at the same literal, the first in the file."""
        if not (isinstance(node, sexpr.List) and node and node[0] == "and"):
            return None
        out: list[Formula] = []
        for g in node[1:]:
            if not (isinstance(g, sexpr.List) and g and isinstance(g[0], sexpr.Token)):
                return None
            if g[0] not in _CONNECTIVES:
                out.append(self.atom(g, scope))
            elif g[0] == "not" and len(g) == 2 and isinstance(g[1], sexpr.List) and g[1] \
                    and isinstance(g[1][0], sexpr.Token) and g[1][0] not in _CONNECTIVES:
                out.append(Not(self.atom(g[1], scope)))
            else:
                return None
        return out

    def effects(self, node: sexpr.SExpr, scope: dict[str, str], cond: Formula = TRUE,
                vs: tuple[Typed, ...] = ()) -> list[Effect]:
        if not isinstance(node, sexpr.List) or not node:
            raise InputError(f"expected an effect, got '{node}'", self.file, at=node)
        h = node.head()
        if h == "and":
            out: list[Effect] = []
            for g in node[1:]:  # a literal converted here, as the call for it would: no call per literal
                if isinstance(g, sexpr.List) and g and isinstance(g[0], sexpr.Token):
                    if g[0] not in _NO_LITERAL:
                        out.append(Effect(Literal(self.atom(g, scope), True), cond, vs))
                        continue
                    if g[0] == "not":
                        out.append(Effect(Literal(self.atom(g[1], scope), False), cond, vs))
                        continue
                out += self.effects(g, scope, cond, vs)
            return out
        if h == "forall":
            new = self.typed(list(node[1]), sort=True)
            return self.effects(node[2], dict(scope, **dict(new)), cond, vs + new)
        if h == "when":
            c = self.formula(node[1], scope)
            c = c if cond == TRUE else And((cond, c))
            return self.effects(node[2], scope, c, vs)
        if h == "not":
            return [Effect(Literal(self.atom(node[1], scope), False), cond, vs)]
        if h in ("or", "imply", "exists", "=") or not isinstance(node[0], sexpr.Token):
            raise UnsupportedError(f"unsupported feature: effect '({h} ...)'", self.file, at=node)
        return [Effect(Literal(self.atom(node, scope), True), cond, vs)]

    def action(self, name: str, node: sexpr.List) -> Action:
        keys = {str(node[i]): node[i + 1] for i in range(2, len(node) - 1, 2)}
        params = self.typed(list(keys.get(":parameters", ())))
        scope = dict(params)
        pre: Formula = TRUE
        if ":precondition" in keys:
            literals = self.literals(keys[":precondition"], scope)
            pre = _flatten(self.formula(keys[":precondition"], scope)) if literals is None else \
                And(tuple(dict.fromkeys(literals)))
        effs = tuple(dict.fromkeys(self.effects(keys[":effect"], scope))) if ":effect" in keys else ()  # each once
        return Action(name, params, pre, effs, node.line)


def _junction(kind: type[And] | type[Or], operands: list[Formula]) -> Formula:
    """`(and ...)` or `(or ...)`: nested ones of the same kind spliced in, each operand once (first
    occurrence), one operand standing for itself; as the `pddl` package builds them, which this
    conversion replaced (the literal lists of the syntactic metrics count each literal once)."""
    out = dict.fromkeys(spliced(kind(tuple(operands)), kind))
    return next(iter(out)) if len(out) == 1 else kind(tuple(out))


def _flatten(f: Formula) -> Formula:
    """A conjunction (or a literal) as one flat `And`, so that literal lists are easy to read off."""
    if isinstance(f, (And, Atom)) or isinstance(f, Not) and isinstance(f.arg, Atom):
        return And(tuple(conjuncts(f)))
    return f


def to_domain(name: str, declared: DomainDeclarations, warnings: list[str], file: str) -> Domain:
    """The Domain of checked declarations (after `repair.complete_actions` and `repair.flatten_effects`),
    in the order and with the lines of the file."""
    conv = _Converter(file, {}, {str(c) for c, _ in declared.constants}, declared.type_names)
    predicates = []
    for p, node in declared.predicates.items():
        params = conv.typed(list(node[1:]))
        conv.arity[p] = len(params)
        predicates.append(Predicate(p, params))
    actions = tuple(conv.action(n, node) for n, node in declared.actions.items())
    return Domain(
        name=name,
        types=tuple((str(t), str(p)) for t, p in declared.types),
        constants=tuple((str(c), str(t)) for c, t in declared.constants),
        predicates=tuple(predicates),
        actions=actions,
        file=file,
        warnings=tuple(warnings),
        derived=_derived(conv, declared, {p.name: p.parameters for p in predicates}),
    )


def _derived(conv: _Converter, declared: DomainDeclarations,
             predicates: dict[str, tuple[Typed, ...]]) -> tuple[Derived, ...]:
    """The :derived rules, grouped by predicate in the order of each predicate's first rule in the file,
    each with its own line."""
    first: dict[str, int] = {}
    for node in declared.derived:
        first.setdefault(str(node[1].head()), len(first))
    out = []
    for node in sorted(declared.derived, key=lambda n: first[str(n[1].head())]):  # stable: file order within
        params = _head_types(conv.typed(list(node[1][1:])), node[1], predicates[str(node[1].head())])
        out.append(Derived(str(node[1].head()), params, _flatten(conv.formula(node[2], dict(params))), node.line))
    return tuple(out)


def _head_types(params: tuple[Typed, ...], head: sexpr.List, declared: tuple[Typed, ...]) -> tuple[Typed, ...]:
    """A derived rule's head parameters: a variable given without a type has the type of the predicate's
    declared parameter at its position (PDDL 2.2 declares the predicate's types once, in :predicates)."""
    items = list(head[1:])
    dashes = [i for i, x in enumerate(items) if x == "-"]
    untyped = len(items) - (dashes[-1] + 2) if dashes else len(items)  # the names after the last `- type`
    first = len(params) - untyped
    return params[:first] + tuple((v, declared[first + k][1]) for k, (v, _) in enumerate(params[first:]))


# --------------------------------------------------------------------------- problems

def to_problem(name: str, domain_name: str, objects: Named, sections: dict[str, sexpr.List], domain: Domain,
               file: str) -> Problem:
    """The Problem of checked declarations: its `:init` atoms and `:goal` literals are checked here."""
    table = dict(domain.constants)
    table.update({str(o): str(t) for o, t in objects})
    grounder = Grounder(domain, table)
    init = _init_atoms(sections[":init"][1:], grounder, file)
    goal_section = sections[":goal"]
    if len(goal_section) > 2:
        raise InputError("(:goal ...) takes one formula: wrap the literals in (and ...)", file, at=goal_section[2])
    goal_node = goal_section[1] if len(goal_section) > 1 else sexpr.List([], goal_section.line, goal_section.line)
    goal = _goal_literals(goal_node, grounder, file)
    return Problem(name, domain_name, tuple((str(o), str(t)) for o, t in objects), frozenset(init), goal, file)


def _init_atoms(items: list[sexpr.SExpr], grounder: Grounder, file: str) -> set[Atom]:
    """`:init`'s atoms. A negative literal `(not (p a))` says what the closed world says already (Fast
    Downward reads IPC 2000's movie so): its atom is checked, then it is dropped, said once; one whose
    atom `:init` also gives is a contradiction, refused at it."""
    atoms: set[Atom] = set()
    negative: list[tuple[sexpr.List, Atom]] = []
    for item in items:
        if isinstance(item, sexpr.List) and item.head() == "not":
            if len(item) != 2:
                raise InputError("(not ...) takes one atom", file, at=item)
            negative.append((item, grounder.atom(item[1], file)))
        else:
            atoms.add(grounder.atom(item, file))
    for node, atom in negative:
        if atom in atoms:
            raise InputError(f"(not {atom}) contradicts {atom}, given in :init too", file, at=node)
    if negative:
        warn_input(f"{len(negative)} negative literal(s) in :init dropped, the first (not {negative[0][1]}): "
                   "the closed world makes them redundant", file, at=negative[0][0])
    return atoms


def _goal_literals(node: sexpr.SExpr, grounder: Grounder, file: str) -> tuple[Literal, ...]:
    """A goal's conjuncts (nested `and`s flattened, an empty one allowed; iterative): a literal is read as a
    ground literal (its objects and their types checked), any other conjunct (`forall`, `exists`, `or`,
    `imply`, `not` of a formula) is a `GoalCondition`, checked like a precondition with the problem's
    objects as constants (each error at its token)."""
    out: list[Literal] = []
    todo = [node]
    while todo:
        n = todo.pop()
        if not isinstance(n, sexpr.List):
            raise InputError(f"expected a literal in :goal, got '{n}'", file, at=n)
        h = n.head()
        if h == "and":
            todo.extend(reversed(n[1:]))
        elif h == "not" and len(n) == 2 and isinstance(n[1], sexpr.List) and n[1].head() not in _CONNECTIVES:
            out.append(Literal(grounder.atom(n[1], file, equality=True, derived=True), False))
        elif h in _CONNECTIVES:
            out.append(_goal_condition(n, grounder.domain, grounder.objects, file))
        elif len(n) == 0:
            continue
        else:
            out.append(Literal(grounder.atom(n, file, equality=True, derived=True), True))
    return tuple(out)


def _goal_condition(node: sexpr.List, domain: Domain, names: dict[str, str], file: str) -> GoalCondition:
    """A goal conjunct that is no literal, as the atom of its own derived predicate (`model.GoalCondition`)."""
    arity = {p.name: p.arity for p in domain.predicates}
    formulas.check_goal(node, formulas.Vocabulary(arity, set(names), file,
                                                  constants_from="the problem's :objects nor the domain's :constants"))
    formula = _Converter(file, arity, set(names), set(type_names(domain.types))).formula(node, {})
    return goal_condition(formula, node.line, node.col)


_CONNECTIVES = ("and", "or", "not", "imply", "exists", "forall")
#: The heads of an effect that is no literal `(p ...)` (`Converter.effects`).
_NO_LITERAL = frozenset({"and", "forall", "when", "not", "or", "imply", "exists", "="})

__all__ = ["to_domain", "to_problem"]
