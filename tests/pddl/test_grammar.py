"""The domain parser built from Lark's cached tables is pddl's own parser, only faster to build."""

from __future__ import annotations

import pytest
from pddl.parser.domain import DomainParser

from amlasp.pddl import grammar
from amlasp.pddl.parse import parse_domain
from tests.support.paths import IPC

DOMAINS = sorted((IPC / "domains").glob("*.pddl"))


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("AMLASP_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


def test_cached_parser_reads_every_domain_as_pddls_parser_does(cache):
    first = grammar.domain_parser()  # builds the tables and writes them
    assert [p.name for p in cache.iterdir()] and not [p for p in cache.iterdir() if p.name.startswith(".")]
    second = grammar.domain_parser()  # reads them back
    for path in DOMAINS:
        text = path.read_text()
        want = DomainParser()(text)
        assert first(text) == want, path.name
        assert second(text) == want, path.name


def test_without_a_writable_cache_the_parser_is_built_as_before(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setenv("AMLASP_CACHE_DIR", str(blocker / "sub"))  # under a file: cannot be made
    assert grammar.cache_dir() is None
    parser = grammar.domain_parser()
    text = DOMAINS[0].read_text()
    assert parser(text) == DomainParser()(text)


def test_a_corrupt_cache_file_is_rebuilt(cache):
    grammar.domain_parser()
    (path,) = cache.iterdir()
    path.write_bytes(b"not a cache\n")
    parser = grammar.domain_parser()
    text = DOMAINS[0].read_text()
    assert parser(text) == DomainParser()(text)


def test_parse_domain_uses_it():
    d = parse_domain(DOMAINS[0].read_text(), str(DOMAINS[0]))
    assert d.actions
