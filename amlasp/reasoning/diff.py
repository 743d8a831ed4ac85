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

import pandas as pd

from ..asp.compile import compile_domain
from ..asp.run import encoding, solve_once
from .engine import Unmet, decoder, execute, static_predicates
from ..asp.facts import domain_facts, ground, problem_facts
from ..model import Atom, Domain, GroundAction, Problem

REF, LEARNED = "ref", "learned"
KIND_TEXT = {
    "only_ref": "applicable in the reference, not in the learned model",
    "only_learned": "applicable in the learned model, not in the reference",
    "effects": "applicable in both, with different effects",
}


@dataclass
class Counterexample:
    """A reference-valid path to a state where `action` behaves differently in the two models."""

    path: list[GroundAction]
    state: frozenset[Atom]
    action: GroundAction
    kind: str  # only_ref | only_learned | effects
    unmet: list[Unmet] = field(default_factory=list)  # preconditions failing in the model that refuses
    effects: dict[str, list[Atom]] = field(default_factory=dict)  # adds_only_ref, dels_only_learned, ...

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


def diff(learned: Domain, reference: Domain, problem: Problem, max_steps: int = 10, max_states: int = 20000,
         stop_at_first: bool = True) -> DiffResult:
    """Explore up to `max_steps` layers (and `max_states` states); with `stop_at_first`, stop after the first
    layer that has a disagreement (its counterexamples are all of minimal length).

    States are frozensets of atom texts (`at(c1,l0)`): the answers of clingo are read as text, one
    C call per shown atom (walking clingo.Symbols costs several calls per atom)."""
    # atoms of predicates that neither model changes are given once (fixed/2), not in every state
    fixed = static_predicates(reference) & static_predicates(learned)
    rigid = frozenset(a for a in problem.init if a.predicate in fixed)
    static = [encoding("types"), encoding("semantics"), encoding("diff"), f"diff_models({REF},{LEARNED}).",
              domain_facts(reference, REF), compile_domain(reference, REF, static=fixed).text,
              domain_facts(learned, LEARNED), compile_domain(learned, LEARNED, static=fixed).text,
              problem_facts(problem, 0, init=False, goal=False), "".join(f"fixed(0,{ground(a)})." for a in rigid)]
    start = frozenset(ground(a) for a in problem.init if a.predicate != "=" and a not in rigid)
    parent: dict[frozenset[str], tuple[frozenset[str], str] | None] = {start: None}
    frontier = [start]
    result = DiffResult(problem.name, 1, 0, False)
    dec = decoder(reference, problem)
    dec.add(*(a.name for a in learned.actions), *(p.name for p in learned.predicates))
    depth = 0
    while frontier:
        facts = []
        for i, st in enumerate(frontier):
            facts.append(f"state({i},0).")
            facts.extend(f"holds({i},{a})." for a in st)
        texts = [str(x) for x in solve_once(static + ["\n".join(facts)])]
        found = _disagreements(texts)
        if found:
            for (i, act, kind), eff in sorted(found.items()):
                name = dec.parse(act)[0]
                entry = result.actions.setdefault(name, ActionDiff(name))
                entry.pairs += 1
                if entry.shortest is None or len(entry.shortest.path) > depth:
                    entry.shortest = _counterexample(frontier[i], act, kind, eff, parent, dec, learned, reference,
                                                     problem, rigid)
                    if result.counterexample is None:
                        result.counterexample = entry.shortest
            if stop_at_first:
                result.depth = depth
                return result
        changes: dict[tuple[int, str], tuple[list[str], list[str]]] = {}
        for t in texts:
            if t.startswith(("next_add(", "next_del(")):
                sid, act, atom = _state_action(t[9:-1])
                changes.setdefault((sid, act), ([], []))[0 if t[5] == "a" else 1].append(atom)
            elif t.startswith("ref_app("):
                sid, act, _ = _state_action(t[8:-1])
                changes.setdefault((sid, act), ([], []))
        nxt = []
        for (i, act), (adds, dels) in sorted(changes.items()):
            succ = (frontier[i] - frozenset(dels)) | frozenset(adds)
            if succ not in parent:
                if depth >= max_steps:  # a new state one step beyond the bound: not exhausted
                    nxt.append(succ)
                    break
                if len(parent) >= max_states:
                    result.depth, result.explored_states = depth, len(parent)
                    return result
                parent[succ] = (frontier[i], act)
                nxt.append(succ)
        if depth >= max_steps:
            frontier = nxt
            break
        frontier = nxt
        depth += 1
        result.explored_states = len(parent)
    result.depth = depth
    result.exhausted = not frontier
    return result


def _state_action(inner: str) -> tuple[int, str, str]:
    """`3,board(c1,l0),at(c1,l0)` → (3, "board(c1,l0)", "at(c1,l0)"): the state id, the action term
    (its arguments are constants) and the rest."""
    sid, rest = inner.split(",", 1)
    paren, comma = rest.find("("), rest.find(",")
    if paren != -1 and (comma == -1 or paren < comma):
        end = rest.index(")") + 1
    else:
        end = len(rest) if comma == -1 else comma
    return int(sid), rest[:end], rest[end + 1:]


def _disagreements(texts: list[str]) -> dict:
    """(state, action, kind) → {effect_diff kind: [atom texts]} from `disagree/3` and `effect_diff/4`."""
    found: dict[tuple[int, str, str], dict[str, list[str]]] = {}
    for t in texts:
        if t.startswith("disagree("):
            sid, act, kind = _state_action(t[9:-1])
            found.setdefault((sid, act, kind), {})
        elif t.startswith("effect_diff("):
            sid, act, rest = _state_action(t[12:-1])
            kind, atom = rest.split(",", 1)
            found.setdefault((sid, act, "effects"), {}).setdefault(kind, []).append(atom)
    return found


def _counterexample(state, act, kind, eff, parent, dec, learned, reference, problem, rigid) -> Counterexample:
    path: list[GroundAction] = []
    cur = state
    while parent[cur] is not None:
        prev, a = parent[cur]
        path.append(GroundAction(*dec.parse(a)))
        cur = prev
    path.reverse()
    atoms = frozenset(Atom(*dec.parse(a)) for a in state) | rigid
    action = GroundAction(*dec.parse(act))
    cx = Counterexample(path, atoms, action, kind)
    if kind in ("only_ref", "only_learned"):
        refusing = learned if kind == "only_ref" else reference
        cx.unmet = execute(refusing, problem, [action], start=atoms).unmet
    else:
        cx.effects = {k: sorted((Atom(*dec.parse(a)) for a in v), key=str) for k, v in eff.items()}
    return cx
