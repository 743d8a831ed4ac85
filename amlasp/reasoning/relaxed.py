"""Delete relaxation and static facts: the sound 'no' answers of reach, plan and landmarks.

The relaxed program (encodings/relaxed.lp) over-approximates what is reachable, so an
atom or action it does not derive can never be reached. It is grounded once; landmark
checks then only flip the external `forbid(F)` and solve again.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from ..asp import size
from ..asp.compile import compile_domain
from ..asp.decode import decoder
from ..asp.facts import action_term, domain_facts, externals, goal_facts, ground, problem_facts
from ..asp.names import MODEL
from ..asp.run import Program, encoding
from ..asp.schema import ACHIEVER, APP, FORBID, GOAL_MISSING, GOAL_REACHABLE, HOLDS, INIT, RELAXED_MODEL
from ..goal_rules import with_goal_rules
from ..model import Atom, Domain, GroundAction, Literal, Problem


@dataclass
class Relaxation:
    """What the delete relaxation reaches from a state, and the means to ask again with a fact forbidden."""

    atoms: frozenset[Atom]
    actions: frozenset[GroundAction]
    goal_reachable: bool
    goal_missing: tuple[Atom, ...]
    program: Program  # grounded, with an external `forbid(F)` per forbiddable fact

    def goal_reachable_without(self, fact: Atom) -> bool:
        """Is the goal still relaxed-reachable when `fact` is never achieved?"""
        forbid = FORBID(ground(fact))
        self.program.assign(forbid, True)
        try:
            return bool(self.program.contains(GOAL_REACHABLE()))
        finally:
            self.program.assign(forbid, False)


def achievers(domain: Domain, actions: Iterable[GroundAction], facts: Iterable[Atom]
              ) -> list[tuple[Atom, GroundAction]]:
    """(F, A) for each ground action A with an unconditional add effect F among `facts`."""
    wanted = set(facts)
    out = []
    for g in actions:
        schema = domain.action(g.name)
        if schema is None:
            continue
        out += [(l.atom, g) for l in schema.ground_effects(g.args) if l.positive and l.atom in wanted]
    return out


def relax(domain: Domain, problem: Problem, init: Iterable[Atom] | None = None,
          goal: Iterable[Literal] | None = None, forbiddable: Iterable[Atom] = (),
          achieved_by: Iterable[tuple[Atom, GroundAction]] = ()) -> Relaxation:
    """The relaxation from `init` (default: the problem's); `forbiddable` facts get an external
    `forbid(F)` and `achieved_by` names their unconditional achievers (see encodings/relaxed.lp)."""
    domain = with_goal_rules(domain, [problem])
    state = frozenset(problem.init if init is None else init)
    goal = tuple(problem.goal if goal is None else goal)
    size.guard("relaxed reachability", domain, [(problem, 1)], start=lambda _: state)
    rules = compile_domain(domain, MODEL, enumerate=True, check=False, effects=True, state="r", relaxed=True)
    parts = [encoding("types"), encoding("semantics"), encoding("relaxed"), domain_facts(domain, MODEL), rules.text,
             RELAXED_MODEL.fact(MODEL), problem_facts(problem, 0, init=False, goal=False),
             INIT.fixed(0).text([ground(a) for a in state]),
             externals(FORBID, ((ground(a),) for a in forbiddable)),
             "".join(ACHIEVER.fact(ground(f), action_term(a)) for f, a in achieved_by)]
    parts.append(goal_facts(goal))
    program = Program(parts).ground()
    dec = decoder(domain, problem)
    answer = program.first() or []
    atoms = {dec.atom(r.atom) for r in HOLDS.select(answer)}
    actions = {dec.action(r.action) for r in APP.select(answer)}
    missing = [dec.atom(r.atom) for r in GOAL_MISSING.select(answer)]
    reachable = any(GOAL_REACHABLE.matches(s) for s in answer)
    return Relaxation(frozenset(atoms), frozenset(actions), reachable, tuple(sorted(missing, key=str)), program)
