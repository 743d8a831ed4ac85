"""Syntactic comparison of a learned model with a reference model (`amlasp compare`).

Both models become schema facts (`facts.domain_facts`, tags `learned` and `ref`) plus a few
structure facts built here (the predicate and arguments of each lifted atom, skeletons of
non-literal formulas). Two clingo calls do the work:

1. `encodings/compare.lp` + `encodings/edit.lp` under `phase(optimise)`: clingo chooses the
   injective renaming of predicates, actions and parameters with the fewest edits, and proves it
   optimal (or reports `optimal: false` when the time limit stops it first);
2. the same encodings under `phase(metrics)` with that renaming and the metric mapping given as
   facts: clingo counts TP/FP/FN/TN per action and category, the per-action distances, the
   equivalences and the edits.

Python only builds facts, reads answers, and does the arithmetic of ratios.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Sequence

import clingo

from ..asp.run import encoding
from ..errors import InputError
from ..asp.facts import domain_facts, lifted_atom
from ..logic import conjunction_literals, top_literals
from ..model import (
    TRUE, And, Atom, Domain, Exists, Forall, Formula, Imply, Not, Or, is_var,
)
from ..logic import text as formula_text, typed_text
from ..asp.names import asp_name
from ..pddl.check import distinct_symbols
from ..pddl.parse import load_domain
from ..pddl.writer import effect_text, predicate_text

LEARNED, REF = "learned", "ref"
CATEGORIES = ("pre_pos", "pre_neg", "eff_pos", "eff_neg", "ceff_pos", "ceff_neg", "pre_other")
LITERAL_CATEGORIES = CATEGORIES[:4]
PRE_CATEGORIES = ("pre_pos", "pre_neg", "pre_other")
EFF_CATEGORIES = ("eff_pos", "eff_neg", "ceff_pos", "ceff_neg")
_ASP_CATEGORY = {("pre", "pos"): "pre_pos", ("pre", "neg"): "pre_neg", ("eff", "pos"): "eff_pos",
                 ("eff", "neg"): "eff_neg", ("ceff", "pos"): "ceff_pos", ("ceff", "neg"): "ceff_neg",
                 ("pref", "pos"): "pre_other"}
MODES = ("position", "align", "best")

LEGEND = ("P = TP/(TP+FP), taken as 1 when TP+FP = 0; R = TP/(TP+FN), taken as 1 when TP+FN = 0; "
          "similarity = TP/(TP+FP+FN) over preconditions and effects (1 when both actions are empty). "
          "Macro: per-action figures (all categories pooled) averaged over the reference's actions; "
          "cumulative: counts summed first, learned-only actions counted as false positives.")


# ============================================================================ results

@dataclass(frozen=True)
class Counts:
    """Confusion counts of one category; `tn` only for the four literal categories."""

    tp: int = 0
    fp: int = 0
    fn: int = 0
    tn: int | None = None

    @property
    def precision(self) -> float:
        return 1.0 if self.tp + self.fp == 0 else self.tp / (self.tp + self.fp)

    @property
    def recall(self) -> float:
        return 1.0 if self.tp + self.fn == 0 else self.tp / (self.tp + self.fn)

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 0.0 if p + r == 0 else 2 * p * r / (p + r)

    @property
    def jaccard(self) -> float:
        """TP/(TP+FP+FN): the literal similarity; 1 when both sides are empty."""
        n = self.tp + self.fp + self.fn
        return 1.0 if n == 0 else self.tp / n

    def __add__(self, other: "Counts") -> "Counts":
        tn = None if self.tn is None or other.tn is None else self.tn + other.tn
        return Counts(self.tp + other.tp, self.fp + other.fp, self.fn + other.fn, tn)

    def to_dict(self) -> dict:
        return {"tp": self.tp, "fp": self.fp, "fn": self.fn, "tn": self.tn, "precision": self.precision,
                "recall": self.recall, "f1": self.f1}


def pooled(counts: Iterable[Counts]) -> Counts:
    total = Counts(0, 0, 0, 0)
    for c in counts:
        total = total + c
    return total


@dataclass(frozen=True)
class ConditionCounts:
    """Conditional effects under one condition (of the reference, or one only the learned model has)."""

    condition: str
    side: str  # "reference" | "learned"
    counts: Counts


@dataclass(frozen=True)
class ActionComparison:
    """One reference action against its learned counterpart."""

    action: str  # reference name
    learned: str | None  # counterpart under the metric mapping (None: missing, all FN)
    counts: dict[str, Counts]
    conditions: tuple[ConditionCounts, ...]
    best_match: str | None  # counterpart under the best renaming
    equivalent: bool
    param_distance: int
    pre_distance: int
    eff_distance: int
    param_mapping: tuple[tuple[str, str], ...]  # (learned parameter, reference parameter), best renaming
    metric_param_mapping: tuple[tuple[str, str], ...]
    edits: tuple[str, ...]

    @property
    def pre(self) -> Counts:
        return pooled(self.counts[c] for c in PRE_CATEGORIES)

    @property
    def eff(self) -> Counts:
        return pooled(self.counts[c] for c in EFF_CATEGORIES)

    @property
    def all(self) -> Counts:
        return pooled(self.counts.values())

    @property
    def similarity(self) -> float:
        """1 − (|Δpre| + |Δeff|) / (|∪pre| + |∪eff|), 1 when both actions are empty."""
        return self.all.jaccard


@dataclass(frozen=True)
class ExtraAction:
    """A learned action without a reference counterpart (under the metric mapping)."""

    action: str
    counts: dict[str, Counts]
    edits: tuple[str, ...] = ()


@dataclass(frozen=True)
class CompareResult:
    """Everything `amlasp compare` reports; `.to_frame()` gives one row per reference action."""

    learned: str
    reference: str
    mode: str
    rename: bool
    actions: tuple[ActionComparison, ...]
    extra_actions: tuple[ExtraAction, ...]
    edit_distance: int
    optimal: bool
    edits: tuple[str, ...]
    predicate_mapping: tuple[tuple[str, str], ...]
    action_mapping: tuple[tuple[str, str], ...]
    type_differences: tuple[str, ...]
    notes: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()
    seconds: float = 0.0
    solve_seconds: float = 0.0
    bound: int | None = None  # proven lower bound when not optimal (None if unknown)

    # ---- aggregates
    def _macro(self, pick) -> tuple[float, float, float]:
        if not self.actions:  # no reference actions: undefined (n/a, null in JSON)
            return (math.nan, math.nan, math.nan)
        cs = [pick(a) for a in self.actions]
        n = len(cs)
        return (sum(c.precision for c in cs) / n, sum(c.recall for c in cs) / n, sum(c.f1 for c in cs) / n)

    def _cumulative(self, cats: Sequence[str]) -> Counts:
        total = pooled(a.counts[c] for a in self.actions for c in cats)
        extra = pooled(e.counts[c] for e in self.extra_actions for c in cats)
        return Counts(total.tp, total.fp + extra.fp, total.fn, None)

    def macro(self, part: str = "all") -> tuple[float, float, float]:
        """(precision, recall, F1) averaged over the reference's actions; part = pre | eff | all."""
        return self._macro(lambda a: getattr(a, part))

    def cumulative(self, part: str = "all") -> Counts:
        cats = {"pre": PRE_CATEGORIES, "eff": EFF_CATEGORIES, "all": CATEGORIES}[part]
        return self._cumulative(cats)

    @property
    def similarity(self) -> float:
        return sum(a.similarity for a in self.actions) / len(self.actions) if self.actions else math.nan

    @property
    def action_accuracy(self) -> float:
        return sum(a.equivalent for a in self.actions) / len(self.actions) if self.actions else math.nan

    def summary(self) -> dict:
        pm, rm, fm = self.macro("all")
        c = self.cumulative("all")
        out = {"precision_macro": pm, "recall_macro": rm, "f1_macro": fm,
               "precision_cumulative": c.precision, "recall_cumulative": c.recall, "f1_cumulative": c.f1,
               "similarity": self.similarity, "action_accuracy": self.action_accuracy,
               "edit_distance": self.edit_distance, "optimal": self.optimal}
        for part in ("pre", "eff"):
            p, r, f = self.macro(part)
            cc = self.cumulative(part)
            out.update({f"{part}_precision_macro": p, f"{part}_recall_macro": r,
                        f"{part}_precision_cumulative": cc.precision, f"{part}_recall_cumulative": cc.recall})
        out.update({"tp": c.tp, "fp": c.fp, "fn": c.fn, "reference_actions": len(self.actions),
                    "equivalent_actions": sum(a.equivalent for a in self.actions),
                    "missing_actions": sum(a.learned is None for a in self.actions),
                    "extra_actions": len(self.extra_actions)})
        if not self.optimal:
            out["edit_distance_lower_bound"] = self.bound
        return out

    def to_dict(self) -> dict:
        """The `--format json` object (documented in docs/compare.md)."""
        def cats(counts: dict[str, Counts]) -> dict:
            return {k: counts[k].to_dict() for k in CATEGORIES}
        actions = []
        for a in self.actions:
            d = {"action": a.action, "learned": a.learned, **cats(a.counts),
                 "pre": a.pre.to_dict(), "eff": a.eff.to_dict(), "all": a.all.to_dict(),
                 "conditions": [{"condition": c.condition, "side": c.side, **c.counts.to_dict()} for c in a.conditions],
                 "similarity": a.similarity, "equivalent": a.equivalent, "best_match": a.best_match,
                 "param_distance": a.param_distance, "pre_distance": a.pre_distance, "eff_distance": a.eff_distance,
                 "param_mapping": [list(p) for p in a.param_mapping],
                 "metric_param_mapping": [list(p) for p in a.metric_param_mapping], "edits": list(a.edits)}
            actions.append(d)
        return {
            "learned": self.learned, "reference": self.reference, "mode": self.mode, "rename": self.rename,
            "actions": actions,
            "extra_actions": [{"action": e.action, **cats(e.counts), "edits": list(e.edits)} for e in self.extra_actions],
            "summary": self.summary(),
            "mapping": {"predicates": [list(p) for p in self.predicate_mapping],
                        "actions": [list(p) for p in self.action_mapping]},
            "edits": list(self.edits), "type_differences": list(self.type_differences),
            "notes": list(self.notes), "warnings": list(self.warnings), "legend": LEGEND,
            "seconds": self.seconds,
        }

    def to_frame(self):
        """One row per reference action: counts, P/R/F1 per category, similarity, distances."""
        import pandas as pd
        rows = []
        for a in self.actions:
            row = {"action": a.action, "learned": a.learned}
            for k in CATEGORIES:
                c = a.counts[k]
                row.update({f"{k}_tp": c.tp, f"{k}_fp": c.fp, f"{k}_fn": c.fn, f"{k}_tn": c.tn,
                            f"{k}_precision": c.precision, f"{k}_recall": c.recall, f"{k}_f1": c.f1})
            for part in ("pre", "eff", "all"):
                c = getattr(a, part)
                row.update({f"{part}_precision": c.precision, f"{part}_recall": c.recall, f"{part}_f1": c.f1})
            row.update({"similarity": a.similarity, "equivalent": a.equivalent, "best_match": a.best_match,
                        "param_distance": a.param_distance, "pre_distance": a.pre_distance,
                        "eff_distance": a.eff_distance, "edits": len(a.edits)})
            rows.append(row)
        return pd.DataFrame(rows)


# ============================================================================ facts

def _q(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


class _Structure:
    """Structure facts of one model: atom decomposition, formula skeletons, condition texts,
    and the display text of every unit (for edits)."""

    def __init__(self, domain: Domain, tag: str):
        self.tag = tag
        self.lines: list[str] = []
        self.atoms: dict[str, tuple[str, list[str]]] = {}
        self.unit_text: dict[tuple[str, str], tuple[str, str]] = {}  # (action, unit) → (kind, text)
        typed = bool(domain.types) or any(t != "object" for a in domain.actions for _, t in a.parameters)
        for a in domain.actions:
            self._action(a, typed)

    def atom(self, atom: Atom, params: dict[str, int]) -> str:
        text = lifted_atom(atom, params)
        if text not in self.atoms:
            args = [f"v({params[x]})" if is_var(x) else f"c({asp_name(x)})" for x in atom.args]
            pred = "eq" if atom.predicate == "=" else asp_name(atom.predicate)
            self.atoms[text] = (pred, args)
        return text

    def skeleton(self, f: Formula, params: dict[str, int], leaves: list[str]) -> str:
        """A formula's shape with atoms as `#` (their lifted texts go to `leaves`, in order).
        Conjuncts and disjuncts are sorted by their lifted text, so that their order does not
        matter when names agree."""
        if isinstance(f, Atom):
            leaves.append(self.atom(f, params))
            return "#"
        if isinstance(f, Not):
            return f"(not {self.skeleton(f.arg, params, leaves)})"
        if isinstance(f, (And, Or)):
            op = "and" if isinstance(f, And) else "or"
            parts = []
            for g in f.args:
                sub: list[str] = []
                sk = self.skeleton(g, params, sub)
                parts.append((sk + "|" + ",".join(sub), sk, sub))
            parts.sort(key=lambda x: x[0])
            for _, _, sub in parts:
                leaves.extend(sub)
            return f"({op}" + "".join(" " + sk for _, sk, _ in parts) + ")"
        if isinstance(f, Imply):
            return f"(imply {self.skeleton(f.left, params, leaves)} {self.skeleton(f.right, params, leaves)})"
        if isinstance(f, (Exists, Forall)):
            inner = dict(params)
            for v, _ in f.variables:
                inner[v] = max(inner.values(), default=0) + 1
            q = "exists" if isinstance(f, Exists) else "forall"
            types = " ".join(asp_name(t) for _, t in f.variables)
            return f"({q} ({types}) {self.skeleton(f.body, inner, leaves)})"
        raise TypeError(f"not a formula: {f!r}")

    def _formula_facts(self, a: str, fid: str, f: Formula, params: dict[str, int]) -> str:
        leaves: list[str] = []
        sk = self.skeleton(f, params, leaves)
        self.lines.append(f"formula({self.tag},{a},{fid},{_q(sk)}).")
        self.lines += [f"fleaf({self.tag},{a},{fid},{j},{l})." for j, l in enumerate(leaves, 1)]
        return sk + "|" + ",".join(leaves)

    def _action(self, action, typed: bool) -> None:
        a = asp_name(action.name)
        params = {v: i for i, (v, _) in enumerate(action.parameters, 1)}
        lits = conjunction_literals(action.precondition)
        top = lits if lits is not None else top_literals(action.precondition)
        for l in top:
            L = self.atom(l.atom, params)
            self.unit_text[(a, f"lit(pre,{'pos' if l.positive else 'neg'},{L})")] = ("precondition", str(l))
        if lits is None:
            parts = action.precondition.args if isinstance(action.precondition, And) else (action.precondition,)
            j = 0
            for g in parts:
                if isinstance(g, Atom) or isinstance(g, Not) and isinstance(g.arg, Atom):
                    continue
                j += 1
                self._formula_facts(a, f"p({j})", g, params)
                self.unit_text[(a, f"pf({j})")] = ("precondition", formula_text(g, typed))
        for k, e in enumerate(action.effects):
            if e.unconditional:
                L = self.atom(e.literal.atom, params)
                self.unit_text[(a, f"lit(eff,{'pos' if e.literal.positive else 'neg'},{L})")] = ("effect", str(e.literal))
                continue
            local = dict(params)
            for j, (v, _) in enumerate(e.variables, 1):
                local[v] = len(params) + j
            self.atom(e.literal.atom, local)
            cond = conjunction_literals(e.condition)
            head = ",".join(asp_name(t) for _, t in e.variables)
            if cond is None:
                text = "complex:" + self._formula_facts(a, f"w({k})", e.condition, local)
            else:
                text = ";".join(sorted(f"{'pos' if l.positive else 'neg'}:{self.atom(l.atom, local)}" for l in cond))
            self.lines.append(f"ccond({self.tag},{a},{k},{_q(head + '|' + text)}).")
            self.unit_text[(a, f"ce({k})")] = ("conditional effect", effect_text(e, typed))

    def facts(self) -> str:
        out = list(self.lines)
        for text, (pred, args) in self.atoms.items():
            out.append(f"atom_pred({text},{pred},{len(args)}).")
            out += [f"atom_arg({text},{i},{x})." for i, x in enumerate(args, 1)]
        return "\n".join(out) + "\n"


# ============================================================================ solving

@dataclass
class _Optimum:
    symbols: list[clingo.Symbol]
    cost: int
    optimal: bool
    bound: int | None
    seconds: float


def _control(args: Sequence[str]) -> clingo.Control:
    return clingo.Control(["--warn=none", *args])


def _optimise(program: str, time_limit: float) -> _Optimum:
    """Minimise the edits. Core-guided optimisation (usc) proves small optima fast but finds its
    first model only at the optimum; if it runs out of time without one, branch-and-bound gets
    the rest of the time for a best-found answer, reported as not optimal with usc's lower bound."""
    ctl = _control(["--opt-strategy=usc", "--opt-mode=opt"])
    ctl.add("base", [], program)
    ctl.ground([("base", [])])
    best: dict = {}

    def on_model(m: clingo.Model) -> None:
        best["symbols"] = m.symbols(shown=True)
        best["cost"] = m.cost[0] if m.cost else 0

    t0 = time.perf_counter()
    first = 0.8 * time_limit
    with ctl.solve(on_model=on_model, async_=True) as handle:
        finished = handle.wait(first)
        if not finished:
            handle.cancel()
        result = handle.get()
    optimal = bool(finished and result.exhausted and "symbols" in best)
    bound = None
    if optimal:
        bound = best["cost"]
    else:
        try:
            lower = ctl.statistics["summary"]["lower"]
            bound = int(lower[0]) if lower else None
        except (KeyError, TypeError, IndexError):
            bound = None
        if result.unsatisfiable:
            raise RuntimeError("internal error: the edit-distance encoding has no answer")
        if "symbols" not in best:
            ctl.configuration.solver.opt_strategy = "bb"
            with ctl.solve(on_model=on_model, async_=True) as handle:
                finished = handle.wait(max(time_limit - (time.perf_counter() - t0), 1.0))  # at least 1 s for an answer
                if not finished:
                    handle.cancel()
                result = handle.get()
            optimal = bool(finished and result.exhausted and "symbols" in best)
            if optimal:
                bound = best["cost"]
    seconds = time.perf_counter() - t0
    if "symbols" not in best:
        raise InputError(f"no renaming found within the time limit of {time_limit:g} s (raise --time-limit)")
    return _Optimum(best["symbols"], best["cost"], optimal, bound, seconds)


def _solve_once(program: str) -> list[clingo.Symbol]:
    ctl = _control(["--opt-mode=ignore", "--models=1"])
    ctl.add("base", [], program)
    ctl.ground([("base", [])])
    out: list[clingo.Symbol] | None = None
    with ctl.solve(yield_=True) as handle:
        for m in handle:
            out = m.symbols(atoms=True)
            break
    if out is None:
        raise RuntimeError("internal error: the comparison encoding has no answer")
    return out


# ============================================================================ the API

def _as_domain(x: str | Path | Domain) -> Domain:
    return x if isinstance(x, Domain) else load_domain(x)


def compare(learned: str | Path | Domain, reference: str | Path | Domain, *, align: bool = False,
            rename: bool = False, time_limit: float = 60.0) -> CompareResult:
    """Compare a learned domain with a reference domain (paths or Domain objects).

    Metrics match actions and predicates by name and parameters by position; `align` uses the
    type-consistent parameter bijection with the most agreement instead, and `rename` the whole
    optimal renaming of predicates, actions and parameters. The edit distance is always up to
    renaming (names that agree stay fixed unless `rename`), proven optimal unless `time_limit`
    seconds pass first (then `optimal` is False and the best distance found is reported).
    """
    t0 = time.perf_counter()
    ld, rd = _as_domain(learned), _as_domain(reference)
    for d, model in ((ld, "learned"), (rd, "reference")):  # names of one kind that would meet as one symbol
        for kind, named in (("predicate", d.predicates), ("action", d.actions)):
            distinct_symbols([(x.name, kind) for x in named], d.file, model)
    mode = "best" if rename else ("align" if align else "position")
    ls, rs = _Structure(ld, LEARNED), _Structure(rd, REF)
    base = [domain_facts(ld, LEARNED), domain_facts(rd, REF), ls.facts(), rs.facts(),
            encoding("types"), encoding("compare"), encoding("edit")]
    if rename:
        base.append("rename.")
    shows = "#show pm/3. #show am/3. #show vm/5."
    opt = _optimise("\n".join(base + ["phase(optimise).", shows]), time_limit)
    mapping = "".join(f"{s}." for s in opt.symbols) + "mapping(best).\n"
    syms = _solve_once("\n".join(base + ["phase(metrics).", f"metric_mode({mode}).", mapping]))
    res = _Reader(ld, rd, ls, rs, syms).result(mode, rename, opt)
    warnings = tuple(f"{d.file or name}: {w}" for d, name in ((ld, "learned"), (rd, "reference")) for w in d.warnings)
    if res.edit_distance != opt.cost:
        raise RuntimeError(f"internal error: edit distance {res.edit_distance} != optimum {opt.cost}")
    from dataclasses import replace
    return replace(res, warnings=warnings, seconds=time.perf_counter() - t0, solve_seconds=opt.seconds)


# ============================================================================ reading answers

class _Reader:
    """Turns the metric program's atoms into result objects (names, texts, edits)."""

    def __init__(self, ld: Domain, rd: Domain, ls: _Structure, rs: _Structure, syms: list[clingo.Symbol]):
        self.ld, self.rd, self.ls, self.rs = ld, rd, ls, rs
        self.la = {asp_name(a.name): a for a in ld.actions}
        self.ra = {asp_name(a.name): a for a in rd.actions}
        self.lp = {asp_name(p.name): p for p in ld.predicates}
        self.rp = {asp_name(p.name): p for p in rd.predicates}
        self.by: dict[str, list[tuple]] = {}
        for s in syms:
            self.by.setdefault(s.name, []).append(tuple(s.arguments))

    def get(self, name: str, x: str | None = None) -> list[tuple]:
        rows = self.by.get(name, [])
        if x is None:
            return rows
        return [r[1:] for r in rows if str(r[0]) == x]

    def lname(self, a: str) -> str:
        return self.la[a].name if a in self.la else a

    def rname(self, b: str) -> str:
        return self.ra[b].name if b in self.ra else b

    def label(self, a: str | None, b: str | None) -> str:
        if a is None:
            return self.rname(b)
        if b is None:
            return self.lname(a)
        return self.rname(b) if a == b else f"{self.lname(a)}→{self.rname(b)}"

    def result(self, mode: str, rename: bool, opt: _Optimum) -> CompareResult:
        num = lambda s: s.number  # noqa: E731
        amap = {str(a): str(b) for a, b in self.get("am", "best")}
        amap_inv = {b: a for a, b in amap.items()}
        metric = {str(b): str(a) for a, b in self.get("am", "metric")}
        vm = {}
        for X, a, b, i, j in self.get("vm"):
            vm.setdefault((str(X), str(a)), []).append((num(i), num(j)))
        counts: dict[tuple[str, str, str], dict[str, int]] = {}
        for name in ("n_ref", "tp", "fp", "tn"):
            for X, b, c, s, n in self.get(name):
                counts.setdefault((str(X), str(b), _ASP_CATEGORY[(str(c), str(s))]), {})[name] = num(n)
        extra_counts: dict[str, dict[str, Counts]] = {}
        for X, a, c, s, n in self.get("fp_extra"):
            if str(X) == "metric":
                extra_counts.setdefault(str(a), {})[_ASP_CATEGORY[(str(c), str(s))]] = Counts(0, num(n), 0, None)
        d_param = {str(b): num(n) for b, n in self.get("d_param")}
        d_pre = {str(b): num(n) for b, n in self.get("d_pre")}
        d_eff = {str(b): num(n) for b, n in self.get("d_eff")}
        equivalent = {str(b[0]) for b in self.get("equivalent")}
        edits_by: dict[str, list[tuple]] = {}
        all_edits: list[tuple] = []
        for (e,) in self.get("edit"):
            key, text = self._edit(e, amap, amap_inv)
            all_edits.append((key, text))
            owner = key[1]
            edits_by.setdefault(owner, []).append((key, text))
        cond = self._conditions()

        actions = []
        for ra in self.rd.actions:
            b = asp_name(ra.name)
            cs = {}
            for cat in CATEGORIES:
                got = counts.get(("metric", b, cat), {})
                n, tp, fp = got.get("n_ref", 0), got.get("tp", 0), got.get("fp", 0)
                tn = got.get("tn") if cat in LITERAL_CATEGORIES else None
                cs[cat] = Counts(tp, fp, n - tp, tn)
            best = amap_inv.get(b)
            pmap = tuple((self.la[best].parameters[i - 1][0], ra.parameters[j - 1][0])
                         for i, j in sorted(vm.get(("best", best), []))) if best else ()
            mpa = metric.get(b)
            mmap = tuple((self.la[mpa].parameters[i - 1][0], ra.parameters[j - 1][0])
                         for i, j in sorted(vm.get(("metric", mpa), []))) if mpa else ()
            actions.append(ActionComparison(
                action=ra.name, learned=self.lname(mpa) if mpa else None, counts=cs,
                conditions=tuple(cond.get(b, ())), best_match=self.lname(best) if best else None,
                equivalent=b in equivalent, param_distance=d_param.get(b, 0), pre_distance=d_pre.get(b, 0),
                eff_distance=d_eff.get(b, 0), param_mapping=pmap, metric_param_mapping=mmap,
                edits=tuple(t for _, t in sorted(edits_by.get(f"r:{b}", [])))))
        extras = []
        for la in self.ld.actions:
            a = asp_name(la.name)
            if a in extra_counts:
                cs = {cat: extra_counts[a].get(cat, Counts(0, 0, 0, None)) for cat in CATEGORIES}
                extras.append(ExtraAction(la.name, cs, tuple(t for _, t in sorted(edits_by.get(f"l:{a}", [])))))
        edit_list = tuple(t for _, t in sorted(all_edits))
        (dist,) = self.get("edit_distance")[0]
        return CompareResult(
            learned=self.ld.file or self.ld.name, reference=self.rd.file or self.rd.name, mode=mode, rename=rename,
            actions=tuple(actions), extra_actions=tuple(extras), edit_distance=num(dist), optimal=opt.optimal,
            edits=edit_list,
            predicate_mapping=tuple(sorted((self.lp[str(p)].name, self.rp[str(q)].name)
                                           for p, q in self.get("pm", "best") if str(p) != "eq")),
            action_mapping=tuple((self.lname(a), self.rname(b)) for a, b in amap.items()),
            type_differences=self._types(), notes=self._notes(amap, rename), bound=opt.bound)

    # ---- texts
    def _unit(self, s: _Structure, a: str, u: clingo.Symbol) -> tuple[str, str]:
        return s.unit_text.get((a, str(u)), ("literal", str(u)))

    def _edit(self, e: clingo.Symbol, amap: dict, amap_inv: dict) -> tuple[tuple, str]:
        kind, args = e.name, e.arguments
        order_r = {asp_name(x.name): i for i, x in enumerate(self.rd.actions)}
        order_l = {asp_name(x.name): i for i, x in enumerate(self.ld.actions)}

        def owner(a: str | None = None, b: str | None = None) -> tuple[str, int]:
            if b is None and a is not None:
                b = amap.get(a)
            if b is not None:
                return order_r.get(b, 0), f"r:{b}"
            return len(order_r) + order_l.get(a, 0), f"l:{a}"

        if kind == "remove_action":
            a = str(args[0])
            act = self.la[a]
            return (*owner(a=a), 0, 0, ""), f"remove action {act.name} ({typed_text(act.parameters)})"
        if kind == "add_action":
            b = str(args[0])
            act = self.ra[b]
            return (*owner(b=b), 0, 1, ""), f"add action {act.name} ({typed_text(act.parameters)})"
        if kind == "remove_predicate":
            return (10 ** 6, "~", 0, 0, str(args[0])), f"remove predicate {predicate_text(self.lp[str(args[0])])}"
        if kind == "add_predicate":
            return (10 ** 6, "~", 0, 1, str(args[0])), f"add predicate {predicate_text(self.rp[str(args[0])])}"
        if kind == "remove_param":
            a, i = str(args[0]), args[1].number
            v, t = self.la[a].parameters[i - 1]
            return (*owner(a=a), 1, 0, str(i)), f"{self.label(a, amap.get(a))}: remove parameter {v} - {t}"
        if kind == "add_param":
            b, j = str(args[0]), args[1].number
            v, t = self.ra[b].parameters[j - 1]
            return (*owner(b=b), 1, 1, str(j)), f"{self.label(amap_inv.get(b), b)}: add parameter {v} - {t}"
        if kind == "remove":
            a = str(args[0])
            what, text = self._unit(self.ls, a, args[1])
            image = self._image(a, amap.get(a), args[1])
            if image is not None and image.replace("-", "_") != text.replace("-", "_"):
                text = f"{image} [learned: {text}]"
            rank = 2 if what == "precondition" else 3
            return (*owner(a=a), rank, 0, text), f"{self.label(a, amap.get(a))}: remove {what} {text}"
        if kind == "add":
            b = str(args[0])
            what, text = self._unit(self.rs, b, args[1])
            rank = 2 if what == "precondition" else 3
            return (*owner(b=b), rank, 1, text), f"{self.label(amap_inv.get(b), b)}: add {what} {text}"
        return (10 ** 7, "~", 0, 0, str(e)), str(e)

    def _image(self, a: str, b: str | None, u: clingo.Symbol) -> str | None:
        """A learned literal in the reference's vocabulary under the best renaming (what the edit
        removes once the learned model is renamed); unmapped names stay as they are."""
        if b is None or u.name != "lit":
            return None
        sign, atom = u.arguments[1].name, u.arguments[2]
        pmap = {str(p): str(q) for p, q in self.get("pm", "best")}
        vmap = {i.number: j.number for x, la, rb, i, j in self.get("vm") if str(x) == "best" and str(la) == a}
        consts = {asp_name(c): c for c, _ in self.ld.constants}
        if atom.name == "eq":
            pred = "="
        else:
            q = pmap.get(atom.name)
            pred = self.rp[q].name if q in self.rp else self.lp[atom.name].name if atom.name in self.lp else atom.name
        args = []
        for t in atom.arguments:
            if t.name == "v":
                i = t.arguments[0].number
                if i in vmap:
                    args.append(self.ra[b].parameters[vmap[i] - 1][0])
                elif i <= self.la[a].arity:
                    args.append(self.la[a].parameters[i - 1][0])
                else:
                    return None
            else:
                args.append(consts.get(t.arguments[0].name, t.arguments[0].name))
        text = "(" + " ".join([pred] + args) + ")"
        return text if sign == "pos" else f"(not {text})"

    def _conditions(self) -> dict[str, list[ConditionCounts]]:
        out: dict[str, list[ConditionCounts]] = {}
        groups: dict[tuple[str, str], dict[str, int]] = {}
        for name in ("cond_n", "cond_tp", "cond_fp"):
            for X, b, g, n in self.get(name):
                if str(X) == "metric":
                    groups.setdefault((str(b), g.string), {})[name] = n.number
        texts = {}
        for ra in self.rd.actions:
            b = asp_name(ra.name)
            for k, e in enumerate(ra.effects):
                if not e.unconditional:
                    texts.setdefault((b, self._cond_key(REF, b, k)), _cond_text(e))
        for (b, g), d in sorted(groups.items()):
            n, tp, fp = d.get("cond_n", 0), d.get("cond_tp", 0), d.get("cond_fp", 0)
            out.setdefault(b, []).append(ConditionCounts(texts.get((b, g), g), "reference", Counts(tp, fp, n - tp)))
        for X, b, g, n in self.get("cond_fp_learned"):
            if str(X) == "metric":
                out.setdefault(str(b), []).append(ConditionCounts(self._learned_cond_text(str(b), g.string), "learned",
                                                                  Counts(0, n.number, 0)))
        return out

    def _cond_key(self, tag: str, a: str, k: int) -> str:
        for args in self.get("ccond", tag):
            if str(args[0]) == a and args[1].number == k:
                return args[2].string
        return ""

    def _learned_cond_text(self, b: str, g: str) -> str:
        for args in self.get("ccond", LEARNED):
            if args[2].string == g:
                la = self.la.get(str(args[0]))
                if la is not None:
                    return _cond_text(la.effects[args[1].number])
        return g

    def _types(self) -> tuple[str, ...]:
        names = {"object": "object"}
        for d in (self.rd, self.ld):
            for t, parent in d.types:
                names.setdefault(asp_name(t), t)
                names.setdefault(asp_name(parent), parent)
            for c, _ in d.constants:
                names.setdefault(asp_name(c), c)
        n = lambda sym: names.get(str(sym), str(sym))  # noqa: E731
        out = []
        for m, t in self.get("type_only"):
            out.append(f"type {n(t)} only in the {'learned' if str(m) == LEARNED else 'reference'} model")
        for t, p1, p2 in self.get("parent_diff"):
            out.append(f"type {n(t)}: parent {n(p1)} in the learned model, {n(p2)} in the reference")
        for m, c in self.get("constant_only"):
            out.append(f"constant {n(c)} only in the {'learned' if str(m) == LEARNED else 'reference'} model")
        for c, t, u in self.get("constant_type_diff"):
            out.append(f"constant {n(c)}: type {n(t)} in the learned model, {n(u)} in the reference")
        for p, q, i, t, u in self.get("predtype_diff"):
            out.append(f"predicate {self.rp[str(q)].name} argument {i}: type {n(t)} in the learned model, "
                       f"{n(u)} in the reference")
        for X, a, b, i, j, t, u in self.get("ptype_diff"):
            if str(X) == "best":
                out.append(f"action {self.rname(str(b))} parameter {self.ra[str(b)].parameters[j.number - 1][0]}: "
                           f"type {n(t)} in the learned model, {n(u)} in the reference")
        return tuple(sorted(set(out)))

    def _notes(self, amap: dict, rename: bool) -> tuple[str, ...]:
        out = []
        for a in self.la:
            if not rename and a in self.ra and amap.get(a) != a:
                la, ra = self.la[a], self.ra[a]
                out.append(f"action {ra.name}: the learned and reference actions share the name but their "
                           f"parameters cannot be mapped type-consistently (learned ({typed_text(la.parameters)}), "
                           f"reference ({typed_text(ra.parameters)})): it is removed and added")
        for p in self.lp:
            if p in self.rp and self.lp[p].arity != self.rp[p].arity:
                out.append(f"predicate {self.rp[p].name}: arity {self.lp[p].arity} in the learned model, "
                           f"{self.rp[p].arity} in the reference: not the same predicate")
        return tuple(out)


def _cond_text(e) -> str:
    text = formula_text(e.condition) if e.condition != TRUE else "(and)"
    if e.variables:
        text = f"forall ({typed_text(e.variables)}) {text}"
    return text


__all__ = ["compare", "CompareResult", "ActionComparison", "ExtraAction", "Counts", "ConditionCounts", "LEGEND"]
