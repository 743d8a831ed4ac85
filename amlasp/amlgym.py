"""AMLGym's metric functions, computed by amlasp: change the import, keep the script.

    from amlgym.metrics import syntactic_precision, syntactic_recall, predictive_power, problem_solving
    from amlgym.modeling.UPEnv import UPEnv
becomes
    from amlasp.amlgym import syntactic_precision, syntactic_recall, predictive_power, problem_solving, UPEnv

Same names, argument order, defaults and result dictionaries as AMLGym 1.0.13's `amlgym.metrics`
(the version the shipped IPC data comes from); tests/test_amlgym.py checks the values against
AMLGym's own on the NOLAM models (tests/data/amlgym/record.py recorded them). The figures are
amlasp's (`compare`, `evaluate`, `solve`), mapped onto AMLGym's definitions where they differ:

- syntactic: AMLGym's four literal categories, averaged over the reference's actions and
  rounded to 2 decimals, in AMLGym's order (so the rounding agrees too); parts of a model its
  reader does not see as literals (conditional effects, `or`/`forall`/... preconditions) are left
  out with a warning; a predicate the model uses but never declares is read as one only the learned
  model has (with a warning). On the shipped NOLAM childsnack the figures differ from AMLGym's: its
  reader finds an action's body by a regular expression on the name, so `make_sandwich` and
  `serve_sandwich` are read with the bodies of `make_sandwich_no_gluten` and
  `serve_sandwich_no_gluten`; on files rewritten as its reader sees them, the figures are equal
  (tests/test_amlgym.py);
- predictive power: AMLGym averages applicability over every action applicable in either model
  (a learned-only action too), effects over the actions applicable in both at least once; means
  are not rounded (AMLGym sums them in set order, so its own last digit varies between runs);
- problem solving: amlasp's categories `solved`, `false_plan`, `no_plan`, `timeout` and
  `invalid_model` are AMLGym's `solving_ratio`, `false_plans_ratio`, `unsolvable_ratio`,
  `timed_out` and `syntax_errors`; `memout` and `error` count in none, as in AMLGym.
"""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import TYPE_CHECKING, Any, Dict, List, Sequence

from .errors import InputError, InputWarning

if TYPE_CHECKING:  # imported where used: importing amlasp.amlgym stays cheap
    from .model import Atom, Domain, Problem
    from .pddl.ground import Grounder
    from .pddl.states import StateSet

_CATEGORIES = (("pre_pos", "precs_pos"), ("pre_neg", "precs_neg"), ("eff_pos", "eff_pos"), ("eff_neg", "eff_neg"))


def print_metrics() -> None:
    """Display the available metrics (as AMLGym's does)."""
    print("Available metrics:")
    for m in ("syntactic_precision", "syntactic_recall", "problem_solving", "predicted_effects", "applicability"):
        print(f" - {m}")


# --------------------------------------------------------------------------- syntactic

def syntactic_precision(evaluated_path: str, reference_path: str) -> Dict[str, float]:
    """Syntactic precision per literal category and its mean over the reference's actions (AMLGym's keys)."""
    return _syntactic(evaluated_path, reference_path, "precision")


def syntactic_recall(evaluated_path: str, reference_path: str) -> Dict[str, float]:
    """Syntactic recall per literal category and its mean over the reference's actions (AMLGym's keys)."""
    return _syntactic(evaluated_path, reference_path, "recall")


def _syntactic(evaluated_path: str, reference_path: str, measure: str) -> Dict[str, float]:
    import numpy as np

    from .metrics.compare import compare
    from .metrics.compare.result import pooled
    result = compare(evaluated_path, reference_path)
    for message in result.warnings:  # what the command line prints (AMLGym's caller sees no result object)
        warnings.warn(InputWarning(message), stacklevel=3)
    # AMLGym's order (names with '-', descending): the mean of the same numbers in the same order
    actions = sorted(result.actions, key=lambda a: a.action.replace("_", "-"), reverse=True)
    left_out = sorted({a.action for a in actions for c in ("pre_other", "ceff_pos", "ceff_neg")
                       if a.counts[c].tp + a.counts[c].fp + a.counts[c].fn})
    if left_out:
        warnings.warn(f"{evaluated_path}: the conditional effects and non-literal preconditions of "
                      f"{', '.join(left_out)} are not in AMLGym's syntactic figures (amlasp.compare scores them)",
                      stacklevel=3)
    out = {key: float(np.round(np.mean([getattr(a.counts[cat], measure) for a in actions]), 2))
           for cat, key in _CATEGORIES}
    overall = [getattr(pooled(a.counts[cat] for cat, _ in _CATEGORIES), measure) for a in actions]
    out["mean"] = float(np.round(np.mean(overall), 2))
    return out


# --------------------------------------------------------------------------- problem solving

def problem_solving(model_learn_path: str, model_ref_path: str, problem_paths: List[str], timeout=60,
                    show_progress: bool = True) -> Dict[str, float]:
    """Plan with the learned model (Fast Downward, AMLGym's greedy configuration), validate in the
    reference: the ratios of AMLGym's five outcomes over all problems. The learned model is read strictly,
    as AMLGym reads it: a model with a broken action is a syntax error there, not a model without it."""
    from .metrics.solve import ProblemStatus, solve
    if isinstance(problem_paths, (str, Path)):
        problem_paths = [problem_paths]
    result = solve(model_learn_path, model_ref_path, [str(p) for p in problem_paths], config="greedy",
                   timeout=float(timeout), recover=False)
    n = len(result.problems)
    return {"solving_ratio": result.count(ProblemStatus.SOLVED) / n,
            "false_plans_ratio": result.count(ProblemStatus.FALSE_PLAN) / n,
            "unsolvable_ratio": result.count(ProblemStatus.NO_PLAN) / n,
            "timed_out": result.count(ProblemStatus.TIMEOUT) / n,
            "syntax_errors": result.count(ProblemStatus.INVALID_MODEL) / n}


# --------------------------------------------------------------------------- predictive power

class UPEnv:
    """A simulator of a domain model on one problem, as AMLGym's `UPEnv(domain_path, problem_path)`.

    amlasp simulates it with clingo when a metric runs; this object only names the two files."""

    def __init__(self, domain_path: str, problem_path: str) -> None:
        self.domain_path = str(domain_path)
        self.problem_path = str(problem_path)

    def __repr__(self) -> str:
        return f"UPEnv({self.domain_path!r}, {self.problem_path!r})"


def predictive_power(simulator_learned, simulator_ref, test_states, applicable_actions=None,
                     show_progress: bool = True) -> Dict[str, Dict[str, float]]:
    """Predicted applicability and predicted effects, mean precision and recall (AMLGym's keys).

    `simulator_learned`/`simulator_ref`: a `UPEnv` each (or AMLGym's own: its PDDL is written by
    unified-planning), or equally long sequences of them with one sequence of states each;
    `test_states`: states as sets or lists of atoms `"(on b1 b2)"` (`"(not ...)"` literals ignored)."""
    counts = _predictive_counts(simulator_learned, simulator_ref, test_states, applicable_actions)
    return {"applicability": _means(counts["applicability"]), "predicted_effects": _means(counts["effects"])}


def applicability(simulator, simulator_ref, test_states, applicable_actions=None,
                  show_progress: bool = True) -> Dict[str, float]:
    """Predicted applicability: mean precision and recall over the actions (AMLGym's keys)."""
    return _means(_predictive_counts(simulator, simulator_ref, test_states, applicable_actions)["applicability"])


def predicted_effects(simulator, simulator_env, test_states, applicable_actions=None,
                      show_progress: bool = True) -> Dict[str, float]:
    """Predicted effects: mean precision and recall over the actions (AMLGym's keys)."""
    return _means(_predictive_counts(simulator, simulator_env, test_states, applicable_actions)["effects"])


def _means(per_action: dict[str, tuple[int, int, int]]) -> Dict[str, float]:
    """AMLGym's per-action P and R (1 for an empty denominator), averaged (NaN over no action)."""
    import numpy as np
    names = sorted(per_action)
    with warnings.catch_warnings():  # the mean of nothing is NaN, as in AMLGym, without numpy's warning
        warnings.simplefilter("ignore", RuntimeWarning)
        return {"mean_precision": float(np.mean([_ratio(*per_action[a][:2]) for a in names])),
                "mean_recall": float(np.mean([_ratio(per_action[a][0], per_action[a][2]) for a in names]))}


def _ratio(tp: int, other: int) -> float:
    return 1.0 if tp + other == 0 else tp / (tp + other)


def _predictive_counts(learned, ref, test_states, applicable_actions) -> dict[str, dict[str, tuple[int, int, int]]]:
    """Per action, (TP, FP, FN) of applicability (actions applicable in either model) and of effects
    (actions applicable in both at least once), summed over every simulator pair."""
    from .metrics.evaluate import evaluate
    if applicable_actions is not None:
        warnings.warn("applicable_actions is ignored: amlasp computes the reference's applicable actions itself",
                      stacklevel=3)
    pairs = _pairs(learned, ref, test_states)
    groups: dict[tuple[str, str], list] = {}
    for lrn, rf, states in pairs:
        groups.setdefault((lrn[0], rf[0]), []).append((rf[1], states))
    app: dict[str, list[int]] = {}
    eff: dict[str, list[int]] = {}
    domains: dict[tuple[Any, bool], Domain] = {}  # each file read once, however many simulators name it
    for (lrn_domain, ref_domain), items in groups.items():
        lrn_model, ref_model = _domain(lrn_domain, True, domains), _domain(ref_domain, False, domains)
        ev = evaluate(lrn_model, ref_model, _state_sets(ref_model, items))
        for a in ev.actions:
            c = a.applicability
            if c.tp + c.fp + c.fn:
                _add(app, a.action, (c.tp, c.fp, c.fn))
            if a.joint:
                _add(eff, a.action, (a.effects.tp, a.effects.fp, a.effects.fn))
        for extra in ev.learned_only:
            if extra.fp:
                _add(app, extra.action, (0, extra.fp, 0))
    return {"applicability": {k: (v[0], v[1], v[2]) for k, v in app.items()},
            "effects": {k: (v[0], v[1], v[2]) for k, v in eff.items()}}


def _add(table: dict[str, list[int]], action: str, counts: tuple[int, int, int]) -> None:
    row = table.setdefault(action, [0, 0, 0])
    for i, n in enumerate(counts):
        row[i] += n


def _pairs(learned, ref, test_states) -> list[tuple[tuple[Any, Any], tuple[Any, Any], Sequence]]:
    """[(learned (domain, problem), reference (domain, problem), states)], one per simulator pair."""
    if isinstance(learned, (list, tuple)):
        if not isinstance(ref, (list, tuple)) or len(ref) != len(learned) or len(test_states) != len(learned):
            raise InputError("a sequence of learned simulators needs as many reference simulators and state "
                             f"sequences ({len(learned)})")
        return [(_files(a), _files(b), s) for a, b, s in zip(learned, ref, test_states)]
    return [(_files(learned), _files(ref), test_states)]


def _files(sim) -> tuple[Any, Path | str]:
    """(domain, problem) of a simulator: the files of our UPEnv (the problem a Path), or the PDDL of
    AMLGym's (a parsed domain, the problem as text)."""
    if isinstance(sim, UPEnv):
        return sim.domain_path, Path(sim.problem_path)
    if isinstance(sim, (tuple, list)) and len(sim) == 2:
        return str(sim[0]), Path(sim[1])
    problem = getattr(sim, "problem", None)
    if problem is not None and type(problem).__module__.startswith("unified_planning"):
        return _up_pddl(problem)
    raise InputError(f"not a simulator: {type(sim).__name__} (use amlasp.amlgym.UPEnv(domain_path, problem_path))")


def _up_pddl(problem) -> tuple[Any, str]:
    """AMLGym's UPEnv holds a unified-planning problem: its domain (parsed) and its problem text, as UP writes them."""
    from unified_planning.io import PDDLWriter

    from .pddl.parse import parse_domain
    writer = PDDLWriter(problem)
    return parse_domain(writer.get_domain(), f"<{problem.name} domain>"), writer.get_problem()


def _domain(source: Any, learned: bool, cache: dict[tuple[Any, bool], Domain]) -> Domain:
    """A simulator's domain: parsed already (AMLGym's simulators), or its file read once (a learned one
    as eval reads it: a predicate used but not declared is one only the learned model has)."""
    from .model import Domain
    from .pddl.parse import load_domain
    if isinstance(source, Domain):
        return source
    key = (str(source), learned)
    if key not in cache:
        cache[key] = load_domain(source, undeclared_predicates=learned)
    return cache[key]


def _state_sets(ref: Domain, items: list[tuple[Path | str, Sequence]]) -> list[StateSet]:
    """One StateSet per simulator pair: its problem read with the reference, its states' atoms.

    Problems of the same text are read once and shared (the paper's workload has 10 trajectories per
    problem; eval then writes each problem's facts once, and a state met in several trajectories of a
    problem once, with its weight); each distinct atom text is read once per problem, by the fast
    check of the state readers (`fast_literal`), anything unusual by the careful reader."""
    from .pddl.ground import Grounder
    from .pddl.parse import parse_problem
    from .pddl.source import read_text
    from .pddl.stateset import StateSet, fast_params
    problems: dict[str, tuple[Problem, Grounder, dict[str, Atom | None]]] = {}
    params = fast_params(ref)
    out = []
    for k, (problem, states) in enumerate(items):
        text = read_text(problem) if isinstance(problem, Path) else problem
        if text not in problems:
            prob = parse_problem(text, ref, str(problem) if isinstance(problem, Path) else f"<problem {k}>")
            problems[text] = prob, Grounder(ref, prob.object_types(ref)), {}
        prob, grounder, known = problems[text]
        parsed = []
        for j, state in enumerate(states):
            atoms = []
            for lit in state:
                a = known[lit] if lit in known else known.setdefault(lit, _atom(lit, grounder, params,
                                                                                 f"<test_states[{k}][{j}]>"))
                if a is not None:
                    atoms.append(a)
            parsed.append(frozenset(atoms))
        out.append(StateSet(prob, parsed, f"test_states[{k}]"))
    return out


def _atom(lit: str, grounder: Grounder, params: dict, where: str) -> Atom | None:
    """The atom `lit` names (None for a `(not ...)` literal: ignored, as AMLGym does); bad text is refused
    by the careful reader."""
    from .model import Atom
    from .pddl.stateset import fast_literal, parse_atom_text
    if lit.lstrip().startswith("(not "):
        return None
    a = fast_literal(lit, params, grounder.objects, grounder.fits, False)
    if isinstance(a, Atom):
        return a
    return parse_atom_text(lit, grounder, where, 1, 1)  # the careful reader: says what is wrong, where


__all__ = ["print_metrics", "syntactic_precision", "syntactic_recall", "problem_solving", "predictive_power",
           "predicted_effects", "applicability", "UPEnv"]
