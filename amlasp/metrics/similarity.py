"""`similarity()`: how alike two domains behave on some problems, without a planner's verdict alone.

Per problem, three figures (docs/llm.md):

1. **Proof first.** `reasoning.diff` explores the reference's reachable states; when it exhausts them
   without a disagreement (applicability and effects of every action agree in every reachable
   state), the two models have the same transition system from this problem's initial state, so
   every walk of either is executable in the other: the walk figures are 1, proven, not sampled.
2. **Exploration walks** (in the manner of Exploration Walk, NeurIPS 2024): `walks` seeded random
   walks of up to `length` steps in each model (uniform among the applicable actions, by the
   encodings: `questions.walks.random_walks`), each executed in the other model, its actions
   translated by compare's best renaming of actions and parameters (`translations`: a generated
   `stack` whose parameters come in the other order is still the reference's `stack`). Per direction, the
   fraction of walks executable in full (`ew_*`) and the mean fraction of a walk's steps executable
   before the first failure (`prefix_*`); `ew_mean` is the mean of the two directions.
3. **Plan sets** (NL2PDDL's check): the K shortest plans of each model (planning.plan, up to
   `max_steps` steps and `plan_time` seconds per model and problem), validated in the other: the
   fraction valid per direction (None when no plan was found within the bounds).

Deterministic for a seed: each walk has its own generator, seeded by (seed, problem, direction, walk).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable, Sequence

from ..errors import InputError
from ..model import Domain, GroundAction, Problem
from ..pddl.inputs import problem_files
from ..pddl.parse import load_domain, load_problem
from ..questions.walks import random_walks
from ..reasoning.diff import diff
from ..reasoning.engine import execute_many
from ..reasoning.planning import PlanStatus, plan
from ..reasoning.validations import validate_plans
from ..workers import ProgressCallback

if TYPE_CHECKING:
    import pandas as pd

COLUMNS = ("problem", "proven_equivalent", "ew_gen_in_ref", "ew_ref_in_gen", "ew_mean", "prefix_gen_in_ref",
           "prefix_ref_in_gen", "plans_gen_valid_in_ref", "plans_ref_valid_in_gen", "gen_plans", "ref_plans")
FIGURES = COLUMNS[2:9]


@dataclass(frozen=True)
class ProblemSimilarity:
    """The figures of one problem (None where undefined: no plan within the bound to validate)."""

    problem: str
    proven_equivalent: bool
    ew_gen_in_ref: float
    ew_ref_in_gen: float
    prefix_gen_in_ref: float
    prefix_ref_in_gen: float
    plans_gen_valid_in_ref: float | None
    plans_ref_valid_in_gen: float | None
    gen_plans: int
    ref_plans: int

    @property
    def ew_mean(self) -> float:
        return (self.ew_gen_in_ref + self.ew_ref_in_gen) / 2

    def record(self) -> dict[str, Any]:
        return {c: getattr(self, c) for c in COLUMNS}


@dataclass(frozen=True)
class SimilarityResult:
    generated: str
    reference: str
    walks: int
    length: int
    seed: int
    top_k: int
    problems: tuple[ProblemSimilarity, ...]

    def records(self) -> list[dict[str, Any]]:
        return [p.record() for p in self.problems]

    def summary(self) -> dict[str, Any]:
        out: dict[str, Any] = {"problems": len(self.problems),
                               "proven_equivalent": sum(p.proven_equivalent for p in self.problems)}
        for f in FIGURES:
            vals = [getattr(p, f) for p in self.problems if getattr(p, f) is not None]
            out[f] = sum(vals) / len(vals) if vals else None
        return out

    def summary_records(self) -> list[dict[str, Any]]:
        return [{"metric": k, "value": v} for k, v in self.summary().items()]

    def to_dict(self) -> dict[str, Any]:
        return {"generated": self.generated, "reference": self.reference, "walks": self.walks,
                "length": self.length, "seed": self.seed, "top_k": self.top_k, "problems": self.records(),
                "summary": self.summary()}

    def to_frame(self) -> pd.DataFrame:
        import pandas as pd
        return pd.DataFrame(self.records(), columns=list(COLUMNS))

    def summary_frame(self) -> pd.DataFrame:
        import pandas as pd
        return pd.DataFrame(self.summary_records(), columns=["metric", "value"])


Translation = dict[str, tuple[str, tuple[int, ...]]]  # action → (its counterpart, argument positions)


def translations(gen: Domain, ref: Domain) -> tuple[Translation, Translation]:
    """How a ground action of each model reads in the other under compare's best renaming of actions
    and parameters (names that agree stay fixed): gen → ref and ref → gen. An action whose
    counterpart has parameters it cannot fill has no translation (it stays as it is, and fails)."""
    from .compare import compare
    result = compare(gen, ref)
    forward: Translation = {}
    backward: Translation = {}
    for a in result.actions:
        g, r = (gen.action(a.best_match) if a.best_match else None), ref.action(a.action)
        if g is None or r is None:
            continue
        gi = {v: i for i, (v, _) in enumerate(g.parameters)}
        ri = {v: i for i, (v, _) in enumerate(r.parameters)}
        to_ref = {ri[rv]: gi[gv] for gv, rv in a.param_mapping}
        to_gen = {gi[gv]: ri[rv] for gv, rv in a.param_mapping}
        if len(to_ref) == r.arity:
            forward[g.name] = (r.name, tuple(to_ref[j] for j in range(r.arity)))
        if len(to_gen) == g.arity:
            backward[r.name] = (g.name, tuple(to_gen[i] for i in range(g.arity)))
    return forward, backward


def _translate(plan: Sequence[GroundAction], table: Translation) -> list[GroundAction]:
    out = []
    for a in plan:
        name, where = table.get(a.name, (a.name, tuple(range(len(a.args)))))
        out.append(GroundAction(name, tuple(a.args[i] for i in where)))
    return out


def _walk_scores(walker: Domain, wp: Problem, judge: Domain, jp: Problem, walks: int, length: int,
                 seed: str, table: Translation) -> tuple[float, float]:
    """Walks in `walker`, executed in `judge` (translated by `table`): the fraction executable in full,
    the mean executable prefix."""
    rngs = [random.Random(f"{seed}:{i}") for i in range(walks)]
    found = random_walks(walker, wp, frozenset(wp.init), [length] * walks, rngs)
    runs = execute_many(judge, jp, [_translate(w.actions, table) for w in found], states=False)
    full = sum(r.executable for r in runs) / walks
    prefix = [1.0 if not w.actions or r.executable else (r.failed_step or 0) / len(w.actions)
              for w, r in zip(found, runs)]
    return full, sum(prefix) / walks


def _plans(domain: Domain, problem: Problem, top_k: int, max_steps: int,
           time_limit: float) -> list[list[GroundAction]]:
    # clingo alone: its K plans of a length come from one horizon, with no planner process per model
    result = plan(domain, problem, max_steps=max_steps, top=top_k, time_limit=time_limit, prover="asp")
    return result.plans if result.status is PlanStatus.PLAN else []


def _valid_fraction(domain: Domain, problem: Problem, plans: Sequence[list[GroundAction]],
                    table: Translation) -> float | None:
    if not plans:
        return None
    return sum(e.valid for e in validate_plans(domain, [(problem, _translate(p, table)) for p in plans])) / len(plans)


def problem_similarity(gen: Domain, ref: Domain, gp: Problem, rp: Problem, *, walks: int, length: int, seed: int,
                       top_k: int, max_steps: int, max_states: int, plan_time: float = 10.0,
                       index: int = 0, tables: tuple[Translation, Translation] | None = None) -> ProblemSimilarity:
    """The figures of one problem (`gp`, `rp`: the problem read with each domain; `tables`: the
    translations of actions each way, default `translations(gen, ref)`)."""
    forward, backward = tables if tables is not None else translations(gen, ref)
    d = diff(gen, ref, rp, max_steps=10**6, max_states=max_states)
    proven = d.exhausted and d.counterexample is None
    if proven:
        scores = (1.0, 1.0, 1.0, 1.0)
    else:
        a = _walk_scores(gen, gp, ref, rp, walks, length, f"{seed}:{index}:gen", forward)
        b = _walk_scores(ref, rp, gen, gp, walks, length, f"{seed}:{index}:ref", backward)
        scores = (a[0], b[0], a[1], b[1])
    gplans, rplans = _plans(gen, gp, top_k, max_steps, plan_time), _plans(ref, rp, top_k, max_steps, plan_time)
    return ProblemSimilarity(rp.file or rp.name, proven, scores[0], scores[1], scores[2], scores[3],
                             _valid_fraction(ref, rp, gplans, forward), _valid_fraction(gen, gp, rplans, backward),
                             len(gplans), len(rplans))


def similarity(generated: str | Path | Domain, reference: str | Path | Domain,
               problems: str | Path | Iterable[str | Path], *, walks: int = 100, length: int = 10, seed: int = 0,
               top_k: int = 5, max_steps: int = 20, max_states: int = 20000, plan_time: float = 10.0,
               progress: ProgressCallback | None = None) -> SimilarityResult:
    """Behavioural similarity of a generated domain and a reference on `problems` (files or a folder),
    which both domains must read (the same predicates and types)."""
    if walks < 1 or length < 1 or top_k < 1:
        raise InputError("--walks, --length and --top-k must be at least 1")
    gen = generated if isinstance(generated, Domain) else load_domain(generated)
    ref = reference if isinstance(reference, Domain) else load_domain(reference)
    files = problem_files(problems)
    tables = translations(gen, ref)
    out = []
    for i, f in enumerate(files):
        if progress:
            progress("problems", i, len(files))
        out.append(problem_similarity(gen, ref, load_problem(f, gen), load_problem(f, ref), walks=walks,
                                      length=length, seed=seed, top_k=top_k, max_steps=max_steps,
                                      max_states=max_states, plan_time=plan_time, index=i, tables=tables))
    if progress:
        progress("problems", len(files), len(files))
    return SimilarityResult(gen.file or gen.name, ref.file or ref.name, walks, length, seed, top_k, tuple(out))


__all__ = ["similarity", "problem_similarity", "SimilarityResult", "ProblemSimilarity", "COLUMNS"]
