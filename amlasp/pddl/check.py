"""Our checks on a domain or problem, each pointing at the line and column of the first offence.

The `pddl` package checks little of what makes a model unusable for us (two names meeting
as one clingo symbol, an undeclared type, a cycle of types) and nothing of what we do not
support; a refusal here beats a silently wrong number later. The checks run on the
s-expression and on our declarations (`declarations`), before any repair; the conditions and
effects of actions are checked by `formulas` after the repairs, just before `pddl` reads them.
Every walk is iterative: the nesting of a file is the user's to choose.
"""

from __future__ import annotations

import re
from typing import Iterable

from ..errors import InputError, UnsupportedError
from ..model import Domain, canonical_name, type_members
from . import sexpr
from .suggest import did_you_mean

_UNSUPPORTED_REQUIREMENTS = {
    ":durative-actions",
    ":timed-initial-literals", ":preferences", ":constraints", ":non-deterministic",
    ":probabilistic-effects", ":continuous-effects", ":duration-inequalities",
    ":object-fluents", ":time",
}
_UNSUPPORTED_SECTIONS = {
    ":durative-action": "durative actions", ":process": "processes", ":event": "events",
    ":constraints": "constraints", ":metric": None,
}
_UNSUPPORTED_OPERATORS = {
    "increase": "numeric effects", "decrease": "numeric effects", "assign": "numeric effects",
    "scale-up": "numeric effects", "scale-down": "numeric effects", "oneof": "non-deterministic effects",
    "<": "numeric comparisons", ">": "numeric comparisons", "<=": "numeric comparisons",
    ">=": "numeric comparisons", "=": "numeric comparisons", "preference": "preferences", "at": None,
}

#: Numeric fluents: `compare` reads them (`parse_domain(numeric=True)`), every other command refuses
#: the first of them with `NUMERIC_SUPPORT` said.
NUMERIC_REQUIREMENTS = frozenset({":numeric-fluents", ":fluents"})
NUMERIC_EFFECTS = frozenset({"increase", "decrease", "assign", "scale-up", "scale-down"})
NUMERIC_COMPARISONS = frozenset({"<", ">", "<=", ">=", "="})
_NUMERIC_HEADS = NUMERIC_EFFECTS | NUMERIC_COMPARISONS  # `is_numeric` is false of a list with another head
NUMERIC_SUPPORT = ("numeric fluents are read by compare only; the other commands support propositional PDDL "
                   "(STRIPS, typing, negative and disjunctive preconditions, equality, quantifiers, conditional "
                   "effects) and action costs (total-cost increased by a number or a static function)")
_NUMBER = re.compile(r"[-+]?(\d+\.?\d*|\.\d+)")

#: A PDDL name (lower-cased by the reader): a letter, then letters, digits, `-` and `_`.
NAME = re.compile(r"[a-z][a-z0-9_-]*")
#: Words of PDDL's grammar, refused as names (as by the `pddl` package and most planners).
KEYWORDS = frozenset({
    "define", "domain", "problem", "and", "or", "not", "imply", "exists", "forall", "when", "either",
    "oneof", "object", "assign", "scale-up", "scale-down", "increase", "decrease", "maximize", "minimize",
    "total-cost",
})


# --------------------------------------------------------------------------- structure

def expect_define(root: sexpr.List, kind: str, file: str) -> sexpr.List:
    """`(define (KIND NAME) (:section ...) ...)`; returns the header `(KIND NAME)`."""
    if root.head() != "define" or len(root) < 2 or not isinstance(root[1], sexpr.List):
        raise InputError(f"expected (define ({kind} NAME) ...)", file, at=root)
    header = root[1]
    if header.head() != kind or len(header) != 2 or not isinstance(header[1], sexpr.Token):
        other = "problem" if kind == "domain" else "domain"
        if header.head() == other:
            raise InputError(f"this is a {other} file, expected a {kind} file", file, at=header)
        raise InputError(f"expected ({kind} NAME)", file, at=header)
    name(header[1], f"{kind} name", file)
    for section in root[2:]:
        if not isinstance(section, sexpr.List) or section.head() is None:
            raise InputError("expected a section like (:predicates ...)", file, at=section)
    return header


def name(tok: sexpr.SExpr, what: str, file: str, allow: tuple[str, ...] = ()) -> sexpr.Token:
    """`tok` is a PDDL name (not a list, a variable, a keyword or a word with other characters)."""
    if not isinstance(tok, sexpr.Token):
        raise InputError(f"expected a {what}, got a list", file, at=tok)
    if tok in allow:
        return tok
    if not NAME.fullmatch(tok):
        raise InputError(f"invalid {what} '{tok}' (a name starts with a letter, then letters, digits, - or _)",
                         file, at=tok, kind="invalid-name")
    if tok in KEYWORDS:
        raise InputError(f"invalid {what} '{tok}': it is a PDDL keyword", file, at=tok, kind="invalid-name")
    return tok


def known_section(section: sexpr.List, allowed: tuple[str, ...], file: str) -> None:
    if section.head() not in allowed:
        words = allowed + ((":action",) if ":predicates" in allowed else ())
        raise InputError(f"unknown section '{section.head()}'{did_you_mean(section.head() or '', words)}", file,
                         at=section[0] if section and isinstance(section[0], sexpr.Token) else section)


def known_sections(root: sexpr.List, allowed: tuple[str, ...], file: str) -> None:
    for section in root[2:]:
        known_section(section, allowed, file)


def complete_problem(sections: dict[str, sexpr.List], root: sexpr.List, file: str) -> None:
    if ":init" not in sections or ":goal" not in sections:
        raise InputError("a problem needs (:init ...) and (:goal ...)", file, at=root)


def single_sections(root: sexpr.List, file: str) -> None:
    """Each section once (a second `(:predicates ...)` would silently replace the first)."""
    seen: set[str] = set()
    for section in root[2:]:
        h = section.head()
        if h not in (":action", ":derived") and h in seen:
            raise InputError(f"section '{h}' given twice", file, at=section)
        seen.add(h)


def requirements(section: sexpr.List | None, file: str, numeric: bool = False) -> None:
    """`(:requirements :strips ...)`: keywords only; the unsupported ones refused by name (the
    others, known or not, are read as if all we support were declared: `repair.warn_requirements`)."""
    for req in section[1:] if section is not None else ():
        if not isinstance(req, sexpr.Token) or not req.startswith(":"):
            raise InputError("expected a requirement like :strips", file, at=req)
        if req in _UNSUPPORTED_REQUIREMENTS:
            raise UnsupportedError(f"unsupported feature: requirement {req}", file, at=req)
        if req in NUMERIC_REQUIREMENTS and not numeric:
            raise UnsupportedError(f"unsupported feature: requirement {req}; {NUMERIC_SUPPORT}", file, at=req)


def is_number(x: sexpr.SExpr) -> bool:
    return isinstance(x, sexpr.Token) and _NUMBER.fullmatch(x) is not None


def is_numeric(node: sexpr.SExpr) -> bool:
    """A numeric condition or effect: `(< e1 e2)`, `(increase f e)`, ..., or `(= e1 e2)` with an
    expression or a number on a side (`(= ?x ?y)` is equality of objects)."""
    if not isinstance(node, sexpr.List):
        return False
    h = node.head()
    if h == "=":
        return any(isinstance(a, sexpr.List) or is_number(a) for a in node[1:])
    return h in NUMERIC_EFFECTS or h in NUMERIC_COMPARISONS


#: The action-cost pattern (`total-cost` increased by a number or a static function) is read by
#: `pddl.costs` before these checks; what reaches them is a cost effect `pddl.costs` could not take
#: (no `(:functions (total-cost) - number)` declared, or costs beside other numeric fluents).
ACTION_COSTS = ("unsupported feature: action costs here (total-cost); action costs are read when the domain "
                "declares (:functions (total-cost) - number ...) and has no other numeric fluents")
_ARITHMETIC = frozenset({"+", "-", "*", "/"})


def _cost_increase(node: sexpr.List) -> str | None:
    """`(increase (total-cost) N)` → "", `(increase (total-cost) (f t...))` → "f", anything else → None."""
    if node.head() != "increase" or len(node) != 3 or not isinstance(node[1], sexpr.List) or node[1] != ["total-cost"]:
        return None
    value = node[2]
    if is_number(value):
        return ""
    if isinstance(value, sexpr.List) and value.head() not in (None, *_ARITHMETIC) and \
            all(isinstance(x, sexpr.Token) for x in value[1:]):
        return str(value.head())
    return None


def cost_pattern(root: sexpr.List, watched: _Watched | None = None) -> tuple[frozenset[str], list[sexpr.List]]:
    """The functions and the effects of a domain's action costs: `total-cost`, and the functions that
    only ever give a cost increase its value (static: set in the problem); the increases of
    `total-cost` by a number or by such a function. `watched`: `_watched(root)`, if the caller has it."""
    increases: list[tuple[sexpr.List, str]] = []
    other: set[str] = set()  # functions used anywhere else
    watched = watched if watched is not None else _watched(root)
    for section in root[2:]:
        if section.head() != ":action":
            continue
        inside: set[int] = set()  # the lists inside a numeric construct: its parts, no constructs of their own
        for node in watched[id(section)]:
            if id(node) in inside or node.head() not in _NUMERIC_HEADS or not is_numeric(node):
                continue
            inside.update(id(n) for n in sexpr.headed(node, _WATCHED))
            f = _cost_increase(node)
            if f is not None:
                increases.append((node, f))
                continue
            other.update(str(n.head()) for n in sexpr.nodes(node) if isinstance(n, sexpr.List) and n.head())
    costs = frozenset({"total-cost", *(f for _, f in increases if f)} - other)
    return costs, [node for node, f in increases if "total-cost" in costs and (not f or f in costs)]


# --------------------------------------------------------------------------- unsupported features

def refuse_unsupported(root: sexpr.List, file: str, numeric: bool = False,
                       outline: sexpr.Outline | None = None) -> None:
    """Durative actions, derived predicates, preferences...: refused where they appear; numeric fluents
    too unless `numeric` (compare reads them), action costs apart from them (`ACTION_COSTS`). `outline`:
    the tree's, if the caller has it."""
    watched = _watched(root, outline)
    costs, cost_effects = cost_pattern(root, watched) if not numeric else (frozenset(), [])
    # a cost domain may declare :numeric-fluents: its first cost construct is then what is refused
    numeric_requirements = numeric or not _beyond_costs(root, costs, cost_effects, watched)
    for section in root[2:]:
        head = section.head()
        if head == ":functions":
            if not numeric:
                _refuse_functions(section, costs, file)
            continue
        if head in _UNSUPPORTED_SECTIONS and _UNSUPPORTED_SECTIONS[head] is not None:
            raise UnsupportedError(f"unsupported feature: {_UNSUPPORTED_SECTIONS[head]}", file, at=section)
        if head == ":requirements":
            requirements(section, file, numeric_requirements)
        if head in (":action", ":derived", ":goal", ":init"):
            _refuse_operators(watched[id(section)], file, head, numeric, cost_effects)


def _beyond_costs(root: sexpr.List, costs: frozenset[str], cost_effects: list[sexpr.List], watched: _Watched) -> bool:
    """Whether the domain has a function or a numeric condition or effect beyond its action costs."""
    taken = {id(c) for c in cost_effects}  # by identity, in a set: a domain has thousands of cost effects
    for section in root[2:]:
        if section.head() == ":functions" and any(isinstance(d, sexpr.List) and d.head() not in costs
                                                  for d in section[1:]):
            return True
        if section.head() == ":action" and any(id(n) not in taken and is_numeric(n) for n in watched[id(section)]):
            return True
    return False


#: The heads these checks look at: the numeric and the unsupported operators.
_WATCHED = frozenset(_UNSUPPORTED_OPERATORS) | NUMERIC_EFFECTS | NUMERIC_COMPARISONS
#: The heads `refuse_unsupported` looks at (pddl/flat.py leaves an atom with one of them to the passes).
OPERATOR_HEADS = _WATCHED
#: By the id of each section they look into (actions, derived rules, goal, init): its lists with a watched
#: head, in file order (one walk of a domain of thousands of actions, shared by the three checks).
_Watched = dict[int, list[sexpr.List]]


def _watched(root: sexpr.List, outline: sexpr.Outline | None = None) -> _Watched:
    return {id(s): outline.headed(_WATCHED, within=s) if outline else sexpr.headed(s, _WATCHED) for s in root[2:]
            if isinstance(s, sexpr.List) and s.head() in (":action", ":derived", ":goal", ":init")}


def _refuse_functions(section: sexpr.List, costs: frozenset[str], file: str) -> None:
    """Functions beyond the action costs are numeric fluents; action costs alone are `ACTION_COSTS`."""
    if any(isinstance(d, sexpr.List) and d.head() not in costs for d in section[1:]):
        raise UnsupportedError(f"unsupported feature: numeric fluents (:functions); {NUMERIC_SUPPORT}",
                               file, at=section)
    raise UnsupportedError(ACTION_COSTS, file, at=section)


def _refuse_operators(lists: list[sexpr.List], file: str, where: str, numeric: bool,
                      cost_effects: list[sexpr.List]) -> None:
    """The first list of `lists` (a section's, `_watched`) with an operator refused here."""
    for node in lists:
        h = node.head() or ""
        if h == "=" and where == ":init":
            raise UnsupportedError(f"unsupported feature: numeric fluents (= in :init); {NUMERIC_SUPPORT}",
                                   file, at=node)
        if is_numeric(node):
            if numeric:
                continue
            if any(node is c for c in cost_effects):
                raise UnsupportedError(ACTION_COSTS, file, at=node)
            raise UnsupportedError(f"unsupported feature: {_UNSUPPORTED_OPERATORS[h]} ({h}); {NUMERIC_SUPPORT}",
                                   file, at=node)
        if h in _UNSUPPORTED_OPERATORS and h != "=" and not (h == "at" and (where != ":goal" or len(node) != 3)):
            if h != "at" or (isinstance(node[1], sexpr.Token) and node[1] in ("start", "end")):
                what = _UNSUPPORTED_OPERATORS[h] or "timed literals"
                raise UnsupportedError(f"unsupported feature: {what} ({h})", file, at=node)


# --------------------------------------------------------------------------- names and types

def unique_names(names: list[tuple[sexpr.Token, str]], what: str, file: str) -> None:
    seen: set[str] = set()
    for tok, _ in names:
        if tok in seen:
            raise InputError(f"{what} '{tok}' declared twice", file, at=tok, kind="duplicate")
        seen.add(tok)


def valid_names(names: list[tuple[sexpr.Token, str]], what: str, file: str) -> None:
    """Every declared name and every type given to it is a PDDL name."""
    for tok, t in names:
        name(tok, f"{what} name", file)
        if isinstance(t, sexpr.Token) and not t.startswith("(either "):  # either's members: declarations.either
            name(t, "type name", file, allow=("object",))


def known_types(names: list[tuple[sexpr.Token, str]], type_names: set[str], file: str, where: str = "") -> None:
    """The type of every constant or object is declared (`where` tells the user where to look);
    the error points at the type's token."""
    for tok, t in names:
        for m in type_members(t):
            if m not in type_names:
                raise InputError(f"undeclared type '{m}'{where}", file, at=t if isinstance(t, sexpr.Token) else tok,
                                 kind="undeclared-type")


def type_parents(types: list[tuple[sexpr.Token, str]], file: str) -> tuple[list[tuple[sexpr.Token, str]], list[str]]:
    """A type declared more than once: under the same parent, once (said); under another parent, a
    subtype of each (multiple inheritance, as Fast Downward reads it: IPC 2006's storage declares
    `area - object` and `area - surface`), said too. `object` as a parent beside another adds nothing
    and is dropped. The declarations in file order, each (type, parent) once; the warnings."""
    parents: dict[str, list[str]] = {}
    for t, p in types:
        parents.setdefault(str(t), []).append(str(p))
    warnings: list[str] = []
    for name, ps in parents.items():
        distinct = list(dict.fromkeys(ps))
        real = [p for p in distinct if p != "object"]
        if len(distinct) < len(ps):
            warnings.append(f"type '{name}' declared more than once under one parent (read once)")
        if len(real) > 1:
            warnings.append(f"type '{name}' declared under {len(real)} parents (" + ", ".join(f"'{p}'" for p in real)
                            + "): read as a subtype of each, as Fast Downward reads it")
        elif real and len(distinct) > 1:
            warnings.append(f"type '{name}' declared under '{real[0]}' and under object: "
                            f"read as a subtype of '{real[0]}'")
    out: list[tuple[sexpr.Token, str]] = []
    seen: set[tuple[str, str]] = set()
    for t, p in types:
        key = (str(t), str(p))
        if key in seen or (p == "object" and any(q != "object" for q in parents[str(t)])):
            continue
        seen.add(key)
        out.append((t, p))
    return out, warnings


def acyclic_types(types: list[tuple[sexpr.Token, str]], file: str) -> None:
    """No type is its own ancestor. The types that cannot reach a cycle are peeled off, parents
    first (Kahn's algorithm, linear in the declarations: a type may have several parents); the
    first type left, in file order, reaches a cycle and is named."""
    parents: dict[str, set[str]] = {}
    children: dict[str, list[str]] = {}
    for t, p in types:
        parents.setdefault(str(t), set())
        if p != "object":
            parents[str(t)].add(str(p))
            children.setdefault(str(p), []).append(str(t))
    left = {t: len(ps) for t, ps in parents.items()}
    ready = [t for t, n in left.items() if n == 0] + [p for p in children if p not in parents]
    while ready:
        done = ready.pop()
        for c in children.get(done, ()):
            left[c] -= 1
            if left[c] == 0:
                ready.append(c)
    for t, _ in types:
        if left.get(str(t), 0) > 0:
            raise InputError(f"type hierarchy has a cycle through '{t}'", file, at=t, kind="type-cycle")


def declared_types(root: sexpr.SExpr, type_names: set[str], file: str, outline: sexpr.Outline | None = None) -> None:
    """Every type in a predicate declaration, action parameter list or quantifier is declared. `outline`:
    the tree's (`root`'s), if the caller has it."""
    for node in outline.headed(_TYPED, ":parameters") if outline else sexpr.headed(root, _TYPED, ":parameters"):
        lists = []
        if node.head() == ":predicates":
            lists = [p[1:] for p in node[1:] if isinstance(p, sexpr.List)]
        elif node.head() == ":derived" and len(node) > 1 and isinstance(node[1], sexpr.List):
            lists = [node[1][1:]]
        elif node.head() in ("forall", "exists") and len(node) > 1 and isinstance(node[1], sexpr.List):
            lists = [node[1]]
        lists += [node[i + 1] for i, x in enumerate(node[:-1])
                  if x == ":parameters" and isinstance(node[i + 1], sexpr.List)]
        for items in lists:
            for i, x in enumerate(items[:-1]):
                t = items[i + 1]
                if x != "-":
                    continue
                if isinstance(t, sexpr.List) and t.head() != "either":
                    raise InputError("expected a type name after '-'", file, at=t)
                for m in t[1:] if isinstance(t, sexpr.List) else [t]:  # (either a b): each of its types
                    if m not in type_names:
                        name(m, "type name", file, allow=("object",))
                        raise InputError(f"undeclared type '{m}'", file, at=m, kind="undeclared-type")


#: The heads of the lists that hold typed lists (beside those holding `:parameters`).
_TYPED = frozenset({":predicates", ":derived", "forall", "exists"})


def distinct_symbols(names: Iterable[tuple[str, str]], file: str | None, model: str | None = None) -> None:
    """Two different names that clingo would see as one symbol (`a-b`, `a_b`) are refused.

    Names are matched across models case- and `-`/`_`-insensitively (model.canonical_name); within
    one model, two such names would silently become one object or predicate. `names` are
    (name, kind) pairs sharing one namespace; a name that is a token gives the error its position.
    `model` ("learned", "reference") says which of two compared models the names are from."""
    seen: dict[str, tuple[str, str]] = {}
    for nm, kind in names:
        first, first_kind = seen.setdefault(canonical_name(str(nm)), (str(nm), kind))
        if first == str(nm):
            continue
        if model is not None:
            raise InputError(f"{kind}s '{first}' and '{nm}' of the {model} model differ only in "
                             f"case or -/_ and cannot be told apart", file, kind="name-clash")
        raise InputError(f"{kind} '{nm}' and {first_kind} '{first}' differ only in case or -/_ and cannot be "
                         f"told apart: rename one", file, at=nm if getattr(nm, "line", 0) else None,
                         kind="name-clash")


def spelling_differences(learned: Domain, reference: Domain) -> list[str]:
    """Learned names that meet a reference name only as one symbol (they differ in `-`/`_` or case):
    matched, as the README says, and said."""
    out = []
    for kind, mine, theirs in (("action", learned.actions, reference.actions),
                               ("predicate", learned.predicates, reference.predicates)):
        by_symbol = {canonical_name(x.name): x.name for x in theirs}
        for x in mine:
            other = by_symbol.get(canonical_name(x.name))
            if other is not None and other != x.name:
                out.append(f"learned {kind} '{x.name}' is matched with the reference's '{other}' (names differing "
                           f"only in case or -/_ are one name)")
    return out


__all__ = ["NAME", "KEYWORDS", "OPERATOR_HEADS",
           "expect_define", "name", "known_section", "known_sections", "complete_problem",
           "single_sections", "requirements", "is_number", "is_numeric",
           "refuse_unsupported", "NUMERIC_SUPPORT", "ACTION_COSTS", "cost_pattern", "unique_names", "valid_names",
           "known_types",
           "acyclic_types", "declared_types", "distinct_symbols", "spelling_differences"]
