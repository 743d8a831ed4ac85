"""`compare()`: the two clingo calls (the best renaming, then the metrics under it) over the facts
of both models."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

import clingo

from ...asp import size
from ...asp.facts import domain_facts, symbol_facts
from ...asp.names import LEARNED, REF, asp_name
from ...asp.run import Optimum, OutOfTime, encoding, optimise, solve_once
from ...asp.schema import (
    AKEEP,
    AM,
    EDIT_DISTANCE,
    GIVEN,
    MAPPING,
    METRIC_MODE,
    PHASE,
    PKEEP,
    PM,
    RENAME,
    RESTRICT_A,
    RESTRICT_P,
    UNFIT,
    VM,
)
from ...errors import InputError, TimeLimitReached
from ...model import Action, Broken, Domain, Effect, Literal, Predicate, canonical_name
from ...pddl.check import distinct_symbols, spelling_differences
from ...pddl.parse import load_domain, load_lenient
from ...watchdog import finishing, stage, within
from . import bound, components, decompose
from .reading import Reader, shows
from .result import ActionComparison, CompareResult
from .structure import Structure
from .unused import pair_unused


def _as_domain(x: str | Path | Domain, learned: bool = False, lenient: bool = False) -> Domain:
    """A learned model may use predicates it never declares: read as its own (with a warning); its broken
    actions and rules are left out, kept as their errors (`Domain.broken`, scored as missing). Numeric
    fluents are read (compared by their structure); derived predicates' rules are compared as actions
    (`rules_as_actions`). `lenient`: the reference is read as a learned model is."""
    if not isinstance(x, Domain):
        x = load_lenient(x, numeric_fluents=True) if lenient else \
            load_domain(x, undeclared_predicates=learned, numeric_fluents=True, recover=learned)
    return rules_as_actions(x)


def broken_rows(actions: tuple[ActionComparison, ...], broken: tuple[Broken, ...]) -> tuple[ActionComparison, ...]:
    """Each reference action with no learned counterpart whose learned namesake is broken, said so
    (a derived rule's action is `<predicate>-derived`, as `rules_as_actions` names it)."""
    named = {canonical_name(b.name if b.kind == "action" else f"{b.name}-derived"): b
             for b in broken if b.kind in ("action", "derived") and b.name is not None}
    return tuple(replace(a, broken=named.get(canonical_name(a.action))) if a.learned is None else a
                 for a in actions)


def rules_as_actions(d: Domain) -> Domain:
    """`d` with each :derived rule as one more action, `<predicate>-derived` (a `-` more while the name
    is taken): its parameters the head's variables, its precondition the rule's body, its one effect
    the head atom. Compared so, a rule is matched, scored and counted by the edit distance as an
    action is (docs/compare.md, "Derived predicates")."""
    if not d.derived:
        return d
    taken = {a.name for a in d.actions} | {p.name for p in d.predicates}
    extra = []
    for r in d.derived:
        name = f"{r.predicate}-derived"
        while name in taken:
            name += "-"
        taken.add(name)
        extra.append(Action(name, r.parameters, r.body, (Effect(Literal(r.head)),), r.line))
    return replace(d, actions=d.actions + tuple(extra), derived=())


def compare(learned: str | Path | Domain, reference: str | Path | Domain, *, align: bool = False,
            rename: bool = False, time_limit: float = 60.0, as_written: bool = False,
            lenient_reference: bool = False) -> CompareResult:
    """Compare a learned domain with a reference domain (paths or Domain objects).

    Metrics match actions and predicates by name and parameters by position; `align` uses the
    type-consistent parameter bijection with the most agreement instead, and `rename` the whole
    optimal renaming of predicates, actions and parameters. The edit distance is always up to
    renaming (names that agree stay fixed unless `rename`), proven optimal unless `time_limit`
    seconds pass first (then `optimal` is False and the best distance found is reported).
    The summary's Text2World components (`components.py`) are under the best renaming, or with
    `as_written` as the published evaluator computes them.

    `time_limit` covers the whole comparison, grounding included (`watchdog.within`): reading,
    grounding and the search end by it (branch-and-bound gets at least 1 s for a first answer),
    the metrics under the renaming found get `watchdog.finishing` more; past that, or with no
    renaming found, `TimeLimitReached` says what was reached.

    The learned model is read with recovery: a broken action or rule is left out (a warning each) and its
    reference counterpart scored as missing, said `broken` (`ActionComparison.broken`, `CompareResult.broken`).
    `lenient_reference`: the reference is read so too (undeclared predicates, broken actions left out).
    """
    return within(time_limit, "compare", _compare, learned, reference, align, rename, time_limit, as_written,
                  time.monotonic(), lenient_reference)


def _compare(learned: str | Path | Domain, reference: str | Path | Domain, align: bool, rename: bool,
             time_limit: float, as_written: bool, since: float, lenient_reference: bool = False) -> CompareResult:
    t0 = time.perf_counter()
    ld, rd, written = _read_pair(learned, reference, lenient_reference)
    renamed_for_want_of_names = not rename and no_shared_names(ld, rd)
    rename = rename or renamed_for_want_of_names
    mode = "best" if rename else ("align" if align else "position")
    ls, rs = Structure(ld, LEARNED), Structure(rd, REF)
    common = [ls.facts(), rs.facts(), encoding("types"), encoding("compare"), encoding("edit")]
    if rename:
        common.append(RENAME.fact())
    # predicates no action uses, paired up front where that keeps the optimum (unused.py); the search
    # sees the others only
    paired = pair_unused(ld, rd, ls, rs, rename)
    sl, sr = _without(ld, [p for p, _ in paired]), _without(rd, [q for _, q in paired])
    what = (f"{len(sl.predicates):,} and {len(sr.predicates):,} predicates, {len(ld.actions):,} and "
            f"{len(rd.actions):,} actions")
    base = [domain_facts(ld, LEARNED), domain_facts(rd, REF)] + common
    unused = [PM.fact("best", asp_name(p.name), asp_name(q.name)) for p, q in paired]

    # the atoms the reader reads are shown; the minimisation is done: its statements are ignored
    def answer(mode: str, renaming: str) -> Sequence[clingo.Symbol]:
        return solve_once(["\n".join(base + [PHASE.fact("metrics"), METRIC_MODE.fact(mode), MAPPING.fact("best"),
                                             renaming, *unused, shows(), UNFIT.show()])],
                          options=("--opt-mode=ignore",))

    found: tuple[Optimum, Sequence[clingo.Symbol]] | None = None
    if decompose.free_pairs(sl, sr, rename) >= decompose.MIN_PAIRS:
        colours = decompose.direct(sl, sr, rename)
        if colours is not None:
            given = "\n".join([GIVEN.fact(), colours.facts()])
            found = _direct(lambda: decompose.plan(sl, sr, ls, rs, rename).lower_bound,
                            lambda: answer(mode, given), what)
        best = found[0] if found is not None else \
            _decomposed(_search(sl, sr, common, None if paired else base), decompose.plan(sl, sr, ls, rs, rename),
                        sl, sr, rename, what, time_limit, since)
    else:
        size.check_renaming(sl, sr, rename)
        stage(f"grounding the search for the best renaming ({what})")
        best = _best_renaming(_search(sl, sr, common, None if paired else base), time_limit, since)
    stage(f"computing the metrics under the renaming found (edit distance {best.cost}"
          f"{'' if best.optimal else ', not proven optimal'})", finishing(time_limit))

    renaming = given if found is not None else symbol_facts(best.symbols)

    def metrics(metric_mode: str) -> CompareResult:
        syms = found[1] if found is not None and metric_mode == mode else answer(metric_mode, renaming)
        return Reader(ld, rd, ls, rs, syms).result(metric_mode, rename, best)
    res = metrics(mode)
    comps = components.as_written(*written) if as_written else \
        components.renamed(res if _as_best(res) else metrics("best"), ld, rd)
    warnings = tuple(f"{d.file or name}: {w}" for d, name in ((ld, "learned"), (rd, "reference")) for w in d.warnings)
    warnings += tuple(spelling_differences(ld, rd))
    if res.edit_distance != best.cost:
        raise RuntimeError(f"internal error: edit distance {res.edit_distance} != optimum {best.cost}")
    if ld.broken:
        res = replace(res, actions=broken_rows(res.actions, ld.broken), broken=ld.broken)
    notes = res.notes + ((NO_SHARED_NAMES,) if renamed_for_want_of_names else ())
    return replace(res, warnings=warnings, seconds=time.perf_counter() - t0, solve_seconds=best.seconds,
                   components=comps, notes=notes)


def _search(sl: Domain, sr: Domain, common: list[str], same: list[str] | None) -> list[str]:
    """The search's program: the models without the predicates paired up front (`same`, the metric
    program's, when none is); written only when a search runs: the facts of 10,000 grounded actions take
    seconds."""
    return same if same is not None else [domain_facts(sl, LEARNED), domain_facts(sr, REF)] + common


def _read_pair(learned: str | Path | Domain, reference: str | Path | Domain, lenient_reference: bool
               ) -> tuple[Domain, Domain, tuple[Domain, Domain]]:
    """The two models with their bound variables in order, and as read (Text2World's as-written figures
    print bound variables in that order); names of one kind that would meet as one symbol refused."""
    stage("reading the two models")
    ld, rd = _as_domain(learned, learned=True), _as_domain(reference, lenient=lenient_reference)
    written = ld, rd
    ld, rd = bound.in_order(ld), bound.in_order(rd)
    for d, model in ((ld, "learned"), (rd, "reference")):
        distinct_symbols([(x.name, "predicate") for x in d.predicates]
                         + [(x.name, "function") for x in d.functions], d.file, model)  # one namespace in pm/3
        distinct_symbols([(x.name, "action") for x in d.actions], d.file, model)
    return ld, rd, written


#: Said when the two models share no action and no predicate name: by name, every action would be missing.
NO_SHARED_NAMES = ("the two models share no action and no predicate name (an LLM's or a renamed domain): every "
                   "figure is under the best renaming, as with --rename, not by name")


def no_shared_names(learned: Domain, reference: Domain) -> bool:
    """Whether no action and no predicate of `learned` has a name of `reference` (`canonical_name`): metrics by
    name would then call every action missing while the renaming pairs them (docs/compare.md)."""
    if not learned.actions or not reference.actions:
        return False
    names = [x.name for x in reference.actions] + [x.name for x in reference.predicates]
    ref = {canonical_name(n) for n in names}
    return not any(canonical_name(n) in ref for n in [x.name for x in learned.actions]
                   + [x.name for x in learned.predicates])


def _without(d: Domain, predicates: list[Predicate]) -> Domain:
    """`d` without `predicates` (paired before the search)."""
    if not predicates:
        return d
    gone = {id(p) for p in predicates}
    return replace(d, predicates=tuple(p for p in d.predicates if id(p) not in gone))


def _as_best(res: CompareResult) -> bool:
    """The metric mapping is the best renaming already (its counts are those of `metric_mode(best)`):
    every action and parameter matched as the renaming matches them, every predicate by its name."""
    return res.mode == "best" or (
        all(a.learned == a.best_match and a.metric_param_mapping == a.param_mapping for a in res.actions)
        and not res.extra_actions and all(asp_name(l) == asp_name(r) for l, r in res.predicate_mapping))


def _decomposed(search: list[str], plan: decompose.Plan, sl: Domain, sr: Domain, rename: bool, what: str,
               time_limit: float, since: float) -> Optimum:
    """The best renaming of two big models (`decompose.py`): a first search on the candidate pairs of
    actions, proven optimal when its distance meets the lower bound; else the search on the pairs
    that the first distance does not rule out, or, when those are still too many for the size guard
    or the time, the first renaming, said not proven (with the lower bound)."""
    Pairs = tuple[tuple[str, str], ...]

    def restricted(pairs: Pairs, predicates: Pairs | None = None) -> list[str]:
        facts = [RESTRICT_A.fact(), *(AKEEP.fact(a, b) for a, b in pairs)]
        if predicates is not None:
            facts += [RESTRICT_P.fact(), *(PKEEP.fact(p, q) for p, q in predicates)]
        return search + ["\n".join(facts)]

    size.check_renaming(sl, sr, rename, plan.candidates, len(plan.predicates))
    stage(f"grounding the search for the best renaming on {len(plan.candidates):,} candidate pairs of actions "
          f"({what})")
    try:
        first = _best_renaming(restricted(plan.candidates, plan.predicates), time_limit / 2, since)
    except TimeLimitReached:
        first = None
    if first is not None and first.cost < plan.lower_bound:
        raise RuntimeError(f"internal error: a renaming of distance {first.cost} below the lower bound "
                           f"{plan.lower_bound}")
    if first is not None and first.cost == plan.lower_bound:
        return replace(first, optimal=True, bound=first.cost)
    kept = plan.kept(first.cost) if first is not None else None
    try:
        if kept is None:
            size.check_renaming(sl, sr, rename)
            full = search
        else:
            size.check_renaming(sl, sr, rename, kept)
            full = restricted(kept)
    except InputError:
        if first is None:
            raise
        return replace(first, optimal=False, bound=plan.lower_bound)
    stage(f"grounding the search for the best renaming on {f'{len(kept):,}' if kept is not None else 'all'} pairs of "
          f"actions ({what})")
    try:
        best = _best_renaming(full, time_limit, since)
    except TimeLimitReached:
        if first is None:
            raise
        return replace(first, optimal=False, bound=plan.lower_bound)
    if best.optimal:
        return best
    lower = max(plan.lower_bound, best.bound or 0)
    return replace(first if first is not None and first.cost <= best.cost else best, optimal=False, bound=lower)


def _direct(bound: Callable[[], int], answer: Callable[[], Sequence[clingo.Symbol]], what: str
            ) -> tuple[Optimum, Sequence[clingo.Symbol]] | None:
    """The renaming the colours give (`decompose.direct`), counted by the metric program (`answer`: its
    atoms, with `given`): the optimum, proven, with that answer when the program finds it fit for the
    search and its distance is 0 or meets the lower `bound` (asked only then: over thousands of actions
    its assignment is slow); else None (the searches run as before)."""
    stage(f"counting the edits of the renaming colour refinement gives ({what})")
    t = time.perf_counter()
    syms = answer()
    if UNFIT.select(syms):
        return None
    distance = EDIT_DISTANCE.select(syms)[0].distance.number
    if distance > 0:
        stage(f"computing a lower bound on the edit distance ({what})")
        lower = bound()
        if distance < lower:
            raise RuntimeError(f"internal error: a renaming of distance {distance} below the lower bound {lower}")
        if distance > lower:
            return None
    return Optimum([], distance, True, distance, time.perf_counter() - t), syms


def _best_renaming(base: list[str], time_limit: float, since: float) -> Optimum:
    """The renaming of predicates, actions and parameters with the fewest edits (`pm/3`, `am/3`, `vm/5`),
    searched until `time_limit` seconds after `since` (at least 1 s of branch-and-bound)."""
    def grounded(left: float) -> None:
        stage("searching for the best renaming", time.monotonic() + max(left, 1.0) + 1.0)
    try:
        return optimise("\n".join(base + [PHASE.fact("optimise"), " ".join(p.show() for p in (PM, AM, VM))]),
                        time_limit, since, grounded)
    except OutOfTime:
        raise TimeLimitReached(f"compare: no renaming found within the time limit of {time_limit:g} s "
                               "(raise --time-limit)") from None


__all__ = ["compare"]
