"""`compare()`: the two clingo calls (the best renaming, then the metrics under it) over the facts
of both models."""

from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path

from ...asp import size
from ...asp.facts import domain_facts, symbol_facts
from ...asp.names import LEARNED, REF
from ...asp.run import Optimum, OutOfTime, encoding, optimise, solve_once
from ...asp.schema import AM, MAPPING, METRIC_MODE, PHASE, PM, RENAME, VM
from ...errors import InputError
from ...model import Domain
from ...pddl.check import distinct_symbols, spelling_differences
from ...pddl.parse import load_domain
from .reading import Reader
from .result import CompareResult
from .structure import Structure


def _as_domain(x: str | Path | Domain, learned: bool = False) -> Domain:
    """A learned model may use predicates it never declares: read as its own (with a warning)."""
    return x if isinstance(x, Domain) else load_domain(x, undeclared_predicates=learned)


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
    ld, rd = _as_domain(learned, learned=True), _as_domain(reference)
    for d, model in ((ld, "learned"), (rd, "reference")):  # names of one kind that would meet as one symbol
        for kind, named in (("predicate", d.predicates), ("action", d.actions)):
            distinct_symbols([(x.name, kind) for x in named], d.file, model)
    size.check_renaming(ld, rd, rename)
    mode = "best" if rename else ("align" if align else "position")
    ls, rs = Structure(ld, LEARNED), Structure(rd, REF)
    base = [domain_facts(ld, LEARNED), domain_facts(rd, REF), ls.facts(), rs.facts(),
            encoding("types"), encoding("compare"), encoding("edit")]
    if rename:
        base.append(RENAME.fact())
    best = _best_renaming(base, time_limit)
    mapping = symbol_facts(best.symbols) + MAPPING.fact("best") + "\n"
    # all atoms (not only shown ones) are read; the minimisation is done: its statements are ignored
    syms = solve_once(["\n".join(base + [PHASE.fact("metrics"), METRIC_MODE.fact(mode), mapping])],
                      options=("--opt-mode=ignore",), shown=False)
    res = Reader(ld, rd, ls, rs, syms).result(mode, rename, best)
    warnings = tuple(f"{d.file or name}: {w}" for d, name in ((ld, "learned"), (rd, "reference")) for w in d.warnings)
    warnings += tuple(spelling_differences(ld, rd))
    if res.edit_distance != best.cost:
        raise RuntimeError(f"internal error: edit distance {res.edit_distance} != optimum {best.cost}")
    return replace(res, warnings=warnings, seconds=time.perf_counter() - t0, solve_seconds=best.seconds)


def _best_renaming(base: list[str], time_limit: float) -> Optimum:
    """The renaming of predicates, actions and parameters with the fewest edits (`pm/3`, `am/3`, `vm/5`)."""
    try:
        return optimise("\n".join(base + [PHASE.fact("optimise"), " ".join(p.show() for p in (PM, AM, VM))]),
                        time_limit)
    except OutOfTime:
        raise InputError(f"no renaming found within the time limit of {time_limit:g} s (raise --time-limit)") from None


__all__ = ["compare"]
