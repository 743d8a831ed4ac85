"""The test states as facts of eval's program, batch by batch.

States are grouped into contexts: a problem and the static atoms its states share, given once
as `fixed(P,F)` facts instead of in every state. A state is written as its keyframe (a state
given in full, `kf/2`) minus its `gone/2` atoms plus its own `plus/2` atoms (eval.lp):
successive states of a trajectory share most atoms, and clingo parses facts slower than it
derives them. A state equal to an earlier one of its batch and context is written once, with the
number of test states it stands for (`w/2`). On the way, the literals outside the reference's vocabulary are counted: true
negatives are completed arithmetically from universe sizes (`Vocabulary`), so the true atoms
outside the universe must be known (`extra/2`).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Callable, Iterable, Sequence

from ...asp.facts import ground
from ...asp.names import asp_name
from ...model import Atom, Domain, Problem
from ...pddl.states import StateSet


class Vocabulary:
    """The reference's vocabulary over a problem: typed objects, universe sizes, and which atoms
    belong to the universe."""

    def __init__(self, ref: Domain, problem: Problem):
        closure: dict[str, frozenset[str]] = {}  # a type → its and its ancestors' clingo names
        self.kinds: dict[str, frozenset[str]] = {}  # an object → the types it has
        self.by_type: Counter[str] = Counter()
        for o, t in problem.object_types(ref).items():
            kinds = closure.get(t)
            if kinds is None:
                kinds = closure[t] = frozenset(asp_name(x) for x in ref.ancestors(t))
            self.kinds[o] = kinds
            for k in kinds:
                self.by_type[k] += 1
        self.undeclared = frozenset(asp_name(x) for x in ref.ancestors("object"))  # an object the problem lacks
        self.preds = {asp_name(p.name): tuple(asp_name(t) for _, t in p.parameters) for p in ref.predicates}
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


@dataclass
class Context:
    """A problem and the static atoms its states share: `fixed(P,F)` facts once, not per state."""

    index: int  # P of the batch's program
    problem_index: int  # the problem's number in the whole evaluation
    fixed: frozenset[Atom]
    states: list[int]  # its distinct states (their numbers in the batch)


@dataclass
class Grouped:
    """A batch of test states grouped into contexts; a state is its context's fixed atoms and its
    dynamic ones. A state equal to an earlier one of its context (random walks come back, trajectories
    share their start) is not written again: the earlier one stands for it (`alias`), `weight` times."""

    contexts: list[Context]
    dynamic: dict[int, frozenset[Atom]]  # distinct state → its dynamic atoms
    weight: dict[int, int]  # distinct state → how many test states it stands for
    alias: list[int]  # each test state of the batch → the distinct state standing for it
    sources: list[tuple[str, int]]  # each test state: its file and its position there

    def states(self) -> int:
        return len(self.alias)


def group(sets: Sequence[StateSet], static: frozenset[str], problem_index: Callable[[Problem], int]) -> Grouped:
    """The states of a batch, numbered from 0, grouped by problem and static atoms. A state is split
    with set operations against the previous context of its problem (the states of a trajectory share
    it); a state already seen in its context is an alias of the first."""
    out = Grouped([], {}, {}, [], [])
    by_key: dict[tuple[int, frozenset[Atom]], int] = {}
    seen: list[dict[frozenset[Atom], int]] = []  # per context: dynamic atoms → distinct state
    last: dict[int, frozenset[Atom]] = {}
    for ss in sets:
        pi = problem_index(ss.problem)
        for k, st in enumerate(ss.states):
            base = last.get(pi)
            if base is not None and base <= st:
                dyn = st - base
                more = frozenset(a for a in dyn if a.predicate in static) if static else frozenset()
                fixed, dyn = (base | more, dyn - more) if more else (base, dyn)
            else:
                fixed = frozenset(a for a in st if a.predicate in static) if static else frozenset()
                dyn = st - fixed if fixed else st
            last[pi] = fixed
            ci = by_key.get((pi, fixed))
            if ci is None:
                ci = by_key[(pi, fixed)] = len(out.contexts)
                out.contexts.append(Context(ci, pi, fixed, []))
                seen.append({})
            s = len(out.alias)
            rep = seen[ci].setdefault(dyn, s)
            if rep == s:
                out.contexts[ci].states.append(s)
                out.dynamic[s] = dyn
                out.weight[s] = 1
            else:
                out.weight[rep] += 1
            out.alias.append(rep)
            out.sources.append((ss.source, k))
    return out


class StateWriter:
    """Writes the facts of batches; counts the literals the models do not share. What it keeps
    from batch to batch is per problem or per distinct atom, never per state."""

    def __init__(self, ref: Domain, problems: list[Problem], ignored_predicates: set[str]):
        self.ref = ref
        self.problems = problems  # by problem number (the driver's list, which grows as problems are read)
        self.vocabulary: dict[int, Vocabulary] = {}  # problem number → the reference's vocabulary over it
        self.ignored_predicates = ignored_predicates  # reference predicates the learned model lacks
        self.ignored: Counter[str] = Counter()  # their true literals in the test states
        self.text: dict[Atom, str] = {}  # atom → clingo text, once per distinct atom
        self.typed: dict[int, set[Atom]] = {}  # per problem: atoms of the universe
        self.untyped: dict[int, set[Atom]] = {}  # and the true atoms outside it

    def batch(self, grouped: Grouped) -> list[str]:
        """The facts of a batch: each context's problem and fixed atoms, then its states."""
        out = []
        for ctx in grouped.contexts:
            out.append(self._context(ctx))
            out.append(self._states(ctx, grouped))
        return out

    def vocabulary_of(self, pi: int) -> Vocabulary:
        v = self.vocabulary.get(pi)
        if v is None:
            v = self.vocabulary[pi] = Vocabulary(self.ref, self.problems[pi])
            self.typed[pi], self.untyped[pi] = set(), set()
        return v

    def _atom(self, a: Atom) -> str:
        s = self.text.get(a)
        if s is None:
            s = self.text[a] = ground(a)
        return s

    def _context(self, ctx: Context) -> str:
        problem = self.problems[ctx.problem_index]
        out = [f"problem({ctx.index})."]
        out += [f"object({ctx.index},{asp_name(o)},{asp_name(t)})." for o, t in problem.objects]
        out += [f"fixed({ctx.index},{self._atom(a)})." for a in ctx.fixed]
        return "\n".join(out)

    # The hot loop of eval's Python side (benchmarks/bench_eval.py): kept in one piece, on local names.
    def _states(self, ctx: Context, grouped: Grouped) -> str:
        """kf/gone/plus facts of each distinct state of `ctx` (see the module's docstring), `state/2`,
        `of/2` (its keyframe), `w/2` (how many test states it stands for, when more than one) and
        `extra/2` (its true atoms outside the reference's universe, times its weight)."""
        pi = ctx.problem_index
        v, dynamic, weight = self.vocabulary_of(pi), grouped.dynamic, grouped.weight
        ignored, ignored_preds = self.ignored, self.ignored_predicates
        typed, untyped = self.typed[pi], self.untyped[pi]
        fixed_extra = sum(not v.well_typed(a) for a in ctx.fixed)
        for a in ctx.fixed:
            if a.predicate in ignored_preds:
                ignored[a.predicate] += sum(weight[s] for s in ctx.states)
        lines = []
        text = self.text
        key: frozenset[Atom] | None = None  # the keyframe: a state given in full
        key_id = 0
        for s in ctx.states:
            dyn, w = dynamic[s], weight[s]
            for a in dyn - typed:  # each distinct atom is checked once (set difference in C)
                if a not in untyped:
                    (typed if v.well_typed(a) else untyped).add(a)
                if a not in text:
                    self._atom(a)
            extra = fixed_extra + (len(dyn & untyped) if untyped else 0)
            if ignored_preds:
                for a in dyn:
                    if a.predicate in ignored_preds:
                        ignored[a.predicate] += w
            if key is None or 2 * len(dyn ^ key) > len(dyn):
                key, key_id = dyn, s
                if dyn:
                    lines.append(f"kf({s}," + f").\nkf({s},".join([text[a] for a in dyn]) + ").")
            lines.append(f"state({s},{ctx.index}).\nof({s},{key_id}).")
            if w > 1:
                lines.append(f"w({s},{w}).")
            if key is not dyn:
                gone, new = key - dyn, dyn - key
                if gone:
                    lines.append(f"gone({s}," + f").\ngone({s},".join([text[a] for a in gone]) + ").")
                if new:
                    lines.append(f"plus({s}," + f").\nplus({s},".join([text[a] for a in new]) + ").")
            if extra:
                lines.append(f"extra({s},{extra * w}).")
        return "\n".join(lines)


__all__ = ["Vocabulary", "Context", "Grouped", "group", "StateWriter"]
