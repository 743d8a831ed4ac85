"""Clingo answers → PDDL names: the one decoder of shown atoms.

An answer is read one of two ways. Walking `clingo.Symbol`s costs one C call per
attribute, which is fine for small answers and for terms that nest (validate's `unmet`).
Big answers (the applicable actions of thousands of states, diff's layers) are read as
text instead: `str(sym)` once per shown atom, split here (`arguments`) and its terms
mapped back to PDDL names (`Decoder.parse`, cached). Either way an answer ends as the
same `Atom`s and `GroundAction`s.
"""

from __future__ import annotations

import re
from typing import Sequence

import clingo

from ..model import Atom, Domain, GroundAction, Problem, either_type
from .names import asp_name

# an argument: a constant or number, or a term whose arguments are (a tuple `(k,t)` has an empty name)
_ARGUMENT = re.compile(r"[^,()]*\([^()]*\)|[^,()]+")


def arguments(text: str, count: int | None = None) -> list[str]:
    """`app(m,3,stack(b1,b2))` → ["m", "3", "stack(b1,b2)"]: the argument texts of a shown atom.

    Arguments may be terms nested one level (actions, atoms, tuples of constants), never deeper,
    never strings. With `count`, the atom has `count` arguments and only the last may be a term:
    it is then split at its first commas, three times faster (applicable reads ~10^5 such atoms)."""
    if count is not None:
        return text[text.find("(") + 1:-1].split(",", count - 1)
    return _ARGUMENT.findall(text, text.find("(") + 1, len(text) - 1)


def argument_texts(symbols: Sequence[clingo.Symbol], name: str, count: int) -> list[list[str]]:
    """The argument texts (`arguments(text, count)`) of shown atoms `name(...)` of `count` arguments,
    only the last of which may be a term (of constants): their text made in one C call, the text of
    a tuple of them, where `str(sym)` costs one call per atom through cffi (762 atoms of 183
    blocksworld states: 0.5 ms against 2.4 ms). Split at `),name(`, which such an atom cannot hold."""
    if not symbols:
        return []
    text = str(clingo.Tuple_(symbols))  # "(name(...),name(...))", or "(name(...),)" for one
    inner = text[len(name) + 2:-2 if len(symbols) > 1 else -3]
    return [part.split(",", count - 1) for part in inner.split(f"),{name}(")]


class Decoder:
    """Maps clingo symbols, or their text, back to the PDDL names of one program's models and problems."""

    def __init__(self) -> None:
        self.names: dict[str, str] = {}
        self._parsed: dict[str, tuple[str, tuple[str, ...]]] = {}

    def add(self, *names: str) -> None:
        """Make `names` known; the first PDDL spelling of a clingo identifier wins."""
        for n in names:
            self.names.setdefault(asp_name(n), n)
        self._parsed.clear()

    def name(self, sym: clingo.Symbol) -> str:
        """A constant, string or number symbol as a PDDL name."""
        if sym.type == clingo.SymbolType.String:
            return sym.string
        if sym.type == clingo.SymbolType.Number:
            return str(sym.number)
        if sym.arguments and sym.name == "either":  # an either type (asp.names.asp_name)
            return either_type(self.name(a) for a in sym.arguments)
        return self.names.get(sym.name, sym.name)

    def call(self, sym: clingo.Symbol) -> tuple[str, tuple[str, ...]]:
        """`stack(b1,b2)` → ("stack", ("b1", "b2"))."""
        return self.names.get(sym.name, sym.name), tuple(self.name(a) for a in sym.arguments)

    def parse(self, text: str) -> tuple[str, tuple[str, ...]]:
        """`stack(b1,b2)` (a shown symbol's text) → ("stack", ("b1", "b2")), cached.

        Much faster than `call` over many atoms: only for terms whose arguments are constants
        (objects, actions, atoms), never strings or nested terms."""
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

    def atom(self, term: clingo.Symbol | str) -> Atom:
        """An atom from its symbol or (faster, see `parse`) its text."""
        return Atom(*(self.parse(term) if isinstance(term, str) else self.call(term)))

    def action(self, term: clingo.Symbol | str) -> GroundAction:
        """A ground action from its symbol or (faster, see `parse`) its text."""
        return GroundAction(*(self.parse(term) if isinstance(term, str) else self.call(term)))


def decoder(domain: Domain, problem: Problem | None = None) -> Decoder:
    """The decoder of a program over `domain` (and `problem`): its predicates, actions, constants, objects."""
    d = Decoder()
    d.add(*(p.name for p in domain.predicates), *(a.name for a in domain.actions), *(c for c, _ in domain.constants))
    if problem is not None:
        d.add(*(o for o, _ in problem.objects))
    return d


__all__ = ["arguments", "argument_texts", "Decoder", "decoder"]
