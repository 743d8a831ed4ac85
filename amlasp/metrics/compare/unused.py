"""Predicates that no action uses, paired before the search for the best renaming: a shortcut that
keeps the optimum (issue 20: two models of 50,000 predicates, three of them used, gave clingo
2.5e9 candidate pairs to ground).

A predicate that no action of its model names (no atom of a precondition, effect or condition:
`Structure.atoms`, what compare.lp matches) changes the edit distance only through the predicate
edits: mapped to a predicate of the other model, it saves a `remove predicate` and an `add
predicate`; no unit's match depends on its pair.

**Lemma.** Let P (learned) and Q (reference) be free (no same-named counterpart, or `--rename`),
used by no action, and compatible (same arity, compatible argument types: compare.lp's `pcand`),
and let every free learned predicate compatible with Q be compatible with every free reference
predicate compatible with P. Then some optimal renaming maps P to Q.

*Proof.* Take an optimal renaming π. If π maps neither P nor anything to Q, adding P→Q saves two
edits: impossible. If π maps P→X and nothing to Q, P→Q instead keeps every count (P's pair
matched no unit); likewise Y→Q with P unmapped. If π maps P→X and Y→Q, take P→Q and Y→X: Y is
compatible with Q and X with P, so Y with X by the assumption; as many predicates are mapped, the
pairs dropped matched no unit (each has an unused side), and a pair added only adds matches
(compare.lp uses `pm` positively in every match, negatively only in the predicate edits). ∎

Fixing P→Q and leaving both out leaves the same problem on the other predicates, whose free sets
only shrink, so the assumption holds for the next pair as well; the rest's optimum is the whole
one. Compatibility depends only on arity and argument types, so it is decided by compare.lp itself
on one representative predicate per class (arity, argument types) of each model (`_compatible`),
and the assumption is checked per pair of classes. Same-named predicates are paired first (with
`--rename`, the mapping then reads as the identity where it can).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import replace

from ...asp.facts import domain_facts
from ...asp.names import LEARNED, REF, asp_name
from ...asp.run import encoding, solve_once
from ...asp.schema import PCAND, PHASE, RENAME
from ...model import Domain, Predicate
from .structure import Structure

#: Pairs of classes beyond which the assumption is not checked (no shortcut): it costs their square.
MAX_CLASS_PAIRS = 1_000

Class = tuple[int, tuple[str, ...]]


def _class(p: Predicate) -> Class:
    return p.arity, tuple(asp_name(t) for _, t in p.parameters)


def pair_unused(ld: Domain, rd: Domain, ls: Structure, rs: Structure,
                rename: bool) -> list[tuple[Predicate, Predicate]]:
    """Pairs (learned, reference) of predicates used by no action that some optimal renaming maps to
    each other (the lemma above), for the search to leave out."""
    lsig = {(asp_name(p.name), p.arity) for p in ld.predicates}
    rsig = {(asp_name(p.name), p.arity) for p in rd.predicates}
    free_l = [p for p in ld.predicates if rename or (asp_name(p.name), p.arity) not in rsig]
    free_r = [q for q in rd.predicates if rename or (asp_name(q.name), q.arity) not in lsig]
    reps_l = {_class(p): p for p in reversed(free_l)}
    reps_r = {_class(q): q for q in reversed(free_r)}
    if not reps_l or not reps_r or len(reps_l) * len(reps_r) > MAX_CLASS_PAIRS:
        return []
    compat = _compatible(ld, rd, reps_l, reps_r)
    used_l = {pred for pred, _ in ls.atoms.values()}
    used_r = {pred for pred, _ in rs.atoms.values()}
    idle_l: dict[Class, list[Predicate]] = defaultdict(list)
    idle_r: dict[Class, list[Predicate]] = defaultdict(list)
    for p in free_l:
        if asp_name(p.name) not in used_l:
            idle_l[_class(p)].append(p)
    for q in free_r:
        if asp_name(q.name) not in used_r:
            idle_r[_class(q)].append(q)
    pairs: list[tuple[Predicate, Predicate]] = []
    for a, b in sorted(compat):
        if not idle_l[a] or not idle_r[b] or not all(
                (a2, b2) in compat for a2 in reps_l if (a2, b) in compat for b2 in reps_r if (a, b2) in compat):
            continue
        pairs += _pair(idle_l[a], idle_r[b])
    return pairs


def _pair(left: list[Predicate], right: list[Predicate]) -> list[tuple[Predicate, Predicate]]:
    """Pairs of `left` and `right` (as many as the shorter has), same names first; both lists lose them."""
    names = {asp_name(q.name): q for q in right}
    out = [(p, names.pop(asp_name(p.name))) for p in left if asp_name(p.name) in names]
    taken_l = {id(p) for p, _ in out}
    rest_l = [p for p in left if id(p) not in taken_l]
    rest_r = list(names.values())
    out += zip(rest_l, rest_r)
    done_l, done_r = {id(p) for p, _ in out}, {id(q) for _, q in out}
    left[:] = [p for p in left if id(p) not in done_l]
    right[:] = [q for q in right if id(q) not in done_r]
    return out


def _compatible(ld: Domain, rd: Domain, reps_l: dict[Class, Predicate], reps_r: dict[Class, Predicate]) -> set:
    """The pairs of classes whose predicates compare.lp lets be renamed to each other (`pcand`),
    decided on one representative of each class, named l<i> and r<j>, with the models' types."""
    kl, kr = list(reps_l), list(reps_r)
    lrep = replace(ld, predicates=tuple(Predicate(f"l{i}", reps_l[k].parameters) for i, k in enumerate(kl)),
                   actions=(), functions=(), cost_functions=(), derived=())
    rrep = replace(rd, predicates=tuple(Predicate(f"r{j}", reps_r[k].parameters) for j, k in enumerate(kr)),
                   actions=(), functions=(), cost_functions=(), derived=())
    program = "\n".join([domain_facts(lrep, LEARNED), domain_facts(rrep, REF), encoding("types"),
                         encoding("compare"), RENAME.fact(), PHASE.fact("optimise"), PCAND.show()])
    out = set()
    for r in PCAND.select(solve_once([program])):
        p, q = str(r.learned), str(r.reference)
        if p.startswith("l") and q.startswith("r"):  # not eq/eq
            out.add((kl[int(p[1:])], kr[int(q[1:])]))
    return out


__all__ = ["pair_unused", "MAX_CLASS_PAIRS"]
