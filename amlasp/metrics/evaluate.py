"""Predictive power: does a learned model predict which actions are applicable, and what they change?

`evaluate(learned, reference, states)` compares both models on test states in ONE clingo
program per domain (or per batch of states when there are very many): the states of all
problems are facts, each action schema of each model is compiled to a rule, and
`encodings/eval.lp` counts true/false positives/negatives with aggregates, so that Python
reads a handful of numbers per action. docs/eval.md defines the metrics exactly.

What makes it fast (benchmarks/bench_eval.py): negative typing and static predicates read
once per problem (`compile.py` options), effects derived only for jointly applicable actions,
as changes directly, and once for an effect both models share; true negatives are completed
arithmetically from universe sizes, never enumerated.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Sequence

import clingo

from ..asp.compile import BodyLiteral, Compiler, Kind, Rule
from ..asp.run import encoding
from ..errors import InputError
from ..asp.facts import domain_facts
from ..model import Action, Atom, Domain, Problem
from ..asp.decode import Decoder
from ..asp.names import asp_name
from ..pddl.parse import load_domain
from ..pddl.states import StateSet, load_states

REF, LEARNED, SHARED = "r", "l", "b"


# ----------------------------------------------------------------------------- results
@dataclass(frozen=True)
class Counts:
    """TP/FP/TN/FN of one metric family; precision/recall None when undefined (shown n/a)."""

    tp: int = 0
    fp: int = 0
    tn: int = 0
    fn: int = 0
    precision: float | None = None
    recall: float | None = None

    @property
    def defined(self) -> bool:
        return self.precision is not None

    def as_dict(self) -> dict:
        return {"tp": self.tp, "fp": self.fp, "tn": self.tn, "fn": self.fn,
                "precision": self.precision, "recall": self.recall}


def _ratio(num: int, den: int) -> float:
    """The paper's convention: an empty denominator means nothing was wrong, 1."""
    return num / den if den else 1.0


def applicability_counts(tp: int, fp: int, tn: int, fn: int) -> Counts:
    """P = TP/(TP+FP) (1 if the learned model never allows it), R = TP/(TP+FN) (1 if the
    reference never allows it); n/a when neither model allows the action in any test state."""
    if tp + fp + fn == 0:
        return Counts(tp, fp, tn, fn)
    return Counts(tp, fp, tn, fn, _ratio(tp, tp + fp), _ratio(tp, tp + fn))


def effect_counts(tp: int, fp: int, tn: int, fn: int, joint: int) -> Counts:
    """P = TP/(TP+FP), 1 when nothing is predicted to change; R = TP/(TP+FN), 1 when nothing
    changes; n/a when the action is never applicable in both models (`joint` = 0)."""
    if joint == 0:
        return Counts(tp, fp, tn, fn)
    return Counts(tp, fp, tn, fn, _ratio(tp, tp + fp), _ratio(tp, tp + fn))


@dataclass(frozen=True)
class ActionScore:
    """One reference action: both metric families."""

    action: str
    arity: int
    applicability: Counts
    effects: Counts
    joint: int  # (state, ground action) pairs applicable in both models
    in_learned: bool = True  # the learned model has an action of this name and arity
    untyped_fp: int = 0  # FPs on ground actions the reference's typing does not allow


@dataclass(frozen=True)
class LearnedOnly:
    """A learned action with no reference action of that name and arity: all its instances are FPs."""

    action: str
    arity: int
    fp: int


@dataclass(frozen=True)
class Mistake:
    """One misprediction in one state (`--explain`)."""

    state: int  # index over all test states, 0-based
    source: str  # state file and the state's position in it
    kind: str  # app-fp | app-fn | eff-fp | eff-fn
    action: str
    literal: str | None = None  # for effects: the literal predicted (fp) or missed (fn)


@dataclass(frozen=True)
class Summary:
    precision_avg: float | None
    recall_avg: float | None
    actions: int  # how many actions the averages are taken over
    precision_cumulative: float | None
    recall_cumulative: float | None

    def as_dict(self) -> dict:
        return {"precision_avg": self.precision_avg, "recall_avg": self.recall_avg, "actions": self.actions,
                "precision_cumulative": self.precision_cumulative, "recall_cumulative": self.recall_cumulative}


def summarise(scores: Sequence[Counts], extra_fp: int = 0) -> Summary:
    """Averages over the actions where the metric is defined; cumulative over summed counts."""
    defined = [c for c in scores if c.defined]
    if not defined:
        return Summary(None, None, 0, None, None)
    tp = sum(c.tp for c in defined)
    fp = sum(c.fp for c in defined) + extra_fp
    fn = sum(c.fn for c in defined)
    return Summary(sum(c.precision for c in defined) / len(defined), sum(c.recall for c in defined) / len(defined),
                   len(defined), _ratio(tp, tp + fp), _ratio(tp, tp + fn))


@dataclass(frozen=True)
class Evaluation:
    """Predictive power of a learned model on a set of test states."""

    actions: tuple[ActionScore, ...]
    learned_only: tuple[LearnedOnly, ...]
    states: int
    problems: int
    ignored_literals: int  # state literals whose predicate the learned model does not declare
    ignored_predicates: tuple[str, ...] = ()
    learned_only_predicates: tuple[str, ...] = ()  # never true in a test state (closed world)
    mistakes: tuple[Mistake, ...] = ()
    timings: dict = field(default_factory=dict, compare=False)

    @property
    def applicability(self) -> Summary:
        return summarise([a.applicability for a in self.actions])

    @property
    def effects(self) -> Summary:
        return summarise([a.effects for a in self.actions])

    def to_dict(self) -> dict:
        """The `--format json` object (docs/eval.md); None for undefined values."""
        app_with_extra = summarise([a.applicability for a in self.actions], sum(x.fp for x in self.learned_only))
        return {
            "actions": [{"action": a.action, "arity": a.arity, "in_learned": a.in_learned, "joint": a.joint,
                         "applicability": {**a.applicability.as_dict(), "untyped_fp": a.untyped_fp},
                         "effects": a.effects.as_dict()} for a in self.actions],
            "learned_only_actions": [{"action": x.action, "arity": x.arity, "fp": x.fp} for x in self.learned_only],
            "summary": {
                "states": self.states, "problems": self.problems,
                "applicability": {**self.applicability.as_dict(),
                                  "precision_cumulative_with_learned_only": app_with_extra.precision_cumulative},
                "effects": self.effects.as_dict(),
                "ignored_literals": self.ignored_literals,
                "ignored_predicates": list(self.ignored_predicates),
                "learned_only_predicates": list(self.learned_only_predicates),
            },
            **({"mistakes": [m.__dict__ for m in self.mistakes]} if self.mistakes else {}),
        }

    def to_frame(self):
        """One row per reference action (and per learned-only action), both metric families."""
        import pandas as pd
        rows = []
        for a in self.actions:
            row = {"action": a.action, "arity": a.arity, "in_learned": a.in_learned, "learned_only": False,
                   "joint": a.joint}
            for fam, c in (("app", a.applicability), ("eff", a.effects)):
                for k, v in c.as_dict().items():
                    row[f"{fam}_{k}"] = v
            rows.append(row)
        for x in self.learned_only:
            rows.append({"action": x.action, "arity": x.arity, "in_learned": True, "learned_only": True, "joint": 0,
                         "app_tp": 0, "app_fp": x.fp, "app_tn": None, "app_fn": 0, "app_precision": 0.0 if x.fp else None,
                         "app_recall": None})
        return pd.DataFrame(rows)


# ----------------------------------------------------------------------------- compiling the pair
@dataclass(frozen=True)
class _Slot:
    """An action name of the program: index N, the reference and learned actions it stands for."""

    index: int
    name: str
    ref: Action | None
    learned: Action | None


def _slots(ref: Domain, learned: Domain) -> list[_Slot]:
    """Reference actions first (file order); a learned action matches by name and arity."""
    lk = {(asp_name(a.name), a.arity): a for a in learned.actions}
    out, used = [], set()
    for a in ref.actions:
        key = (asp_name(a.name), a.arity)
        out.append(_Slot(len(out), a.name, a, lk.get(key)))
        used.add(key)
    for a in learned.actions:
        if (asp_name(a.name), a.arity) not in used:
            out.append(_Slot(len(out), a.name, None, a))
    return out


def _ancestors(domain: Domain, t: str) -> set[str]:
    return {asp_name(x) for x in domain.ancestors(t)}


def _accepts(domain: Domain, t: str, kinds: set[str]) -> frozenset[str]:
    """The object types (of `kinds`) that a parameter of type `t` accepts in `domain`."""
    return frozenset(k for k in kinds if asp_name(t) in _ancestors(domain, k))


class _Vocabulary:
    """The reference's vocabulary over a problem: typed objects, and universe sizes."""

    def __init__(self, ref: Domain, problem: Problem):
        table = problem.object_types(ref)
        self.by_type: Counter[str] = Counter()
        for _, t in table.items():
            for a in _ancestors(ref, t):
                self.by_type[a] += 1
        self.preds = {asp_name(p.name): tuple(asp_name(t) for _, t in p.parameters) for p in ref.predicates}
        self.obj_type = {o: t for o, t in table.items()}
        self.universe = sum(self.count(types) for types in self.preds.values())

    def count(self, types: Iterable[str]) -> int:
        n = 1
        for t in types:
            n *= self.by_type.get(t, 0)
        return n


class _PairCompiler:
    """Rules for eval.lp: named applicability of both models, and change rules on joint actions."""

    def __init__(self, ref: Domain, learned: Domain, slots: list[_Slot], static: frozenset[str]):
        self.ref, self.learned, self.slots = ref, learned, slots
        self.c = {REF: Compiler(ref, REF, typing="negative", static=static),
                  LEARNED: Compiler(learned, LEARNED, typing="negative", static=static)}
        self.rules: list[str] = []
        self.maybe_out: set[tuple[str, int]] = set()
        self.untyped: set[int] = set()
        self.ref_preds = {(asp_name(p.name), p.arity): tuple(t for _, t in p.parameters) for p in ref.predicates}
        self.ref_consts = {asp_name(c): t for c, t in ref.constants}

    def compile(self, object_types: set[str]) -> str:
        """`object_types`: the declared types of the test problems' objects (PDDL names)."""
        same_constants = {(asp_name(c), asp_name(t)) for c, t in self.ref.constants} == \
            {(asp_name(c), asp_name(t)) for c, t in self.learned.constants}
        kinds = object_types | {t for d in (self.ref, self.learned) for _, t in d.constants}
        for slot in self.slots:
            self.rules.append(f"% {slot.name} ({slot.index})")
            if slot.ref is None or slot.learned is None:
                for tag, a in ((REF, slot.ref), (LEARNED, slot.learned)):
                    if a is not None:
                        self.applicability(tag, a, slot.index)
                continue
            self.pair_applicability(slot, kinds if same_constants else None)
            self.changes(slot)
            if not self.typed_like_reference(slot, object_types):
                self.untyped_rule(slot)
        for c in self.c.values():
            self.rules += map(str, c.finish())  # auxiliary rules of or/exists/forall conditions, check_type
        self.rules += [f"action({s.index})." for s in self.slots]
        self.rules += [f"maybe_out({t},{n})." for t, n in sorted(self.maybe_out)]
        if self.maybe_out:
            self.rules += self.universe_rules()
        return "\n".join(self.rules) + "\n"

    def applicability(self, tag: str, a: Action, n: int, head: str | None = None) -> None:
        """app(M,S,N,A) :- <precondition>, <typing> (or another head, e.g. both/3)."""
        c = self.c[tag]
        self.rules.append(str(c.applicability(a, head or f"app({tag},S,{n},{c.action_term(a)})")))

    def pair_applicability(self, slot: _Slot, kinds: set[str] | None) -> None:
        """Applicability of an action both models have, with `both(S,N,A)` for the joint instances.

        Invariant read by eval.lp: app_M = app(M) u both. When one model's precondition
        literals include the other's and its types accept no more objects, its instances are
        derived from the other's (a cheap join) and, when they are the same, only `both` is."""
        n, r, l = slot.index, slot.ref, slot.learned
        term = self.c[REF].action_term(r)
        lits = {tag: self.literal_set(tag, a) for tag, a in ((REF, r), (LEARNED, l))}
        if kinds is not None and lits[REF] is not None and lits[LEARNED] is not None:
            acc = {tag: [_accepts(d, t, kinds) for _, t in a.parameters]
                   for tag, d, a in ((REF, self.ref, r), (LEARNED, self.learned, l))}
            le = {tag: all(x <= y for x, y in zip(acc[tag], acc[other])) and lits[tag] >= lits[other]
                  for tag, other in ((REF, LEARNED), (LEARNED, REF))}
            if le[REF] and le[LEARNED]:
                self.applicability(REF, r, n, head=f"both(S,{n},{term})")
                return
            for sub, base in ((LEARNED, REF), (REF, LEARNED)):
                if le[sub]:
                    a = l if sub == LEARNED else r
                    self.applicability(base, r if base == REF else l, n)
                    c = self.c[sub]
                    scope = c.scope(a)
                    typing = [c.type_check(v, scope) for i, (v, _) in enumerate(a.parameters)
                              if acc[sub][i] != acc[base][i]]
                    # positive literals first; by text, so that the rule does not vary with string hashing
                    extra = sorted(lits[sub] - lits[base], key=lambda x: (x.negated, x.atom))
                    state = [c.in_state()] if typing or any(x.kind is Kind.FIXED for x in extra) else []
                    body = (BodyLiteral(Kind.GUARD, f"app({base},S,{n},{term})"), *state, *extra, *typing)
                    self.rules.append(str(Rule(f"both(S,{n},{term})", body)))
                    return
        self.applicability(REF, r, n)
        self.applicability(LEARNED, l, n)
        self.rules.append(f"both(S,{n},{term}) :- app({REF},S,{n},{term}), app({LEARNED},S,{n},{term}).")

    def literal_set(self, tag: str, a: Action) -> frozenset[BodyLiteral] | None:
        """The precondition as compiled body literals (positional variables), if a conjunction of literals."""
        if a.precondition_literals() is None:
            return None
        return frozenset(self.c[tag].precondition(a))

    # -- effects
    def fast_changes(self, tag: str, a: Action) -> set[tuple[str, str, tuple[str, ...]]] | None:
        """Unconditional effects as (add|del, atom, guards) change rules, or None for the generic route.

        A delete changes a true atom unless an add of the same action makes it true again; when
        each such add differs from the deleted atom in one argument position, `X!=Y` says so."""
        if any(not e.unconditional for e in a.effects):
            return None
        scope = self.c[tag].scope(a)
        adds = [e.literal.atom for e in a.effects if e.literal.positive]
        out: set[tuple[str, str, tuple[str, ...]]] = set()
        for e in a.effects:
            atom = e.literal.atom
            if e.literal.positive:
                out.add(("add", scope.atom(atom), ()))
                continue
            guards: list[str] = []
            never = False
            for g in adds:
                if (g.predicate, len(g.args)) != (atom.predicate, len(atom.args)):
                    continue
                diff = [(scope.term(x), scope.term(y)) for x, y in zip(atom.args, g.args)
                        if scope.term(x) != scope.term(y)]
                if not diff:
                    never = True  # deleted and added: stays true
                    break
                if any(x[0].islower() and y[0].islower() for x, y in diff):
                    continue  # two different constants: never the same atom
                if len(diff) > 1:
                    return None
                guards.append(f"{diff[0][0]}!={diff[0][1]}")
            if not never:
                out.add(("del", scope.atom(atom), tuple(sorted(set(guards)))))
        return out

    def changes(self, slot: _Slot) -> None:
        n = slot.index
        term = self.c[REF].action_term(slot.ref)
        guard = f"both(S,{n},{term})"
        fast = {tag: self.fast_changes(tag, a) for tag, a in ((REF, slot.ref), (LEARNED, slot.learned))}
        shared = fast[REF] & fast[LEARNED] if fast[REF] is not None and fast[LEARNED] is not None else set()
        for tag, a in ((REF, slot.ref), (LEARNED, slot.learned)):
            if fast[tag] is None:
                self.generic(tag, a, n, guard)
                continue
            for kind, atom, guards in sorted(fast[tag] - shared):
                self.change_rule(tag, n, term, guard, kind, atom, guards)
                if kind == "add" and not self.inside(tag, a, slot.ref, atom):
                    self.maybe_out.add((tag, n))
        for kind, atom, guards in sorted(shared):
            self.change_rule(SHARED, n, term, guard, kind, atom, guards)
            if kind == "add" and not self.inside(REF, slot.ref, slot.ref, atom):
                self.maybe_out.add((SHARED, n))

    def change_rule(self, tag: str, n: int, term: str, guard: str, kind: str, atom: str,
                    guards: tuple[str, ...]) -> None:
        cond = f"not holds(S,{atom})" if kind == "add" else f"holds(S,{atom})"
        self.rules.append(f"ch({tag},S,{n},{term},{atom}) :- {', '.join([guard, cond, *guards])}.")

    def generic(self, tag: str, a: Action, n: int, guard: str) -> None:
        """add/del facts of every effect (conditions evaluated in S); eval.lp derives the changes."""
        c = self.c[tag]
        term = c.action_term(a)
        for e in a.effects:
            atom, condition = c.effect(a, e)
            head = "add" if e.literal.positive else "del"
            body = (BodyLiteral(Kind.GUARD, guard), *condition)
            self.rules.append(str(Rule(f"{head}({tag},S,{n},{term},{atom})", body)))
            if e.literal.positive:
                self.maybe_out.add((tag, n))

    def inside(self, tag: str, a: Action, ref_action: Action, atom_text: str) -> bool:
        """Is every atom this add rule can make true a well-typed reference atom (so TN needs no check)?"""
        scope = self.c[tag].scope(a)
        e = next(e for e in a.effects if e.literal.positive and scope.atom(e.literal.atom) == atom_text)
        atom = e.literal.atom
        sig = self.ref_preds.get((asp_name(atom.predicate), len(atom.args)))
        if sig is None:
            return False
        params = [v for v, _ in a.parameters]
        for arg, want in zip(atom.args, sig):
            if arg.startswith("?"):
                have = ref_action.parameters[params.index(arg)][1]
            elif asp_name(arg) in self.ref_consts:
                have = self.ref_consts[asp_name(arg)]
            else:
                return False
            if asp_name(want) not in _ancestors(self.ref, have):
                return False
        return True

    def typed_like_reference(self, slot: _Slot, object_types: set[str]) -> bool:
        """Does every object the learned action accepts at each position also fit the reference's type?"""
        learned_consts = {asp_name(c): t for c, t in self.learned.constants}
        for (_, tl), (_, tr) in zip(slot.learned.parameters, slot.ref.parameters):
            for t0 in object_types | {t for _, t in self.ref.constants}:
                if asp_name(tl) in _ancestors(self.learned, t0) and asp_name(tr) not in _ancestors(self.ref, t0):
                    return False
            for c0, t0 in learned_consts.items():
                if c0 not in self.ref_consts and asp_name(tl) in _ancestors(self.learned, t0):
                    return False
        return True

    def untyped_rule(self, slot: _Slot) -> None:
        c = self.c[REF]
        scope = c.scope(slot.ref)
        term = c.action_term(slot.ref)
        for v, _ in slot.ref.parameters:
            self.rules.append(f"untyped(S,{slot.index},{term}) :- app({LEARNED},S,{slot.index},{term}), state(S,P), "
                              f"not {c.typing(v, scope)}.")

    def universe_rules(self) -> list[str]:
        """in_u(P,F): a candidate added atom F is a well-typed atom of the reference over P."""
        out = []
        for (p, k), types in self.ref_preds.items():
            args = [f"X{i}" for i in range(k)]
            f = f"{p}({','.join(args)})" if k else p
            typing = [f"is_a({REF},P,X{i},{asp_name(t)})" for i, t in enumerate(types)]
            out.append(f"in_u(P,{f}) :- {', '.join([f'cand(P,{f})'] + typing)}.")
        return out


# ----------------------------------------------------------------------------- facts
class _Facts:
    """Atom texts and reference typing of state atoms, cached per distinct atom."""

    def __init__(self, ref: Domain):
        self.ref = ref
        self.text: dict[Atom, str] = {}
        self.typed: dict[tuple[int, Atom], bool] = {}

    def ground(self, a: Atom) -> str:
        s = self.text.get(a)
        if s is None:
            args = [asp_name(x) for x in a.args]
            s = self.text[a] = f"{asp_name(a.predicate)}({','.join(args)})" if args else asp_name(a.predicate)
        return s

    def well_typed(self, pid: int, vocab: _Vocabulary, a: Atom) -> bool:
        """Is `a` in the reference's universe over problem `pid` (else it counts as an extra literal)?"""
        key = (pid, a)
        ok = self.typed.get(key)
        if ok is None:
            types = vocab.preds.get(asp_name(a.predicate))
            ok = types is not None and len(types) == len(a.args) and all(
                t in _ancestors(self.ref, vocab.obj_type.get(o, "object")) for o, t in zip(a.args, types))
            self.typed[key] = ok
        return ok


@dataclass
class _Context:
    """A problem and the static atoms its states share: `fixed(P,F)` facts once, not per state."""

    index: int
    problem_index: int
    fixed: frozenset[Atom]
    states: list[int]  # global state indices


def _static_predicates(ref: Domain, learned: Domain) -> frozenset[str]:
    """Reference predicates that no effect of either model mentions (read once per problem)."""
    changed = {asp_name(e.literal.atom.predicate) for d in (ref, learned) for a in d.actions for e in a.effects}
    return frozenset(p.name for p in ref.predicates if asp_name(p.name) not in changed)


# ----------------------------------------------------------------------------- API
def evaluate(learned: Domain | str | Path, reference: Domain | str | Path,
             states: Sequence[str | Path] | Sequence[StateSet], problems: str | Path | None = None,
             explain: bool = False, progress: Callable[[str, int, int], None] | None = None,
             batch_states: int = 40000) -> Evaluation:
    """Predictive power of `learned` against `reference` on test states.

    `states`: trajectory files, JSON state files, problem files or directories of them (read
    with the reference's vocabulary; objects from the problems), or already loaded StateSets.
    `progress(stage, done, total)` is called as state files are read and batches solved.
    All states go into one clingo program (several for more than `batch_states` states)."""
    t0 = time.perf_counter()
    ref = reference if isinstance(reference, Domain) else load_domain(reference)
    lrn = learned if isinstance(learned, Domain) else load_domain(learned)
    sets = _load(states, ref, problems, progress)
    t_load = time.perf_counter() - t0
    total = sum(len(s.states) for s in sets)
    if total == 0:
        raise InputError("no test states", str(states[0]) if states and not isinstance(states[0], StateSet) else None)

    static = _static_predicates(ref, lrn)
    slots = _slots(ref, lrn)
    facts = _Facts(ref)
    learned_preds = {(asp_name(p.name), p.arity) for p in lrn.predicates}
    ignored_preds = {p.name for p in ref.predicates if (asp_name(p.name), p.arity) not in learned_preds}

    # Contexts: the states of a problem grouped by their static atoms. A state is split with
    # set operations against the previous context of its problem (trajectories share them).
    contexts: list[_Context] = []
    problem_objs: list[Problem] = []
    problem_index: dict[int, int] = {}
    by_key: dict[tuple[int, frozenset[Atom]], int] = {}
    last: dict[int, frozenset[Atom]] = {}
    dynamic: list[frozenset[Atom]] = []
    sources: list[tuple[str, int]] = []
    for ss in sets:
        pi = problem_index.setdefault(id(ss.problem), len(problem_objs))
        if pi == len(problem_objs):
            problem_objs.append(ss.problem)
        for k, st in enumerate(ss.states):
            base = last.get(pi)
            if base is not None and base <= st:
                dyn = st - base
                more = frozenset(a for a in dyn if a.predicate in static) if static else frozenset()
                fixed, dyn = (base | more, dyn - more) if more else (base, dyn)
            else:
                fixed = frozenset(a for a in st if a.predicate in static) if static else frozenset()
                dyn = st - fixed if fixed else st
            last[pi] = fixed
            ci = by_key.get((pi, fixed))
            if ci is None:
                ci = by_key[(pi, fixed)] = len(contexts)
                contexts.append(_Context(ci, pi, fixed, []))
            contexts[ci].states.append(len(dynamic))
            dynamic.append(dyn)
            sources.append((ss.source, k))
    object_types = {t for p in problem_objs for _, t in p.objects}
    rules = _PairCompiler(ref, lrn, slots, static).compile(object_types)
    head = [encoding("types"), encoding("semantics"), encoding("eval"), domain_facts(ref, REF),
            domain_facts(lrn, LEARNED), rules,
            "explain." if explain else ""]

    vocab = [_Vocabulary(ref, p) for p in problem_objs]
    ignored: Counter[str] = Counter()
    counts: Counter = Counter()
    joint: Counter = Counter()
    mistakes: list[Mistake] = []
    t_facts = 0.0
    steps: Counter = Counter()
    dec = Decoder()
    dec.add(*(p.name for d in (ref, lrn) for p in d.predicates), *(c for d in (ref, lrn) for c, _ in d.constants))
    for p in problem_objs:
        dec.add(*(o for o, _ in p.objects))
    typed_atoms: list[set[Atom]] = [set() for _ in problem_objs]  # per problem: atoms of the universe
    untyped_atoms: list[set[Atom]] = [set() for _ in problem_objs]  # and the true atoms outside it
    batches = _batches(contexts, batch_states)
    if progress:
        progress("solve", 0, len(batches))
    for bi, batch in enumerate(batches):
        tf = time.perf_counter()
        parts = list(head)
        for ctx in batch:
            pi, v = ctx.problem_index, vocab[ctx.problem_index]
            parts.append(_context_text(ctx, problem_objs[pi], facts))
            typed, untyped = typed_atoms[pi], untyped_atoms[pi]
            fixed_extra = sum(not facts.well_typed(pi, v, a) for a in ctx.fixed)
            for a in ctx.fixed:
                if a.predicate in ignored_preds:
                    ignored[a.predicate] += len(ctx.states)
            lines = []
            text = facts.text
            key: frozenset[Atom] | None = None  # the keyframe: a state given in full
            key_id = 0
            for s in ctx.states:
                dyn = dynamic[s]
                for a in dyn - typed:  # each distinct atom is checked once (set difference in C)
                    if a not in untyped:
                        (typed if facts.well_typed(pi, v, a) else untyped).add(a)
                    if a not in text:
                        facts.ground(a)
                extra = fixed_extra + (len(dyn & untyped) if untyped else 0)
                if ignored_preds:
                    for a in dyn:
                        if a.predicate in ignored_preds:
                            ignored[a.predicate] += 1
                # A state is its keyframe minus `gone` atoms plus its own `holds` facts (eval.lp):
                # successive states share most atoms, and clingo parses facts slower than it derives them.
                if key is None or 2 * len(dyn ^ key) > len(dyn):
                    key, key_id = dyn, s
                    if dyn:
                        lines.append(f"kf({s}," + f").\nkf({s},".join([text[a] for a in dyn]) + ").")
                lines.append(f"state({s},{ctx.index}).\nof({s},{key_id}).")
                if key is not dyn:
                    gone, new = key - dyn, dyn - key
                    if gone:
                        lines.append(f"gone({s}," + f").\ngone({s},".join([text[a] for a in gone]) + ").")
                    if new:
                        lines.append(f"holds({s}," + f").\nholds({s},".join([text[a] for a in new]) + ").")
                if extra:
                    lines.append(f"extra({s},{extra}).")
            parts.append("\n".join(lines))
        program = "\n".join(parts)
        t_facts += time.perf_counter() - tf
        shown = _solve(program, steps)
        for sym in shown:
            if sym.name == "count":
                fam, n, what, c = sym.arguments
                counts[(fam.name, n.number, what.name)] += c.number
            elif sym.name == "joint":
                n, ctx_sym, c = sym.arguments
                joint[(n.number, ctx_sym.number)] += c.number
            elif sym.name in ("xapp", "xeff"):
                mistakes.append(_mistake(sym, slots, dec, sources))
        if progress:
            progress("solve", bi + 1, len(batches))

    # completing TN arithmetically
    ctx_states = {c.index: len(c.states) for c in contexts}
    ctx_problem = {c.index: c.problem_index for c in contexts}
    scores, extra_only = [], []
    for slot in slots:
        a = lambda what: counts[("app", slot.index, what)]  # noqa: E731
        e = lambda what: counts[("eff", slot.index, what)]  # noqa: E731
        if slot.ref is None:
            extra_only.append(LearnedOnly(slot.learned.name, slot.learned.arity, a("fp")))
            continue
        types = [asp_name(t) for _, t in slot.ref.parameters]
        grounded = sum(vocab[ctx_problem[c]].count(types) * n for c, n in ctx_states.items())
        nj = sum(joint[(slot.index, c)] for c in ctx_states)
        tp, fp, fn = nj, a("fp"), a("fn")
        tn = grounded - tp - fn - (fp - a("untyped"))
        universe = sum(joint[(slot.index, c)] * vocab[ctx_problem[c]].universe for c in ctx_states)
        inside_changes = e("tp") + e("fp") + e("fn") - e("outside")
        etn = universe + e("extra") - inside_changes
        scores.append(ActionScore(slot.ref.name, slot.ref.arity, applicability_counts(tp, fp, tn, fn),
                                  effect_counts(e("tp"), e("fp"), etn, e("fn"), nj), nj,
                                  slot.learned is not None, a("untyped")))
    ref_preds = {(asp_name(p.name), p.arity) for p in ref.predicates}
    mistakes.sort(key=lambda m: (m.state, m.kind, m.action, m.literal or ""))
    return Evaluation(
        tuple(scores), tuple(extra_only), total, len(problem_objs), sum(ignored.values()),
        tuple(sorted(ignored)), tuple(sorted(p.name for p in lrn.predicates
                                             if (asp_name(p.name), p.arity) not in ref_preds)),
        tuple(mistakes),
        {"load": t_load, "facts": t_facts, **steps, "total": time.perf_counter() - t0, "batches": len(batches)})


def _load(states, ref: Domain, problems, progress) -> list[StateSet]:
    if states and all(isinstance(s, StateSet) for s in states):
        return list(states)
    files: list[Path] = []
    for p in map(Path, states):
        if p.is_dir():
            files.extend(sorted(x for x in p.iterdir() if x.is_file() and not x.name.startswith(".")))
        elif p.exists():
            files.append(p)
        else:
            raise InputError("no such file or directory", p)
    out: list[StateSet] = []
    cache: dict[str, Problem] = {}
    for i, f in enumerate(files):
        for ss in load_states([f], ref, problems_dir=problems):
            key = ss.problem.file or ss.problem.name
            ss.problem = cache.setdefault(key, ss.problem)
            out.append(ss)
        if progress:
            progress("read", i + 1, len(files))
    return out


def _batches(contexts: list[_Context], limit: int) -> list[list[_Context]]:
    out: list[list[_Context]] = [[]]
    n = 0
    for c in contexts:
        if n and n + len(c.states) > limit:
            out.append([])
            n = 0
        out[-1].append(c)
        n += len(c.states)
    return out


def _context_text(ctx: _Context, problem: Problem, facts: _Facts) -> str:
    out = [f"problem({ctx.index})."]
    out += [f"object({ctx.index},{asp_name(o)},{asp_name(t)})." for o, t in problem.objects]
    out += [f"fixed({ctx.index},{facts.ground(a)})." for a in ctx.fixed]
    return "\n".join(out)


def _solve(program: str, timings: Counter) -> list[clingo.Symbol]:
    """Parse, ground and solve once (the program is stratified: one answer set)."""
    t = time.perf_counter()
    ctl = clingo.Control(["--warn=none", "--models=1"])
    ctl.add("base", [], program)
    timings["parse"] += time.perf_counter() - t
    t = time.perf_counter()
    ctl.ground([("base", [])])
    timings["ground"] += time.perf_counter() - t
    t = time.perf_counter()
    shown: list[clingo.Symbol] = []
    with ctl.solve(yield_=True) as handle:
        for model in handle:
            shown = model.symbols(shown=True)
            break
    timings["solve"] += time.perf_counter() - t
    return shown


def _mistake(sym: clingo.Symbol, slots: list[_Slot], dec: Decoder, sources) -> Mistake:
    args = sym.arguments
    s = args[0].number
    slot = slots[args[1].number]
    name, targs = dec.call(args[2])
    action = "(" + " ".join((slot.name,) + targs) + ")"
    src = f"{sources[s][0]}#{sources[s][1]}"
    if sym.name == "xapp":
        return Mistake(s, src, f"app-{args[3].name}", action)
    pname, pargs = dec.call(args[3])
    atom = "(" + " ".join((pname,) + pargs) + ")"
    lit = atom if args[5].name == "pos" else f"(not {atom})"
    return Mistake(s, src, f"eff-{args[4].name}", action, lit)


__all__ = ["evaluate", "Evaluation", "ActionScore", "LearnedOnly", "Counts", "Summary", "Mistake",
           "applicability_counts", "effect_counts", "summarise"]
