"""Text2World's component metrics: F1 of predicates, parameters, preconditions and effects.

Text2World (ACL 2025) scores a generated domain by four F1 figures, each of sets compared as strings
(`text2world/utils/evaluator.py`, read and reimplemented here from its definition):

- predicates: the set of `name_arity` of the declared predicates (equality left out);
- per reference action, the generated action *of the same name*: the set of parameter variable
  names, the set of precondition conjuncts and the set of effects, each as Tarski prints them, then
  averaged over the reference's actions. F1 of two empty sets is 1; one reference action without a
  same-named generated action sets all three figures to 0 (the evaluator's KeyError is caught around
  the whole loop).

Two notions (docs/llm.md):

- `as_written` (`compare --as-written`): exactly that definition, strings and names as written
  (Tarski's printing emulated, including the split of a conjunction's text on the substring
  "and", which cuts a predicate such as `handempty`);
- `renamed` (compare's default): the same four F1 figures with sets matched under compare's optimal
  renaming of predicates, actions and parameters (`metric_mode(best)`), so that a renaming without
  meaning costs nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import groupby
from typing import TYPE_CHECKING, Iterable

from ... import logic
from ...model import And, Atom, Domain, Effect, Exists, Forall, Formula, Imply, Not, Or
from .result import Counts

if TYPE_CHECKING:
    from .result import CompareResult

FIELDS = ("predicate_f1", "parameter_f1", "precondition_f1", "effect_f1")


@dataclass(frozen=True)
class Components:
    """The four figures under one notion: `renamed` or `as_written`."""

    notion: str
    predicate_f1: float
    parameter_f1: float
    precondition_f1: float
    effect_f1: float

    def to_dict(self) -> dict[str, float | str]:
        return {"components": self.notion, **{f: getattr(self, f) for f in FIELDS}}


def f1(tp: int, fp: int, fn: int) -> float:
    """Text2World's F1 of two sets: 1 when both are empty, else 2PR/(P+R) with P, R taken as 0 when undefined."""
    if tp + fp + fn == 0:
        return 1.0
    p = tp / (tp + fp) if tp + fp else 0.0
    r = tp / (tp + fn) if tp + fn else 0.0
    return 2 * p * r / (p + r) if p + r else 0.0


def set_f1(predicted: Iterable[str], reference: Iterable[str]) -> float:
    p, r = set(predicted), set(reference)
    return f1(len(p & r), len(p - r), len(r - p))


def _mean(values: list[float]) -> float:
    return sum(values) / len(values)


# ---------------------------------------------------------------- under the optimal renaming

def renamed(result: CompareResult, learned: Domain, reference: Domain) -> Components:
    """The four figures from a comparison whose metric mapping is the best renaming."""
    tp = len(result.predicate_mapping)
    preds = f1(tp, len(learned.predicates) - tp, len(reference.predicates) - tp)
    params, pres, effs = [], [], []
    for a in result.actions:
        ref_arity = reference.action_named(a.action).arity
        counterpart = learned.action(a.learned) if a.learned is not None else None
        mapped = len(a.metric_param_mapping) if counterpart is not None else 0
        gen_arity = counterpart.arity if counterpart is not None else 0
        params.append(f1(mapped, gen_arity - mapped, ref_arity - mapped))
        pres.append(_count_f1(a.pre))
        effs.append(_count_f1(a.eff))
    if not params:
        return Components("renamed", preds, 1.0, 1.0, 1.0)
    return Components("renamed", preds, _mean(params), _mean(pres), _mean(effs))


def _count_f1(c: Counts) -> float:
    return f1(c.tp, c.fp, c.fn)


# ---------------------------------------------------------------- as written (Tarski's strings)

def tarski_text(f: Formula) -> str:
    """A formula as Tarski prints it: `on(?x,?y)`, `(not p())`, `(a and b)`, `((not a) or b)` for an imply."""
    def leaf(a: Atom, _env: None) -> str:
        return f"{a.predicate}({','.join(a.args)})"

    def node(g: Formula, kids: list[str], _env: None) -> str:
        if isinstance(g, Not):
            return f"(not {kids[0]})"
        if isinstance(g, And):
            return "T" if not kids else kids[0] if len(kids) == 1 else "(" + " and ".join(kids) + ")"
        if isinstance(g, Or):
            return kids[0] if len(kids) == 1 else "(" + " or ".join(kids) + ")"
        if isinstance(g, Imply):
            return f"((not {kids[0]}) or {kids[1]})"
        word = "exists" if isinstance(g, Exists) else "forall"
        assert isinstance(g, (Exists, Forall))
        return f"{word} {', '.join(v for v, _ in g.variables)} : ({kids[0]})"
    return logic.fold(f, leaf, node)


def _effect_text(e: Effect) -> str:
    cond = tarski_text(e.condition)
    return f"({cond} -> {'ADD' if e.literal.positive else 'DEL'}({tarski_text(e.literal.atom)}))"


def effect_texts(effects: Iterable[Effect]) -> list[str]:
    """Tarski's effects: one per literal, a universal effect printed once with its inner effects."""
    out = []
    for variables, group in groupby(effects, key=lambda e: e.variables):
        inner = [_effect_text(Effect(e.literal, e.condition)) for e in group]
        if not variables:
            out += inner
        else:
            typed = ", ".join(f"{v} ({t})" for v, t in variables)
            out.append(f"(T -> forall ([{typed}]) : ({', '.join(inner)}))")
    return out


class _EvaluatorFailure(Exception):
    """Where the published evaluator raises (and catches, scoring every action figure 0)."""


def _preprocess(items: Iterable[str]) -> list[str]:
    """The evaluator's normalisation: sorted, the disjuncts of an `or` sorted. An empty string fails
    there (its first character is read): a conjunction's text split on "and" can give one."""
    out = sorted(items)
    for i, x in enumerate(out):
        if not x:
            raise _EvaluatorFailure(i)
        if x.startswith("(") and " or " in x:
            out[i] = "(" + " or ".join(sorted(p.strip() for p in x[1:-1].strip().split(" or "))) + ")"
    return sorted(out)


def _action_sets(domain: Domain) -> dict[str, dict[str, list[str]]]:
    return {a.name: {"params": _preprocess(v for v, _ in a.parameters),
                     "preconds": _preprocess(x.strip() for x in tarski_text(a.precondition)[1:-1].split("and")),
                     "effect": _preprocess(effect_texts(a.effects))} for a in domain.actions}


def as_written(learned: Domain, reference: Domain) -> Components:
    """Text2World's evaluator on two parsed domains: names and strings as written."""
    preds = set_f1((f"{p.name}_{p.arity}" for p in learned.predicates),
                   (f"{p.name}_{p.arity}" for p in reference.predicates))
    try:
        gen, ref = _action_sets(learned), _action_sets(reference)
    except _EvaluatorFailure:
        return Components("as_written", preds, 0.0, 0.0, 0.0)
    if any(name not in gen for name in ref):  # the evaluator's KeyError: every action figure is 0
        return Components("as_written", preds, 0.0, 0.0, 0.0)
    scores = {k: [set_f1(gen[name][k], ref[name][k]) for name in ref] for k in ("params", "preconds", "effect")}
    if not ref:  # the evaluator's mean of an empty list fails, caught: 0
        return Components("as_written", preds, 0.0, 0.0, 0.0)
    return Components("as_written", preds, _mean(scores["params"]), _mean(scores["preconds"]),
                      _mean(scores["effect"]))


__all__ = ["Components", "FIELDS", "renamed", "as_written", "tarski_text", "effect_texts", "f1", "set_f1"]
