"""eval's change rules: what a jointly applicable action changes under each model (`ch/5`).

The semantics is encodings/change.lp's, delete before add: an add changes a false atom, a delete a
true one unless the action also adds it. eval.lp states it for the generic route (`add/5`, `del/5`
of conditional effects); for unconditional effects this module writes it out per effect rule, at
compile time, because that is what makes eval fast: a change rule per effect literal (`ch(T,...)`,
once for a rule both models share), the `add` of the same action settled by comparing the literals
(`never`, or an `X!=Y` guard) instead of by a `not add(...)` literal, and, where no two rules
make one atom, no atoms at all but counts (`counts.ChangeCounts`). Sharing eval.lp's (or
change.lp's) rules here would make an `add`/`del` atom per effect and joint instance before each
change, the generic route's cost, which only actions with conditional effects pay.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from ...model import Action, Domain
from ..names import EVAL_LEARNED, EVAL_REF, EVAL_SHARED, asp_name
from ..schema import BOTH, CH, EVAL_ADD, EVAL_DEL, FIXED, HOLDS
from .action import Compiler
from .counts import ChangeCounts
from .rules import BodyLiteral, Kind, Rule, comparison, guard
from .slots import S, Slot, constant_types, is_a, predicate_types

#: A change rule: (add|del, the atom, its X!=Y guards, fixed|holds: where the atom's truth is read).
Change = tuple[str, str, tuple[str, ...], str]


@dataclass
class SlotChanges:
    """What the change rules of one slot are: their text, the rules (tags r, l, b) that may add an
    atom outside the reference's vocabulary (`maybe_out`), and the changes that every joint
    instance makes, counted whole in Python (`joint`: (slot, tp|fp|fn) → changes per instance)."""

    rules: list[str] = field(default_factory=list)
    maybe_out: set[tuple[str, int]] = field(default_factory=set)
    joint: Counter = field(default_factory=Counter)


class ChangeCompiler:
    """The change rules of the slots of a pair, from both models' compilers (`models`, by tag)."""

    def __init__(self, models: dict[str, Compiler], ref: Domain, static: frozenset[str], explain: bool):
        self.models, self.ref, self.explain = models, ref, explain
        self.static = frozenset(asp_name(p) for p in static)
        self.ref_preds = predicate_types(ref)
        self.ref_consts = constant_types(ref)

    def slot(self, slot: Slot) -> SlotChanges:
        """The change rules of an action both models have (`slot.ref`, `slot.learned`)."""
        out = SlotChanges()
        n = slot.index
        ref, learned = slot.both
        term = self.models[EVAL_REF].action_term(ref)
        fast = {tag: self.fast_changes(tag, a) for tag, a in ((EVAL_REF, ref), (EVAL_LEARNED, learned))}
        ref_fast, learned_fast = fast[EVAL_REF], fast[EVAL_LEARNED]
        shared: set[Change] = set()
        if ref_fast is not None and learned_fast is not None:
            shared = ref_fast & learned_fast
            if not self.explain:
                rules = [(EVAL_SHARED, *x) for x in sorted(shared)] + \
                    [(tag, *x) for tag, changes in ((EVAL_REF, ref_fast), (EVAL_LEARNED, learned_fast))
                     for x in sorted(changes - shared)]
                if _separable(rules):
                    self._counted(slot, rules, out)
                    return out
        for tag, a in ((EVAL_REF, ref), (EVAL_LEARNED, learned)):
            changes = fast[tag]
            if changes is None:
                self._generic(tag, a, n, out)
                continue
            for change in sorted(changes - shared):
                out.rules.append(self._rule(tag, n, term, change))
                if change[0] == "add" and not self.inside(tag, a, ref, change[1]):
                    out.maybe_out.add((tag, n))
        for change in sorted(shared):
            out.rules.append(self._rule(EVAL_SHARED, n, term, change))
            if change[0] == "add" and not self.inside(EVAL_REF, ref, ref, change[1]):
                out.maybe_out.add((EVAL_SHARED, n))
        return out

    def fast_changes(self, tag: str, a: Action) -> set[Change] | None:
        """Unconditional effects as change rules, or None for the generic route.

        A delete changes a true atom unless an add of the same action makes it true again; when
        each such add differs from the deleted atom in one argument position, `X!=Y` says so."""
        if any(not e.unconditional for e in a.effects):
            return None
        scope = self.models[tag].scope(a)
        adds = [e.literal.atom for e in a.effects if e.literal.positive]
        out: set[Change] = set()
        for e in a.effects:
            atom = e.literal.atom
            where = "fixed" if asp_name(atom.predicate) in self.static else "holds"
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

    def inside(self, tag: str, a: Action, ref_action: Action, atom_text: str) -> bool:
        """Is every atom this add rule can make true a well-typed reference atom (so TN needs no check)?"""
        scope = self.models[tag].scope(a)
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

    def _counted(self, slot: Slot, rules: list[tuple[str, str, str, tuple[str, ...], str]], out: SlotChanges) -> None:
        """The changes of a slot whose change rules never make the same atom twice (`_separable`),
        counted rule by rule without making them atoms: `count(effc,N,tp|fp|fn,C)` plus, in
        `joint`, how many times the joint instances count whole.

        A rule's changes are the joint instances where its atom is false (an add) or true (a
        delete, within its guards). A precondition of either model may settle that for every joint
        instance: a deleted precondition atom always changes (most deletes: the count is the joint
        instances, less those outside the guards), an added one never. Otherwise an add is counted
        as the joint instances less those where its atom is already true (few), a delete as those
        where it is true. An add that may leave the reference's universe stays a `ch/5` atom (TN)."""
        n, (ref, learned) = slot.index, slot.both
        term = self.models[EVAL_REF].action_term(ref)
        both = BOTH(S, n, term)
        pre = [self.models[tag].literal_set(a) for tag, a in ((EVAL_REF, ref), (EVAL_LEARNED, learned))]
        pos = {x.atom for lits in pre if lits is not None for x in lits if x.joined}
        neg = {x.atom for lits in pre if lits is not None for x in lits
               if x.negated and x.kind in (Kind.STATE, Kind.FIXED)}
        counts = ChangeCounts(n, term)
        for k, (tag, kind, atom, guards, where) in enumerate(rules):
            cat = {EVAL_SHARED: "tp", EVAL_REF: "fn", EVAL_LEARNED: "fp"}[tag]
            if kind == "add" and not self.inside(tag if tag != EVAL_SHARED else EVAL_REF,
                                                 learned if tag == EVAL_LEARNED else ref, ref, atom):
                out.rules.append(self._rule(tag, n, term, (kind, atom, guards, where)))
                out.maybe_out.add((tag, n))
                continue
            true = _truth(atom, where)
            if (kind == "add" and true in pos) or (kind == "del" and true in neg):
                continue  # never a change
            if (kind == "del" and true in pos) or (kind == "add" and true in neg) or kind == "add":
                out.joint[(n, cat)] += 1
                outside = [g.replace("!=", "=") for g in guards] if kind == "del" else \
                    ([true] if true not in neg else [])
                for c in outside:
                    counts.add(cat, k, [both, c], less=True)
            else:
                counts.add(cat, k, [both, true, *guards])
        out.rules += counts.rules()

    def _rule(self, tag: str, n: int, term: str, change: Change) -> str:
        """`ch(T,S,N,A,F) :- both(S,N,A), <F false (an add) or true (a delete)>, <guards>.`"""
        kind, atom, guards, where = change
        true = BodyLiteral(Kind.FIXED if where == "fixed" else Kind.STATE, _truth(atom, where))
        body = (guard(BOTH(S, n, term)), true.negate() if kind == "add" else true, *map(comparison, guards))
        return str(Rule(CH(tag, S, n, term, atom), body))

    def _generic(self, tag: str, a: Action, n: int, out: SlotChanges) -> None:
        """add/del facts of every effect (conditions evaluated in S); eval.lp derives the changes."""
        c = self.models[tag]
        term = c.action_term(a)
        both = guard(BOTH(S, n, term))  # the same term in both models: one name and arity
        for e in a.effects:
            atom, condition = c.effect(a, e)
            head = EVAL_ADD if e.literal.positive else EVAL_DEL
            out.rules.append(str(Rule(head(tag, S, n, term, atom), (both, *condition))))
            if e.literal.positive:
                out.maybe_out.add((tag, n))


def _truth(atom: str, where: str) -> str:
    """Where `atom` is true in state S of P: `fixed(P,F)` (a static predicate of the reference) or `holds(S,F)`."""
    return FIXED("P", atom) if where == "fixed" else HOLDS(S, atom)


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


__all__ = ["Change", "SlotChanges", "ChangeCompiler"]
