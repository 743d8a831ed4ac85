"""A copy of a domain's text with EVERY predicate, function, action, variable and type renamed.

Done on the text (s-expressions read here, not through amlasp's reader), so that it is an
independent witness for `compare`: a renamed copy is at edit distance 0 with F1 1 (docs/compare.md).
New names are random (seeded), so the alphabetical order of the names is scrambled too: nothing
that sorts by name keeps its order. Kept: constants (compare matches them by name), `object`,
`number`, `total-cost` (the metric refers to it), keywords and the domain's name.
"""

from __future__ import annotations

import random
import re

_TOKEN = re.compile(r"[()]|-(?=[a-z])|[^\s()]+")  # `?b -boat`: a type glued to its dash is read apart
_KEEP_TYPES = {"object", "number", "either"}

Tree = list  # a list of tokens (str) and lists


def _read(text: str) -> list[Tree]:
    """The s-expressions of `text` (lower-cased, comments removed)."""
    stack: list[Tree] = [[]]
    for tok in _TOKEN.findall(re.sub(r";[^\n]*", "", text.lower())):
        if tok == "(":
            stack.append([])
        elif tok == ")":
            done = stack.pop()
            stack[-1].append(done)
        else:
            stack[-1].append(tok)
    return stack[0]


def _write(x: Tree | str) -> str:
    return x if isinstance(x, str) else "(" + " ".join(_write(y) for y in x) + ")"


def _sections(domain: Tree, key: str) -> list[Tree]:
    return [s for s in domain if isinstance(s, list) and s and s[0] == key]


class _Renamer:
    def __init__(self, domain: Tree, seed: int, types: bool):
        self.rng = random.Random(seed)
        self.types = types
        self.taken: set[str] = set()
        self.maps: dict[str, dict[str, str]] = {"p": {}, "f": {}, "a": {}, "t": {}, "v": {}}
        for s in _sections(domain, ":predicates"):
            for p in s[1:]:
                self._new("p", p[0])
        for s in _sections(domain, ":functions"):
            for f in s[1:]:
                if isinstance(f, list) and f[0] != "total-cost":
                    self._new("f", f[0])
        for s in _sections(domain, ":action"):
            self._new("a", s[1])

    def _new(self, kind: str, old: str) -> str:
        table = self.maps[kind]
        if old not in table:
            while True:
                new = f"{kind}{self.rng.randrange(16 ** 6):06x}"
                if new not in self.taken:
                    break
            self.taken.add(new)
            table[old] = new if kind != "v" else "?" + new
        return table[old]

    def type(self, t: Tree | str) -> Tree | str:
        if isinstance(t, list):  # (either a b)
            return [t[0]] + [self.type(u) for u in t[1:]]
        return t if t in _KEEP_TYPES or not self.types else self._new("t", t)

    def tree(self, x: Tree | str, head: bool = False) -> Tree | str:
        if isinstance(x, str):
            if x.startswith("?"):
                return self._new("v", x)
            if head and x in self.maps["p"]:
                return self.maps["p"][x]
            if head and x in self.maps["f"]:
                return self.maps["f"][x]
            return x
        if x and x[0] == ":types":
            return [x[0]] + [y if y == "-" else self.type(y) for y in x[1:]]
        if x and x[0] == ":action":
            return [x[0], self.maps["a"][x[1]]] + [self.tree(y) for y in x[2:]]
        out: Tree = []
        after_dash = False
        for i, y in enumerate(x):
            if after_dash:
                out.append(self.type(y))
                after_dash = False
            elif y == "-" and i > 0:  # a typed list's `-` (not the head of a numeric subtraction)
                out.append(y)
                after_dash = True
            else:
                out.append(self.tree(y, head=i == 0))
        return out


def rename_all(text: str, seed: int = 0, types: bool = True) -> tuple[str, dict[str, dict[str, str]]]:
    """`text` (a domain) renamed, and the maps used: kind (`p` predicate, `f` function, `a` action,
    `t` type, `v` variable) → old name → new name. `types=False` keeps the types' names (then
    compare's search is pruned by them: domains of many same-arity predicates need it)."""
    trees = _read(text)
    domain = next(t for t in trees if isinstance(t, list) and t and t[0] == "define")
    r = _Renamer(domain, seed, types)
    renamed = [r.tree(t) if isinstance(t, list) else t for t in trees]
    return "\n".join(_write(t) for t in renamed) + "\n", r.maps


__all__ = ["rename_all"]
