"""eval's test states as facts (encodings/eval.lp's input), batch by batch.

States are grouped into contexts: a problem and the static atoms its states share, given once
as `fixed(P,F)` facts instead of in every state. A state is written as its keyframe (a state
given in full, `kf/2`) minus its `gone/2` atoms plus its own `plus/2` atoms (eval.lp):
successive states of a trajectory share most atoms, and each fact given costs more than one
derived. The facts are rows of terms (`Rows`), handed to the grounder by `run.Program.given`, never
program text for clingo's statement parser. A state equal to an earlier one of its batch and
context is written once, with the number of test states it stands for (`w/2`). What the metrics
count of the states (`extra/2`, the true atoms outside the reference's universe) is
metrics/evaluate/states.py's; this module writes it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable, Sequence

from ..model import Atom, GroundAction, Problem
from ..pddl.states import StateSet
from .facts import action_term, either_members, ground
from .names import asp_name
from .schema import EXTRA, FIXED, GONE, KF, OBJECT, OF, PLUS, PROBLEM, RECORDED, STATE, TYPE_MEMBER, Pred, W


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
    it); a state already seen in its context is an alias of the first. The split is one set difference
    in C (a state holds its context's atoms when it has that many fewer), and its other atoms are looked
    at in Python only when one is not yet known to be of a fluent (`fluent`): a floortile walk state
    has 118 static atoms of 154, and a subset test and a pass over every atom took 0.4 of 0.9 s."""
    out = Grouped([], {}, {}, [], [])
    by_key: dict[tuple[int, frozenset[Atom]], int] = {}
    seen: list[dict[frozenset[Atom], int]] = []  # per context: dynamic atoms → distinct state
    last: dict[int, frozenset[Atom]] = {}
    fluent: set[Atom] = set()  # atoms seen of predicates that are not static
    for ss in sets:
        pi = problem_index(ss.problem)
        for k, st in enumerate(ss.states):
            base = last.get(pi)
            if base is not None and len(st) - len(dyn := st - base) == len(base):  # base <= st
                if static and not dyn <= fluent:
                    more = frozenset(a for a in dyn if a.predicate in static)
                    fluent.update(dyn - more)
                    if more:
                        base, dyn = base | more, dyn - more
                fixed = base
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
            out.sources.append((ss.source, ss.first + k))
    return out


#: A batch's facts by declaration, each a list of rows (`Pred.row`: a fact's arguments as text), given
#: to the grounder as terms (`run.Program.given`): clingo's statement parser takes about 5 us a fact.
Rows = dict[Pred, list[str]]


def state_rows() -> Rows:
    """Empty rows of each predicate `StateFacts` writes."""
    return {p: [] for p in (PROBLEM, OBJECT, TYPE_MEMBER, FIXED, KF, STATE, OF, W, GONE, PLUS, EXTRA)}


class StateFacts:
    """Writes the facts of batches as rows; keeps the text of each distinct atom from batch to batch."""

    def __init__(self) -> None:
        self.text: dict[Atom, str] = {}  # atom → clingo text, once per distinct atom
        self.known: set[Atom] = set()  # the atoms of `text`, for set differences (in C, on stored hashes)

    def learn(self, atoms: frozenset[Atom]) -> None:
        """Keeps the text of those of `atoms` not seen before."""
        for a in atoms - self.known:
            self.text[a] = ground(a)
            self.known.add(a)

    def context(self, ctx: Context, problem: Problem, rows: Rows) -> None:
        """The context's problem, its objects and its fixed atoms, added to `rows`."""
        rows[PROBLEM].append(PROBLEM.row(ctx.index))
        rows[OBJECT] += [OBJECT.row(ctx.index, asp_name(o), asp_name(t)) for o, t in problem.objects]
        rows[TYPE_MEMBER] += [TYPE_MEMBER.row(*pair) for pair in either_members(t for _, t in problem.objects)]
        self.learn(ctx.fixed)
        head, text = f"{ctx.index},", self.text
        rows[FIXED] += [head + text[a] for a in ctx.fixed]

    # The hot loop of eval's facts (benchmarks/bench_eval.py): kept in one piece, on local names; rows
    # spelled as f-strings (two numbers, or a number and an atom), where `Pred.row` would cost a call each.
    def states(self, ctx: Context, grouped: Grouped, extra: dict[int, int], rows: Rows) -> None:
        """Rows of kf/gone/plus of each distinct state of `ctx` (see the module's docstring), `state/2`,
        `of/2` (its keyframe), `w/2` (how many test states it stands for, when more than one) and
        `extra/2` (given by the caller: a state's count, when not 0), added to `rows`."""
        dynamic, weight, text, known = grouped.dynamic, grouped.weight, self.text, self.known
        kf, gone_rows, plus, state, of, w_rows, extra_rows = (rows[p] for p in (KF, GONE, PLUS, STATE, OF, W, EXTRA))
        p = ctx.index
        key: frozenset[Atom] | None = None  # the keyframe: a state given in full
        key_id = 0
        for s in ctx.states:
            dyn = dynamic[s]
            head = f"{s},"
            if key is None or 2 * len(dyn ^ key) > len(dyn):
                key, key_id = dyn, s
                if dyn:
                    if not dyn <= known:
                        self.learn(dyn)
                    kf += [head + text[a] for a in dyn]
            state.append(f"{s},{p}")
            of.append(f"{s},{key_id}")
            w = weight[s]
            if w > 1:
                w_rows.append(f"{s},{w}")
            if key is not dyn:
                gone, new = key - dyn, dyn - key
                if gone:
                    gone_rows += [head + text[a] for a in gone]  # the keyframe's: known
                if new:
                    if not new <= known:
                        self.learn(new)
                    plus += [head + text[a] for a in new]
            x = extra.get(s)
            if x:
                extra_rows.append(f"{s},{x}")


def recorded_rows(steps: Iterable[tuple[int, int, int, GroundAction]]) -> list[str]:
    """Rows of `recorded(S,R,N,A)` for each (state S, the state R written for it, slot N, action A):
    the action a trajectory took in S (checked by eval.lp's `off_step`)."""
    return [RECORDED.row(s, r, n, action_term(a)) for s, r, n, a in steps]


__all__ = ["Context", "Grouped", "group", "Rows", "state_rows", "StateFacts", "recorded_rows"]
