"""`validate --batch --jobs N` (and `--executor dask`: amlasp/jobs.py): a batch's plans split by problem into
chunks, each chunk validated by a worker as the serial run validates it (`validations.verdicts`), the
verdicts put back in input order.

A problem's plans stay in one chunk: its grounding and, with `--optimal`, its search (one per distinct
problem text, `optimum.task_key`, as the serial run searches it) are done once. A plan's verdict does not
depend on the plans validated beside it, so the verdicts are the serial run's. Chunks are whole problems
of about equal cost (a plan's steps, and a search with `--optimal`), `SPREAD` of them per worker, handed
out as workers free up."""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Optional, Sequence

from ..jobs import Jobs, run_chunks
from ..model import Domain, Problem
from ..pddl.plans import PlanReading
from .execution import Execution

if TYPE_CHECKING:
    from .optimum import Optimum

#: Chunks per worker (more, smaller chunks: the last ones even out the workers' shares).
SPREAD = 4
#: What one optimal search weighs against a plan's step when chunks are cut (`--optimal`: the search is most of
#: the work).
SEARCH_STEPS = 10000


@dataclass(frozen=True)
class ValidationChunk:
    """Whole problems' plans (`pairs`, their positions in the batch in `index`) and how to validate them."""

    domain: Domain
    index: tuple[int, ...]
    pairs: tuple[tuple[Problem, PlanReading], ...]
    explain: bool
    optimal: bool
    optimal_timeout: Optional[float]
    verdicts: Callable[..., Any]  # `validations.verdicts` (given: this module is below validations)


def validate_parallel(verdicts: Callable[..., Any], domain: Domain,
                      pairs: Sequence[tuple[Optional[Problem], PlanReading]], explain: bool, optimal: bool,
                      optimal_timeout: Optional[float], jobs: Jobs
                      ) -> tuple[list[Optional[Execution]], Optional[list[Optional["Optimum"]]]]:
    """`verdicts` (`validations.verdicts`) of `pairs` over `jobs`' workers: the same list of Executions (None
    where a problem is None) and optima, in input order. A worker's warnings are said here, in chunk order."""
    workers = max(1, jobs.jobs)
    chunks = [ValidationChunk(domain, tuple(ix), tuple((p, r) for p, r in (pairs[i] for i in ix) if p is not None),
                              explain, optimal, optimal_timeout, verdicts)
              for ix in plan_chunks(domain, pairs, SPREAD * workers, optimal)]
    out: list[Optional[Execution]] = [None] * len(pairs)
    optima: Optional[list[Optional["Optimum"]]] = [None] * len(pairs) if optimal else None
    said: dict[int, list] = {}
    from ..asp.worker import WORKER_MB
    for k, (executions, found, caught) in run_chunks(_validate_chunk, chunks, jobs, limit_mb=WORKER_MB):
        for i, ex in zip(chunks[k].index, executions):
            out[i] = ex
        if optima is not None and found is not None:
            for i, opt in zip(chunks[k].index, found):
                optima[i] = opt
        said[k] = caught
    for k in sorted(said):
        for category, text in said[k]:
            warnings.warn(category(text), stacklevel=2)
    return out, optima


def plan_chunks(domain: Domain, pairs: Sequence[tuple[Optional[Problem], PlanReading]], count: int,
                optimal: bool) -> list[list[int]]:
    """The positions of the plans with a problem, grouped by problem (the same problem object; with
    `optimal`, the same text: one search), the groups in the order first met and packed, whole and in
    that order, into chunks of about a `count`th of the total cost each."""
    groups: dict[object, list[int]] = {}
    for i, (p, _) in enumerate(pairs):
        if p is None:
            continue
        groups.setdefault(_key(domain, p) if optimal else id(p), []).append(i)
    weight = {k: sum(len(pairs[i][1].steps) + 1 for i in ix) + (SEARCH_STEPS if optimal else 0)
              for k, ix in groups.items()}
    target = max(1, sum(weight.values()) // max(1, count))
    chunks: list[list[int]] = []
    current: list[int] = []
    size = 0
    for k, ix in groups.items():
        if current and size + weight[k] > target:
            chunks.append(current)
            current, size = [], 0
        current += ix
        size += weight[k]
    if current:
        chunks.append(current)
    return chunks


def _key(domain: Domain, problem: Problem) -> str:
    from .optimum import task_key
    return task_key(domain, problem)


def _validate_chunk(chunk: ValidationChunk, report) -> tuple[list[Optional[Execution]],
                                                             Optional[list[Optional["Optimum"]]], list]:
    """A worker's part: the chunk's verdicts as the serial run gives them, and the warnings said on the way."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        executions, optima = chunk.verdicts(chunk.domain, chunk.pairs, chunk.explain, chunk.optimal,
                                            chunk.optimal_timeout)
    if report:
        report(len(chunk.pairs))
    return executions, optima, [(type(w.message), str(w.message)) for w in caught]


__all__ = ["SPREAD", "ValidationChunk", "plan_chunks", "validate_parallel"]
