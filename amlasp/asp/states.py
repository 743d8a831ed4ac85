"""Many states as facts, for the questions asked of thousands of states at once (applicable).

Neighbouring states of a trajectory share most of their atoms, so the facts are written per
atom, not per state: each distinct atom once, with the ranges of the states that hold it, rows
`held(0,41,clear(f1_2f))` and `held(57,60,clear(f1_2f))` given as terms (`run.Program.given`), from
which one rule makes `holds/2` (`RANGES`). Every state atom is then one `holds/2` atom and nothing
else. (Written as text, `holds((0..41;57..60),clear(f1_2f)).`, clingo expanded each pool into a
statement of its own and grounded them one by one: 6.6 ms of blocksworld's 183 states, against 3.5
ms so.) Atoms of static predicates are given once per group of states of a problem that
agree on them, `fixed(P,F)`, each group a problem id P (all the states of a trajectory are one
group). Each distinct atom is also checked once for being well-typed for its predicate's
declaration (`ManyStates.well_typed`), which lets the compiled rules skip typing literals.
"""

from __future__ import annotations

from typing import Iterable, Sequence

from ..identity import by_identity
from ..model import Atom, Domain, Problem
from .facts import ground, problem_facts
from .schema import FIXED, HELD, HOLD, HOLDS, SPAN, STATE, Pred
from .text import Reused

#: `state/2` and `holds/2` of the rows (`ManyStates.given`): each range of states, L..U, expanded by the grounder.
RANGES = Reused(f"{STATE('S', 'P')} :- {SPAN('P', 'L', 'U')}, S = L..U.\n"
                f"{HOLDS('S', 'F')} :- {HELD('L', 'U', 'F')}, S = L..U.\n")


class ManyStates:
    """The facts of many states, of one problem or several: `state(S,P)`, `holds/2`, `fixed/2`
    and each group's problem facts. States are numbered 0, 1, ... in the order added."""

    def __init__(self, domain: Domain):
        self.domain = domain
        self.static = domain.static_predicates()
        self.count = 0
        self.firsts: list[int] = []  # the number of the first state of each call of `add`
        self._sets = 0
        self.well_typed = True  # every atom so far is well-typed for its predicate's declaration
        self._fixed: list[str] = []  # rows of fixed/2
        self._run_list: list[tuple[int, int, int, int]] | None = None
        self._problems: list[Problem] = []  # each group's problem
        self._groups: dict[tuple[int, frozenset[int]], int] = {}
        self._numbers: dict[Atom, int] = {}  # each distinct atom's number
        self._atoms: list[str] = []  # number → ground text
        self._holders: list[list[int]] = []  # number → the states that hold it (atoms of fluents)
        self._state_group: list[int] = []

    def add(self, problem: Problem, states: Iterable[Iterable[Atom]]) -> None:
        """The states of one problem (each an iterable of atoms, static ones included).

        The static atoms of the first state are the set's `base`; a later state that has all of
        them and no other static atom (the rule in a trajectory) is split by one set difference
        in C, where the same atom objects make each look-up an identity test, and only its other
        atoms are visited in Python. Any other state is split atom by atom."""
        self._sets += 1
        k = self._sets  # a group never spans two calls
        self.firsts.append(self.count)
        seen: dict[int, tuple[Atom, int, bool]] = {}  # by id(atom): the atoms of a file repeat as one object
        objects = by_identity(_FITTING, 64, (self.domain, problem), None, lambda: _fitting(self.domain, problem))
        base: frozenset[Atom] | None = None
        base_group = -1
        for st in states:
            st = st if isinstance(st, (frozenset, set)) else frozenset(st)
            if base is not None and len(st) - len(rest := st - base) == len(base):  # every base atom is in st
                entries = [self._entry(seen, a, objects) for a in rest]
                if not any(static for _, _, static in entries):  # and no other static atom
                    for _, n, _ in entries:
                        self._holders[n].append(self.count)
                    self._state_group.append(base_group)
                    self.count += 1
                    continue
            fixed: list[int] = []
            for a in st:
                _, n, static = self._entry(seen, a, objects)
                if static:
                    fixed.append(n)
                else:
                    self._holders[n].append(self.count)
            key = (k, frozenset(fixed))
            pid = self._groups.get(key)
            if pid is None:
                pid = self._groups[key] = len(self._groups)
                self._problems.append(problem)
                self._fixed += [f"{pid},{self._atoms[n]}" for n in sorted(key[1])]
            if base is None:
                base, base_group = frozenset(a for a in st if a.predicate in self.static), pid
            self._state_group.append(pid)
            self.count += 1

    def _entry(self, seen: dict[int, tuple[Atom, int, bool]], a: Atom, objects: dict[str, list[frozenset[str]]]
               ) -> tuple[Atom, int, bool]:
        """(atom, number, static?) of an atom object; the atom is kept in the entry, so that its id
        stays its own while `seen` lives."""
        entry = seen.get(id(a))
        if entry is None:
            entry = seen[id(a)] = (a, self._number(a, objects), a.predicate in self.static)
        return entry

    def _number(self, a: Atom, fitting: dict[str, list[frozenset[str]]]) -> int:
        n = self._numbers.get(a)
        if n is None:
            n = self._numbers[a] = len(self._atoms)
            self._atoms.append(ground(a))
            self._holders.append([])
        if self.well_typed and not _typed(a, fitting):
            self.well_typed = False
        return n

    def text(self, objects: bool = True) -> str:
        """The facts written as text: with `objects`, each group's problem and its objects (for
        typing); the states are rows (`given`)."""
        if not objects:
            return ""
        return "\n".join(problem_facts(p, pid, init=False, goal=False) for pid, p in enumerate(self._problems)) + "\n"

    def given(self, runs: bool = False) -> dict[Pred, list[str]]:
        """The states as rows of `run.Program.given`, with `RANGES`: `fixed(P,F)` (each group's static
        atoms), `span(P,L,U)` (the states L..U are of group P) and `held(L,U,F)` (F holds in the states
        L..U), or with `runs`, `hold(P,L,U,F)`: F holds in the states L..U of group P, the runs that
        `Compiler.run_applicability` joins. Runs never cross from one group to another."""
        out = {SPAN: [f"{pid},{i},{j}" for i, j, pid in self._spans()], FIXED: self._fixed}
        if runs:
            out[HOLD] = [f"{pid},{start},{end},{self._atoms[n]}" for pid, start, end, n in self._runs()]
            return out
        atoms, rows = self._atoms, []
        for n, held in enumerate(self._holders):
            if held:
                text = atoms[n]
                start = prev = held[0]
                for s in held[1:]:
                    if s != prev + 1:
                        rows.append(f"{start},{prev},{text}")
                        start = s
                    prev = s
                rows.append(f"{start},{prev},{text}")
        out[HELD] = rows
        return out

    def _runs(self) -> list[tuple[int, int, int, int]]:
        """(group, first state, last state, atom number): each maximal run of consecutive states of
        one group that hold an atom of a fluent."""
        if self._run_list is None:
            self._run_list = []
            group = self._state_group
            for n, held in enumerate(self._holders):
                if held:
                    start = prev = held[0]
                    for s in held[1:] + [-1]:
                        if s != prev + 1 or group[s] != group[prev]:
                            self._run_list.append((group[prev], start, prev, n))
                            start = s
                        prev = s
        return self._run_list

    def runs_pay(self) -> bool:
        """Are the states long runs, so that joining a run at a time pays? A rule joining k atoms
        costs about the product of their runs in a group, against the product of their atoms in
        each state: with R states of a group and runs L states long on average, (R/L)² against R for
        two atoms. Runs pay when, summed over the groups, R²/L² ≤ R: trajectories (L ≈ 5-13 over
        R ≈ 18) do; random states, or states of many walks in one group (L ≈ 3 over R ≈ 100),
        would cost up to 20x more."""
        pairs: dict[int, int] = {}
        runs: dict[int, int] = {}
        for pid, start, end, _ in self._runs():
            pairs[pid] = pairs.get(pid, 0) + end - start + 1
            runs[pid] = runs.get(pid, 0) + 1
        size = {pid: sum(1 for g in self._state_group if g == pid) for pid in runs}
        return sum((size[g] * runs[g] / pairs[g]) ** 2 for g in runs) <= sum(size.values())

    def _spans(self) -> list[tuple[int, int, int]]:
        """Maximal runs (first, last, group) of consecutive states of one group."""
        out = []
        i = 0
        while i < self.count:
            j = i
            while j + 1 < self.count and self._state_group[j + 1] == self._state_group[i]:
                j += 1
            out.append((i, j, self._state_group[i]))
            i = j + 1
        return out


_FITTING: dict = {}


def _fitting(domain: Domain, problem: Problem) -> dict[str, list[frozenset[str]]]:
    """Each predicate of `domain` → per position, the objects and constants of `problem` of its declared type
    (or a subtype); kept by identity (`_FITTING`), so that the states of a problem asked again are checked by
    set look-ups (sokoban's 178 states: 3 ms of a 39 ms `applicable_many` call were these checks)."""
    objects = problem.object_types(domain)
    of_type = {t: frozenset(x for x, own in objects.items() if domain.fits(own, t))
               for p in domain.predicates for _, t in p.parameters}
    return {p.name: [of_type[t] for _, t in p.parameters] for p in domain.predicates}


def _typed(a: Atom, fitting: dict[str, list[frozenset[str]]]) -> bool:
    """Is each argument of `a` an object of its predicate's declared type (or a subtype)?"""
    allowed = fitting.get(a.predicate)
    if allowed is None or len(allowed) != len(a.args):
        return False
    for x, ok in zip(a.args, allowed):
        if x not in ok:
            return False
    return True


def many_states(domain: Domain, sets: Sequence[tuple[Problem, Iterable[Iterable[Atom]]]]) -> ManyStates:
    """The facts of the states of several problems, numbered in order."""
    out = ManyStates(domain)
    for problem, states in sets:
        out.add(problem, states)
    return out


__all__ = ["ManyStates", "many_states", "RANGES"]
