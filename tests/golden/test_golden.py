"""The CLI's outputs on a fixed corpus are byte-identical to the recorded ones (tests/golden/corpus.py)."""

import pytest

from .corpus import CASES, expected, run


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden(name):
    want = expected(name)
    got = run(name)
    assert got["exit"] == want["exit"], got["stderr"]
    assert got["stdout"] == want["stdout"]
    assert got["stderr"] == want["stderr"]
