"""The program of one domain pair for eval.lp: both models' action schemas compiled to rules.

Actions are matched by name and arity into slots (`Slot`, numbered N in the program). For
each slot, `PairCompiler` writes the applicability of both models (`app/4`, and `both/3` for
the jointly applicable instances, derived from one model's instances when its precondition
implies the other's) and the change rules of jointly applicable instances (`ch/5`, once for
an effect both models share, or `add/5`, `del/5` for eval.lp to derive the changes).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from ...asp.compile import BodyLiteral, Compiler, Kind, Rule
from ...asp.names import EVAL_LEARNED, EVAL_REF, EVAL_SHARED, asp_name
from ...model import Action, Domain

# The state term of eval's rules: state S of problem (context) P, so that a rule's first state atom binds
# P and the grounder can join a problem's static atoms once (`Compiler(problem_term=True)`).
S = "s(P,S)"


@dataclass(frozen=True)
class Slot:
    """An action name of the program: index N, the reference and learned actions it stands for."""

    index: int
    name: str
    ref: Action | None
    learned: Action | None


def slots(ref: Domain, learned: Domain) -> list[Slot]:
    """Reference actions first (file order); a learned action matches by name and arity."""
    lk = {(asp_name(a.name), a.arity): a for a in learned.actions}
    out, used = [], set()
    for a in ref.actions:
        key = (asp_name(a.name), a.arity)
        out.append(Slot(len(out), a.name, a, lk.get(key)))
        used.add(key)
    for a in learned.actions:
        if (asp_name(a.name), a.arity) not in used:
            out.append(Slot(len(out), a.name, None, a))
    return out


def static_predicates(ref: Domain) -> frozenset[str]:
    """Reference predicates that no reference effect changes: in the test states they are the
    problem's (a state whose atoms of them differ is in another context, `states.group`), read
    once per problem as `fixed(P,F)`. A learned effect on one is a change like any other: its
    change rule reads `fixed(P,F)` where others read `holds(S,F)` (ferry's `noteq`, transport's
    `road`: most of those states' atoms)."""
    return ref.static_predicates()


def is_a(domain: Domain, kind: str, t: str) -> bool:
    """Does an object of type `kind` fit type `t` in `domain`? Names compare as clingo sees them,
    so that a type of the other model (or of the problems) is found under its own spelling."""
    want = asp_name(t)
    return any(asp_name(x) == want for x in domain.ancestors(kind))


class PairCompiler:
    """Rules for eval.lp: named applicability of both models, and change rules on joint actions."""

    def __init__(self, ref: Domain, learned: Domain, slots: list[Slot], static: frozenset[str],
                 explain: bool = False):
        """`explain`: the learned model's applicable instances are atoms (`app(l,S,N,A)`, which
        eval.lp's `xapp` lists); else those the reference does not share are only counted (`counted`)."""
        self.ref, self.learned, self.slots, self.explain = ref, learned, slots, explain
        self.counted: dict[int, tuple[BodyLiteral, ...]] = {}  # slot → the learned precondition it counts
        self.joint_changes: Counter = Counter()  # (slot, tp|fp|fn) → changes per joint instance (`count_changes`)
        self.c = {tag: Compiler(d, tag, S, typing="negative", static=static, problem_term=True)
                  for tag, d in ((EVAL_REF, ref), (EVAL_LEARNED, learned))}
        self.static = frozenset(asp_name(p) for p in static)
        self.rules: list[str] = []
        self.maybe_out: set[tuple[str, int]] = set()
        self.ref_preds = {(asp_name(p.name), p.arity): tuple(t for _, t in p.parameters) for p in ref.predicates}
        self.ref_consts = {asp_name(c): t for c, t in ref.constants}

    def compile(self, object_types: set[str]) -> str:
        """`object_types`: the declared types of the test problems' objects (PDDL names)."""
        same_constants = {(asp_name(c), asp_name(t)) for c, t in self.ref.constants} == \
            {(asp_name(c), asp_name(t)) for c, t in self.learned.constants}
        kinds = object_types | {t for d in (self.ref, self.learned) for _, t in d.constants}
        for slot in self.slots:
            self.rules.append(f"% {slot.name} ({slot.index})")
            if slot.ref is None or slot.learned is None:
                for tag, a in ((EVAL_REF, slot.ref), (EVAL_LEARNED, slot.learned)):
                    if a is not None:
                        self.applicability(tag, a, slot.index)
                continue
            self.pair_applicability(slot, kinds if same_constants else None)
            self.changes(slot)
            if not self.typed_like_reference(slot, object_types):
                self.untyped_rule(slot)
            if slot.index in self.counted:
                self.rules.append(self.count_rule(slot, "fp", [f"not both({S},{slot.index},#)"]))
        for c in self.c.values():
            self.rules += map(str, c.finish())  # auxiliary rules of or/exists/forall conditions, check_type
        self.rules += [f"action({s.index})." for s in self.slots]
        self.rules += [f"counted({n})." for n in sorted(self.counted)]
        self.rules += [f"maybe_out({t},{n})." for t, n in sorted(self.maybe_out)]
        if self.maybe_out:
            self.rules += self.universe_rules()
        return "\n".join(self.rules) + "\n"

    def applicability(self, tag: str, a: Action, n: int, head: str | None = None) -> None:
        """app(M,S,N,A) :- <precondition>, <typing> (or another head, e.g. both/3)."""
        c = self.c[tag]
        self.rules.append(str(c.applicability(a, head or f"app({tag},{S},{n},{c.action_term(a)})")))

    def pair_applicability(self, slot: Slot, kinds: set[str] | None) -> None:
        """Applicability of an action both models have, with `both(S,N,A)` for the joint instances.

        Invariant read by eval.lp: app_M = app(M) u both, where app(l) is only counted, not made
        atoms, for a slot in `counted` (not with `explain`). When one model's precondition literals
        include the other's and its types accept no more objects, its instances are derived from
        the other's (a cheap join) and, when they are the same, only `both` is."""
        n, r, l = slot.index, slot.ref, slot.learned
        term = self.c[EVAL_REF].action_term(r)
        lits = {tag: self.literal_set(tag, a) for tag, a in ((EVAL_REF, r), (EVAL_LEARNED, l))}
        if kinds is not None and lits[EVAL_REF] is not None and lits[EVAL_LEARNED] is not None:
            # the object types (of `kinds`) that each parameter accepts
            acc = {tag: [frozenset(k for k in kinds if is_a(d, k, t)) for _, t in a.parameters]
                   for tag, d, a in ((EVAL_REF, self.ref, r), (EVAL_LEARNED, self.learned, l))}
            le = {tag: all(x <= y for x, y in zip(acc[tag], acc[other])) and lits[tag] >= lits[other]
                  for tag, other in ((EVAL_REF, EVAL_LEARNED), (EVAL_LEARNED, EVAL_REF))}
            if le[EVAL_REF] and le[EVAL_LEARNED]:
                self.applicability(EVAL_REF, r, n, head=f"both({S},{n},{term})")
                return
            if le[EVAL_REF] and not self.explain:
                # the reference's instances are the joint ones; the learned model's others are counted
                self.applicability(EVAL_REF, r, n, head=f"both({S},{n},{term})")
                self.counted[n] = self.c[EVAL_LEARNED].applicability(l, "_").body
                return
            for sub, base in ((EVAL_LEARNED, EVAL_REF), (EVAL_REF, EVAL_LEARNED)):
                if le[sub]:
                    a = l if sub == EVAL_LEARNED else r
                    self.applicability(base, r if base == EVAL_REF else l, n)
                    c = self.c[sub]
                    scope = c.scope(a)
                    typing = [c.type_check(v, scope) for i, (v, _) in enumerate(a.parameters)
                              if acc[sub][i] != acc[base][i]]
                    # positive literals first; by text, so that the rule does not vary with string hashing
                    extra = sorted(lits[sub] - lits[base], key=lambda x: (x.negated, x.atom))
                    # the guard's state term s(P,S) binds the problem of the typing and static literals
                    body = (BodyLiteral(Kind.GUARD, f"app({base},{S},{n},{term})"), *extra, *typing)
                    self.rules.append(str(Rule(f"both({S},{n},{term})", body)))
                    return
        self.applicability(EVAL_REF, r, n)
        if self.explain:
            self.applicability(EVAL_LEARNED, l, n)
            self.rules.append(f"both({S},{n},{term}) :- app({EVAL_REF},{S},{n},{term}), "
                              f"app({EVAL_LEARNED},{S},{n},{term}).")
            return
        self.joint_by_lookup(slot, term)

    def joint_by_lookup(self, slot: Slot, term: str) -> None:
        """`both(S,N,A) :- app(r,S,N,A), <the learned precondition's literals and typing>`: the
        reference's instances that the learned model accepts, each literal a look-up. The learned
        model's own instances, often many more (a dropped precondition), are only counted (`count_rule`)."""
        n, l = slot.index, slot.learned
        c = self.c[EVAL_LEARNED]
        body = c.applicability(l, "_").body
        scope = c.scope(l)
        typing = [c.type_check(v, scope) for v, _ in l.parameters]
        own = [x for x in body if x.kind not in (Kind.TYPING, Kind.GUARD)]
        self.rules.append(str(Rule(f"both({S},{n},{term})",
                                   (BodyLiteral(Kind.GUARD, f"app({EVAL_REF},{S},{n},{term})"), *own, *typing))))
        self.counted[n] = body

    def literal_set(self, tag: str, a: Action) -> frozenset[BodyLiteral] | None:
        """The precondition as compiled body literals (positional variables), if a conjunction of literals."""
        if a.precondition_literals() is None:
            return None
        return frozenset(self.c[tag].precondition(a))

    # -- effects
    def fast_changes(self, tag: str, a: Action) -> set[tuple[str, str, tuple[str, ...], str]] | None:
        """Unconditional effects as (add|del, atom, guards, fixed|holds) change rules, or None for the
        generic route.

        A delete changes a true atom unless an add of the same action makes it true again; when
        each such add differs from the deleted atom in one argument position, `X!=Y` says so."""
        if any(not e.unconditional for e in a.effects):
            return None
        scope = self.c[tag].scope(a)
        adds = [e.literal.atom for e in a.effects if e.literal.positive]
        out: set[tuple[str, str, tuple[str, ...], str]] = set()
        for e in a.effects:
            atom = e.literal.atom
            where = self.truth(atom.predicate)
            if e.literal.positive:
                out.add(("add", scope.atom(atom), (), where))
                continue
            guards: list[str] = []
            never = False
            for g in adds:
                if (g.predicate, len(g.args)) != (atom.predicate, len(atom.args)):
                    continue
                diff = [(scope.term(x), scope.term(y)) for x, y in zip(atom.args, g.args)
                        if scope.term(x) != scope.term(y)]
                if not diff:
                    never = True  # deleted and added: stays true
                    break
                if any(x[0].islower() and y[0].islower() for x, y in diff):
                    continue  # two different constants: never the same atom
                if len(diff) > 1:
                    return None
                guards.append(f"{diff[0][0]}!={diff[0][1]}")
            if not never:
                out.add(("del", scope.atom(atom), tuple(sorted(set(guards))), where))
        return out

    def truth(self, predicate: str) -> str:
        """Where an atom of `predicate` is true: `fixed` (a static predicate of the reference) or `holds`."""
        return "fixed" if asp_name(predicate) in self.static else "holds"

    def changes(self, slot: Slot) -> None:
        n = slot.index
        term = self.c[EVAL_REF].action_term(slot.ref)
        guard = f"both({S},{n},{term})"
        fast = {tag: self.fast_changes(tag, a) for tag, a in ((EVAL_REF, slot.ref), (EVAL_LEARNED, slot.learned))}
        both_fast = fast[EVAL_REF] is not None and fast[EVAL_LEARNED] is not None
        shared = fast[EVAL_REF] & fast[EVAL_LEARNED] if both_fast else set()
        if both_fast and not self.explain:
            rules = [(EVAL_SHARED, *x) for x in sorted(shared)] + \
                [(tag, *x) for tag in (EVAL_REF, EVAL_LEARNED) for x in sorted(fast[tag] - shared)]
            if _separable(rules):
                self.count_changes(slot, rules)
                return
        for tag, a in ((EVAL_REF, slot.ref), (EVAL_LEARNED, slot.learned)):
            if fast[tag] is None:
                self.generic(tag, a, n, guard)
                continue
            for kind, atom, guards, where in sorted(fast[tag] - shared):
                self.change_rule(tag, n, term, guard, kind, atom, guards, where)
                if kind == "add" and not self.inside(tag, a, slot.ref, atom):
                    self.maybe_out.add((tag, n))
        for kind, atom, guards, where in sorted(shared):
            self.change_rule(EVAL_SHARED, n, term, guard, kind, atom, guards, where)
            if kind == "add" and not self.inside(EVAL_REF, slot.ref, slot.ref, atom):
                self.maybe_out.add((EVAL_SHARED, n))

    def count_changes(self, slot: Slot, rules: list[tuple[str, str, str, tuple[str, ...], str]]) -> None:
        """The changes of a slot whose change rules never make the same atom twice (`_separable`),
        counted rule by rule without making them atoms: `count(effc,N,tp|fp|fn,C)` plus, in
        `joint_changes`, how many times the joint instances count whole.

        A rule's changes are the joint instances where its atom is false (an add) or true (a
        delete, within its guards). A precondition of either model may settle that for every joint
        instance: a deleted precondition atom always changes (most deletes: the count is the joint
        instances, less those outside the guards), an added one never. Otherwise an add is counted
        as the joint instances less those where its atom is already true (few), a delete as those
        where it is true. An add that may leave the reference's universe stays a `ch/5` atom (TN)."""
        n, ref = slot.index, slot.ref
        term = self.c[EVAL_REF].action_term(ref)
        guard = f"both({S},{n},{term})"
        pre = [self.literal_set(tag, a) for tag, a in ((EVAL_REF, ref), (EVAL_LEARNED, slot.learned))]
        pos = {x.atom for lits in pre if lits is not None for x in lits if x.joined}
        neg = {x.atom for lits in pre if lits is not None for x in lits
               if x.negated and x.kind in (Kind.STATE, Kind.FIXED)}
        elements: dict[str, list[str]] = {"tp": [], "fp": [], "fn": []}
        for k, (tag, kind, atom, guards, where) in enumerate(rules):
            cat = {EVAL_SHARED: "tp", EVAL_REF: "fn", EVAL_LEARNED: "fp"}[tag]
            if kind == "add" and not self.inside(tag if tag != EVAL_SHARED else EVAL_REF,
                                                 slot.learned if tag == EVAL_LEARNED else ref, ref, atom):
                self.change_rule(tag, n, term, guard, kind, atom, guards, where)
                self.maybe_out.add((tag, n))
                continue
            true = f"fixed(P,{atom})" if where == "fixed" else f"holds({S},{atom})"
            if (kind == "add" and true in pos) or (kind == "del" and true in neg):
                continue  # never a change
            if (kind == "del" and true in pos) or (kind == "add" and true in neg) or kind == "add":
                self.joint_changes[(n, cat)] += 1
                outside = [g.replace("!=", "=") for g in guards] if kind == "del" else \
                    ([true] if true not in neg else [])
                elements[cat] += [f"-W,{S},{term},{k} : {guard}, {c}, weight({S},W)" for c in outside]
            else:
                elements[cat].append(f"W,{S},{term},{k} : {', '.join([guard, true, *guards])}, weight({S},W)")
        for cat, el in elements.items():
            if el:
                self.rules.append(f"count(effc,{n},{cat},C) :- C = #sum{{ {' ; '.join(el)} }}.")

    def change_rule(self, tag: str, n: int, term: str, guard: str, kind: str, atom: str,
                    guards: tuple[str, ...], where: str) -> None:
        true = f"fixed(P,{atom})" if where == "fixed" else f"holds({S},{atom})"
        cond = f"not {true}" if kind == "add" else true
        self.rules.append(f"ch({tag},{S},{n},{term},{atom}) :- {', '.join([guard, cond, *guards])}.")

    def generic(self, tag: str, a: Action, n: int, guard: str) -> None:
        """add/del facts of every effect (conditions evaluated in S); eval.lp derives the changes."""
        c = self.c[tag]
        term = c.action_term(a)
        for e in a.effects:
            atom, condition = c.effect(a, e)
            head = "add" if e.literal.positive else "del"
            body = (BodyLiteral(Kind.GUARD, guard), *condition)
            self.rules.append(str(Rule(f"{head}({tag},{S},{n},{term},{atom})", body)))
            if e.literal.positive:
                self.maybe_out.add((tag, n))

    def inside(self, tag: str, a: Action, ref_action: Action, atom_text: str) -> bool:
        """Is every atom this add rule can make true a well-typed reference atom (so TN needs no check)?"""
        scope = self.c[tag].scope(a)
        e = next(e for e in a.effects if e.literal.positive and scope.atom(e.literal.atom) == atom_text)
        atom = e.literal.atom
        sig = self.ref_preds.get((asp_name(atom.predicate), len(atom.args)))
        if sig is None:
            return False
        params = [v for v, _ in a.parameters]
        for arg, want in zip(atom.args, sig):
            if arg.startswith("?"):
                have = ref_action.parameters[params.index(arg)][1]
            elif asp_name(arg) in self.ref_consts:
                have = self.ref_consts[asp_name(arg)]
            else:
                return False
            if not is_a(self.ref, have, want):
                return False
        return True

    def typed_like_reference(self, slot: Slot, object_types: set[str]) -> bool:
        """Does every object the learned action accepts at each position also fit the reference's type?"""
        learned_consts = {asp_name(c): t for c, t in self.learned.constants}
        for (_, tl), (_, tr) in zip(slot.learned.parameters, slot.ref.parameters):
            for t0 in object_types | {t for _, t in self.ref.constants}:
                if is_a(self.learned, t0, tl) and not is_a(self.ref, t0, tr):
                    return False
            for c0, t0 in learned_consts.items():
                if c0 not in self.ref_consts and is_a(self.learned, t0, tl):
                    return False
        return True

    def untyped_rule(self, slot: Slot) -> None:
        c = self.c[EVAL_REF]
        scope = c.scope(slot.ref)
        term = c.action_term(slot.ref)
        if slot.index in self.counted:
            self.rules.append(self.count_rule(slot, "untyped", [f"not {c.typing(v, scope)}"
                                                                for v, _ in slot.ref.parameters]))
            return
        for v, _ in slot.ref.parameters:
            self.rules.append(f"untyped({S},{slot.index},{term}) :- app({EVAL_LEARNED},{S},{slot.index},{term}), "
                              f"not {c.typing(v, scope)}.")

    def count_rule(self, slot: Slot, what: str, conditions: list[str]) -> str:
        """`count(app,N,what,C)`: the learned model's applicable instances (weighted) that meet one of
        `conditions` (`#` stands for the instance), counted in one aggregate, never made atoms."""
        n, term = slot.index, self.c[EVAL_REF].action_term(slot.ref)
        body = ", ".join(map(str, self.counted[n]))
        elements = " ; ".join(f"W,{S},{term} : {body}, {cond.replace('#', term)}, weight({S},W)"
                              for cond in conditions)
        return f"count(app,{n},{what},C) :- C = #sum{{ {elements} }}."

    def universe_rules(self) -> list[str]:
        """in_u(P,F): a candidate added atom F is a well-typed atom of the reference over P."""
        out = []
        for (p, k), types in self.ref_preds.items():
            args = [f"X{i}" for i in range(k)]
            f = f"{p}({','.join(args)})" if k else p
            typing = [f"is_a({EVAL_REF},P,X{i},{asp_name(t)})" for i, t in enumerate(types)]
            out.append(f"in_u(P,{f}) :- {', '.join([f'cand(P,{f})'] + typing)}.")
        return out


def _separable(rules: list[tuple[str, str, str, tuple[str, ...], str]]) -> bool:
    """Can no two change rules (of one kind: an add and a delete never change the same atom of one
    state) make the same atom for one ground action? Then their changes are counted rule by rule."""
    atoms = [(kind, atom.partition("(")) for _, kind, atom, _, _ in rules]
    for i, (k1, (p1, _, a1)) in enumerate(atoms):
        for k2, (p2, _, a2) in atoms[i + 1:]:
            if k1 != k2 or p1 != p2:
                continue
            args1, args2 = a1.rstrip(")").split(","), a2.rstrip(")").split(",")
            if len(args1) == len(args2) and not any(x != y and x[:1].islower() and y[:1].islower()
                                                    for x, y in zip(args1, args2)):
                return False  # may be one atom (two different constants at a position never are)
    return True


__all__ = ["Slot", "slots", "static_predicates", "is_a", "PairCompiler"]
