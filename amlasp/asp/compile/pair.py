"""The program of one domain pair for eval.lp: both models' action schemas compiled to rules.

Actions are matched by name and arity into slots (`slots.Slot`, numbered N in the program). For
each slot, `PairCompiler` writes the applicability of both models (`app/4`, and `both/3` for
the jointly applicable instances, derived from one model's instances when its precondition
implies the other's) and has `changes.ChangeCompiler` write the change rules of jointly applicable
instances (`ch/5`, once for an effect both models share, or `add/5`, `del/5` for eval.lp to derive
the changes). Everything goes through the public methods of `Compiler` (one per model).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace

from ...model import Action, Domain
from ..names import EVAL_LEARNED, EVAL_REF, asp_name
from ..schema import (
    BOTH,
    CAND,
    COUNTED,
    EVAL_ACTION,
    EVAL_APP,
    FREE_COUNT,
    IN_U,
    IS_A,
    MAYBE_OUT,
    PROBLEM,
    UNTYPED,
    WEIGHT,
)
from ..size import free_parameters
from .action import Compiler
from .changes import ChangeCompiler
from .counts import instances
from .rules import BodyLiteral, Comment, Kind, Rule, guard
from .slots import S, Slot, constant_types, is_a, predicate_types


@dataclass(frozen=True)
class PairProgram:
    """The pair's rules, and the changes that every joint instance of a slot makes, which Python
    counts whole: (slot, tp|fp|fn) → changes per joint instance (`changes.SlotChanges.joint`)."""

    text: str
    joint_changes: Counter
    #: Slots of both models whose learned instances are counted with free parameters left out
    #: (`PairCompiler.free_false_positives`): their `free_count/3` less their joint instances are the FPs.
    free_fp: frozenset[int] = frozenset()


class PairCompiler:
    """Rules for eval.lp: named applicability of both models, and change rules on joint actions."""

    def __init__(self, ref: Domain, learned: Domain, slots: list[Slot], static: frozenset[str],
                 explain: bool = False, typed_atoms: bool = False):
        """`explain`: the learned model's applicable instances are atoms (`app(l,S,N,A)`, which
        eval.lp's `xapp` lists); else those the reference does not share are only counted (`counted`).
        `typed_atoms`: every state and fixed atom is well-typed in the reference's vocabulary, so that the
        reference's rules need no typing literal for a variable its declaration types (`Compiler`)."""
        self.ref, self.learned, self.slots, self.explain = ref, learned, slots, explain
        self.counted: dict[int, tuple[BodyLiteral, ...]] = {}  # slot → the learned precondition it counts
        self.models = {tag: Compiler(d, tag, S, typing="negative", static=static, problem_term=True, split_joins=True,
                                     typed_atoms=typed_atoms and tag == EVAL_REF)
                       for tag, d in ((EVAL_REF, ref), (EVAL_LEARNED, learned))}
        self.changes = ChangeCompiler(self.models, ref, static, explain)
        self.rules: list[str] = []
        self.maybe_out: set[tuple[str, int]] = set()
        self.joint_changes: Counter = Counter()
        self.free_fp: set[int] = set()
        self.ref_consts = constant_types(ref)

    def compile(self, object_types: set[str]) -> PairProgram:
        """`object_types`: the declared types of the test problems' objects (PDDL names)."""
        same_constants = {(asp_name(c), asp_name(t)) for c, t in self.ref.constants} == \
            {(asp_name(c), asp_name(t)) for c, t in self.learned.constants}
        kinds = object_types | {t for d in (self.ref, self.learned) for _, t in d.constants}
        for c in self.models.values():  # each model's derived atoms in each test state (derived/3)
            c.derived_rules()
        for slot in self.slots:
            self.rules.append(str(Comment(f"{slot.name} ({slot.index})")))
            if slot.ref is None and slot.learned is not None and self.factored(slot.learned):
                self.learned_only_count(slot.learned, slot.index)
                continue
            if slot.ref is None or slot.learned is None:
                for tag, a in ((EVAL_REF, slot.ref), (EVAL_LEARNED, slot.learned)):
                    if a is not None:
                        self.applicability(tag, a, slot.index)
                continue
            self.pair_applicability(slot, kinds if same_constants else None)
            changes = self.changes.slot(slot)
            self.rules += changes.rules
            self.maybe_out |= changes.maybe_out
            self.joint_changes.update(changes.joint)
            typed = self.typed_like_reference(slot, object_types)
            if not typed:
                self.untyped_rule(slot)
            if slot.index in self.counted:
                if typed and self.factored(slot.learned):
                    self.free_false_positives(slot.learned, slot.index)
                else:
                    self.rules.append(self.count_rule(slot, "fp", ["not " + BOTH(S, slot.index, self.term(slot))]))
        for c in self.models.values():
            self.rules += map(str, c.finish())  # auxiliary rules of or/exists/forall conditions, check_type
        self.rules += [EVAL_ACTION.fact(s.index) for s in self.slots]
        self.rules += [COUNTED.fact(n) for n in sorted(self.counted)]
        self.rules += [MAYBE_OUT.fact(t, n) for t, n in sorted(self.maybe_out)]
        if self.maybe_out:
            self.rules += self.universe_rules()
        return PairProgram("\n".join(self.rules) + "\n", self.joint_changes, frozenset(self.free_fp))

    def term(self, slot: Slot) -> str:
        """The ground action term of a slot's instances, `name(V0,...)`: one name and arity in both models."""
        return self.models[EVAL_REF].action_term(slot.both[0])

    def applicability(self, tag: str, a: Action, n: int, head: str | None = None) -> None:
        """app(M,S,N,A) :- <precondition>, <typing> (or another head, e.g. both/3)."""
        c = self.models[tag]
        self.rules.append(str(c.applicability(a, head or EVAL_APP(tag, S, n, c.action_term(a)))))

    def factored(self, a: Action) -> tuple[str, ...]:
        """The free parameters of a learned-only action that are counted, not enumerated (none with
        `explain`, which lists every instance)."""
        return () if self.explain else free_parameters(a)

    def free_count(self, a: Action, n: int) -> tuple[BodyLiteral, ...]:
        """`free_count(N,P,C)`: the learned model's applicable instances of `a` in P's states (weighted),
        its free parameters (`factored`) left out; the body counted."""
        free = set(self.factored(a))
        c = self.models[EVAL_LEARNED]
        kept = replace(a, parameters=tuple(p for p in a.parameters if p[0] not in free))
        body = c.applicability(kept, "_").body
        element = f"W,{S},{c.action_term(kept)} : {', '.join(map(str, body))}, {WEIGHT(S, 'W')}"
        self.rules.append(str(Rule(FREE_COUNT(n, "P", "C"), (guard(PROBLEM("P")), guard(f"C = #sum{{ {element} }}")))))
        return tuple(body)

    def free_false_positives(self, a: Action, n: int) -> None:
        """The learned instances of an action both models have, counted as a learned-only action's are
        (`free_count`) when a parameter of the learned action is free (a dropped precondition often
        frees one: floortile's `move_left` without `robot-at`, a robot for every instance): every
        joint instance is one of them (`both` implies the learned precondition and typing), so the
        false positives are their number less the joint ones, where one aggregate over the instances
        that are not joint enumerated every object of the free parameter's type. Only where the
        learned types accept nothing the reference's refuse (no `untyped` count, which reads every
        parameter)."""
        self.free_count(a, n)
        self.free_fp.add(n)

    def learned_only_count(self, a: Action, n: int) -> None:
        """`free_count(N,P,C)` of a learned-only action with free parameters (`size.free_parameters`):
        its applicable instances in P's states (weighted) with the free parameters left out, which the
        driver multiplies by the tuples of objects of their types in P (`size.free_tuples`, in
        Python: the product passes clingo's 32-bit integers): each instance of the other
        parameters is applicable with every such tuple or none. Its instances are all false
        positives and its effects are never compared (`LearnedOnly`), so the count is exact
        (tests/asp/test_size.py); six free location parameters made |L|^6 atoms per state."""
        self.counted[n] = self.free_count(a, n)

    def pair_applicability(self, slot: Slot, kinds: set[str] | None) -> None:
        """Applicability of an action both models have, with `both(S,N,A)` for the joint instances.

        Invariant read by eval.lp: app_M = app(M) u both, where app(l) is only counted, not made
        atoms, for a slot in `counted` (not with `explain`). When one model's precondition literals
        include the other's and its types accept no more objects, its instances are derived from
        the other's (a cheap join) and, when they are the same, only `both` is."""
        n, (r, l) = slot.index, slot.both
        term = self.term(slot)
        ref_lits, learned_lits = self.models[EVAL_REF].literal_set(r), self.models[EVAL_LEARNED].literal_set(l)
        if kinds is not None and ref_lits is not None and learned_lits is not None:
            lits = {EVAL_REF: ref_lits, EVAL_LEARNED: learned_lits}
            # the object types (of `kinds`) that each parameter accepts
            acc = {tag: [frozenset(k for k in kinds if is_a(d, k, t)) for _, t in a.parameters]
                   for tag, d, a in ((EVAL_REF, self.ref, r), (EVAL_LEARNED, self.learned, l))}
            le = {tag: all(x <= y for x, y in zip(acc[tag], acc[other])) and lits[tag] >= lits[other]
                  for tag, other in ((EVAL_REF, EVAL_LEARNED), (EVAL_LEARNED, EVAL_REF))}
            if le[EVAL_REF] and le[EVAL_LEARNED]:
                self.applicability(EVAL_REF, r, n, head=BOTH(S, n, term))
                return
            if le[EVAL_REF] and not self.explain:
                # the reference's instances are the joint ones; the learned model's others are counted
                self.applicability(EVAL_REF, r, n, head=BOTH(S, n, term))
                self.counted[n] = self.models[EVAL_LEARNED].applicability(l, "_").body
                return
            for sub, base in ((EVAL_LEARNED, EVAL_REF), (EVAL_REF, EVAL_LEARNED)):
                if le[sub]:
                    self.applicability(base, r if base == EVAL_REF else l, n)
                    self.implied(slot, sub, base, acc, lits)
                    return
        self.applicability(EVAL_REF, r, n)
        if self.explain:
            self.applicability(EVAL_LEARNED, l, n)
            self.rules.append(str(Rule(BOTH(S, n, term), (guard(EVAL_APP(EVAL_REF, S, n, term)),
                                                          guard(EVAL_APP(EVAL_LEARNED, S, n, term))))))
            return
        self.joint_by_lookup(slot)

    def implied(self, slot: Slot, sub: str, base: str, acc: dict, lits: dict) -> None:
        """`both(S,N,A) :- app(base,S,N,A), <the literals of sub's precondition that base's lacks>,
        <sub's typing where it accepts fewer objects>`: sub's precondition implies base's."""
        n, term = slot.index, self.term(slot)
        r, l = slot.both
        a = l if sub == EVAL_LEARNED else r
        c = self.models[sub]
        scope = c.scope(a)
        typing = [c.type_check(v, scope) for i, (v, _) in enumerate(a.parameters) if acc[sub][i] != acc[base][i]]
        # positive literals first; by text, so that the rule does not vary with string hashing
        extra = sorted(lits[sub] - lits[base], key=lambda x: (x.negated, x.atom))
        # the guard's state term s(P,S) binds the problem of the typing and static literals
        body = (guard(EVAL_APP(base, S, n, term)), *extra, *typing)
        self.rules.append(str(Rule(BOTH(S, n, term), body)))

    def joint_by_lookup(self, slot: Slot) -> None:
        """`both(S,N,A) :- app(r,S,N,A), <the learned precondition's literals and typing>`: the
        reference's instances that the learned model accepts, each literal a look-up. The learned
        model's own instances, often many more (a dropped precondition), are only counted (`count_rule`)."""
        n, (_, l), term = slot.index, slot.both, self.term(slot)
        c = self.models[EVAL_LEARNED]
        body = c.applicability(l, "_").body
        scope = c.scope(l)
        typing = [c.type_check(v, scope) for v, _ in l.parameters]
        own = [x for x in body if x.kind not in (Kind.TYPING, Kind.GUARD)]
        self.rules.append(str(Rule(BOTH(S, n, term), (guard(EVAL_APP(EVAL_REF, S, n, term)), *own, *typing))))
        self.counted[n] = body

    def typed_like_reference(self, slot: Slot, object_types: set[str]) -> bool:
        """Does every object the learned action accepts at each position also fit the reference's type?"""
        learned_consts = constant_types(self.learned)
        r, l = slot.both
        for (_, tl), (_, tr) in zip(l.parameters, r.parameters):
            for t0 in object_types | {t for _, t in self.ref.constants}:
                if is_a(self.learned, t0, tl) and not is_a(self.ref, t0, tr):
                    return False
            for c0, t0 in learned_consts.items():
                if c0 not in self.ref_consts and is_a(self.learned, t0, tl):
                    return False
        return True

    def untyped_rule(self, slot: Slot) -> None:
        """untyped(S,N,A): a learned-applicable A whose arguments do not fit the reference's types
        (counted instead, for a slot in `counted`)."""
        c = self.models[EVAL_REF]
        r, _ = slot.both
        scope = c.scope(r)
        term = self.term(slot)
        off = [c.typing(v, scope).negate() for v, _ in r.parameters]
        if slot.index in self.counted:
            self.rules.append(self.count_rule(slot, "untyped", list(map(str, off))))
            return
        learned = guard(EVAL_APP(EVAL_LEARNED, S, slot.index, term))
        self.rules += [str(Rule(UNTYPED(S, slot.index, term), (learned, x))) for x in off]

    def count_rule(self, slot: Slot, kind: str, conditions: list[str]) -> str:
        """`count(app,N,kind,C)`: the learned model's applicable instances (weighted) that meet one of
        `conditions`, counted in one aggregate, never made atoms."""
        return instances(slot.index, kind, self.term(slot), self.counted[slot.index], conditions)

    def universe_rules(self) -> list[str]:
        """in_u(P,F): a candidate added atom F is a well-typed atom of the reference over P."""
        out = []
        for (p, k), types in predicate_types(self.ref).items():
            args = [f"X{i}" for i in range(k)]
            f = f"{p}({','.join(args)})" if k else p
            typing = [guard(IS_A(EVAL_REF, "P", f"X{i}", asp_name(t))) for i, t in enumerate(types)]
            out.append(str(Rule(IN_U("P", f), (guard(CAND("P", f)), *typing))))
        return out


def compile_pair(ref: Domain, learned: Domain, pair: list[Slot], static: frozenset[str], object_types: set[str],
                 explain: bool = False, typed_atoms: bool = False) -> PairProgram:
    """eval's rules of the domain pair for test problems whose objects have `object_types` (and whose
    states' atoms are all well-typed in the reference, `typed_atoms`)."""
    return PairCompiler(ref, learned, pair, static, explain, typed_atoms).compile(object_types)


__all__ = ["PairProgram", "PairCompiler", "compile_pair"]
