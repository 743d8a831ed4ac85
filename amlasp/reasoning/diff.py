"""Semantic diff: the shortest reference-valid action sequence to a state where the models disagree.

Breadth-first over the states the reference reaches from a problem's initial state. Each
layer is one clingo call (encodings/diff.lp) that evaluates both models on every state
of the frontier: applicability under each model, the changes of jointly applicable
actions, and the reference's successors. The first layer with a disagreement gives a
counterexample of minimal length; an exhausted frontier proves the models agree on the
whole reachable space of the problem.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Iterable

from ..asp import size
from ..asp.compile import compile_domain
from ..asp.decode import Decoder, decoder
from ..asp.facts import domain_facts, fixed_facts, ground, problem_facts, state_text
from ..asp.names import LEARNED, REF
from ..asp.run import encoding, solve_once
from ..asp.schema import DIFF_MODELS, DISAGREE, EFFECT_DIFF, NEXT_ADD, NEXT_DEL, REF_APP, shown
from ..enums import TextEnum
from ..goal_rules import with_goal_rules
from ..model import Atom, Domain, GroundAction, Problem
from .engine import Unmet, execute

if TYPE_CHECKING:
    import pandas as pd


class DiffKind(TextEnum):
    """How an action behaves differently in a state (encodings/diff.lp `disagree/3`)."""

    ONLY_REF = "only_ref"
    ONLY_LEARNED = "only_learned"
    EFFECTS = "effects"


class EffectDiff(TextEnum):
    """Which changes of a jointly applicable action only one model makes (diff.lp `effect_diff/4`)."""

    ADDS_ONLY_REF = "adds_only_ref"
    ADDS_ONLY_LEARNED = "adds_only_learned"
    DELS_ONLY_REF = "dels_only_ref"
    DELS_ONLY_LEARNED = "dels_only_learned"


KIND_TEXT = {
    DiffKind.ONLY_REF: "applicable in the reference, not in the learned model",
    DiffKind.ONLY_LEARNED: "applicable in the learned model, not in the reference",
    DiffKind.EFFECTS: "applicable in both, with different effects",
}


@dataclass
class Counterexample:
    """A reference-valid path to a state where `action` behaves differently in the two models."""

    path: list[GroundAction]
    state: frozenset[Atom]
    action: GroundAction
    kind: DiffKind
    unmet: list[Unmet] = field(default_factory=list)  # preconditions failing in the model that refuses
    effects: dict[EffectDiff, list[Atom]] = field(default_factory=dict)  # the atoms each model alone changes

    @property
    def explanation(self) -> str:
        return KIND_TEXT[self.kind]


@dataclass
class ActionDiff:
    """Disagreements of one action schema over the explored space."""

    action: str
    pairs: int = 0  # (state, ground action) pairs that disagree
    shortest: Counterexample | None = None


@dataclass
class DiffResult:
    problem: str
    explored_states: int
    depth: int  # layers fully explored
    exhausted: bool  # the whole reachable space was explored
    counterexample: Counterexample | None = None
    actions: dict[str, ActionDiff] = field(default_factory=dict)

    def to_frame(self) -> pd.DataFrame:
        """One row per action schema with disagreements: state-action pairs and the shortest path."""
        import pandas as pd
        rows = [{"problem": self.problem, "action": a.action, "pairs": a.pairs,
                 "shortest": None if a.shortest is None else len(a.shortest.path),
                 "kind": None if a.shortest is None else a.shortest.kind} for a in self.actions.values()]
        return pd.DataFrame(rows, columns=["problem", "action", "pairs", "shortest", "kind"])

    @property
    def verdict(self) -> str:
        if self.counterexample is not None:
            return f"disagreement after {len(self.counterexample.path)} step(s)"
        if self.exhausted:
            return f"equivalent on the whole reachable space of this problem ({self.explored_states} states)"
        return f"no disagreement within {self.depth} step(s) ({self.explored_states} states)"


@dataclass(frozen=True)
class ActionTotal:
    """Disagreements of one action schema summed over several problems."""

    action: str
    problems: int  # problems where it disagrees somewhere
    pairs: int  # disagreeing (state, ground action) pairs, all problems together
    shortest: int | None  # the shortest path to a disagreement, over all problems


def action_totals(results: Iterable[DiffResult]) -> list[ActionTotal]:
    """Per action schema (sorted by name), its disagreements over the problems of `results`."""
    table: dict[str, tuple[int, int, int | None]] = {}
    for r in results:
        for name, a in r.actions.items():
            problems, pairs, shortest = table.get(name, (0, 0, None))
            n = len(a.shortest.path) if a.shortest else None
            table[name] = (problems + 1, pairs + a.pairs,
                           n if shortest is None else shortest if n is None else min(shortest, n))
    return [ActionTotal(name, *v) for name, v in sorted(table.items())]


def diff(learned: Domain, reference: Domain, problem: Problem, max_steps: int = 10, max_states: int = 20000,
         stop_at_first: bool = True) -> DiffResult:
    """Explore up to `max_steps` layers (and `max_states` states); with `stop_at_first`, stop after the first
    layer that has a disagreement (its counterexamples are all of minimal length).

    States are frozensets of atom texts (`at(c1,l0)`): the answers of clingo are read as text, one
    C call per shown atom (walking clingo.Symbols costs several calls per atom)."""
    learned, reference = with_goal_rules(learned, [problem]), with_goal_rules(reference, [problem])
    # atoms of predicates that neither model changes are given once (fixed/2), not in every state
    fixed = reference.static_predicates() & learned.static_predicates()
    rigid = frozenset(a for a in problem.init if a.predicate in fixed)
    static = [encoding("types"), encoding("semantics"), encoding("change"), encoding("diff"),
              DIFF_MODELS.fact(REF, LEARNED),
              domain_facts(reference, REF), compile_domain(reference, REF, static=fixed).text,
              domain_facts(learned, LEARNED), compile_domain(learned, LEARNED, static=fixed).text,
              problem_facts(problem, 0, init=False, goal=False), fixed_facts(rigid, 0)]
    start = frozenset(ground(a) for a in problem.init if a.predicate != "=" and a not in rigid)
    search = _Search(learned, reference, problem, rigid, {start: None})
    frontier = [start]
    result = DiffResult(problem.name, 1, 0, False)
    depth = 0
    while frontier:
        for model in (reference, learned):
            size.guard("diff", model, [(problem, len(frontier))])
        facts = "".join(state_text(i, 0, st) for i, st in enumerate(frontier))
        answer = shown(map(str, solve_once(static + [facts])), DISAGREE, EFFECT_DIFF, NEXT_ADD, NEXT_DEL, REF_APP)
        found = _disagreements(answer)
        if found:
            search.record(result, frontier, found, depth)
            if stop_at_first:
                result.depth = depth
                return result
        nxt = []
        for (i, act), (adds, dels) in sorted(_successors(answer).items()):
            succ = (frontier[i] - frozenset(dels)) | frozenset(adds)
            if succ not in search.parent:
                if depth >= max_steps:  # a new state one step beyond the bound: not exhausted
                    nxt.append(succ)
                    break
                if len(search.parent) >= max_states:
                    result.depth, result.explored_states = depth, len(search.parent)
                    return result
                search.parent[succ] = (frontier[i], act)
                nxt.append(succ)
        frontier = nxt
        if depth >= max_steps:
            break
        depth += 1
        result.explored_states = len(search.parent)
    result.depth = depth
    result.exhausted = not frontier
    return result


def _disagreements(answer: dict) -> dict[tuple[int, str, DiffKind], dict[EffectDiff, list[str]]]:
    """(state, action, kind) → {effect_diff kind: [atom texts]} from `disagree/3` and `effect_diff/4`
    (the rows of a layer's answer, `shown`), in the answer's order."""
    found: dict[tuple[int, str, DiffKind], dict[EffectDiff, list[str]]] = {}
    for r in answer[DISAGREE]:
        found.setdefault((int(r.state), r.action, DiffKind(r.kind)), {})
    for r in answer[EFFECT_DIFF]:
        effects = found.setdefault((int(r.state), r.action, DiffKind.EFFECTS), {})
        effects.setdefault(EffectDiff(r.kind), []).append(r.atom)
    return found


def _successors(answer: dict) -> dict[tuple[int, str], tuple[list[str], list[str]]]:
    """(state, action) → (added, deleted atom texts) of each action the reference applies."""
    changes: dict[tuple[int, str], tuple[list[str], list[str]]] = {}
    for side, pred in enumerate((NEXT_ADD, NEXT_DEL)):
        for r in answer[pred]:
            changes.setdefault((int(r.state), r.action), ([], []))[side].append(r.atom)
    for r in answer[REF_APP]:
        changes.setdefault((int(r.state), r.action), ([], []))
    return changes


@dataclass
class _Search:
    """What the counterexamples of a search are made from: the models, and how each state was reached."""

    learned: Domain
    reference: Domain
    problem: Problem
    rigid: frozenset[Atom]  # the initial atoms given once (fixed/2), part of every state
    parent: dict[frozenset[str], tuple[frozenset[str], str] | None]

    def __post_init__(self) -> None:
        self.dec: Decoder = decoder(self.reference, self.problem)
        self.dec.add(*(a.name for a in self.learned.actions), *(p.name for p in self.learned.predicates))

    def record(self, result: DiffResult, frontier: list[frozenset[str]], found: dict, depth: int) -> None:
        """Count the disagreements of one layer per action; keep the first (shortest) of each."""
        for (i, act, kind), eff in sorted(found.items()):
            name = self.dec.parse(act)[0]
            entry = result.actions.setdefault(name, ActionDiff(name))
            entry.pairs += 1
            if entry.shortest is None or len(entry.shortest.path) > depth:
                entry.shortest = self.counterexample(frontier[i], act, kind, eff)
                if result.counterexample is None:
                    result.counterexample = entry.shortest

    def counterexample(self, state: frozenset[str], act: str, kind: DiffKind,
                       eff: dict[EffectDiff, list[str]]) -> Counterexample:
        path: list[GroundAction] = []
        cur = state
        while (link := self.parent[cur]) is not None:
            prev, a = link
            path.append(self.dec.action(a))
            cur = prev
        path.reverse()
        atoms = frozenset(self.dec.atom(a) for a in state) | self.rigid
        action = self.dec.action(act)
        cx = Counterexample(path, atoms, action, kind)
        if kind is DiffKind.EFFECTS:
            cx.effects = {k: sorted((self.dec.atom(a) for a in v), key=str) for k, v in eff.items()}
        else:
            refusing = self.learned if kind is DiffKind.ONLY_REF else self.reference
            cx.unmet = execute(refusing, self.problem, [action], start=atoms).unmet
        return cx


__all__ = ["diff", "DiffResult", "DiffKind", "EffectDiff", "Counterexample", "ActionDiff", "ActionTotal",
           "action_totals", "KIND_TEXT"]
