"""The metric program's answer → a `CompareResult`: clingo names back to PDDL names, the
edits as sentences in a stable order, per-action counts and mappings."""

from __future__ import annotations

from typing import Any, Callable, Sequence

import clingo

from ...asp.decode import Decoder
from ...asp.names import LEARNED, REF, asp_name
from ...asp.run import Optimum
from ...asp.schema import (
    AM,
    CCOND,
    COND_FP,
    COND_FP_LEARNED,
    COND_N,
    COND_TP,
    CONSTANT_ONLY,
    CONSTANT_TYPE_DIFF,
    D_EFF,
    D_PARAM,
    D_PRE,
    EDIT,
    EDIT_DISTANCE,
    EQUIVALENT,
    FP,
    FP_EXTRA,
    LITERAL,
    N_REF,
    NAMED_CONSTANT,
    PARENT_DIFF,
    PM,
    PREDTYPE_DIFF,
    PTYPE_DIFF,
    TN,
    TP,
    TYPE_ONLY,
    VARIABLE,
    VM,
    Pred,
)
from ...logic import text as formula_text
from ...logic import typed_text
from ...model import TRUE, Action, Domain, Effect
from ...pddl.writer import predicate_text
from .result import (
    CATEGORIES,
    LITERAL_CATEGORIES,
    ActionComparison,
    CompareResult,
    ConditionCounts,
    Counts,
    ExtraAction,
)
from .structure import Structure, static_costs

#: compare.lp's (category, sign) → the result's category.
_CATEGORY = {("pre", "pos"): "pre_pos", ("pre", "neg"): "pre_neg", ("eff", "pos"): "eff_pos",
             ("eff", "neg"): "eff_neg", ("ceff", "pos"): "ceff_pos", ("ceff", "neg"): "ceff_neg",
             ("pref", "pos"): "pre_other", ("cost", "pos"): "cost", ("pre", "num"): "pre_num",
             ("eff", "num"): "eff_num", ("ceff", "num"): "ceff_num"}

#: What `Reader` reads of the metric program's answer: shown (`#show`), not all its atoms, which
#: grow with the models (reading the 120,000 atoms of 5,000 predicates a side took a second); of
#: `pm/3` only the best renaming's (the metric mapping's repeats every shared name).
READS = (AM, CCOND, COND_FP, COND_FP_LEARNED, COND_N, COND_TP, CONSTANT_ONLY, CONSTANT_TYPE_DIFF, D_EFF, D_PARAM,
         D_PRE, EDIT, EDIT_DISTANCE, EQUIVALENT, FP, FP_EXTRA, N_REF, PARENT_DIFF, PREDTYPE_DIFF, PTYPE_DIFF, TN,
         TP, TYPE_ONLY, VM)


def shows() -> str:
    """The `#show` statements of what `Reader` reads."""
    return " ".join([p.show() for p in READS] + [PM.show(mapping="best")])

#: An edit: its sort key (owner's rank, owner, unit rank, remove/add, unit text) and its sentence.
Edit = tuple[tuple, str]


class Reader:
    """Turns the metric program's atoms into result objects (names, texts, edits)."""

    def __init__(self, ld: Domain, rd: Domain, ls: Structure, rs: Structure, syms: Sequence[clingo.Symbol]):
        self.ld, self.rd, self.ls, self.rs = ld, rd, ls, rs
        self.la = {asp_name(a.name): a for a in ld.actions}
        self.ra = {asp_name(a.name): a for a in rd.actions}
        self.lp = {asp_name(p.name): p for p in ld.predicates}
        self.rp = {asp_name(p.name): p for p in rd.predicates}
        # numeric fluents and the static cost functions (renamed like predicates: structure.Structure)
        self.lf = {asp_name(f.name): f for f in ld.functions + static_costs(ld)}
        self.rf = {asp_name(f.name): f for f in rd.functions + static_costs(rd)}
        self.order_l = {asp_name(a.name): i for i, a in enumerate(ld.actions)}
        self.order_r = {asp_name(b.name): i for i, b in enumerate(rd.actions)}
        self.by: dict[tuple[str, int], list[clingo.Symbol]] = {}  # the atoms by signature
        for s in syms:
            self.by.setdefault((s.name, len(s.arguments)), []).append(s)
        self.amap = {str(r.learned): str(r.reference) for r in self.get(AM, mapping="best")}  # learned → reference
        self.best_of = {b: a for a, b in self.amap.items()}  # and back
        self.pmap = {str(r.learned): str(r.reference) for r in self.get(PM)}  # predicates (only best's shown)
        self.vm: dict[tuple[str, str], list[tuple[int, int]]] = {}  # (mapping, learned action) → (i, j)
        for r in self.get(VM):
            self.vm.setdefault((str(r.mapping), str(r.learned)), []).append((r.index.number, r.other.number))
        self.constants = Decoder()  # the learned model's constants (in the images of its literals)
        self.constants.add(*(c for c, _ in ld.constants))
        self.names = Decoder()  # types and constants of both models (in type differences)
        self.names.add("object")
        for d in (rd, ld):
            self.names.add(*(x for t, parent in d.types for x in (t, parent)), *(c for c, _ in d.constants))

    def get(self, pred: Pred, **where: str) -> list[Any]:  # rows by field name (`Pred.read`): typed at run time
        """The atoms of `pred`, by field name; with `where`, those whose fields print as given
        (`mapping="best"`)."""
        rows = pred.select(self.by.get(pred.signature, ()))
        if not where:
            return rows
        return [r for r in rows if all(str(getattr(r, f)) == v for f, v in where.items())]

    def lname(self, a: str) -> str:
        return self.la[a].name if a in self.la else a

    def rname(self, b: str) -> str:
        return self.ra[b].name if b in self.ra else b

    def label(self, a: str | None, b: str | None) -> str:
        if a is None:
            return self.rname(b or "")
        if b is None:
            return self.lname(a)
        return self.rname(b) if a == b else f"{self.lname(a)}→{self.rname(b)}"

    def result(self, mode: str, rename: bool, optimum: Optimum) -> CompareResult:
        edits = sorted(self._edit(r.edit) for r in self.get(EDIT))
        owned: dict[str, list[str]] = {}  # "r:<reference action>" or "l:<learned action>" → its edits
        for key, text in edits:
            owned.setdefault(key[1], []).append(text)
        dist = self.get(EDIT_DISTANCE)[0].distance
        return CompareResult(
            learned=self.ld.file or self.ld.name, reference=self.rd.file or self.rd.name, mode=mode, rename=rename,
            actions=self._actions(owned), extra_actions=self._extras(owned), edit_distance=dist.number,
            optimal=optimum.optimal, edits=tuple(t for _, t in edits),
            predicate_mapping=tuple(sorted((self.lp[p].name, self.rp[q].name) for p, q in self.pmap.items()
                                           if p in self.lp)),
            function_mapping=tuple(sorted((self.lf[p].name, self.rf[q].name) for p, q in self.pmap.items()
                                          if p in self.lf)),
            numeric=bool(self.ld.functions or self.rd.functions),
            action_mapping=tuple((self.lname(a), self.rname(b)) for a, b in  # in the learned model's order
                                 sorted(self.amap.items(), key=lambda ab: self.order_l.get(ab[0], 0))),
            type_differences=self._types(), notes=self._notes(rename), bound=optimum.bound)

    # ---- per action
    def _actions(self, owned: dict[str, list[str]]) -> tuple[ActionComparison, ...]:
        """One comparison per reference action, in the reference's order."""
        metric_of = {str(r.reference): str(r.learned) for r in self.get(AM, mapping="metric")}
        counts = self._counts()
        distance = {p: {str(r.action): r.distance.number for r in self.get(p)} for p in (D_PARAM, D_PRE, D_EFF)}
        equivalent = {str(r.action) for r in self.get(EQUIVALENT)}
        conditions = self._conditions()
        out = []
        for ra in self.rd.actions:
            b = asp_name(ra.name)
            best, metric = self.best_of.get(b), metric_of.get(b)
            out.append(ActionComparison(
                action=ra.name, learned=self.lname(metric) if metric else None, counts=counts(b),
                conditions=tuple(conditions.get(b, ())), best_match=self.lname(best) if best else None,
                equivalent=b in equivalent, param_distance=distance[D_PARAM].get(b, 0),
                pre_distance=distance[D_PRE].get(b, 0), eff_distance=distance[D_EFF].get(b, 0),
                param_mapping=self._params("best", best, ra), metric_param_mapping=self._params("metric", metric, ra),
                edits=tuple(owned.get(f"r:{b}", ()))))
        return tuple(out)

    def _counts(self) -> Callable[[str], dict[str, Counts]]:
        """The counts of a reference action per category, under the metric mapping."""
        got: dict[tuple[str, str], dict[Pred, int]] = {}  # (reference action, category) → count by kind
        for pred in (N_REF, TP, FP, TN):
            for r in self.get(pred, mapping="metric"):
                got.setdefault((str(r.action), _CATEGORY[(str(r.category), str(r.sign))]), {})[pred] = r.count.number

        def of(b: str) -> dict[str, Counts]:
            out = {}
            for cat in CATEGORIES:
                g = got.get((b, cat), {})
                n, tp, fp = g.get(N_REF, 0), g.get(TP, 0), g.get(FP, 0)
                out[cat] = Counts(tp, fp, n - tp, g.get(TN) if cat in LITERAL_CATEGORIES else None)
            return out
        return of

    def _params(self, mapping: str, a: str | None, ra: Action) -> tuple[tuple[str, str], ...]:
        """(learned parameter, reference parameter) of `ra` and its counterpart `a` under `mapping`."""
        if not a:
            return ()
        return tuple((self.la[a].parameters[i - 1][0], ra.parameters[j - 1][0])
                     for i, j in sorted(self.vm.get((mapping, a), [])))

    def _extras(self, owned: dict[str, list[str]]) -> tuple[ExtraAction, ...]:
        """The learned actions without a counterpart under the metric mapping: all false positives."""
        fps: dict[str, dict[str, Counts]] = {}
        for r in self.get(FP_EXTRA, mapping="metric"):
            category = _CATEGORY[(str(r.category), str(r.sign))]
            fps.setdefault(str(r.learned), {})[category] = Counts(0, r.count.number, 0, None)
        out = []
        for la in self.ld.actions:
            a = asp_name(la.name)
            if a in fps:
                cs = {cat: fps[a].get(cat, Counts(0, 0, 0, None)) for cat in CATEGORIES}
                out.append(ExtraAction(la.name, cs, tuple(owned.get(f"l:{a}", ()))))
        return tuple(out)

    # ---- texts
    def _unit(self, s: Structure, a: str, u: clingo.Symbol) -> tuple[str, str]:
        return s.unit_text.get((a, str(u)), ("literal", str(u)))

    def _owner(self, a: str | None, b: str | None) -> tuple[int, str]:
        """The rank and key of the action an edit belongs to: the reference action (the counterpart
        `b` of learned action `a`), else the learned action, after all reference actions."""
        if b is not None:
            return self.order_r.get(b, 0), f"r:{b}"
        return len(self.order_r) + self.order_l.get(a or "", 0), f"l:{a}"

    def _edit(self, e: clingo.Symbol) -> Edit:
        kind, args = e.name, e.arguments
        amap, best_of = self.amap, self.best_of
        if kind == "remove_action":
            a = str(args[0])
            act = self.la[a]
            return (*self._owner(a, amap.get(a)), 0, 0, ""), f"remove action {act.name} ({typed_text(act.parameters)})"
        if kind == "add_action":
            b = str(args[0])
            act = self.ra[b]
            return (*self._owner(None, b), 0, 1, ""), f"add action {act.name} ({typed_text(act.parameters)})"
        if kind == "remove_function":
            f = self.lf[str(args[0])]
            return (10 ** 6, "~", 1, 0, str(args[0])), f"remove function {predicate_text(f)}"
        if kind == "add_function":
            f = self.rf[str(args[0])]
            return (10 ** 6, "~", 1, 1, str(args[0])), f"add function {predicate_text(f)}"
        if kind == "remove_predicate":
            return (10 ** 6, "~", 0, 0, str(args[0])), f"remove predicate {predicate_text(self.lp[str(args[0])])}"
        if kind == "add_predicate":
            return (10 ** 6, "~", 0, 1, str(args[0])), f"add predicate {predicate_text(self.rp[str(args[0])])}"
        if kind == "remove_param":
            a, i = str(args[0]), args[1].number
            v, t = self.la[a].parameters[i - 1]
            return (*self._owner(a, amap.get(a)), 1, 0, str(i)), \
                f"{self.label(a, amap.get(a))}: remove parameter {v} - {t}"
        if kind == "add_param":
            b, j = str(args[0]), args[1].number
            v, t = self.ra[b].parameters[j - 1]
            return (*self._owner(None, b), 1, 1, str(j)), f"{self.label(best_of.get(b), b)}: add parameter {v} - {t}"
        if kind == "remove":
            a = str(args[0])
            what, text = self._unit(self.ls, a, args[1])
            image = self._image(a, amap.get(a), args[1])
            if image is not None and image.replace("-", "_") != text.replace("-", "_"):
                text = f"{image} [learned: {text}]"
            rank = 2 if what == "precondition" else 3
            return (*self._owner(a, amap.get(a)), rank, 0, text), f"{self.label(a, amap.get(a))}: remove {what} {text}"
        if kind == "add":
            b = str(args[0])
            what, text = self._unit(self.rs, b, args[1])
            rank = 2 if what == "precondition" else 3
            return (*self._owner(None, b), rank, 1, text), f"{self.label(best_of.get(b), b)}: add {what} {text}"
        return (10 ** 7, "~", 0, 0, str(e)), str(e)

    def _image(self, a: str, b: str | None, u: clingo.Symbol) -> str | None:
        """A learned literal in the reference's vocabulary under the best renaming (what the edit
        removes once the learned model is renamed); unmapped names stay as they are."""
        if b is None or u.name != "lit":
            return None
        lit = LITERAL.read(u)
        sign, atom = lit.sign.name, lit.atom
        vmap = dict(self.vm.get(("best", a), []))
        if atom.name == "eq":
            pred = "="
        else:
            q = self.pmap.get(atom.name)
            pred = self.rp[q].name if q in self.rp else self.lp[atom.name].name if atom.name in self.lp else atom.name
        args = []
        for t in atom.arguments:
            if VARIABLE.matches(t):
                i = VARIABLE.read(t).index.number
                if i in vmap:
                    args.append(self.ra[b].parameters[vmap[i] - 1][0])
                elif i <= self.la[a].arity:
                    args.append(self.la[a].parameters[i - 1][0])
                else:
                    return None
            else:
                args.append(self.constants.name(NAMED_CONSTANT.read(t).name))
        text = "(" + " ".join([pred] + args) + ")"
        return text if sign == "pos" else f"(not {text})"

    def _conditions(self) -> dict[str, list[ConditionCounts]]:
        out: dict[str, list[ConditionCounts]] = {}
        groups: dict[tuple[str, str], dict[Pred, int]] = {}
        for pred in (COND_N, COND_TP, COND_FP):
            for r in self.get(pred, mapping="metric"):
                groups.setdefault((str(r.action), r.group.string), {})[pred] = r.count.number
        texts: dict[Any, Any] = {}
        for ra in self.rd.actions:
            b = asp_name(ra.name)
            for k, e in enumerate(ra.effects):
                if not e.unconditional:
                    texts.setdefault((b, self._cond_key(REF, b, k)), _cond_text(e))
        for (b, g), d in sorted(groups.items()):
            n, tp, fp = d.get(COND_N, 0), d.get(COND_TP, 0), d.get(COND_FP, 0)
            out.setdefault(b, []).append(ConditionCounts(texts.get((b, g), g), "reference", Counts(tp, fp, n - tp)))
        for r in self.get(COND_FP_LEARNED, mapping="metric"):
            out.setdefault(str(r.action), []).append(ConditionCounts(self._learned_cond_text(r.group.string), "learned",
                                                                     Counts(0, r.count.number, 0)))
        return out

    def _cond_key(self, tag: str, a: str, k: int) -> str:
        for r in self.get(CCOND, model=tag):
            if str(r.action) == a and r.effect.number == k:
                return r.text.string
        return ""

    def _learned_cond_text(self, g: str) -> str:
        for r in self.get(CCOND, model=LEARNED):
            if r.text.string == g:
                la = self.la.get(str(r.action))
                if la is not None:
                    return _cond_text(la.effects[r.effect.number])
        return g

    def _types(self) -> tuple[str, ...]:
        n = self.names.name
        out = []
        def side(model) -> str:
            return "learned" if str(model) == LEARNED else "reference"

        out += [f"type {n(r.type)} only in the {side(r.model)} model" for r in self.get(TYPE_ONLY)]
        for r in self.get(PARENT_DIFF):
            out.append(f"type {n(r.type)}: parent {n(r.learned)} in the learned model, {n(r.reference)} in the "
                       "reference")
        out += [f"constant {n(r.constant)} only in the {side(r.model)} model" for r in self.get(CONSTANT_ONLY)]
        for r in self.get(CONSTANT_TYPE_DIFF):
            out.append(f"constant {n(r.constant)}: type {n(r.learned)} in the learned model, {n(r.reference)} in the "
                       "reference")
        for r in self.get(PREDTYPE_DIFF):
            out.append(f"predicate {self.rp[str(r.reference)].name} argument {r.index}: type {n(r.learned_type)} in "
                       f"the learned model, {n(r.reference_type)} in the reference")
        for r in self.get(PTYPE_DIFF, mapping="best"):
            b = str(r.reference)
            out.append(f"action {self.rname(b)} parameter {self.ra[b].parameters[r.other.number - 1][0]}: "
                       f"type {n(r.learned_type)} in the learned model, {n(r.reference_type)} in the reference")
        return tuple(sorted(set(out)))

    def _notes(self, rename: bool) -> tuple[str, ...]:
        out = []
        for a in self.la:
            if not rename and a in self.ra and self.amap.get(a) != a:
                la, ra = self.la[a], self.ra[a]
                out.append(f"action {ra.name}: the learned and reference actions share the name but their "
                           f"parameters cannot be mapped type-consistently (learned ({typed_text(la.parameters)}), "
                           f"reference ({typed_text(ra.parameters)})): it is removed and added")
        for p in self.lp:
            if p in self.rp and self.lp[p].arity != self.rp[p].arity:
                out.append(f"predicate {self.rp[p].name}: arity {self.lp[p].arity} in the learned model, "
                           f"{self.rp[p].arity} in the reference: not the same predicate")
        return tuple(out)


def _cond_text(e: Effect) -> str:
    text = formula_text(e.condition) if e.condition != TRUE else "(and)"
    if e.variables:
        text = f"forall ({typed_text(e.variables)}) {text}"
    return text


__all__ = ["Reader", "READS", "shows"]
