"""One model's action schemas → clingo rules, one rule per action (and per effect).

This is the translation documented in `encodings/semantics.lp`: instead of asking
the grounder to enumerate every parameter tuple and test preconditions (a generic
meta-interpreter), each schema becomes a rule whose body is its precondition over
`holds(S,F)`, so that clingo's grounder joins the state's atoms. Richer
preconditions (`or`, `exists`, `forall`, `imply`) become auxiliary predicates
`aux(M,K,S,Vars)` in negation normal form, the classic Lloyd–Topor translation.
Python writes the rules (through asp/schema.py's declarations); what they mean lives in the encoding.

`Compiler` builds the rules of one action at a time (`rules.py`'s objects); `domain.py` puts a
whole domain's program together and `pair.py` eval's program of two models, both through the
public methods here.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Iterable

from ...logic import conjuncts, free_vars, nnf, text
from ...model import TRUE, Action, And, Atom, Domain, Effect, Exists, Forall, Formula, Not, Or, Typed, type_members
from ..names import asp_name, atom_text
from ..schema import ADD, APP, CHECK_TYPE, DEL, DERIVED, FIXED, HOLDS, IS_A, NOT_A, QUERY, STATE, UNMET, Pred
from .rules import BodyLiteral, Comment, Kind, Rule, Scope, comparison, guard


class Compiler:
    """Compiles the actions of one domain, tagged `tag` (e.g. `ref`, `learned`), into rules.

    The methods that return a `Rule` or literals build single rules for callers that write their
    own heads (`pair.py`); the methods that return nothing `emit` theirs. The auxiliary rules both
    need are emitted too, and `finish()` hands over everything emitted since it was last called."""

    def __init__(self, domain: Domain, tag: str, state: str = "S", relaxed: bool = False,
                 typing: str = "positive", static: frozenset[str] = frozenset(), typed_atoms: bool = False,
                 problem_term: bool = False, aux_prefix: str = "", split_joins: bool = False):
        """`state` is the state term of every rule (a variable, or a step such as `t-1` in
        multi-shot planning); `relaxed` drops negative conditions and `forall` (the delete
        relaxation used to over-approximate reachability).

        For speed on many states (eval): `typing="negative"` checks the type of a variable
        that a positive condition already binds with `not not_a(M,P,V,T)` instead of
        `is_a(M,P,V,T)`: clingo's grounder joins small `is_a` relations first, across all
        problems, which made rules up to 30x slower; a negative literal is checked only after
        the join. `static` names predicates that no action changes: they are read from
        `fixed(P,F)`, given once per problem, instead of `holds(S,F)` in every state.
        `typed_atoms`: the caller has checked that every state and fixed atom is well-typed for
        its predicate's declaration; then a variable bound by an atom at a position declared with
        its type (or a subtype) needs no typing literal at all (applicable: a fifth of sokoban's
        grounding was such checks).
        `problem_term`: the state term holds its problem (eval's `s(P,S)`), so that a rule binds P
        from its first state atom and `state(S,P)` is written only where nothing else binds the
        state. Why: the grounder orders a body by estimated sizes and takes the small `state/2`
        first, then a static atom's tuples for every state (npuzzle's `neighbor`, sokoban's
        `adjacent`: states x tuples); without it, it joins a problem's static atoms once and looks
        the states up by the atoms' arguments.
        `aux_prefix`: the start of every `aux` number's text, so that rules compiled apart (planning's
        derived predicates, `derived_program`) never share an `aux` atom with the actions' rules.
        `split_joins`: in an applicability rule that also reads static atoms, state atoms that share a
        variable are joined in a rule of their own (`state_joins`), for programs of many states in one
        `holds/2` relation (eval)."""
        if typing not in ("positive", "negative"):
            raise ValueError(typing)
        self.domain = domain
        self.tag = tag
        self.s = state
        self.relaxed = relaxed
        self.negative_typing = typing == "negative"
        self.static = frozenset(static)
        self.typed_atoms = typed_atoms
        self.problem_term = problem_term
        self.aux_prefix = aux_prefix
        self.split_joins = split_joins
        self._joins: dict[tuple[BodyLiteral, ...], BodyLiteral] = {}  # joined state atoms → their aux literal
        self.derived = domain.derived_predicates()
        self.checked_types: set[str] = set()
        self.next_aux = 0
        self.next_q = 0
        self.conditions: dict[int, str] = {}
        self._out: list[Rule | Comment] = []

    def emit(self, rule: Rule | Comment) -> None:
        self._out.append(rule)

    def finish(self) -> list[Rule | Comment]:
        """The rules emitted since the last call (auxiliary ones included), then the `check_type`
        facts of negative typing they read; the next call starts afresh (validate's two parts)."""
        out = self._out + [Rule(CHECK_TYPE(self.tag, t)) for t in sorted(self.checked_types)]
        self._out = []
        self.checked_types = set()
        return out

    # -- literals
    def in_state(self) -> BodyLiteral:
        """`state(S,P)`: binds the problem P of the state S."""
        return guard(STATE("S" if self.problem_term else self.s, "P"))

    def state_guard(self, body: Iterable[BodyLiteral]) -> list[BodyLiteral]:
        """`[state(S,P)]`, or nothing when the state term holds the problem and a state atom of
        `body` binds it (`problem_term`)."""
        if self.problem_term and any(x.joined and x.kind in (Kind.STATE, Kind.DERIVED, Kind.JOIN) for x in body):
            return []
        return [self.in_state()]

    def holds(self, a: Atom, scope: Scope) -> BodyLiteral:
        """Where an atom's truth is read: the state, or the problem for a static predicate."""
        if a.predicate in self.derived:  # computed in the state by the derived rules (`derived_rules`)
            return BodyLiteral(Kind.DERIVED, DERIVED(self.tag, self.s, scope.atom(a)), variables=scope.variables_of(a))
        declared = scope.declared_types(a, self.domain) if self.typed_atoms else frozenset()
        if a.predicate in self.static:
            return BodyLiteral(Kind.FIXED, FIXED("P", scope.atom(a)), variables=scope.variables_of(a),
                               declared=declared)
        return BodyLiteral(Kind.STATE, HOLDS(self.s, scope.atom(a)), variables=scope.variables_of(a),
                           declared=declared)

    def comparison(self, a: Atom, scope: Scope, equal: bool) -> BodyLiteral:
        """`X=Y` (or `X!=Y`) for an equality atom."""
        x, y = (scope.term(t) for t in a.args)
        return comparison(f"{x}={y}" if equal else f"{x}!={y}")

    def typing(self, var: str, scope: Scope) -> BodyLiteral:
        """`is_a(M,P,V,T)`: the object bound to `var` has `var`'s type."""
        return BodyLiteral(Kind.TYPING, IS_A(self.tag, "P", scope.variables[var], asp_name(scope.types[var])))

    def type_check(self, var: str, scope: Scope) -> BodyLiteral:
        """`not not_a(M,P,V,T)`, for a variable bound elsewhere (its type is then listed in `check_type`)."""
        t = asp_name(scope.types[var])
        self.checked_types.add(t)
        return BodyLiteral(Kind.TYPING, NOT_A(self.tag, "P", scope.variables[var], t), negated=True)

    def typed(self, variables: Iterable[str], scope: Scope, body: Iterable[BodyLiteral]) -> list[BodyLiteral]:
        """Typing literals of `variables` in a rule with `body`: enumerating ones first; none for a
        variable that a joined atom types already (`typed_atoms`)."""
        body = list(body)
        bound = frozenset().union(*(lit.binds for lit in body))
        implied = {pair for lit in body if lit.joined for pair in lit.declared}
        pos, neg = [], []
        for v in variables:
            var, want = scope.variables[v], scope.types[v]
            if any(x == var and all(self.domain.fits(m, want) for m in type_members(t)) for x, t in implied):
                continue
            if self.negative_typing and var in bound:
                neg.append(self.type_check(v, scope))
            else:
                pos.append(self.typing(v, scope))
        return pos + neg

    def body(self, f: Formula, scope: Scope) -> list[BodyLiteral]:
        """Body literals for an NNF formula (complex parts become `aux` atoms): state atoms first."""
        pos: list[BodyLiteral] = []
        rest: list[BodyLiteral] = []
        for g in conjuncts(f):
            if isinstance(g, Atom):
                if g.predicate == "=":
                    rest.append(self.comparison(g, scope, equal=True))
                else:
                    pos.append(self.holds(g, scope))
            elif isinstance(g, Not) and isinstance(g.arg, Atom):
                if g.arg.predicate == "=":
                    rest.append(self.comparison(g.arg, scope, equal=False))
                elif not self.relaxed:
                    rest.append(self.holds(g.arg, scope).negate())
            elif not (self.relaxed and isinstance(g, Forall)):
                rest.append(self.aux(g, scope))
        return pos + rest

    def aux(self, f: Formula, scope: Scope) -> BodyLiteral:
        """A fresh `aux(M,K,S,Vars)` that holds exactly when the complex formula `f` does."""
        k = self.next_aux
        self.next_aux += 1
        fv = [v for v in free_vars(f) if v in scope.variables]
        args = ",".join(scope.variables[v] for v in fv) + ("," if len(fv) == 1 else "")
        head = f"aux({self.tag},{self.aux_prefix}{k},{self.s},({args}))"
        if isinstance(f, Or):
            for d in f.args:
                body = self.body(d, scope)
                self.emit(Rule(head, (*body, *self.state_guard(body), *self.typed(fv, scope, body))))
        elif isinstance(f, Exists):
            inner = self.bind(f.variables, scope)
            body = self.body(f.body, inner)
            self.emit(Rule(head, (*body, *self.state_guard(body),
                                   *self.typed(fv + [v for v, _ in f.variables], inner, body))))
        elif isinstance(f, Forall):
            counter = self.aux(Exists(f.variables, nnf(f.body, True)), scope)
            self.emit(Rule(head, (self.in_state(), *self.typed(fv, scope, []), counter.negate())))
        elif isinstance(f, And):
            body = self.body(f, scope)
            self.emit(Rule(head, (*body, *self.state_guard(body), *self.typed(fv, scope, body))))
        else:
            raise TypeError(f)
        return BodyLiteral(Kind.AUX, head)

    def bind(self, variables: tuple[Typed, ...], scope: Scope) -> Scope:
        """`scope` and fresh ASP variables `Q<n>` for quantified `variables`."""
        names, types = dict(scope.variables), dict(scope.types)
        for v, t in variables:
            names[v] = f"Q{self.next_q}"
            types[v] = t
            self.next_q += 1
        return Scope(names, types)

    # -- derived predicates
    def derived_rules(self) -> None:
        """derived(M,S,p(X...)) :- <the rule's condition in S>, state(S,P), <typing of X...>: one rule per
        :derived rule of the domain. Recursion through positive atoms is the least fixpoint clingo computes;
        negation of derived atoms is stratified (the parser refuses it otherwise), so each state has one answer."""
        for d in self.domain.derived:
            self.emit(Comment(f"derived {d.predicate}"))
            scope = Scope({v: f"V{i}" for i, (v, _) in enumerate(d.parameters)}, dict(d.parameters))
            body = self.body(nnf(d.body), scope)
            head = DERIVED(self.tag, self.s, scope.atom(d.head))
            self.emit(Rule(head, (*body, *self.state_guard(body), *self.typed([v for v, _ in d.parameters], scope,
                                                                                 body))))

    # -- actions
    def scope(self, action: Action) -> Scope:
        """An action's parameters as `V0, V1, ...`."""
        return Scope({v: f"V{i}" for i, (v, _) in enumerate(action.parameters)}, dict(action.parameters))

    def action_term(self, action: Action) -> str:
        return atom_text(action.name, [f"V{i}" for i in range(action.arity)])

    def precondition(self, action: Action) -> list[BodyLiteral]:
        """The body literals of `action`'s precondition (over its parameters `V0, V1, ...`)."""
        return self.body(nnf(action.precondition), self.scope(action))

    def literal_set(self, action: Action) -> frozenset[BodyLiteral] | None:
        """The precondition's body literals as a set, if it is a conjunction of literals (so that two
        models' preconditions compare literal by literal); else None."""
        if action.precondition_literals() is None:
            return None
        return frozenset(self.precondition(action))

    def applicability(self, action: Action, head: str | None = None) -> Rule:
        """app(M,S,A) :- A's precondition holds in S (all type-consistent A, joined by the grounder);
        another `head` (e.g. eval's `app(M,S,N,A)`) may stand for it."""
        scope = self.scope(action)
        lits = self.precondition(action)
        state = [x for x in lits if x.joined and x.kind in (Kind.STATE, Kind.DERIVED)]
        fixed = [x for x in lits if x.joined and x.kind is Kind.FIXED]
        rest = [x for x in lits if not x.joined]
        typing = self.typed([v for v, _ in action.parameters], scope, state + fixed)
        head = head or APP(self.tag, self.s, self.action_term(action))
        if self.split_joins and len(state) > 1 and fixed:
            state = self.state_joins(state, len(state) + len(fixed))
        return Rule(head, (*state, *self.state_guard(state), *fixed, *typing, *rest))

    def state_joins(self, state: list[BodyLiteral], joined: int) -> list[BodyLiteral]:
        """`state` with each group of two or more atoms that share variables (transitively) replaced by
        an `aux(M,K,S,Vars)` atom of their own rule, the same atom for the same group (when the rule joins
        more than the group: `joined` atoms of the state and the problem). Why: clingo orders a body by
        its estimates, which see every state's atoms in one `holds/2` relation (eval: 60 a state times
        thousands of states) as a large one, and joined a problem's static atoms first; floortile's
        paint_up (two robot atoms, a tile, `up`) took 0.9 s of 10,000 states' 4 s of grounding so, and
        nothing once its two robot atoms were joined first (benchmarks/README.md). The caller splits only
        rules that read static atoms (`fixed/2`), the relation clingo took first: elsewhere the extra `aux`
        atoms cost more than they saved (up to 25% more grounding on IPC trajectories' 180 states)."""
        groups: list[list[BodyLiteral]] = []
        for x in state:
            linked = [g for g in groups if any(x.variables & y.variables for y in g)]
            merged = [y for g in linked for y in g] + [x]
            groups = [g for g in groups if not any(g is h for h in linked)] + [merged]
        out = []
        for g in groups:
            if len(g) == 1 or len(g) == joined or any(y.kind is not Kind.STATE for y in g):
                out += g
                continue
            key = tuple(g)
            lit = self._joins.get(key)
            if lit is None:
                variables = frozenset().union(*(y.variables for y in g))
                args = ",".join(sorted(variables, key=lambda v: (len(v), v))) + ("," if len(variables) == 1 else "")
                head = f"aux({self.tag},{self.aux_prefix}j{len(self._joins)},{self.s},({args}))"
                self.emit(Rule(head, tuple(g)))
                lit = self._joins[key] = BodyLiteral(Kind.JOIN, head, variables=variables,
                                                     declared=frozenset().union(*(y.declared for y in g)))
            out.append(lit)
        return out

    def run_applicability(self, action: Action) -> Rule:
        """app_run(M,L,U,A) :- A's precondition holds in every state from L to U, for states given as
        runs (asp/states.py): `hold(P,L,U,F)`, F holds in states L..U of group P, and `span(P,L,U)`,
        the states L..U are of group P. The runs of the precondition's state atoms are intersected as they are joined
        (L the greatest start, U the least end), so that a trajectory's states, which keep most atoms
        from one to the next, are joined a run at a time, not a state at a time. Only for a
        precondition of positive state atoms, static literals and comparisons (`runs_apply`)."""
        scope = self.scope(action)
        lits = self.precondition(action)
        state = [x for x in lits if x.joined and x.kind is Kind.STATE]
        fixed = [x for x in lits if x.joined and x.kind is Kind.FIXED]
        rest = [x for x in lits if not x.joined]
        if any(x.kind in (Kind.STATE, Kind.AUX) for x in rest):
            raise ValueError(f"{action.name}: a negative or complex state condition has no run form")
        typing = self.typed([v for v, _ in action.parameters], scope, state + fixed)
        prefix = HOLDS(self.s, "").removesuffix(")")  # the text `holds` writes; here its state becomes a run
        body: list[BodyLiteral] = []
        low, high = "L0", "U0"
        for i, x in enumerate(state):
            body.append(replace(x, atom=f"hold(P,L{i},U{i},{x.atom[len(prefix):]}"))
            if i:
                body += [comparison(f"L_{i}=({low}+L{i}+|{low}-L{i}|)/2"),
                         comparison(f"U_{i}=({high}+U{i}-|{high}-U{i}|)/2"), comparison(f"L_{i}<=U_{i}")]
                low, high = f"L_{i}", f"U_{i}"
        group = [] if state else [guard("span(P,L0,U0)")]
        head = f"app_run({self.tag},{low},{high},{self.action_term(action)})"
        return Rule(head, (*group, *body, *fixed, *typing, *rest))

    def asked_applicability(self, action: Action) -> Rule:
        """app(M,S,A) :- query(M,S,A), <A's precondition in S>: for an asked action, whose `query`
        binds every parameter, so that each is typed by `not not_a(M,P,V,T)`, checked after the
        join. (With `is_a` literals the grounder may start from them: on 100 blocksworld plans of 20
        problems, which share their objects' names, that made grounding 40% slower.) The caller
        gives only actions over the problem's objects and constants, whose complement `not_a` is."""
        scope = self.scope(action)
        a = self.action_term(action)
        lits = self.precondition(action)
        joined = [x for x in lits if x.joined]
        rest = [x for x in lits if not x.joined]
        typing = [self.type_check(v, scope) for v, _ in action.parameters]
        asked = guard(QUERY(self.tag, self.s, a))
        return Rule(APP(self.tag, self.s, a), (asked, *joined, self.in_state(), *typing, *rest))

    def check(self, action: Action, asked: Pred = QUERY) -> None:
        """unmet(M,S,A,Why): for asked actions (`QUERY`, or another guard `asked`, e.g. validate.lp's `ASK`), each
        precondition conjunct that fails."""
        scope = self.scope(action)
        a = self.action_term(action)
        question = guard(asked(self.tag, self.s, a))
        state = self.in_state()

        def unmet(why: str, *body: BodyLiteral) -> None:
            self.emit(Rule(UNMET(self.tag, self.s, a, why), (question, *body)))

        for v, t in action.parameters:
            unmet(f"type({scope.variables[v]},{asp_name(t)})", state, self.typing(v, scope).negate())
        for g in conjuncts(nnf(action.precondition)):
            if isinstance(g, Atom) and g.predicate == "=":
                unmet(f"eq({','.join(map(scope.term, g.args))})", self.comparison(g, scope, equal=False))
            elif isinstance(g, Not) and isinstance(g.arg, Atom) and g.arg.predicate == "=":
                unmet(f"neq({','.join(map(scope.term, g.arg.args))})", self.comparison(g.arg, scope, equal=True))
            elif isinstance(g, Atom):
                where = (state,) if g.predicate in self.static else ()
                unmet(f"pos({scope.atom(g)})", *where, self.holds(g, scope).negate())
            elif isinstance(g, Not) and isinstance(g.arg, Atom):
                where = (state,) if g.arg.predicate in self.static else ()
                unmet(f"neg({scope.atom(g.arg)})", *where, self.holds(g.arg, scope))
            else:
                k = self.next_aux
                lit = self.aux(g, scope)
                self.conditions[k] = text(g)
                unmet(f"cond({k})", state, lit.negate())

    def effect(self, action: Action, e: Effect) -> tuple[str, tuple[BodyLiteral, ...]]:
        """The atom that effect `e` of `action` changes, and the literals of its condition in S
        (with the typing of its forall variables; none when it is unconditional)."""
        inner = self.bind(e.variables, self.scope(action))
        condition: list[BodyLiteral] = []
        if not e.unconditional:
            cond = self.body(nnf(e.condition), inner) if e.condition != TRUE else []
            condition = cond + [self.in_state()] + self.typed([v for v, _ in e.variables], inner, cond)
        return inner.atom(e.literal.atom), tuple(condition)

    def effects(self, action: Action, applied: Pred = APP) -> None:
        """add/del(M,S,A,F): what applying A in S adds and deletes (conditions evaluated in S), for
        the applicable A (`applied=APP`), or for every asked A (`QUERY`: validate.lp, where a
        state must not depend on applicability so that the grounder computes the states alone)."""
        a = self.action_term(action)
        applicable = guard(applied(self.tag, self.s, a))
        for e in action.effects:
            atom, condition = self.effect(action, e)
            head = ADD if e.literal.positive else DEL
            self.emit(Rule(head(self.tag, self.s, a, atom), (applicable, *condition)))

