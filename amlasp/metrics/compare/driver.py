"""`compare()`: the two clingo calls (the best renaming, then the metrics under it) over the facts
of both models."""

from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path

from ...asp import size
from ...asp.facts import domain_facts, symbol_facts
from ...asp.names import LEARNED, REF, asp_name
from ...asp.run import Optimum, OutOfTime, encoding, optimise, solve_once
from ...asp.schema import AM, MAPPING, METRIC_MODE, PHASE, PM, RENAME, VM
from ...errors import InputError
from ...model import Action, Domain, Effect, Literal
from ...pddl.check import distinct_symbols, spelling_differences
from ...pddl.parse import load_domain
from . import components
from .reading import READS, Reader
from .result import CompareResult
from .structure import Structure


def _as_domain(x: str | Path | Domain, learned: bool = False) -> Domain:
    """A learned model may use predicates it never declares: read as its own (with a warning). Numeric
    fluents are read (compared by their structure); derived predicates' rules are compared as actions
    (`rules_as_actions`)."""
    return rules_as_actions(x if isinstance(x, Domain) else load_domain(x, undeclared_predicates=learned,
                                                                         numeric_fluents=True))


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
            rename: bool = False, time_limit: float = 60.0, as_written: bool = False) -> CompareResult:
    """Compare a learned domain with a reference domain (paths or Domain objects).

    Metrics match actions and predicates by name and parameters by position; `align` uses the
    type-consistent parameter bijection with the most agreement instead, and `rename` the whole
    optimal renaming of predicates, actions and parameters. The edit distance is always up to
    renaming (names that agree stay fixed unless `rename`), proven optimal unless `time_limit`
    seconds pass first (then `optimal` is False and the best distance found is reported).
    The summary's Text2World components (`components.py`) are under the best renaming, or with
    `as_written` as the published evaluator computes them.
    """
    t0 = time.perf_counter()
    ld, rd = _as_domain(learned, learned=True), _as_domain(reference)
    for d, model in ((ld, "learned"), (rd, "reference")):  # names of one kind that would meet as one symbol
        distinct_symbols([(x.name, "predicate") for x in d.predicates]
                         + [(x.name, "function") for x in d.functions], d.file, model)  # one namespace in pm/3
        distinct_symbols([(x.name, "action") for x in d.actions], d.file, model)
    size.check_renaming(ld, rd, rename)
    mode = "best" if rename else ("align" if align else "position")
    ls, rs = Structure(ld, LEARNED), Structure(rd, REF)
    base = [domain_facts(ld, LEARNED), domain_facts(rd, REF), ls.facts(), rs.facts(),
            encoding("types"), encoding("compare"), encoding("edit")]
    if rename:
        base.append(RENAME.fact())
    best = _best_renaming(base, time_limit)
    mapping = symbol_facts(best.symbols) + MAPPING.fact("best") + "\n"
    # the atoms the reader reads are shown; the minimisation is done: its statements are ignored
    def metrics(mode: str) -> CompareResult:
        syms = solve_once(["\n".join(base + [PHASE.fact("metrics"), METRIC_MODE.fact(mode), mapping,
                                             " ".join(p.show() for p in READS)])],
                          options=("--opt-mode=ignore",))
        return Reader(ld, rd, ls, rs, syms).result(mode, rename, best)
    res = metrics(mode)
    comps = components.as_written(ld, rd) if as_written else \
        components.renamed(res if _as_best(res) else metrics("best"), ld, rd)
    warnings = tuple(f"{d.file or name}: {w}" for d, name in ((ld, "learned"), (rd, "reference")) for w in d.warnings)
    warnings += tuple(spelling_differences(ld, rd))
    if res.edit_distance != best.cost:
        raise RuntimeError(f"internal error: edit distance {res.edit_distance} != optimum {best.cost}")
    return replace(res, warnings=warnings, seconds=time.perf_counter() - t0, solve_seconds=best.seconds,
                   components=comps)


def _as_best(res: CompareResult) -> bool:
    """The metric mapping is the best renaming already (its counts are those of `metric_mode(best)`):
    every action and parameter matched as the renaming matches them, every predicate by its name."""
    return res.mode == "best" or (
        all(a.learned == a.best_match and a.metric_param_mapping == a.param_mapping for a in res.actions)
        and not res.extra_actions and all(asp_name(l) == asp_name(r) for l, r in res.predicate_mapping))


def _best_renaming(base: list[str], time_limit: float) -> Optimum:
    """The renaming of predicates, actions and parameters with the fewest edits (`pm/3`, `am/3`, `vm/5`)."""
    try:
        return optimise("\n".join(base + [PHASE.fact("optimise"), " ".join(p.show() for p in (PM, AM, VM))]),
                        time_limit)
    except OutOfTime:
        raise InputError(f"no renaming found within the time limit of {time_limit:g} s (raise --time-limit)") from None


__all__ = ["compare"]
