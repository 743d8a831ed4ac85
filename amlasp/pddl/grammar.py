"""The `pddl` package's domain parser, with its LALR tables read from a cache.

Building pddl's Lark parser computes the LALR tables of its grammar: about 200 ms, more than
everything else `amlasp validate` does on a small task. Lark can save those tables and load them
again (about 10 ms); `pddl` does not ask it to, so this builds the same parser as
`pddl.parser.domain.DomainParser` with Lark's `cache` option. The cache is a file per user
(`$AMLASP_CACHE_DIR`, else `$XDG_CACHE_HOME/amlasp`, else `~/.cache/amlasp`), keyed by Lark on
the grammar, its options and the versions; it is written once, to a temporary name then renamed,
so that concurrent processes never read half a file. Without a writable directory the tables are
computed as before. Imported only when a domain is parsed: `lark` and `pddl` cost 60 ms to import.
"""

from __future__ import annotations

import os
from pathlib import Path

import lark
import pddl
from lark import Lark, Transformer
from pddl.parser import GRAMMAR_FILE, PARSERS_DIRECTORY
from pddl.parser.domain import DomainParser


def cache_dir() -> Path | None:
    """Where the tables are kept; None if the directory cannot be made."""
    base = os.environ.get("AMLASP_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "amlasp")
    try:
        os.makedirs(base, exist_ok=True)
    except OSError:
        return None
    return Path(base)


class CachedDomainParser(DomainParser):
    """`pddl`'s DomainParser (same grammar, options and transformer), its tables from `cache`."""

    def __init__(self, cache: str | bool = False) -> None:
        Transformer.__init__(self)  # what BaseParser.__init__ does, then its Lark with `cache`
        self._transformer = self.transformer_cls()
        self._parser = Lark(GRAMMAR_FILE.read_text(), parser="lalr", import_paths=[PARSERS_DIRECTORY],
                            start=self.start_symbol, transformer=self._transformer, cache=cache)


def domain_parser() -> DomainParser:
    """A new parser: from the cache file if there is one, else built and saved for the next process."""
    where = cache_dir()
    if where is None:
        return CachedDomainParser()
    path = where / f"pddl-{pddl.__version__}-lark-{lark.__version__}-domain.lalr"
    if path.exists():
        return CachedDomainParser(str(path))
    tmp = str(path.with_name(f".{path.name}.{os.getpid()}.tmp"))
    try:
        parser = CachedDomainParser(tmp)  # Lark writes the tables to `tmp`
        if os.path.getsize(tmp) > 0:
            os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return parser


__all__ = ["domain_parser", "CachedDomainParser", "cache_dir"]
