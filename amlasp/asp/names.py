"""PDDL names ↔ clingo symbols.

PDDL names are case-insensitive and may contain `-`; clingo identifiers may not. We
lower-case and map `-` (and any other non-identifier character) to `_`, so that names
differing only in case or `-`/`_` meet as one symbol, which is how learned and
reference models are matched. Everything else about a name is kept.
"""

from __future__ import annotations

import re
from functools import lru_cache

import clingo

_RESERVED = {"not", "eq", "v", "c", "q", "pos", "neg", "object", "aux"}


@lru_cache(maxsize=1 << 16)
def asp_name(name: str) -> str:
    """Clingo identifier for a PDDL name (predicates, actions, objects, types)."""
    s = re.sub(r"[^a-z0-9_]", "_", name.lower())
    if not re.match(r"[a-z]", s):
        s = "n_" + s
    if s in _RESERVED and name != "object":
        s = s + "_"
    return s


def term(name: str) -> str:
    """An object or constant as a clingo term (text)."""
    return asp_name(name)


def atom_text(predicate: str, args: tuple[str, ...] | list[str]) -> str:
    p = asp_name(predicate)
    return f"{p}({','.join(args)})" if args else p


class Decoder:
    """Maps clingo symbols back to the PDDL names of one program's models and problems."""

    def __init__(self) -> None:
        self.names: dict[str, str] = {}
        self._parsed: dict[str, tuple[str, tuple[str, ...]]] = {}

    def add(self, *names: str) -> None:
        for n in names:
            self.names.setdefault(asp_name(n), n)
        self._parsed.clear()

    def name(self, sym: clingo.Symbol) -> str:
        if sym.type == clingo.SymbolType.String:
            return sym.string
        if sym.type == clingo.SymbolType.Number:
            return str(sym.number)
        return self.names.get(sym.name, sym.name)

    def parse(self, text: str) -> tuple[str, tuple[str, ...]]:
        """`stack(b1,b2)` (a shown symbol's text) → ("stack", ("b1", "b2")), cached.

        Much faster than walking `clingo.Symbol`s (one C call per attribute): read the text of
        a whole shown atom once with `str(sym)` and split it here. Only for terms whose
        arguments are constants (objects, actions, atoms), never strings or nested terms."""
        hit = self._parsed.get(text)
        if hit is None:
            i = text.find("(")
            if i < 0:
                hit = (self.names.get(text, text), ())
            else:
                hit = (self.names.get(text[:i], text[:i]),
                       tuple(self.names.get(a, a) for a in text[i + 1:-1].split(",")))
            self._parsed[text] = hit
        return hit

    def call(self, sym: clingo.Symbol) -> tuple[str, tuple[str, ...]]:
        """`stack(b1,b2)` → ("stack", ("b1", "b2"))."""
        return self.names.get(sym.name, sym.name), tuple(self.name(a) for a in sym.arguments)
