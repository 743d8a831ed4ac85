"""Reading a domain as a compiler does: each broken definition reported, left out, and the rest read.

LLM-written domains are usually broken in one action (an undeclared variable, a wrong arity, an
`(:action` left unclosed before the next); refusing the file at its first error would leave the
other actions, often right, unscored. `read_domain` runs the strict passes of `parse` on a copy of
the tree; an error located inside an `(:action` or `(:derived` section, or inside one entry of
`:types`, `:predicates` or `:constants`, takes that definition out of the tree (a `model.Broken`: its
name and its located error) and the passes run again, until they pass. An error anywhere else (the
header, `:requirements`, a section that does not read) is the file's refusal, as in a strict read.
Each broken definition is said as a warning (so `amlasp --strict` refuses the file).
"""

from __future__ import annotations

import copy
from dataclasses import replace
from typing import Callable

from ..errors import InputError, warn_input
from ..model import Broken, Domain
from . import sexpr

#: The sections whose entries are left out one at a time, and what each entry defines.
_ENTRIES = {":types": "type", ":constants": "constant", ":predicates": "predicate"}
#: The sections left out whole.
_DEFINITIONS = {":action": "action", ":derived": "derived"}


def read_domain(text: str, file: str, passes: Callable[[sexpr.List], Domain]) -> Domain:
    """The domain `passes` make of the tree of `text`, with the definitions they refuse left out
    (`Domain.broken`); the first error of a file that cannot be read so is raised."""
    root, broken = _tree(text, file)
    if not broken:
        try:  # most files read at once: their tree needs no copy (the passes change it)
            return passes(root)
        except InputError:
            root, _ = _tree(text, file)
    broken += _isolate(root, passes)
    domain, dropped = _drop_until_read(root, passes)  # what reading the actions one at a time did not show
    broken += dropped
    for b in broken:
        said = f"{b.kind} '{b.name}'" if b.name is not None else f"an {b.kind} without a readable name"
        verb = "is not scored" if b.kind in _DEFINITIONS.values() else "is left out"
        warn_input(f"{b.message} ({said} {verb})", b.file, b.line, b.col)
    return _with_broken(domain, broken)


def _tree(text: str, file: str) -> tuple[sexpr.List, list[Broken]]:
    """The tree of `text`; when its parentheses do not balance, that of its readable sections, and the
    actions and rules that do not read (`sexpr.read_sections`)."""
    try:
        return sexpr.read(text, file), []
    except InputError as strict:
        if strict.kind != "unbalanced":
            raise
        try:
            root, cut = sexpr.read_sections(text, file)
        except InputError:
            raise strict from None
        broken = []
        for node, error in cut:
            kind = _DEFINITIONS.get(str(node.head()))
            if kind is None:  # a section of the header that does not read: the file's refusal
                raise strict from None
            broken.append(_broken(kind, _name(node), error))
        return root, broken


def _with_broken(domain: Domain, broken: list[Broken]) -> Domain:
    return replace(domain, broken=tuple(broken)) if broken else domain


def _drop_until_read(root: sexpr.List, passes: Callable[[sexpr.List], Domain]) -> tuple[Domain, list[Broken]]:
    """Run `passes` on copies of `root` (the passes repair the tree in place), taking out of `root` the
    definition each error is in, until they pass: the domain, and the definitions taken out."""
    out: list[Broken] = []
    while True:
        try:
            return passes(copy.deepcopy(root)), out
        except InputError as e:
            dropped = _drop(root, e)
            if not dropped:
                raise
            out += dropped


def _isolate(root: sexpr.List, passes: Callable[[sexpr.List], Domain]) -> list[Broken]:
    """Take out of `root` its broken declarations and derived rules (read without the actions), then each
    action that does not read with them alone: k broken actions cost k reads of the declarations and one
    action, not k reads of the whole file (2,000 actions, all broken: 1.6 s, not about 20 minutes)."""
    actions = {id(n): n for n in root[2:] if isinstance(n, sexpr.List) and n.head() == ":action"}
    rest = sexpr.List([n for n in root if id(n) not in actions], root.line, root.end_line, root.col, root.end_col)
    try:
        out = _drop_until_read(rest, passes)[1]
    except InputError:  # the declarations themselves do not read: the whole file's loop says where
        return []
    broken: set[int] = set()
    for key, action in actions.items():
        alone = sexpr.List(list(rest) + [action], root.line, root.end_line, root.col, root.end_col)
        try:
            passes(copy.deepcopy(alone))
        except InputError as e:
            if _holds(action, e):
                broken.add(key)
                out.append(_broken("action", _name(action), e))
    kept = {id(n) for n in rest} | (actions.keys() - broken)
    root[:] = [n for n in root if id(n) in kept]
    return out


def _drop(root: sexpr.List, e: InputError) -> list[Broken]:
    """Take the definition that holds the place of `e` out of `root`: an action or derived rule whole, one
    entry of `:types`, `:constants` or `:predicates`; [] when `e` is elsewhere."""
    if e.line is None:
        return []
    for i, section in enumerate(root[2:], start=2):
        if not isinstance(section, sexpr.List) or not _holds(section, e):
            continue
        head = str(section.head())
        if head in _DEFINITIONS:
            del root[i]
            return [_broken(_DEFINITIONS[head], _name(section), e)]
        if head == ":predicates":
            for j, p in enumerate(section[1:], start=1):
                if isinstance(p, sexpr.List) and _holds(p, e):
                    del section[j]
                    return [_broken("predicate", p.head(), e)]
            return []
        if head in _ENTRIES:
            return _drop_typed(section, e, _ENTRIES[head])
        return []
    return []


def _drop_typed(section: sexpr.List, e: InputError, kind: str) -> list[Broken]:
    """In a typed list `a b - t c`: the name `e` is at, or, at a `-` or a type, the names that type is given."""
    items = section[1:]
    groups: list[tuple[int, int]] = []  # [start, end) of each `names - type`, and of untyped names at the end
    start = 0
    for i, item in enumerate(items):
        if item == "-":
            groups.append((start, i + 2))
            start = i + 2
    if start < len(items):
        groups.append((start, len(items)))
    for a, b in groups:
        at = next((i for i in range(a, min(b, len(items))) if _at(items[i], e)), None)
        if at is None:
            continue
        typed = b - a >= 2 and b <= len(items) and items[b - 2] == "-"
        names = [i for i in range(a, b - 2 if typed else b) if isinstance(items[i], sexpr.Token)]
        if at in names and len(names) > 1:  # one name of several: that name alone
            del section[at + 1]
            return [_broken(kind, str(items[at]), e)]
        del section[a + 1:b + 1]
        return [_broken(kind, str(items[i]), e) for i in names] or [_broken(kind, None, e)]
    return []


def _holds(node: sexpr.List, e: InputError) -> bool:
    """The place of `e` is inside `node` (from its '(' to its ')'; by line alone when `e` has no column)."""
    if e.col is None:
        return node.line <= (e.line or 0) <= node.end_line
    return (node.line, node.col) <= (e.line, e.col) <= (node.end_line, node.end_col)


def _at(item: sexpr.SExpr, e: InputError) -> bool:
    if isinstance(item, sexpr.List):
        return _holds(item, e)
    return item.line == e.line and (e.col is None or item.col <= e.col < item.col + max(len(item), 1))


def _name(section: sexpr.List) -> str | None:
    """An action's name, or a derived rule's predicate, when it can be read."""
    if section.head() == ":derived":
        head = section[1] if len(section) > 1 else None
        return str(head.head()) if isinstance(head, sexpr.List) and head.head() is not None else None
    name = section[1] if len(section) > 1 else None
    return str(name) if isinstance(name, sexpr.Token) and not name.startswith(":") else None


def _broken(kind: str, name: str | None, e: InputError) -> Broken:
    return Broken(kind, name, e.kind, e.message, e.file, e.line, e.col)


__all__ = ["read_domain"]
