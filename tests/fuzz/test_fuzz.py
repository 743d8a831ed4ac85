"""The fuzz corpus in the test suite: a quick slice in every run, the long run with `pytest -m fuzz`.

The quick slice (100 mutated inputs of the five small domains, about 300 command runs, two
inputs through `python -m amlasp`) takes well under a minute; the long one reads
AMLASP_FUZZ_INPUTS (default 1,000) inputs of all twenty IPC domains. Both fail on any
internal error, traceback, hang, exit code outside 0-3, valid mutation with another result,
fault refused elsewhere than at its token (or accepted), or refusal naming no input line.
"""

from __future__ import annotations

import os
import sys

import pytest

from . import records
from .corpus import FAMILIES, run_corpus
from .inputs import ALL, QUICK


def _check(tally) -> None:
    if tally.failures:
        tally.report(sys.stderr)
    assert not tally.failures, [(c.mutation, c.role, cmd[0], cls, run.stderr[:200]) for c, cmd, run, cls in
                                tally.failures[:10]]


def test_quick_slice():
    tally = run_corpus(100, seed=7, domains=QUICK, limit=60, subprocess_every=50)
    _check(tally)
    assert tally.inputs == 100 and sum(tally.runs.values()) > 250
    assert set(tally.by_family) == set(FAMILIES)  # valid mutations, faults and random damage all ran
    assert tally.runs["located"] > 50 and tally.runs["same"] > 50


@pytest.mark.fuzz
def test_long_run(request):
    if "fuzz" not in (request.config.getoption("markexpr") or ""):
        pytest.skip("the long fuzz run: pytest -m fuzz (AMLASP_FUZZ_INPUTS inputs, default 1000)")
    n = int(os.environ.get("AMLASP_FUZZ_INPUTS", "1000"))
    tally = run_corpus(n, seed=int(os.environ.get("AMLASP_FUZZ_SEED", "13")), domains=ALL, limit=60,
                       subprocess_every=20, slow=True)
    tally.report(sys.stdout)
    _check(tally)


def test_structured_inputs_quick_slice():
    """Answers, items, results records, templates, manifests and batch files (`records.py`): every role and
    every kind of damage, no failure."""
    outcomes = records.run_records(96, seed=7)
    failed = [(o.role, o.mutation, o.cls, o.stderr[:200]) for o in outcomes if o.cls in records.FAILURES]
    assert not failed, failed[:10]
    assert {o.role for o in outcomes} == set(records.ROLES)
    assert {o.mutation for o in outcomes} >= {"deep", "odd_type", "hostile", "cut", "invalid_utf8", "bom"}
    assert sum(o.cls == "refused_located" for o in outcomes) > 20 and sum(o.cls == "accepted" for o in outcomes) > 10


@pytest.mark.fuzz
def test_structured_inputs_long_run(request):
    if "fuzz" not in (request.config.getoption("markexpr") or ""):
        pytest.skip("the long fuzz run: pytest -m fuzz")
    outcomes = records.run_records(int(os.environ.get("AMLASP_FUZZ_INPUTS", "1000")),
                                   seed=int(os.environ.get("AMLASP_FUZZ_SEED", "13")))
    failed = [(o.role, o.mutation, o.cls, o.stderr[:200]) for o in outcomes if o.cls in records.FAILURES]
    assert not failed, failed[:10]
