"""What the metrics count of the test states, batch by batch, as their facts are written
(asp/eval_states.py writes them: states grouped into contexts, each distinct state once).

True negatives are completed arithmetically from universe sizes (`Vocabulary`), so the true atoms
outside the reference's universe must be known (`extra/2`, counted here and written with the
states); the true literals of reference predicates the learned model lacks are counted too.
"""

from __future__ import annotations

from collections import Counter
from typing import Iterable

from ...asp.eval_states import Context, Grouped, Rows, StateFacts, state_rows
from ...asp.names import asp_name
from ...model import Atom, Domain, Problem


class Vocabulary:
    """The reference's vocabulary over a problem: typed objects, universe sizes, and which atoms
    belong to the universe."""

    def __init__(self, ref: Domain, problem: Problem):
        closure: dict[str, frozenset[str]] = {}  # a type → its and its ancestors' clingo names
        self.kinds: dict[str, frozenset[str]] = {}  # an object → the types it has
        self.by_type: Counter[str] = Counter()
        eithers = {t for p in ref.predicates for _, t in p.parameters if t.startswith("(either ")}
        for o, t in problem.object_types(ref).items():
            kinds = closure.get(t)
            if kinds is None:  # its types, and the `either` types of predicates it fits
                kinds = closure[t] = frozenset(asp_name(x) for x in ref.ancestors(t)) | {
                    asp_name(e) for e in eithers if ref.fits(t, e)}
            self.kinds[o] = kinds
            for k in kinds:
                self.by_type[k] += 1
        self.undeclared = frozenset(asp_name(x) for x in ref.ancestors("object"))  # an object the problem lacks
        self.preds = {asp_name(p.name): tuple(asp_name(t) for _, t in p.parameters) for p in ref.predicates
                      if p.name not in ref.derived_predicates()}  # a derived atom is no literal a state gives
        self.universe = sum(self.count(types) for types in self.preds.values())
        self._typed: dict[Atom, bool] = {}

    def count(self, types: Iterable[str]) -> int:
        """How many tuples of objects of these types the problem has."""
        n = 1
        for t in types:
            n *= self.by_type.get(t, 0)
        return n

    def well_typed(self, a: Atom) -> bool:
        """Is `a` in the reference's universe over the problem (else it counts as an extra literal)?"""
        ok = self._typed.get(a)
        if ok is None:
            types = self.preds.get(asp_name(a.predicate))
            ok = types is not None and len(types) == len(a.args) and all(
                t in self.kinds.get(o, self.undeclared) for o, t in zip(a.args, types))
            self._typed[a] = ok
        return ok


class StateWriter:
    """Writes the facts of batches as rows (`asp.eval_states.StateFacts`); counts the literals the models do
    not share. What it keeps from batch to batch is per problem or per distinct atom, never per state."""

    def __init__(self, ref: Domain, problems: list[Problem], ignored_predicates: set[str]):
        self.ref = ref
        self.problems = problems  # by problem number (the driver's list, which grows as problems are read)
        self.vocabulary: dict[int, Vocabulary] = {}  # problem number → the reference's vocabulary over it
        self.ignored_predicates = ignored_predicates  # reference predicates the learned model lacks
        self.ignored: Counter[str] = Counter()  # their true literals in the test states
        self.facts = StateFacts()
        self.typed: dict[int, set[Atom]] = {}  # per problem: atoms of the universe
        self.untyped: dict[int, set[Atom]] = {}  # and the true atoms outside it
        self.ill_typed: set[int] = set()  # problems with a state or fixed atom outside it (so far)

    def batch(self, grouped: Grouped) -> Rows:
        """The facts of a batch, as rows: each context's problem and fixed atoms, then its states."""
        rows = state_rows()
        for ctx in grouped.contexts:
            self.facts.context(ctx, self.problems[ctx.problem_index], rows)
            self.facts.states(ctx, grouped, self._extra(ctx, grouped), rows)
        return rows

    def vocabulary_of(self, pi: int) -> Vocabulary:
        v = self.vocabulary.get(pi)
        if v is None:
            v = self.vocabulary[pi] = Vocabulary(self.ref, self.problems[pi])
            self.typed[pi], self.untyped[pi] = set(), set()
        return v

    # A hot loop of eval's Python side (benchmarks/bench_eval.py): kept in one piece, on local names.
    def _extra(self, ctx: Context, grouped: Grouped) -> dict[int, int]:
        """Each distinct state of `ctx` → its true atoms outside the reference's universe, times its
        weight (`extra/2`; states with none left out); counts the `ignored` literals on the way."""
        pi = ctx.problem_index
        v, dynamic, weight = self.vocabulary_of(pi), grouped.dynamic, grouped.weight
        ignored, ignored_preds = self.ignored, self.ignored_predicates
        typed, untyped = self.typed[pi], self.untyped[pi]
        fixed_extra = sum(not v.well_typed(a) for a in ctx.fixed)
        for a in ctx.fixed:
            if a.predicate in ignored_preds:
                ignored[a.predicate] += sum(weight[s] for s in ctx.states)
        out = {}
        for s in ctx.states:
            dyn, w = dynamic[s], weight[s]
            for a in dyn - typed:  # each distinct atom is checked once (set difference in C)
                if a not in untyped:
                    (typed if v.well_typed(a) else untyped).add(a)
            extra = fixed_extra + (len(dyn & untyped) if untyped else 0)
            if ignored_preds:
                for a in dyn:
                    if a.predicate in ignored_preds:
                        ignored[a.predicate] += w
            if extra:
                out[s] = extra * w
        if fixed_extra or untyped:
            self.ill_typed.add(pi)
        return out


__all__ = ["Vocabulary", "StateWriter"]
