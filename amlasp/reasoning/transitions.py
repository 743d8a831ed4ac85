"""What actions change, in many states at once: semantics.lp's `added`/`deleted` of asked actions.

`execute_many` runs whole plans from their own start states, carrying every atom of every run
(the static ones too) through validate.lp: right for plans, but a breadth-first layer or a batch
of random-walk steps is thousands of single steps, most from the same few states. Here each
distinct state is given once (encodings/states.lp: each distinct atom once, a state as the
numbers of its atoms), atoms of static predicates once per problem (`fixed/2`), and every action
asked in a state is a `query` of that state: one grounding answers which of them are applicable
and what each adds and deletes. The successor is the state minus `deleted` plus `added`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from ..asp import size
from ..asp.compile import compile_domain
from ..asp.decode import decoder
from ..asp.facts import action_term, domain_facts, fixed_facts, ground, problem_facts, state_text
from ..asp.names import MODEL
from ..asp.run import encoding, solve_once
from ..asp.schema import ADDED, APP, DELETED, QUERY, shown
from ..model import Atom, Domain, GroundAction, Problem


@dataclass(frozen=True)
class Change:
    """The atoms an applicable action makes true (false before) and false (true before)."""

    added: frozenset[Atom]
    deleted: frozenset[Atom]

    def apply(self, state: frozenset[Atom]) -> frozenset[Atom]:
        return (state - self.deleted) | self.added


def changes_many(domain: Domain, problem: Problem,
                 asked: Sequence[tuple[frozenset[Atom], Sequence[GroundAction]]]) -> list[list[Change | None]]:
    """For each (state, actions): per action, its `Change`, or None when it is not applicable there."""
    size.guard_steps("transitions", domain, [(problem, (a.name for _, actions in asked for a in actions))])
    static = domain.static_predicates()
    rules = compile_domain(domain, MODEL, enumerate=False, check=True, effects=True, static=static)
    groups: dict[frozenset[Atom], int] = {}
    text: list[str] = []
    for i, (st, actions) in enumerate(asked):
        fixed = frozenset(a for a in st if a.predicate in static)
        pid = groups.get(fixed)
        if pid is None:
            pid = groups[fixed] = len(groups)
            text.append(problem_facts(problem, pid, init=False, goal=False))
            text.append(fixed_facts(fixed, pid))
        text.append(state_text(i, pid, (ground(a) for a in st if a.predicate not in static and a.predicate != "=")))
        text.append(QUERY.fixed(MODEL, i).text([action_term(a) for a in actions]))
    syms = solve_once([encoding("types"), encoding("semantics"), encoding("check"), encoding("change"),
                       domain_facts(domain, MODEL), rules.text, "\n".join(text),
                       " ".join(p.show() for p in (APP, ADDED, DELETED))])
    dec = decoder(domain, problem)
    answer = shown(map(str, syms), APP, ADDED, DELETED)
    app = {(int(r.state), dec.action(r.action)) for r in answer[APP]}
    added: dict[tuple[int, GroundAction], set[Atom]] = {}
    deleted: dict[tuple[int, GroundAction], set[Atom]] = {}
    for pred, changed in ((ADDED, added), (DELETED, deleted)):
        for r in answer[pred]:
            changed.setdefault((int(r.state), dec.action(r.action)), set()).add(dec.atom(r.atom))
    out: list[list[Change | None]] = []
    for i, (_, actions) in enumerate(asked):
        out.append([Change(frozenset(added.get((i, a), ())), frozenset(deleted.get((i, a), ())))
                    if (i, a) in app else None for a in actions])
    return out


__all__ = ["Change", "changes_many"]
