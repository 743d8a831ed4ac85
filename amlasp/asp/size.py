"""The size guard: how large a grounding will be, estimated before clingo is asked, and refused
by name above `limits.MAX_GROUNDING`.

clingo's grounder cannot be interrupted from Python, and a learned model with unconstrained
parameters (a `sail` with six location parameters no precondition names) asks it for |T|^6
instances per state: 3.4 GB and a MemoryError after a minute (issue 20). Every command that grounds
an action's rules over states estimates them here first, with one estimator: per action, the
instances of its applicability rule (and of its effect and quantified rules) per state, by the
textbook estimate of a join — the atoms of the precondition taken smallest first, each multiplying
by its atoms per state divided by the objects of the positions already bound — and every
parameter no positive atom binds multiplied by the objects of its type; times the states.

A parameter that no precondition literal names at all (`free_parameters`) is independent of the
others: each of its objects gives an applicable instance exactly when the others do, so a
command whose metric needs only the number of instances counts it (eval's learned-only actions:
`asp/compile/pair.py`) and tells the estimate so (`factored`).
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from typing import Callable, Iterable

from ..errors import InputError
from ..identity import by_identity
from ..limits import MAX_GROUNDING
from ..logic import children, conjuncts, free_vars, nnf
from ..model import Action, Atom, Domain, Exists, Forall, Formula, Problem, is_var
from .names import asp_name


def free_parameters(action: Action) -> tuple[str, ...]:
    """The parameters that no literal of the precondition names (only their type constrains them)."""
    named = free_vars(action.precondition)
    return tuple(v for v, _ in action.parameters if v not in named)


def free_tuples(domain: Domain, action: Action, problem: Problem) -> int:
    """The tuples of objects (and constants) of `problem` that `action`'s free parameters take,
    each of its parameter's type (names compared as clingo sees them, as `is_a/4` does)."""
    kinds = list(problem.object_types(domain).values())
    out = 1
    for v, t in action.parameters:
        if v in free_parameters(action):
            want = asp_name(t)
            out *= sum(1 for k in kinds if any(asp_name(x) == want for x in domain.ancestors(k)))
    return out


@dataclass(frozen=True)
class Sizes:
    """What a grounding over a problem's states depends on: the objects (and constants) of each
    type, and the atoms of each predicate in a state (the problem's initial state)."""

    objects: dict[str, int]
    atoms: dict[str, int]

    def of_type(self, t: str) -> int:
        return self.objects.get(t, 0)


def sizes(domain: Domain, problem: Problem) -> Sizes:
    """The `Sizes` of `problem` (objects by every type they fit, atoms of its initial state)."""
    objects: dict[str, int] = {}
    kinds: dict[str, int] = {}
    for _, t in problem.object_types(domain).items():
        kinds[t] = kinds.get(t, 0) + 1
    for t, n in kinds.items():
        for up in domain.ancestors(t):
            objects[up] = objects.get(up, 0) + n
    return Sizes(objects, Counter(a.predicate for a in problem.init))


def instances(domain: Domain, action: Action, s: Sizes, factored: Iterable[str] = (), effects: bool = True,
              asked: bool = False) -> float:
    """Estimated ground instances of `action`'s rules in one state: applicability (with every
    parameter but the `factored` ones), its effect rules (`effects`) and quantified conditions;
    `asked`: of one ground action (validate's steps, which bind every parameter)."""
    types = dict(action.parameters)
    skip = set(factored) | ({v for v, _ in action.parameters} if asked else set())
    bound: set[str] = set(skip)
    estimate = 1.0
    atoms = [g for g in conjuncts(nnf(action.precondition)) if isinstance(g, Atom) and g.predicate != "="]
    while True:
        open_ = [a for a in atoms if any(is_var(x) and x not in bound for x in a.args)]
        if not open_:
            break
        fan, best = min((_fanout(a, bound, types, s), i) for i, a in enumerate(open_))
        estimate *= fan
        bound |= {x for x in open_[best].args if is_var(x)}
        atoms.remove(open_[best])
    for v, t in action.parameters:
        if v not in bound and v not in skip:
            estimate *= max(1, s.of_type(t))
    return estimate * (1 + _extra(action, s, effects))


def _extra(action: Action, s: Sizes, effects: bool) -> float:
    """The rules an instance of `action` brings besides its applicability: its quantified conditions'
    and (with `effects`) its effects' (one per forall tuple)."""
    extra = _quantified(action.precondition, s)
    if effects:
        for e in action.effects:
            extra += math.prod(max(1, s.of_type(t)) for _, t in e.variables)
    return extra


def _fanout(a: Atom, bound: set[str], types: dict[str, str], s: Sizes) -> float:
    """The instances an atom adds to a join whose variables `bound` are bound (at least one)."""
    known = math.prod(max(1, s.of_type(types.get(x, "object"))) for x in set(a.args) if is_var(x) and x in bound)
    return max(1.0, s.atoms.get(a.predicate, 0) / known)


def _quantified(f: Formula, s: Sizes) -> float:
    """The rules of `exists`/`forall` conditions: one per quantified tuple (objects of their types)."""
    total = 0.0
    stack = [f]
    while stack:
        g = stack.pop()
        if isinstance(g, (Exists, Forall)):
            total += math.prod(max(1, s.of_type(t)) for _, t in g.variables)
            stack.append(g.body)
        else:
            stack.extend(children(g))
    return total


def estimate(domain: Domain, work: Iterable[tuple[Sizes, int]], factored: dict[str, tuple[str, ...]] | None = None,
             effects: bool = True) -> dict[str, float]:
    """Each action's estimated rule instances over `work`, (sizes of a problem, its states);
    `factored`: action name → the parameters counted, not enumerated."""
    work = list(work)
    factored = factored or {}
    return {a.name: sum(n * instances(domain, a, s, factored.get(a.name, ()), effects) for s, n in work)
            for a in domain.actions}


def guard(what: str, domain: Domain, work: Iterable[tuple[Problem, int]], effects: bool = True,
          start: Callable[[Problem], Iterable[Atom]] | None = None) -> None:
    """`check` of one model's actions over `work`, (a problem, its states). Where the join estimate
    passes the limit, the relaxed reachability of each problem (`reach.relaxed_instances`, from its
    initial state and the atoms `start(problem)`, those of the states given besides) counts the instances
    instead, if it can within its budget: the smaller estimate decides, so that a task is refused only
    when both say it is too large (organic-synthesis: 5e28 by the join, a few hundred reachable). Without
    `start` (a caller whose states may hold atoms it cannot name as atoms), the join estimate alone."""
    work = list(work)
    known: dict[int, Sizes] = {}
    per: dict[str, float] = {a.name: 0.0 for a in domain.actions}
    for p, n in work:
        if id(p) not in known:
            known[id(p)] = sizes(domain, p)
        for name, x in _per_state(domain, p, known[id(p)], effects).items():
            per[name] += n * x
    if start is not None and sum(per.values()) > MAX_GROUNDING.value():
        per = min(per, _reachable(domain, work, known, effects, start), key=lambda x: sum(x.values()))
    check(what, (domain, per))


_PER_STATE: dict = {}


def _per_state(domain: Domain, problem: Problem, s: Sizes, effects: bool) -> dict[str, float]:
    """Each action's estimated instances in one state of `problem` (`instances`), kept by the identity
    of the domain and problem: a command that asks again of the same problem (applicable's states, a
    walk a step at a time) estimates it once; rovers' ten problems took 4.9 ms of a 34 ms call."""
    return by_identity(_PER_STATE, 64, (domain, problem), effects,
                       lambda: {a.name: instances(domain, a, s, effects=effects) for a in domain.actions})


def _reachable(domain: Domain, work: list[tuple[Problem, int]], known: dict[int, Sizes], effects: bool,
               start: Callable[[Problem], Iterable[Atom]]) -> dict[str, float]:
    """`estimate`'s figures with each action's instances per state those the relaxation reaches (at most
    as many in any state reached); infinite where the relaxation ran out of its budget."""
    counted: dict[int, dict[str, float] | None] = {}
    out = {a.name: 0.0 for a in domain.actions}
    for p, n in work:
        if id(p) not in counted:
            from .reach import relaxed_instances  # only past the join estimate: not on a start-up's path
            counted[id(p)] = relaxed_instances(domain, p, start(p))
        reached = counted[id(p)]
        for a in domain.actions:
            if reached is None:
                out[a.name] = math.inf
            else:
                out[a.name] += n * reached[a.name] * (1 + _extra(a, known[id(p)], effects))
    return out


def guard_steps(what: str, domain: Domain, steps: Iterable[tuple[Problem, Iterable[str]]]) -> None:
    """`check` of asked ground actions (validate's steps: every parameter bound), by the names of
    the actions asked on each problem; a name the domain lacks grounds nothing."""
    per: dict[str, float] = {}
    for p, names in steps:
        s = sizes(domain, p)
        for name, k in Counter(names).items():
            a = domain.action(name)
            if a is not None:
                per[name] = per.get(name, 0.0) + k * instances(domain, a, s, asked=True)
    check(what, (domain, per))


def check(what: str, *models: tuple[Domain, dict[str, float]]) -> None:
    """Refuse (InputError, at the model's file) a grounding whose estimates (`estimate`, per model)
    add up to more than `limits.MAX_GROUNDING`, naming the largest action; `what` names the task."""
    total = sum(x for _, per in models for x in per.values())
    if total <= MAX_GROUNDING.value():
        return
    most, domain, name = max(((x, d, k) for d, per in models for k, x in per.items()), key=lambda t: t[0])
    action = domain.action(name)
    free = free_parameters(action) if action is not None else ()
    why = f" (its parameter(s) {' '.join(free)} appear in no precondition)" if free else ""
    refuse(what, total, f"{most:.2g} of them of action '{name}'{why}", domain.file)


def refuse(what: str, total: float, largest: str, file: str | None) -> None:
    """The refusal of a grounding of about `total` rule instances (`largest`: the part that weighs most)."""
    limit = MAX_GROUNDING.value()
    raise InputError(f"{what}: grounding would make about {total:.2g} rule instances, {largest}; refused above "
                     f"the limit of {limit:.2g}: give --max-grounding N before the command, or "
                     f"{MAX_GROUNDING.hint()}", file)


#: Rule instances of compare's encodings per candidate pair of symbols (compare.lp, edit.lp): 1.3 GB
#: and 92 s for 1,000 x 1,000 predicates of one arity (1e6 pairs), at about 110 bytes an instance.
PER_CANDIDATE = 12


def check_renaming(learned: Domain, ref: Domain, rename: bool,
                   pairs: Iterable[tuple[str, str]] | None = None,
                   predicate_pairs: int | None = None) -> None:
    """The size guard of `compare`: every predicate (action) of one model that the other lacks by
    name may be renamed to any of the other's of its arity (`pcand/2`; `acand/2` with `vcand/4` of
    their parameters), so that its grounding grows with their product: 50,000 predicates a side
    ran for over 500 s (issue 20). `pairs`: the only pairs of those actions the search may match
    (by clingo name: metrics/compare/decompose.py), `predicate_pairs` how many of those predicates."""
    lp = {(asp_name(p.name), p.arity) for p in learned.predicates}
    rp = {(asp_name(p.name), p.arity) for p in ref.predicates}
    fl = Counter(n for key, n in lp if rename or (key, n) not in rp)
    fr = Counter(n for key, n in rp if rename or (key, n) not in lp)
    preds = sum(n * fr[k] for k, n in fl.items()) if predicate_pairs is None else predicate_pairs
    la = {asp_name(a.name): a.arity for a in learned.actions}
    ra = {asp_name(a.name): a.arity for a in ref.actions}
    al = [n for a, n in la.items() if rename or a not in ra]
    ar = [n for a, n in ra.items() if rename or a not in la]
    if pairs is None:
        acts = sum(1 + x * y for x in al for y in ar)
    else:
        acts = sum(1 + la[a] * ra[b] for a, b in pairs)
    total = PER_CANDIDATE * (preds + acts)
    if total > MAX_GROUNDING.value():
        largest = (f"{PER_CANDIDATE * preds:.2g} of them for {preds:.2g} candidate pairs of predicates" if preds >= acts
                   else f"{PER_CANDIDATE * acts:.2g} of them for pairs of actions and their parameters")
        refuse("compare", total, largest, learned.file)


__all__ = ["Sizes", "sizes", "free_parameters", "free_tuples", "instances", "estimate", "check",
           "check_renaming", "guard", "guard_steps", "refuse"]
