"""The conditions and effects of a domain's actions, checked against its declarations before `pddl` reads them.

The `pddl` package reports a misused predicate, an undeclared variable or a misplaced
operator without a position, or not at all (it accepts a predicate used with the wrong
number of arguments); converting its objects afterwards can only guess where the offence
was. Checked here on our s-expression (after the repairs), every such error points at the
faulty token: its file, line and column. What passes is what PDDL's grammar allows for a
precondition (a goal description) and an effect, so `pddl`'s own errors are left for the
rare case we did not foresee. The walks use explicit stacks: nesting depth is the user's.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import InputError, UnsupportedError
from . import sexpr
from .declarations import typed_names, variable
from .suggest import OPERATORS, did_you_mean

_CONNECTIVES = {"and", "or", "not", "imply", "exists", "forall"}
_NOT_ATOMS = frozenset(_CONNECTIVES | {"when"})  # what `not` in an effect may not hold


@dataclass(frozen=True)
class Vocabulary:
    """What a formula of the domain may use: predicates with their arity, and constants."""

    arity: dict[str, int]
    constants: set[str]
    file: str
    derived: frozenset[str] = frozenset()  # predicates that :derived rules define: never in an effect
    constants_from: str = "the domain's :constants"  # where `constants` come from, for a message


def vocabulary(predicates: dict[str, sexpr.List], constants, file: str,
               derived: tuple[sexpr.List, ...] = ()) -> Vocabulary:
    return Vocabulary({name: len(typed_names(list(decl[1:]), file)) for name, decl in predicates.items()},
                      {str(c) for c, _ in constants}, file, frozenset(str(d[1].head()) for d in derived))


def check_actions(actions: dict[str, sexpr.List], vocab: Vocabulary) -> None:
    """Every action's parameters, precondition and effect (after `repair.complete_actions`)."""
    for name, node in actions.items():
        scope = _parameters(node, name, vocab)
        for i, key in enumerate(node):
            if key == ":precondition" and i + 1 < len(node):
                _condition(node[i + 1], scope, vocab, top=True)
            elif key == ":effect" and i + 1 < len(node):
                _effect(node[i + 1], scope, vocab)


def check_derived(rules: tuple[sexpr.List, ...], vocab: Vocabulary) -> None:
    """Each `(:derived (p ?x - t ...) body)`: p a declared predicate with that many parameters, the body a
    condition over them; then the rules' negation stratified (`_stratified`)."""
    for rule in rules:
        head = rule[1]
        name = head.head()
        if name not in vocab.arity:
            raise InputError(f"derived predicate '{name}' is not declared in :predicates"
                             f"{did_you_mean(str(name), list(vocab.arity))}", vocab.file, at=head[0],
                             kind="undeclared-predicate")
        scope = _variables(head[1:], f"in the head of derived predicate '{name}'", vocab)
        if len(typed_names(list(head[1:]), vocab.file)) != vocab.arity[name]:
            raise InputError(f"predicate '{name}' takes {vocab.arity[name]} argument(s), "
                             f"{len(typed_names(list(head[1:]), vocab.file))} given", vocab.file, at=head[0],
                             kind="wrong-arity")
        _condition(rule[2], scope, vocab, top=True)
    _stratified(rules, vocab)


def _uses(root: sexpr.SExpr, derived: frozenset[str]) -> list[tuple[sexpr.List, bool]]:
    """The atoms of derived predicates in a condition, each with whether it is used negatively (under an
    odd number of `not`s, `imply`'s left side counting as one)."""
    out = []
    todo: list[tuple[sexpr.SExpr, bool]] = [(root, False)]
    while todo:
        node, negative = todo.pop()
        if not isinstance(node, sexpr.List) or not node:
            continue
        h = node.head()
        if h in ("and", "or"):
            todo.extend((c, negative) for c in node[1:])
        elif h == "not":
            todo.extend((c, not negative) for c in node[1:])
        elif h == "imply":
            todo.extend([(node[1], not negative)] + [(c, negative) for c in node[2:]])
        elif h in ("exists", "forall"):
            todo.extend((c, negative) for c in node[2:])
        elif h in derived:
            out.append((node, negative))
    return out


def _stratified(rules: tuple[sexpr.List, ...], vocab: Vocabulary) -> None:
    """No derived predicate depends negatively on itself, through any chain of rules (PDDL 2.2: the rules
    must be stratified, so that the least fixpoint is one). Refused at the negative use on the cycle."""
    edges: dict[str, list[tuple[str, bool, sexpr.List]]] = {}
    for rule in rules:
        for atom, negative in _uses(rule[2], vocab.derived):
            edges.setdefault(str(rule[1].head()), []).append((str(atom.head()), negative, atom))
    reach: dict[str, set[str]] = {}  # p -> what p depends on, transitively
    for p in edges:
        seen, todo = set(), [p]
        while todo:
            for q, _, _ in edges.get(todo.pop(), ()):
                if q not in seen:
                    seen.add(q)
                    todo.append(q)
        reach[p] = seen
    for rule in rules:
        p = str(rule[1].head())
        for q, negative, atom in edges.get(p, ()):
            if negative and p in reach.get(q, set()) | {q}:
                raise InputError(f"derived predicate '{p}' depends on the negation of '{q}', which depends on "
                                 f"'{p}': negation of derived predicates must be stratified", vocab.file, at=atom[0],
                                 kind="unstratified-negation")


def check_goal(node: sexpr.SExpr, vocab: Vocabulary) -> None:
    """A goal conjunct that is no literal: a condition without free variables (the problem's objects and the
    domain's constants are `vocab`'s constants), derived predicates allowed."""
    _condition(node, frozenset(), vocab)


def _parameters(action: sexpr.List, name: str, vocab: Vocabulary) -> frozenset[str]:
    for i, key in enumerate(action[:-1]):
        if key == ":parameters" and isinstance(action[i + 1], sexpr.List):
            return _variables(action[i + 1], f"in the parameters of action '{name}'", vocab)
    return frozenset()


def _variables(node: sexpr.List, where: str, vocab: Vocabulary) -> frozenset[str]:
    seen: set[str] = set()
    for v, _ in typed_names(list(node), vocab.file):
        variable(v, vocab.file)
        if v in seen:
            raise InputError(f"variable '{v}' declared twice {where}", vocab.file, at=v, kind="duplicate")
        seen.add(v)
    return frozenset(seen)


def _condition(root: sexpr.SExpr, scope: frozenset[str], vocab: Vocabulary, top: bool = False) -> None:
    """A goal description: atoms, `=`, and/or/not/imply, exists/forall (an empty `()` only at the top)."""
    todo: list[tuple[sexpr.SExpr, frozenset[str]]] = [(root, scope)]
    while todo:
        node, sc = todo.pop()
        if isinstance(node, sexpr.List) and node and isinstance(node[0], sexpr.Token):
            h: str = node[0]  # `_head`'s answer, without a call: a domain has tens of thousands of these
        elif top and node is root and isinstance(node, sexpr.List) and len(node) == 0:
            continue
        else:
            node, h = _head(node, "a condition like (on ?x ?y)", vocab)
        args: list[sexpr.SExpr] = node[1:]
        if h in ("and", "or"):
            todo.extend((c, sc) for c in reversed(args))
        elif h == "not":
            _count(node, 1, "'not' takes one condition", vocab)
            todo.append((args[0], sc))
        elif h == "imply":
            _count(node, 2, "'imply' takes two conditions", vocab)
            todo.extend((c, sc) for c in reversed(args))
        elif h in ("exists", "forall"):
            inner = sc | _quantified(node, vocab)
            todo.append((args[1], inner))
        elif h == "when":
            raise InputError("'when' is an effect, not a condition", vocab.file, at=node, kind="effect-as-condition")
        else:
            _atom(node, sc, vocab)


def _effect(root: sexpr.SExpr, scope: frozenset[str], vocab: Vocabulary) -> None:
    """An effect: literals under `and`, `forall` and `when` (whose effect is literals only, as in PDDL)."""
    todo: list[tuple[sexpr.SExpr, frozenset[str], bool]] = [(root, scope, False)]
    while todo:
        node, sc, in_when = todo.pop()
        if isinstance(node, sexpr.List) and node and isinstance(node[0], sexpr.Token):
            h: str = node[0]  # as in `_condition`
        else:
            node, h = _head(node, "an effect like (on ?x ?y) or (not (on ?x ?y))", vocab)
        args: list[sexpr.SExpr] = node[1:]
        if h == "and":
            todo.extend((c, sc, in_when) for c in reversed(args))
        elif h == "not":
            _count(node, 1, "'not' takes one atom", vocab)
            inner = args[0]
            if isinstance(inner, sexpr.List) and inner.head() in _NOT_ATOMS:
                raise InputError(f"expected an atom after 'not' in an effect, got '({inner.head()} ...)'",
                                 vocab.file, at=inner, kind="condition-as-effect")
            _literal_atom(inner, sc, vocab)
        elif h in ("forall", "when") and in_when:
            raise UnsupportedError(f"unsupported feature: '{h}' inside the effect of 'when' (PDDL allows "
                                   f"literals only there)", vocab.file, at=node)
        elif h == "forall":
            todo.append((args[1], sc | _quantified(node, vocab), False))
        elif h == "when":
            _count(node, 2, "'when' takes a condition and an effect", vocab)
            _condition(args[0], sc, vocab)
            todo.append((args[1], sc, True))
        elif h in ("or", "imply", "exists"):
            raise InputError(f"'{h}' is a condition, not an effect", vocab.file, at=node, kind="condition-as-effect")
        else:
            _literal_atom(node, sc, vocab)


def _literal_atom(expr: sexpr.SExpr, scope: frozenset[str], vocab: Vocabulary) -> None:
    h: str
    if isinstance(expr, sexpr.List) and expr and isinstance(expr[0], sexpr.Token):
        node, h = expr, expr[0]  # `_head`'s answer, as in `_condition`
    else:
        node, h = _head(expr, "an atom like (on ?x ?y)", vocab)
    if h == "=":
        raise UnsupportedError("unsupported feature: equality as an effect", vocab.file, at=node)
    if h in vocab.derived:
        raise InputError(f"derived predicate '{h}' in an effect: it is computed from the state, "
                         f"never changed by an action", vocab.file, at=node[0], kind="derived-in-effect")
    _atom(node, scope, vocab)


def _head(node: sexpr.SExpr, what: str, vocab: Vocabulary) -> tuple[sexpr.List, str]:
    """The list `node` is, and its head (a name), or the error that it is neither."""
    if not isinstance(node, sexpr.List):
        raise InputError(f"expected {what}, got '{node}'", vocab.file, at=node)
    if len(node) == 0:
        raise InputError(f"expected {what}, got ()", vocab.file, at=node)
    head = node.head()
    if head is None:
        raise InputError(f"expected {what}: a name after '(', got a list", vocab.file, at=node[0])
    return node, head


def _count(node: sexpr.List, n: int, message: str, vocab: Vocabulary) -> None:
    if len(node) != n + 1:
        raise InputError(f"{message}, {len(node) - 1} given", vocab.file, at=node)


def _quantified(node: sexpr.List, vocab: Vocabulary) -> frozenset[str]:
    if len(node) != 3 or not isinstance(node[1], sexpr.List):
        raise InputError(f"expected ({node.head()} (?x - type ...) body)", vocab.file, at=node)
    return _variables(node[1], f"in '{node.head()}'", vocab)


def _atom(node: sexpr.List, scope: frozenset[str], vocab: Vocabulary) -> None:
    """`(p t1 ... tn)` with p declared with n parameters, or `(= t1 t2)`; each term a variable in
    scope or a constant."""
    name = node[0] if node and isinstance(node[0], sexpr.Token) else ""  # a list with a name at its head (`_head`)
    args = node[1:]
    if name == "=":
        if len(args) != 2:
            raise InputError(f"'=' takes two arguments, {len(args)} given", vocab.file, at=node, kind="wrong-arity")
    elif name not in vocab.arity:  # a typo is named with the predicate (or operator, given lists) it was meant to be
        words = [*vocab.arity, *(OPERATORS if any(isinstance(a, sexpr.List) for a in args) else ())]
        raise InputError(f"undefined predicate '{name}'{did_you_mean(name, words)}", vocab.file, at=node[0],
                         kind="undeclared-predicate")
    elif len(args) != vocab.arity[name]:
        raise InputError(f"predicate '{name}' takes {vocab.arity[name]} argument(s), {len(args)} given",
                         vocab.file, at=node[0], kind="wrong-arity")
    for a in args:
        if not isinstance(a, sexpr.Token):
            raise InputError(f"expected a variable or constant as an argument of '{name}', got a list",
                             vocab.file, at=a)
        if a.startswith("?"):
            if a not in scope:
                raise InputError(f"undeclared variable '{a}'", vocab.file, at=a, kind="undeclared-variable")
        elif a not in vocab.constants:
            raise InputError(f"unknown constant '{a}' (not in {vocab.constants_from})", vocab.file, at=a,
                             kind="unknown-constant")


__all__ = ["Vocabulary", "vocabulary", "check_actions", "check_derived", "check_goal"]
