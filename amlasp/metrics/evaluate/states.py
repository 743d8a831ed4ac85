"""The test states as facts of eval's program, batch by batch.

States are grouped into contexts: a problem and the static atoms its states share, given once
as `fixed(P,F)` facts instead of in every state. A state is written as its keyframe (a state
given in full, `kf/2`) minus its `gone/2` atoms plus its own `plus/2` atoms (eval.lp):
successive states of a trajectory share most atoms, and clingo parses facts slower than it
derives them. On the way, the literals outside the reference's vocabulary are counted: true
negatives are completed arithmetically from universe sizes (`Vocabulary`), so the true atoms
outside the universe must be known (`extra/2`).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Iterable, Sequence

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

    index: int
    problem_index: int
    fixed: frozenset[Atom]
    states: list[int]  # global state indices


@dataclass
class Grouped:
    """The test states grouped into contexts; a state is its context's fixed atoms and its dynamic ones."""

    problems: list[Problem]
    contexts: list[Context]
    dynamic: list[frozenset[Atom]]  # per state
    sources: list[tuple[str, int]]  # per state: its file and its position there

    def states(self) -> int:
        return len(self.dynamic)


def group(sets: Sequence[StateSet], static: frozenset[str]) -> Grouped:
    """The states of a problem grouped by their static atoms. A state is split with set operations
    against the previous context of its problem (the states of a trajectory share it)."""
    out = Grouped([], [], [], [])
    problem_index: dict[int, int] = {}
    by_key: dict[tuple[int, frozenset[Atom]], int] = {}
    last: dict[int, frozenset[Atom]] = {}
    for ss in sets:
        pi = problem_index.setdefault(id(ss.problem), len(out.problems))
        if pi == len(out.problems):
            out.problems.append(ss.problem)
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
            out.contexts[ci].states.append(len(out.dynamic))
            out.dynamic.append(dyn)
            out.sources.append((ss.source, k))
    return out


def batches(contexts: list[Context], limit: int) -> list[list[Context]]:
    """Whole contexts, about `limit` states per batch (one clingo program each)."""
    out: list[list[Context]] = [[]]
    n = 0
    for c in contexts:
        if n and n + len(c.states) > limit:
            out.append([])
            n = 0
        out[-1].append(c)
        n += len(c.states)
    return out


class StateWriter:
    """Writes the facts of batches of contexts; counts the literals the models do not share."""

    def __init__(self, ref: Domain, grouped: Grouped, ignored_predicates: set[str]):
        self.grouped = grouped
        self.vocabulary = [Vocabulary(ref, p) for p in grouped.problems]
        self.ignored_predicates = ignored_predicates  # reference predicates the learned model lacks
        self.ignored: Counter[str] = Counter()  # their true literals in the test states
        self.text: dict[Atom, str] = {}  # atom → clingo text, once per distinct atom
        self.typed: list[set[Atom]] = [set() for _ in grouped.problems]  # per problem: atoms of the universe
        self.untyped: list[set[Atom]] = [set() for _ in grouped.problems]  # and the true atoms outside it

    def batch(self, contexts: list[Context]) -> list[str]:
        """The facts of a batch: each context's problem and fixed atoms, then its states."""
        out = []
        for ctx in contexts:
            out.append(self._context(ctx))
            out.append(self._states(ctx))
        return out

    def _atom(self, a: Atom) -> str:
        s = self.text.get(a)
        if s is None:
            s = self.text[a] = ground(a)
        return s

    def _context(self, ctx: Context) -> str:
        problem = self.grouped.problems[ctx.problem_index]
        out = [f"problem({ctx.index})."]
        out += [f"object({ctx.index},{asp_name(o)},{asp_name(t)})." for o, t in problem.objects]
        out += [f"fixed({ctx.index},{self._atom(a)})." for a in ctx.fixed]
        return "\n".join(out)

    # The hot loop of eval's Python side (benchmarks/bench_eval.py): kept in one piece, on local names.
    def _states(self, ctx: Context) -> str:
        """kf/gone/plus facts of each state of `ctx` (see the module's docstring), `state/2`, `of/2`
        (its keyframe) and `extra/2` (its true atoms outside the reference's universe)."""
        pi = ctx.problem_index
        v, dynamic = self.vocabulary[pi], self.grouped.dynamic
        ignored, ignored_preds = self.ignored, self.ignored_predicates
        typed, untyped = self.typed[pi], self.untyped[pi]
        fixed_extra = sum(not v.well_typed(a) for a in ctx.fixed)
        for a in ctx.fixed:
            if a.predicate in ignored_preds:
                ignored[a.predicate] += len(ctx.states)
        lines = []
        text = self.text
        key: frozenset[Atom] | None = None  # the keyframe: a state given in full
        key_id = 0
        for s in ctx.states:
            dyn = dynamic[s]
            for a in dyn - typed:  # each distinct atom is checked once (set difference in C)
                if a not in untyped:
                    (typed if v.well_typed(a) else untyped).add(a)
                if a not in text:
                    self._atom(a)
            extra = fixed_extra + (len(dyn & untyped) if untyped else 0)
            if ignored_preds:
                for a in dyn:
                    if a.predicate in ignored_preds:
                        ignored[a.predicate] += 1
            if key is None or 2 * len(dyn ^ key) > len(dyn):
                key, key_id = dyn, s
                if dyn:
                    lines.append(f"kf({s}," + f").\nkf({s},".join([text[a] for a in dyn]) + ").")
            lines.append(f"state({s},{ctx.index}).\nof({s},{key_id}).")
            if key is not dyn:
                gone, new = key - dyn, dyn - key
                if gone:
                    lines.append(f"gone({s}," + f").\ngone({s},".join([text[a] for a in gone]) + ").")
                if new:
                    lines.append(f"plus({s}," + f").\nplus({s},".join([text[a] for a in new]) + ").")
            if extra:
                lines.append(f"extra({s},{extra}).")
        return "\n".join(lines)


__all__ = ["Vocabulary", "Context", "Grouped", "group", "batches", "StateWriter"]
