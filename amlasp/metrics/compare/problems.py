"""`compare_problems()`: two problems of one domain, up to a renaming of objects (Planetarium's question
for any domain).

1. Each problem's reachable states are explored (`goals.goal_closure`, bounded): what its goal
   implies there, and whether the generated problem is solvable (a shortest witness, or a proof).
2. clingo chooses the injective, type-preserving renaming of objects with the fewest edits
   (encodings/problem_compare.lp) and proves it optimal, once per notion: syntactic (goals as
   written) and, when both closures are proven, semantic (a goal literal that the other goal
   implies costs nothing).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import clingo

from ...asp.decode import Decoder
from ...asp.problem_pair import GENERATED, REFERENCE, notion_fact, pair_facts
from ...asp.run import OutOfTime, encoding, optimise
from ...asp.schema import FACT_EDIT, OBJECT_EDIT, OM, PEDIT, PSEDIT
from ...enums import Verdict
from ...errors import TimeLimitReached, UnsupportedError
from ...external.fast_downward import PlannerStatus
from ...model import Atom, Domain, GoalCondition, Problem
from ...pddl.parse import load_domain, load_problem
from ...reasoning import planner
from ...reasoning.engine import execute
from ...watchdog import stage, within
from .goals import GoalClosure, goal_closure, negative_candidates
from .problem_result import GoalNotion, NotionResult, ProblemComparison, ProblemEdit, Solvability

_PART = {"init": "init", "pos": "goal", "neg": "goal"}


def _as_problem(x: str | Path | Problem, domain: Domain) -> Problem:
    return x if isinstance(x, Problem) else load_problem(x, domain)


def compare_problems(generated: str | Path | Problem, reference: str | Path | Problem, domain: str | Path | Domain, *,
                     goals: GoalNotion | str = GoalNotion.SEMANTIC, max_states: int = 5000,
                     time_limit: float = 60.0) -> ProblemComparison:
    """Compare a generated problem with a reference problem of the same domain.

    `goals="semantic"` (default) also compares goals by what they imply on the reachable states
    (explored up to `max_states` each; unavailable, and said so, when that is not enough);
    `"syntactic"` only as written. Solvability of the generated problem: by the exploration, else
    by Fast Downward. The edit distance is proven optimal unless `time_limit`
    seconds pass first.

    `time_limit` covers the whole comparison (`watchdog.within`): reading, the explorations, the
    groundings, the searches and the planner; past it `TimeLimitReached` says what was reached."""
    return within(time_limit, "compare", _compare_problems, generated, reference, domain, GoalNotion(goals),
                  max_states, time.monotonic() + time_limit, grace=1.0)


def _compare_problems(generated: str | Path | Problem, reference: str | Path | Problem, domain: str | Path | Domain,
                      notion: GoalNotion, max_states: int, deadline: float) -> ProblemComparison:
    """`compare_problems`, its stages said to the watchdog; each search gets what is left of the time
    limit (at least 1 s, for a first answer)."""
    t0 = time.perf_counter()
    stage("reading the domain and the two problems")
    d = domain if isinstance(domain, Domain) else load_domain(domain)
    gen, ref = _as_problem(generated, d), _as_problem(reference, d)
    for p in (gen, ref):
        _literal_goal(p)
    stage(f"exploring the reachable states of the generated problem (at most {max_states:,})")
    gc = goal_closure(d, gen, max_states)
    stage(f"exploring the reachable states of the reference problem (at most {max_states:,})")
    rc = goal_closure(d, ref, max_states) if notion is GoalNotion.SEMANTIC else None
    dec = Decoder()
    dec.add(*(p.name for p in d.predicates), *(c for c, _ in d.constants), *(o for o, _ in gen.objects),
            *(o for o, _ in ref.objects))
    types = {**dict(gen.objects), **dict(ref.objects), **dict(d.constants)}
    fixed = frozenset(c for c, _ in d.constants)
    base: list[Any] = [encoding("problem_compare")]
    stage("searching the renaming of objects with the fewest edits (goals as written)")
    syntactic = _best(base + [pair_facts(d, gen, ref), notion_fact("syntactic")], GoalNotion.SYNTACTIC,
                      _left(deadline), dec, types, fixed)
    semantic, reason = None, "syntactic notion asked (--goals syntactic)"
    if rc is not None:
        reason = _closure_reason(gc, rc, max_states)
        if gc.proven and rc.proven:
            stage("searching the renaming of objects with the fewest edits (goals by what they imply)")
            implied = {GENERATED: _implied(d, gen, gc, ref), REFERENCE: _implied(d, ref, rc, gen)}
            semantic = _best(base + [pair_facts(d, gen, ref, implied), notion_fact("semantic")],
                             GoalNotion.SEMANTIC, _left(deadline), dec, types, fixed)
    stage("deciding whether the generated problem is solvable")
    return ProblemComparison(gen.file or gen.name, ref.file or ref.name, d.file or d.name, syntactic, semantic,
                             reason, _solvable(d, gen, gc, _left(deadline)),
                             (gc.states, rc.states if rc is not None else 0), time.perf_counter() - t0)


def _literal_goal(problem: Problem) -> None:
    """Problems are compared by their goal literals: a goal condition that is no literal (`forall`, `or`,
    ...) is refused by name, where it is (the other commands read it)."""
    for g in problem.goal:
        if isinstance(g, GoalCondition):
            raise UnsupportedError(f"unsupported feature in a compare of problems: the goal condition '{g}' is no "
                                   f"literal (problems are compared literal by literal; validate, plan, reach and "
                                   f"the other commands read it)", problem.file, g.line, g.col)


def _left(deadline: float) -> float:
    return max(1.0, deadline - time.monotonic())


def _implied(domain: Domain, problem: Problem, closure: GoalClosure, other: Problem) -> tuple[list[Atom], list[Atom]]:
    """The positive and negative goal literals `problem`'s goal implies; negative ones only among the
    atoms of the predicates that `other`'s goal negates (the only ones that could be asked)."""
    negated = {l.atom.predicate for l in other.goal if not l.positive}
    return sorted(closure.true, key=str), closure.implied_negative(negative_candidates(domain, problem, negated))


def _closure_reason(gc: GoalClosure, rc: GoalClosure, max_states: int) -> str:
    for name, c in (("generated", gc), ("reference", rc)):
        if not c.complete:
            return (f"semantic notion unavailable: the {name} problem has more than {max_states} reachable "
                    f"states (raise --max-states); goals compared as written")
        if c.goal_states == 0:
            return f"semantic notion unavailable: the {name} problem's goal is unreachable; goals compared as written"
    return (f"semantic: goals implied on all reachable states (exhaustive: {gc.states} generated, "
            f"{rc.states} reference states)")


def _best(program: list[str], notion: GoalNotion, time_limit: float, dec: Decoder,
          types: dict[str, str], fixed: frozenset[str]) -> NotionResult:
    """The optimal renaming under `notion`, its edits decoded (`fixed`: the constants, not listed)."""
    try:
        best = optimise("\n".join(program), time_limit)
    except OutOfTime:
        raise TimeLimitReached("compare: no renaming of objects found within the time limit "
                               "(raise --time-limit)") from None
    mapping = [(dec.name(r.generated), dec.name(r.reference)) for r in OM.select(best.symbols)
               if dec.name(r.generated) not in fixed]
    counted = {str(r.edit) for r in PSEDIT.select(best.symbols)}
    edits = [_edit(r.edit, dec, types, notion is GoalNotion.SEMANTIC and str(r.edit) not in counted)
             for r in PEDIT.select(best.symbols)]
    return NotionResult(notion, best.cost, best.optimal, best.bound, tuple(sorted(set(mapping))),
                        tuple(sorted(edits, key=lambda e: (e.part != "object", e.part, e.change, e.fact))))


def _edit(term: clingo.Symbol, dec: Decoder, types: dict[str, str], implied: bool) -> ProblemEdit:
    change = "remove" if term.name.startswith("remove") else "add"
    if OBJECT_EDIT.matches(term):
        o = dec.name(OBJECT_EDIT.read(term).object)
        return ProblemEdit(change, "object", f"{o} - {types.get(o, 'object')}")
    fact = FACT_EDIT.read(term)
    kind, atom = fact.part.name, dec.atom(fact.atom)
    text = f"(not {atom})" if kind == "neg" else str(atom)
    return ProblemEdit(change, _PART[kind], text, implied)


def _solvable(domain: Domain, problem: Problem, closure: GoalClosure, time_limit: float) -> Solvability:
    """From the exploration when it decides; else by Fast Downward (its plan validated here)."""
    if closure.witness is not None:
        return Solvability(Verdict.YES, tuple(map(str, closure.witness)),
                           f"shortest plan ({len(closure.witness)} steps), found by breadth-first search")
    if closure.complete:
        return Solvability(Verdict.NO, None, f"no goal state among all {closure.states} reachable states")
    result = planner.plan(domain, problem, time_limit=time_limit)
    if result.status is PlannerStatus.PLAN and result.plan is not None:
        done = execute(domain, problem, list(result.plan), states=True)
        if not (done.executable and all((l.atom in done.states[-1]) == l.positive for l in problem.goal)):
            raise RuntimeError("internal error: Fast Downward's plan fails validation")
        return Solvability(Verdict.YES, tuple(map(str, result.plan)),
                           f"plan of {len(result.plan)} steps by Fast Downward, validated")
    if result.status is PlannerStatus.NO_PLAN:
        return Solvability(Verdict.NO, None, "Fast Downward's complete search found no plan")
    return Solvability(Verdict.UNKNOWN, None, f"more than {closure.states} reachable states, and Fast Downward: "
                       f"{result.status} {result.detail}".strip())


__all__ = ["compare_problems"]
