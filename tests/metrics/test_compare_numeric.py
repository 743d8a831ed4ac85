"""`amlasp compare` on numeric models: numeric conditions and effects are units of their own
(`pre_num`, `eff_num`, `ceff_num`), matched by their structure under the renaming of functions and
parameters that the edit distance chooses; checked by hand and against an exhaustive search
written independently of the encoding (units as texts, every renaming tried)."""

from __future__ import annotations

import itertools
import random
import re
from dataclasses import replace

from amlasp.metrics.compare import compare
from amlasp.model import And, Arith, Comparison, Domain, Fluent, Not, Num, NumericEffect, Predicate
from amlasp.pddl.parse import load_domain, parse_domain
from tests.support.cli import run
from tests.support.paths import DATA

REF = DATA / "numeric" / "domain.pddl"


def ref() -> Domain:
    return load_domain(REF, numeric_fluents=True)


def test_a_numeric_domain_against_itself():
    r = compare(REF, REF)
    assert r.edit_distance == 0 and r.optimal and r.numeric
    drive, refuel = r.actions
    assert (drive.counts["pre_num"].tp, drive.counts["eff_num"].tp) == (1, 2)
    assert (refuel.counts["pre_num"].tp, refuel.counts["eff_num"].tp, refuel.counts["ceff_num"].tp) == (1, 1, 1)
    assert r.function_mapping == (("distance", "distance"), ("driven", "driven"), ("fuel", "fuel"))
    d = r.to_dict()
    assert d["actions"][0]["pre_num"]["precision"] == 1.0 and d["mapping"]["functions"][0] == ["distance", "distance"]
    assert list(r.to_frame().columns[-4:]) == ["pre_num_precision", "pre_num_recall", "eff_num_precision",
                                               "eff_num_recall"]


def test_propositional_results_do_not_show_the_numeric_categories():
    blocks = DATA.parent.parent / "examples" / "blocksworld" / "domain.pddl"
    r = compare(blocks, blocks)
    assert not r.numeric and "pre_num" not in r.to_dict()["actions"][0] and "functions" not in r.to_dict()["mapping"]
    assert "pre_num_precision" not in r.to_frame().columns


def _with(d: Domain, action: str, **changes) -> Domain:
    return replace(d, actions=tuple(replace(a, **changes) if a.name == action else a for a in d.actions))


def test_a_changed_number_is_one_unit_removed_and_one_added():
    d = ref()
    drive = d.action("drive")
    pre = And(drive.precondition.args[:2] + (Comparison(">=", Fluent("fuel", ("?t",)), Num("3")),))
    r = compare(_with(d, "drive", precondition=pre), d)
    assert r.edit_distance == 2
    c = r.actions[0].counts["pre_num"]
    assert (c.tp, c.fp, c.fn) == (0, 1, 1)
    assert r.actions[0].edits == ("drive: remove precondition (>= (fuel ?t) 3)",
                                  "drive: add precondition (>= (fuel ?t) (* 2 (distance ?from ?to)))")


def test_greater_matches_less_with_its_sides_swapped():
    d = ref()
    drive = d.action("drive")
    flipped = Comparison("<=", drive.precondition.args[2].right, Fluent("fuel", ("?t",)))
    r = compare(_with(d, "drive", precondition=And(drive.precondition.args[:2] + (flipped,))), d)
    assert r.edit_distance == 0 and r.actions[0].counts["pre_num"].tp == 1


def test_a_dropped_numeric_effect_and_a_missing_function():
    d = ref()
    drive = d.action("drive")
    learned = _with(d, "drive", numeric_effects=drive.numeric_effects[:1])
    learned = replace(learned, functions=tuple(f for f in d.functions if f.name != "driven"))
    r = compare(learned, d)
    assert r.edit_distance == 2  # the effect, and the function
    assert set(r.edits) == {"drive: add effect (increase (driven) 1)", "add function (driven)"}
    c = r.actions[0].counts["eff_num"]
    assert (c.tp, c.fp, c.fn) == (1, 0, 1) and c.recall == 0.5


def test_renamed_functions_are_found_and_scored_with_rename():
    d = ref()
    names = {"fuel": "gas", "distance": "km", "driven": "odometer"}
    learned = _rename_functions(names)
    plain, renamed = compare(learned, d), compare(learned, d, rename=True)
    assert plain.edit_distance == renamed.edit_distance == 0
    assert renamed.function_mapping == tuple(sorted((v, k) for k, v in names.items()))
    assert plain.actions[0].counts["pre_num"].tp == 0  # the metric mapping pairs functions by name
    assert renamed.actions[0].counts["pre_num"].tp == 1


def _rename_functions(names: dict[str, str]) -> Domain:
    """The reference with its functions renamed, through its PDDL text (an independent path to the model)."""
    text = REF.read_text()
    for old, new in names.items():
        text = re.sub(rf"\(\s*{old}\b", f"({new}", text)
    return parse_domain(text, "renamed.pddl", numeric_fluents=True)


# ----------------------------------------------------------------------------- exhaustive search

def _expr(e, fmap, vmap) -> str:
    if isinstance(e, Num):
        return e.value
    if isinstance(e, Fluent):
        return "(" + " ".join([fmap.get(e.function, e.function)] + [vmap.get(x, x) for x in e.args]) + ")"
    return "(" + " ".join([e.op] + [_expr(a, fmap, vmap) for a in e.args]) + ")"


def _units(action, fmap, vmap) -> set[str]:
    """Every unit of `action` as a text with functions and parameters renamed (`>` written as `<`
    with its sides swapped); literal units with their predicates as they are."""
    out = set()
    for g in action.precondition.args:
        if isinstance(g, Comparison):
            op, l, r = (g.op, g.left, g.right) if g.op not in (">", ">=") else (g.op.replace(">", "<"), g.right, g.left)
            out.add(f"pre ({op} {_expr(l, fmap, vmap)} {_expr(r, fmap, vmap)})")
        else:
            lit = g.arg if isinstance(g, Not) else g
            out.add(f"pre {isinstance(g, Not)} {lit.predicate} " + " ".join(vmap.get(x, x) for x in lit.args))
    for e in action.effects:
        out.add(f"eff {e.literal.positive} {e.literal.atom.predicate} " + " ".join(vmap.get(x, x)
                                                                                   for x in e.literal.atom.args))
    for e in action.numeric_effects:
        local = dict(vmap, **{v: f"b{i}" for i, (v, _) in enumerate(e.variables)})
        cond = "" if not e.variables else str(sorted(str(c) for c in getattr(e.condition, "args", ())))
        if e.variables:  # the condition: its literals and comparisons, renamed
            parts = []
            for c in e.condition.args:
                if isinstance(c, Comparison):
                    parts.append(f"({c.op} {_expr(c.left, fmap, local)} {_expr(c.right, fmap, local)})")
                else:
                    parts.append("(" + " ".join([c.predicate] + [local.get(x, x) for x in c.args]) + ")")
            cond = " ".join(sorted(parts))
        out.add(f"neff {cond} ({e.op} {_expr(e.fluent, fmap, local)} {_expr(e.value, fmap, local)})")
    return out


def _brute(learned: Domain, reference: Domain) -> int:
    """Least edits over every arity-preserving injection of free functions and every type-consistent
    parameter bijection per action (actions and predicates keep their names)."""
    lf = {f.name: f for f in learned.functions}
    rf = {f.name: f for f in reference.functions}
    fixed = {f for f in lf if f in rf and lf[f].arity == rf[f].arity}
    free_l, free_r = [f for f in lf if f not in fixed], [f for f in rf if f not in fixed]
    best = None
    for perm in itertools.permutations(free_r + [None] * len(free_l), len(free_l)):
        fmap = {**{f: f for f in fixed}, **{f: g for f, g in zip(free_l, perm) if g is not None}}
        if any(g is not None and lf[f].arity != rf[g].arity for f, g in zip(free_l, perm)):
            continue
        cost = len(lf) + len(rf) - 2 * len(fmap)
        for a in learned.actions:
            b = reference.action(a.name)
            options = []
            for ps in itertools.permutations(b.parameters):
                if any(t != u for (_, t), (_, u) in zip(a.parameters, ps)):
                    continue
                vmap = {v: f"p{b.parameters.index(p)}" for (v, _), p in zip(a.parameters, ps)}
                mine = _units(a, fmap, vmap)
                theirs = _units(b, {g: g for g in rf}, {v: f"p{i}" for i, (v, _) in enumerate(b.parameters)})
                options.append(len(mine ^ theirs))
            cost += min(options)
        best = cost if best is None else min(best, cost)
    assert best is not None
    return best


def _perturb(d: Domain, rng: random.Random) -> Domain:
    """Random numeric changes: a number changed, a numeric unit dropped, a comparison flipped, a
    function left out, functions renamed."""
    for _ in range(rng.randrange(1, 4)):
        a = rng.choice(d.actions)
        kind = rng.randrange(4)
        nums = [g for g in a.precondition.args if isinstance(g, Comparison)]
        if kind == 0 and nums:
            g = rng.choice(nums)
            new = replace(g, right=Num(str(rng.randrange(5)))) if rng.random() < 0.5 else \
                Comparison({"<": ">", "<=": ">=", ">=": "<=", ">": "<", "=": "="}[g.op], g.right, g.left)
            d = _with(d, a.name, precondition=And(tuple(new if x is g else x for x in a.precondition.args)))
        elif kind == 1 and a.numeric_effects:
            k = rng.randrange(len(a.numeric_effects))
            d = _with(d, a.name, numeric_effects=a.numeric_effects[:k] + a.numeric_effects[k + 1:])
        elif kind == 2 and nums:
            d = _with(d, a.name, precondition=And(tuple(x for x in a.precondition.args if x is not nums[0])))
        elif kind == 3:
            d = replace(d, functions=d.functions + (Predicate(f"extra{rng.randrange(3)}", (("?x", "truck"),)),))
    return d


def _distances(seed: int) -> tuple[int, int]:
    """(compare's distance, the exhaustive search's) for a perturbed copy of the reference."""
    rng = random.Random(seed)
    d = ref()
    learned = _perturb(d, rng)
    if rng.random() < 0.5:
        learned = _perturb(learned, rng)
    names = {f.name: f"f{i}" for i, f in enumerate(learned.functions)} if seed % 2 else {}
    learned = _rename(learned, names)
    r = compare(learned, d)
    assert r.optimal
    return r.edit_distance, _brute(learned, d)


def test_edit_distance_matches_exhaustive_search():
    found = [_distances(seed) for seed in range(6)]
    assert all(ours == theirs for ours, theirs in found), found
    assert len({ours for ours, _ in found}) > 2  # the perturbations do change the distance


def _rename(d: Domain, names: dict[str, str]) -> Domain:
    """`d` with its functions renamed in the model (every expression, condition and effect)."""
    if not names:
        return d
    def ex(e):
        if isinstance(e, Fluent):
            return Fluent(names.get(e.function, e.function), e.args)
        if isinstance(e, Arith):
            return Arith(e.op, tuple(ex(a) for a in e.args))
        return e

    def cond(f):
        if isinstance(f, Comparison):
            return Comparison(f.op, ex(f.left), ex(f.right))
        if isinstance(f, And):
            return And(tuple(cond(g) for g in f.args))
        return f
    actions = tuple(replace(a, precondition=cond(a.precondition), numeric_effects=tuple(
        NumericEffect(e.op, ex(e.fluent), ex(e.value), cond(e.condition), e.variables) for e in a.numeric_effects))
        for a in d.actions)
    return replace(d, actions=actions, functions=tuple(replace(f, name=names.get(f.name, f.name))
                                                       for f in d.functions))


def test_cli_compare_shows_the_numeric_rows_and_the_function_renaming(tmp_path):
    learned = tmp_path / "learned.pddl"
    learned.write_text(REF.read_text().replace("(fuel", "(gas"))
    res = run("compare", learned, REF, "--explain")
    assert res.exit_code == 0, res.stderr
    assert "↳ numeric" in res.stdout and "gas→fuel" in res.stdout and "edit distance 0" in res.stdout
