"""The facts of two problems of one domain side by side, for encodings/problem_compare.lp.

Problem 0 is the generated problem, 1 the reference: their objects, initial facts and goals as
`problem_facts` writes them, the domain's constants (they keep their names under any renaming),
each ground atom's predicate and arguments (so that the encoding can map an atom's arguments
without knowing its arity), and, for the semantic notion, the goal literals each goal implies.
"""

from __future__ import annotations

from typing import Iterable, Mapping

from ..model import Atom, Domain, Problem
from .facts import ground, problem_facts
from .names import MODEL, asp_name
from .schema import CONSTANT, FARG, FATOM, IMPLIED, NOTION

GENERATED, REFERENCE = 0, 1


def _atoms(problem: Problem) -> Iterable[Atom]:
    yield from problem.init
    yield from (l.atom for l in problem.goal)


def pair_facts(domain: Domain, generated: Problem, reference: Problem,
               implied: Mapping[int, tuple[Iterable[Atom], Iterable[Atom]]] | None = None) -> str:
    """Both problems' facts, the constants, the atoms' structure and (`implied`: per problem, the
    positive and the negative goal literals its goal implies) the implied goal literals."""
    out = [problem_facts(generated, GENERATED), problem_facts(reference, REFERENCE)]
    out += [CONSTANT.fact(MODEL, asp_name(c), asp_name(t)) for c, t in domain.constants]
    atoms = {a for p in (generated, reference) for a in _atoms(p) if a.predicate != "="}
    for pid, (pos, neg) in (implied or {}).items():
        for sign, group in (("pos", pos), ("neg", neg)):
            for a in group:
                atoms.add(a)
                out.append(IMPLIED.fact(pid, sign, ground(a)))
    for a in sorted(atoms, key=str):
        g = ground(a)
        out.append(FATOM.fact(g, asp_name(a.predicate), len(a.args)))
        out += [FARG.fact(g, i, asp_name(x)) for i, x in enumerate(a.args, 1)]
    return "\n".join(out) + "\n"


def notion_fact(notion: str) -> str:
    """Which edits the program minimises: `syntactic` or `semantic`."""
    return NOTION.fact(notion)


__all__ = ["pair_facts", "notion_fact", "GENERATED", "REFERENCE"]
