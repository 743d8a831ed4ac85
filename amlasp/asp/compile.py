"""Action schemas → clingo rules, one rule per action (and per effect).

This is the translation documented in `encodings/semantics.lp`: instead of asking
the grounder to enumerate every parameter tuple and test preconditions (a generic
meta-interpreter), each schema becomes a rule whose body is its precondition over
`holds({self.s},F)`, so that clingo's grounder joins the state's atoms. Richer
preconditions (`or`, `exists`, `forall`, `imply`) become auxiliary predicates
`aux(M,K,S,Vars)` in negation normal form, the classic Lloyd–Topor translation.
Python writes the rules; what they mean lives in the encoding.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..model import (
    TRUE, Action, And, Atom, Domain, Effect, Exists, Forall, Formula, Imply, Not, Or, Typed, is_var,
)
from .names import asp_name

_VAR = re.compile(r"\b[VQ]\d+\b")  # the ASP variables of compiled rules


def nnf(f: Formula, negate: bool = False) -> Formula:
    """Negation normal form: `Not` only directly above atoms."""
    if isinstance(f, Atom):
        return Not(f) if negate else f
    if isinstance(f, Not):
        return nnf(f.arg, not negate)
    if isinstance(f, And):
        parts = tuple(nnf(g, negate) for g in f.args)
        return Or(parts) if negate else And(parts)
    if isinstance(f, Or):
        parts = tuple(nnf(g, negate) for g in f.args)
        return And(parts) if negate else Or(parts)
    if isinstance(f, Imply):
        return nnf(Or((Not(f.left), f.right)), negate)
    if isinstance(f, Exists):
        return Forall(f.variables, nnf(f.body, True)) if negate else Exists(f.variables, nnf(f.body))
    if isinstance(f, Forall):
        return Exists(f.variables, nnf(f.body, True)) if negate else Forall(f.variables, nnf(f.body))
    raise TypeError(f)


def conjuncts(f: Formula) -> list[Formula]:
    if isinstance(f, And):
        return [x for g in f.args for x in conjuncts(g)]
    return [f]


def free_vars(f: Formula) -> list[str]:
    out: list[str] = []

    def walk(g: Formula, bound: frozenset[str]) -> None:
        if isinstance(g, Atom):
            for a in g.args:
                if is_var(a) and a not in bound and a not in out:
                    out.append(a)
        elif isinstance(g, Not):
            walk(g.arg, bound)
        elif isinstance(g, (And, Or)):
            for h in g.args:
                walk(h, bound)
        elif isinstance(g, Imply):
            walk(g.left, bound)
            walk(g.right, bound)
        elif isinstance(g, (Exists, Forall)):
            walk(g.body, bound | {v for v, _ in g.variables})

    walk(f, frozenset())
    return out


@dataclass
class _Env:
    vars: dict[str, str]  # PDDL variable → ASP variable
    types: dict[str, str]  # PDDL variable → PDDL type


@dataclass
class ActionRules:
    """The rules of one model, and the readable text of each auxiliary condition."""

    text: str
    conditions: dict[int, str] = field(default_factory=dict)


class Compiler:
    """Compiles one domain, tagged `tag` (e.g. `ref`, `learned`), into rules."""

    def __init__(self, domain: Domain, tag: str, state: str = "S", relaxed: bool = False,
                 typing: str = "positive", static: frozenset[str] = frozenset()):
        """`state` is the state term of every rule (a variable, or a step such as `t-1` in
        multi-shot planning); `relaxed` drops negative conditions and `forall` (the delete
        relaxation used to over-approximate reachability).

        For speed on many states (eval): `typing="negative"` checks the type of a variable
        that a positive condition already binds with `not not_a(M,P,V,T)` instead of
        `is_a(M,P,V,T)`: clingo's grounder joins small `is_a` relations first, across all
        problems, which made rules up to 30x slower; a negative literal is checked only after
        the join. `static` names predicates that no action changes: they are read from
        `fixed(P,F)`, given once per problem, instead of `holds(S,F)` in every state."""
        if typing not in ("positive", "negative"):
            raise ValueError(typing)
        self.domain = domain
        self.tag = tag
        self.s = state
        self.relaxed = relaxed
        self.negative_typing = typing == "negative"
        self.static = frozenset(static)
        self.checked_types: set[str] = set()
        self.rules: list[str] = []
        self.next_aux = 0
        self.next_q = 0
        self.conditions: dict[int, str] = {}

    # -- terms and literals
    def term(self, t: str, env: _Env) -> str:
        return env.vars[t] if is_var(t) else asp_name(t)

    def atom(self, a: Atom, env: _Env) -> str:
        args = [self.term(x, env) for x in a.args]
        p = asp_name(a.predicate)
        return f"{p}({','.join(args)})" if args else p

    def typing(self, var: str, env: _Env) -> str:
        return f"is_a({self.tag},P,{env.vars[var]},{asp_name(env.types[var])})"

    def typed(self, variables: list[str], env: _Env, body: list[str]) -> list[str]:
        """Typing literals of `variables` in a rule with `body`: enumerating ones first."""
        bound = {v for lit in body if lit.startswith(("holds(", "fixed(")) for v in _VAR.findall(lit)}
        pos, neg = [], []
        for v in variables:
            if self.negative_typing and env.vars[v] in bound:
                t = asp_name(env.types[v])
                self.checked_types.add(t)
                neg.append(f"not not_a({self.tag},P,{env.vars[v]},{t})")
            else:
                pos.append(self.typing(v, env))
        return pos + neg

    def holds(self, a: Atom, env: _Env) -> str:
        """Where an atom's truth is read: the state, or the problem for a static predicate."""
        if a.predicate in self.static:
            return f"fixed(P,{self.atom(a, env)})"
        return f"holds({self.s},{self.atom(a, env)})"

    def body(self, f: Formula, env: _Env) -> list[str]:
        """Body literals for an NNF formula (complex parts become `aux` atoms)."""
        pos: list[str] = []
        rest: list[str] = []
        for g in conjuncts(f):
            if isinstance(g, Atom):
                if g.predicate == "=":
                    rest.append(f"{self.term(g.args[0], env)}={self.term(g.args[1], env)}")
                else:
                    pos.append(self.holds(g, env))
            elif isinstance(g, Not) and isinstance(g.arg, Atom):
                if g.arg.predicate == "=":
                    rest.append(f"{self.term(g.arg.args[0], env)}!={self.term(g.arg.args[1], env)}")
                elif not self.relaxed:
                    rest.append(f"not {self.holds(g.arg, env)}")
            elif not (self.relaxed and isinstance(g, Forall)):
                rest.append(self.aux(g, env))
        return pos + rest

    def aux(self, f: Formula, env: _Env) -> str:
        """A fresh `aux(M,K,S,Vars)` that holds exactly when the complex formula `f` does."""
        k = self.next_aux
        self.next_aux += 1
        fv = [v for v in free_vars(f) if v in env.vars]
        head = f"aux({self.tag},{k},{self.s},({','.join(env.vars[v] for v in fv)}{',' if len(fv) == 1 else ''}))"
        if isinstance(f, Or):
            for d in f.args:
                body = self.body(d, env)
                self.rules.append(f"{head} :- {', '.join(body + [f'state({self.s},P)'] + self.typed(fv, env, body))}.")
        elif isinstance(f, Exists):
            inner = self.bind(f.variables, env)
            body = self.body(f.body, inner)
            typing = self.typed(fv + [v for v, _ in f.variables], inner, body)
            self.rules.append(f"{head} :- {', '.join(body + [f'state({self.s},P)'] + typing)}.")
        elif isinstance(f, Forall):
            counter = self.aux(Exists(f.variables, nnf(f.body, True)), env)
            self.rules.append(f"{head} :- {', '.join([f'state({self.s},P)'] + self.typed(fv, env, []) + ['not ' + counter])}.")
        elif isinstance(f, And):
            body = self.body(f, env)
            self.rules.append(f"{head} :- {', '.join(body + [f'state({self.s},P)'] + self.typed(fv, env, body))}.")
        else:
            raise TypeError(f)
        return head

    def bind(self, variables: tuple[Typed, ...], env: _Env) -> _Env:
        inner = _Env(dict(env.vars), dict(env.types))
        for v, t in variables:
            inner.vars[v] = f"Q{self.next_q}"
            inner.types[v] = t
            self.next_q += 1
        return inner

    # -- actions
    def env(self, action: Action) -> _Env:
        return _Env({v: f"V{i}" for i, (v, _) in enumerate(action.parameters)}, dict(action.parameters))

    def action_term(self, action: Action, env: _Env) -> str:
        args = [env.vars[v] for v, _ in action.parameters]
        name = asp_name(action.name)
        return f"{name}({','.join(args)})" if args else name

    def applicability(self, action: Action) -> None:
        """app(M,S,A): A's precondition holds in S (all type-consistent A, joined by the grounder)."""
        env = self.env(action)
        lits = self.body(nnf(action.precondition), env)
        pos = [x for x in lits if x.startswith("holds(")]
        fixed = [x for x in lits if x.startswith("fixed(")]
        rest = [x for x in lits if not x.startswith(("holds(", "fixed("))]
        typing = self.typed([v for v, _ in action.parameters], env, pos + fixed)
        body = pos + [f"state({self.s},P)"] + fixed + typing + rest
        self.rules.append(f"app({self.tag},{self.s},{self.action_term(action, env)}) :- {', '.join(body)}.")

    def check(self, action: Action) -> None:
        """unmet(M,S,A,Why): for asked actions (`query`), each precondition conjunct that fails."""
        env = self.env(action)
        a = self.action_term(action, env)
        guard = f"query({self.tag},{self.s},{a})"
        for v, t in action.parameters:
            self.rules.append(f"unmet({self.tag},{self.s},{a},type({env.vars[v]},{asp_name(t)})) :- {guard}, state({self.s},P), "
                              f"not {self.typing(v, env)}.")
        for g in conjuncts(nnf(action.precondition)):
            if isinstance(g, Atom) and g.predicate == "=":
                x, y = (self.term(t, env) for t in g.args)
                self.rules.append(f"unmet({self.tag},{self.s},{a},eq({x},{y})) :- {guard}, {x}!={y}.")
            elif isinstance(g, Not) and isinstance(g.arg, Atom) and g.arg.predicate == "=":
                x, y = (self.term(t, env) for t in g.arg.args)
                self.rules.append(f"unmet({self.tag},{self.s},{a},neq({x},{y})) :- {guard}, {x}={y}.")
            elif isinstance(g, Atom):
                at = self.atom(g, env)
                where = f"state({self.s},P), " if g.predicate in self.static else ""
                self.rules.append(f"unmet({self.tag},{self.s},{a},pos({at})) :- {guard}, {where}not {self.holds(g, env)}.")
            elif isinstance(g, Not) and isinstance(g.arg, Atom):
                at = self.atom(g.arg, env)
                where = f"state({self.s},P), " if g.arg.predicate in self.static else ""
                self.rules.append(f"unmet({self.tag},{self.s},{a},neg({at})) :- {guard}, {where}{self.holds(g.arg, env)}.")
            else:
                k = self.next_aux
                lit = self.aux(g, env)
                self.conditions[k] = _show(g)
                self.rules.append(f"unmet({self.tag},{self.s},{a},cond({k})) :- {guard}, state({self.s},P), not {lit}.")

    def effects(self, action: Action) -> None:
        """add/del(M,S,A,F): what applying A in S adds and deletes (conditions evaluated in S)."""
        env = self.env(action)
        a = self.action_term(action, env)
        for e in action.effects:
            inner = self.bind(e.variables, env) if e.variables else env
            head = "add" if e.literal.positive else "del"
            body = [f"app({self.tag},{self.s},{a})"]
            if not e.unconditional:
                cond = self.body(nnf(e.condition), inner) if e.condition != TRUE else []
                body += cond + [f"state({self.s},P)"] + self.typed([v for v, _ in e.variables], inner, cond)
            self.rules.append(f"{head}({self.tag},{self.s},{a},{self.atom(e.literal.atom, inner)}) :- {', '.join(body)}.")

    def compile(self, enumerate: bool = True, check: bool = False, effects: bool = True) -> ActionRules:
        for action in self.domain.actions:
            self.rules.append(f"% {action.name}")
            if enumerate:
                self.applicability(action)
            if check:
                self.check(action)
            if effects:
                self.effects(action)
        self.rules += [f"check_type({self.tag},{t})." for t in sorted(self.checked_types)]
        return ActionRules("\n".join(self.rules) + "\n", dict(self.conditions))


def _show(f: Formula) -> str:
    if isinstance(f, Atom):
        return str(f)
    if isinstance(f, Not):
        return f"(not {_show(f.arg)})"
    if isinstance(f, (And, Or)):
        op = "and" if isinstance(f, And) else "or"
        return f"({op} " + " ".join(_show(g) for g in f.args) + ")"
    if isinstance(f, Imply):
        return f"(imply {_show(f.left)} {_show(f.right)})"
    if isinstance(f, (Exists, Forall)):
        op = "exists" if isinstance(f, Exists) else "forall"
        vs = " ".join(f"{v} - {t}" for v, t in f.variables)
        return f"({op} ({vs}) {_show(f.body)})"
    return str(f)


def compile_domain(domain: Domain, tag: str, enumerate: bool = True, check: bool = False,
                   effects: bool = True, state: str = "S", relaxed: bool = False, typing: str = "positive",
                   static: frozenset[str] = frozenset()) -> ActionRules:
    return Compiler(domain, tag, state, relaxed, typing, static).compile(enumerate=enumerate, check=check,
                                                                         effects=effects)
