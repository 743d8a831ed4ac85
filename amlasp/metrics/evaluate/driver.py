"""Predictive power: does a learned model predict which actions are applicable, and what they change?

`evaluate(learned, reference, states)` compares both models on test states in ONE clingo
program per domain (or per batch of states when there are very many): the states of all
problems are facts (`states.py`), each action schema of each model is compiled to a rule
(`rules.py`), and `encodings/eval.lp` counts true/false positives/negatives with aggregates,
so that Python reads a handful of numbers per action (`result.py`). docs/eval.md defines the
metrics exactly.

What makes it fast (benchmarks/bench_eval.py): negative typing and static predicates read
once per problem (`compile.py` options), effects derived only for jointly applicable actions,
as changes directly, and once for an effect both models share; true negatives are completed
arithmetically from universe sizes, never enumerated.
"""

from __future__ import annotations

import os
import time
from collections import Counter
from pathlib import Path
from typing import Sequence

import clingo

from ...asp.decode import Decoder
from ...asp.facts import domain_facts
from ...asp.names import EVAL_LEARNED, EVAL_REF, asp_name
from ...asp.run import encoding, solve_once
from ...errors import InputError, warn_input
from ...files import path_list
from ...model import Domain, Problem
from ...pddl.check import spelling_differences
from ...pddl.parse import load_domain
from ...pddl.states import StateSet, find_problem_for, load_states
from ..solve import ProgressCallback
from .checks import StepCheck
from .result import ActionScore, Evaluation, LearnedOnly, Mistake, applicability_counts, effect_counts
from .rules import PairCompiler, Slot, slots, static_predicates
from .states import Grouped, StateWriter, Vocabulary, batches, group


def evaluate(learned: Domain | str | Path, reference: Domain | str | Path,
             states: str | Path | Sequence[str | Path] | Sequence[StateSet],
             problems: str | Path | Sequence[str | Path] | None = None,
             explain: bool = False, progress: ProgressCallback | None = None,
             batch_states: int = 40000, check_trajectories: bool = True) -> Evaluation:
    """Predictive power of `learned` against `reference` on test states.

    `states`: a trajectory file, JSON state file, problem file or directory of them, or a list of
    these (read with the reference's vocabulary; objects from the problems), or loaded StateSets.
    `problems`: the directory (or directories) where the trajectories' problem files are.
    `progress(stage, done, total)` is called as state files are read and batches solved.
    All states go into one clingo program (several for more than `batch_states` states).
    `check_trajectories`: warn (`InputWarning`) of a trajectory whose first state is not its problem's
    initial state, or whose recorded action is not applicable in the reference where it was taken
    (decided in the same clingo program: `checks.StepCheck`)."""
    t0 = time.perf_counter()
    ref = reference if isinstance(reference, Domain) else load_domain(reference)
    lrn = learned if isinstance(learned, Domain) else load_domain(learned, undeclared_predicates=True)
    for message in spelling_differences(lrn, ref):
        warn_input(message)
    if isinstance(states, (str, os.PathLike)):
        states = [states]  # one path, not a sequence of characters
    sets = _load(states, ref, problems, progress)
    t_load = time.perf_counter() - t0
    total = sum(len(s.states) for s in sets)
    if total == 0:
        raise InputError("no test states", str(states[0]) if states and not isinstance(states[0], StateSet) else None)

    static = static_predicates(ref)
    pair = slots(ref, lrn)
    learned_preds = {(asp_name(p.name), p.arity) for p in lrn.predicates}
    ignored_preds = {p.name for p in ref.predicates if (asp_name(p.name), p.arity) not in learned_preds}
    grouped = group(sets, static)
    steps_check = StepCheck(sets, pair) if check_trajectories else None
    for message in steps_check.warnings if steps_check else ():
        warn_input(message)
    rules = PairCompiler(ref, lrn, pair, static).compile({t for p in grouped.problems for _, t in p.objects})
    head = [encoding("types"), encoding("semantics"), encoding("eval"), domain_facts(ref, EVAL_REF),
            domain_facts(lrn, EVAL_LEARNED), rules,
            "explain." if explain else ""]

    writer = StateWriter(ref, grouped, ignored_preds)
    answers = _Answers(pair, _decoder(ref, lrn, grouped.problems), grouped.sources)
    t_facts = 0.0
    steps: Counter = Counter()
    todo = batches(grouped.contexts, batch_states)
    if progress:
        progress("solve", 0, len(todo))
    for bi, batch in enumerate(todo):
        tf = time.perf_counter()
        parts = head + writer.batch(batch) + ([steps_check.batch(batch)] if steps_check else [])
        t_facts += time.perf_counter() - tf
        answers.read(solve_once(parts, timings=steps))
        if progress:
            progress("solve", bi + 1, len(todo))

    for message in steps_check.off_steps(answers.off_steps) if steps_check else ():
        warn_input(message)
    scores, learned_only = _scores(pair, answers, grouped, writer.vocabulary)
    ref_preds = {(asp_name(p.name), p.arity) for p in ref.predicates}
    return Evaluation(
        scores, learned_only, total, len(grouped.problems), sum(writer.ignored.values()),
        tuple(sorted(writer.ignored)), tuple(sorted(p.name for p in lrn.predicates
                                                    if (asp_name(p.name), p.arity) not in ref_preds)),
        answers.sorted_mistakes(),
        {"load": t_load, "facts": t_facts, **steps, "total": time.perf_counter() - t0, "batches": len(todo)})


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
    dirs = [None] if problems is None else path_list(problems)
    out: list[StateSet] = []
    cache: dict[str, Problem] = {}
    for i, f in enumerate(files):
        pdir = next((d for d in dirs if d is not None and find_problem_for(f, d) is not None), dirs[0])
        for ss in load_states([f], ref, problems_dir=pdir):
            key = ss.problem.file or ss.problem.name
            ss.problem = cache.setdefault(key, ss.problem)
            out.append(ss)
        if progress:
            progress("read", i + 1, len(files))
    return out


def _decoder(ref: Domain, learned: Domain, problems: list[Problem]) -> Decoder:
    """Names in the answers' atoms: predicates and constants of both models, objects of the problems."""
    dec = Decoder()
    models = (ref, learned)
    dec.add(*(p.name for d in models for p in d.predicates), *(c for d in models for c, _ in d.constants))
    for p in problems:
        dec.add(*(o for o, _ in p.objects))
    return dec


class _Answers:
    """What the answers of all batches say: eval.lp's counts per slot, the joint instances per
    context, and the mispredictions (`--explain`)."""

    def __init__(self, pair: list[Slot], decoder: Decoder, sources: list[tuple[str, int]]):
        self.pair, self.decoder, self.sources = pair, decoder, sources
        self.counts: Counter = Counter()  # (app|eff, slot, tp|fp|fn|untyped|outside|extra) → count
        self.joint: Counter = Counter()  # (slot, context) → instances applicable in both models
        self.mistakes: list[Mistake] = []
        self.off_steps: list[int] = []  # states where a trajectory's recorded action is not the reference's

    def read(self, shown: list[clingo.Symbol]) -> None:
        counts, joint = self.counts, self.joint
        for sym in shown:
            if sym.name == "count":
                fam, n, what, c = sym.arguments
                counts[(fam.name, n.number, what.name)] += c.number
            elif sym.name == "joint":
                n, ctx_sym, c = sym.arguments
                joint[(n.number, ctx_sym.number)] += c.number
            elif sym.name in ("xapp", "xeff"):
                self.mistakes.append(self._mistake(sym))
            elif sym.name == "off_step":
                self.off_steps.append(sym.arguments[0].number)

    def _mistake(self, sym: clingo.Symbol) -> Mistake:
        args = sym.arguments
        s = args[0].number
        slot = self.pair[args[1].number]
        name, targs = self.decoder.call(args[2])
        action = "(" + " ".join((slot.name,) + targs) + ")"
        src = f"{self.sources[s][0]}#{self.sources[s][1]}"
        if sym.name == "xapp":
            return Mistake(s, src, f"app-{args[3].name}", action)
        pname, pargs = self.decoder.call(args[3])
        atom = "(" + " ".join((pname,) + pargs) + ")"
        lit = atom if args[5].name == "pos" else f"(not {atom})"
        return Mistake(s, src, f"eff-{args[4].name}", action, lit)

    def sorted_mistakes(self) -> tuple[Mistake, ...]:
        return tuple(sorted(self.mistakes, key=lambda m: (m.state, m.kind, m.action, m.literal or "")))


def _scores(pair: list[Slot], answers: _Answers, grouped: Grouped,
            vocabulary: list[Vocabulary]) -> tuple[tuple[ActionScore, ...], tuple[LearnedOnly, ...]]:
    """The scores of each reference action and the false positives of learned-only actions; true
    negatives are completed arithmetically: instances (universe atoms) minus the other counts."""
    counts, joint = answers.counts, answers.joint
    ctx_states = {c.index: len(c.states) for c in grouped.contexts}
    ctx_problem = {c.index: c.problem_index for c in grouped.contexts}
    scores, extra_only = [], []
    for slot in pair:
        a = lambda what: counts[("app", slot.index, what)]  # noqa: E731
        e = lambda what: counts[("eff", slot.index, what)]  # noqa: E731
        if slot.ref is None:
            extra_only.append(LearnedOnly(slot.learned.name, slot.learned.arity, a("fp")))
            continue
        types = [asp_name(t) for _, t in slot.ref.parameters]
        grounded = sum(vocabulary[ctx_problem[c]].count(types) * n for c, n in ctx_states.items())
        nj = sum(joint[(slot.index, c)] for c in ctx_states)
        tp, fp, fn = nj, a("fp"), a("fn")
        tn = grounded - tp - fn - (fp - a("untyped"))
        universe = sum(joint[(slot.index, c)] * vocabulary[ctx_problem[c]].universe for c in ctx_states)
        inside_changes = e("tp") + e("fp") + e("fn") - e("outside")
        etn = universe + e("extra") - inside_changes
        scores.append(ActionScore(slot.ref.name, slot.ref.arity, applicability_counts(tp, fp, tn, fn),
                                  effect_counts(e("tp"), e("fp"), etn, e("fn"), nj), nj,
                                  slot.learned is not None, a("untyped")))
    return tuple(scores), tuple(extra_only)


__all__ = ["evaluate"]
