"""Leniencies: what real learned domains get wrong but mean clearly, repaired before the conversion.

Each pass repairs the s-expression of a domain in place and returns its warnings (some
repairs are silent: they change nothing a user means). `parse.parse_domain` runs them in
order, after the checks, and `convert` reads the repaired tree, whose tokens keep their
positions. `declare_parent_types` repairs our declarations rather than the tree.
"""

from __future__ import annotations

from typing import Iterator

from . import sexpr
from .check import KEYWORDS, NAME
from .declarations import Named
from .suggest import REQUIREMENTS, did_you_mean


def declare_parent_types(types: Named) -> Named:
    """A parent type that is never declared itself (`disc table - platform`) is a root type."""
    out = list(types)
    names = {"object"} | {str(t) for t, _ in types}
    for _, parent in types:
        if parent not in names:
            out.append((sexpr.Token(parent, 0), "object"))
            names.add(parent)
    return out


def complete_actions(root: sexpr.List) -> list[str]:
    """Missing `:parameters` and `:precondition` are empty; a missing `:effect` is too (warning); `()` is `(and)`;
    the keys in the order of PDDL's grammar (parameters, precondition, effect)."""
    warnings = []
    for section in root[2:]:
        if section.head() == ":action":
            _complete_action(section, warnings)
    return warnings


def _complete_action(node: sexpr.List, warnings: list[str]) -> None:
    keys = [x for x in node if isinstance(x, sexpr.Token) and x.startswith(":")]
    name = node[1] if len(node) > 1 else "?"
    line = node.end_line
    if ":parameters" not in keys:
        node.insert(2, sexpr.Token(":parameters", node.line))
        node.insert(3, sexpr.List([], node.line, node.line))
    if ":precondition" not in keys:
        idx = next(i for i, x in enumerate(node) if x == ":parameters") + 2
        node.insert(idx, sexpr.Token(":precondition", line))
        node.insert(idx + 1, sexpr.List([sexpr.Token("and", line)], line, line))
    if ":effect" not in keys:
        warnings.append(f"action {name} has no :effect (taken as empty)")
        node.append(sexpr.Token(":effect", line))
        node.append(sexpr.List([sexpr.Token("and", line)], line, line))
    for i, x in enumerate(node):
        if x in (":precondition", ":effect") and i + 1 < len(node) and isinstance(node[i + 1], sexpr.List) \
                and len(node[i + 1]) == 0:
            empty = node[i + 1]
            node[i + 1] = sexpr.List([sexpr.Token("and", empty.line)], empty.line, empty.end_line, empty.col,
                                     empty.end_col)
    pairs = {str(node[i]): node[i + 1] for i in range(2, len(node) - 1, 2)}
    node[2:] = [x for key in (":parameters", ":precondition", ":effect") if key in pairs
                for x in (next(k for k in node[2::2] if k == key), pairs[key])]


def flatten_effects(root: sexpr.List) -> list[str]:
    """`(and a (and b c))` in an effect is `(and a b c)`; an empty `(and)` in one is nothing. PDDL's grammar
    (and the `pddl` package) allows `and` only at the top of an effect, but the meaning is clear."""
    for section in root[2:]:
        if section.head() != ":action":
            continue
        for i, key in enumerate(section[:-1]):
            if key == ":effect":
                for node in sexpr.nodes(section[i + 1]):
                    if isinstance(node, sexpr.List) and node.head() == "and":
                        _splice_ands(node)
    return []


def _splice_ands(node: sexpr.List) -> None:
    """Replace every `(and ...)` child of `node` by its children, repeatedly (iterative)."""
    out: list[sexpr.SExpr] = [node[0]]
    todo = list(reversed(node[1:]))
    while todo:
        c = todo.pop()
        if isinstance(c, sexpr.List) and c.head() == "and":
            todo.extend(reversed(c[1:]))
        else:
            out.append(c)
    node[:] = out


def _section_index(root: sexpr.List, head: str) -> int | None:
    return next((i for i, s in enumerate(root) if isinstance(s, sexpr.List) and s.head() == head), None)


def _tokens(node: sexpr.SExpr) -> Iterator[sexpr.Token]:
    return (n for n in sexpr.nodes(node) if isinstance(n, sexpr.Token))


# --------------------------------------------------------------------------- leniencies that are said

#: What each requirement allows, by the operator that uses it in an action (`-`: in a typed list).
_FEATURES = {"-": ":typing", "=": ":equality", "or": ":disjunctive-preconditions",
             "imply": ":disjunctive-preconditions", "exists": ":existential-preconditions",
             "forall": ":universal-preconditions", "when": ":conditional-effects", "not": ":negative-preconditions"}
#: Requirements that imply others (PDDL 2.1).
_IMPLIES = {":adl": {":strips", ":typing", ":negative-preconditions", ":disjunctive-preconditions", ":equality",
                     ":existential-preconditions", ":universal-preconditions", ":conditional-effects"},
            ":quantified-preconditions": {":existential-preconditions", ":universal-preconditions"}}


def warn_requirements(root: sexpr.List) -> list[str]:
    """A missing `:requirements`, and each feature used without its requirement, said (not silently
    assumed): the domain is then read as if it had declared them."""
    index = _section_index(root, ":requirements")
    if index is None:
        return ["no (:requirements ...): read as declaring every requirement amlasp supports"]
    declared = {str(r) for r in root[index][1:] if isinstance(r, sexpr.Token)}
    unknown = [f"unknown requirement {r}{did_you_mean(r, REQUIREMENTS)} (ignored)"
               for r in root[index][1:] if isinstance(r, sexpr.Token) and r not in REQUIREMENTS]
    declared |= {x for r in declared for x in _IMPLIES.get(r, ())}
    used: dict[str, int] = {}
    if any(t == "-" for t in _tokens(root)):
        used[":typing"] = next(t.line for t in _tokens(root) if t == "-")
    for section in root[2:]:
        if section.head() == ":action":
            for key, value in zip(section, section[1:]):
                if key in (":precondition", ":effect"):
                    _features(value, key == ":precondition", used)
        if section.head() == ":derived":
            used.setdefault(":derived-predicates", section.line)
            _features(section[2] if len(section) > 2 else section, True, used)
    return unknown + [f"{req} is used (line {line}) but not declared in :requirements (assumed)"
                      for req, line in sorted(used.items(), key=lambda x: x[1]) if req not in declared]


def _features(node: sexpr.SExpr, precondition: bool, used: dict[str, int]) -> None:
    """The requirements a formula uses; `not` needs one only in a precondition (or an effect's condition)."""
    stack = [(node, precondition)]
    while stack:
        n, pre = stack.pop()
        if not isinstance(n, sexpr.List) or not n:
            continue
        h = n.head()
        if h in _FEATURES and (h != "not" or pre) and (h != "forall" or pre):
            used.setdefault(_FEATURES[h], n.line)
        for i, child in enumerate(n):
            stack.append((child, pre or (h == "when" and i == 1)))


def warn_parent_types(types: Named) -> list[str]:
    """`declare_parent_types`'s leniency, said: a parent type never declared itself."""
    names = {"object"} | {str(t) for t, _ in types}
    return [f"type '{parent}' is used as a parent type but never declared (read as a subtype of object)"
            for parent in dict.fromkeys(p for _, p in types) if parent not in names]


def declare_used_predicates(root: sexpr.List) -> list[str]:
    """The one leniency a learned model gets from compare and eval, not from solve: a predicate its
    actions use but never declare (NOLAM's childsnack writes `(not (xist ?param_1))`) is declared
    with untyped parameters, so that it is scored as a predicate only the learned model has."""
    index = _section_index(root, ":predicates")
    declared = {p.head() for p in root[index][1:] if isinstance(p, sexpr.List)} if index is not None else set()
    found: dict[str, tuple[int, int]] = {}  # name → (arity, line of its first use)
    for section in root[2:]:
        if section.head() == ":action":
            for key, value in zip(section, section[1:]):
                if key in (":precondition", ":effect"):
                    _atoms(value, found)
    new = {name: use for name, use in found.items() if name not in declared}
    if not new:
        return []
    if index is None:
        line = root[1].end_line
        root.insert(2, sexpr.List([sexpr.Token(":predicates", line)], line, line))
        index = 2
    section = root[index]
    for name, (arity, line) in new.items():
        section.append(sexpr.List([sexpr.Token(name, line)] + [sexpr.Token(f"?x{i + 1}", line) for i in range(arity)],
                                  line, line))
    return [f"predicate '{name}' is used (line {line}) but never declared: read as a predicate only the learned "
            f"model has, ({' '.join([name] + [f'?x{i + 1}' for i in range(arity)])})"
            for name, (arity, line) in new.items()]


def declare_used_types(root: sexpr.List) -> list[str]:
    """A leniency asked for (`--lenient-reference`): a type given after `-` (in `:constants`, `:predicates`,
    parameters, quantifiers, derived heads) but never declared is declared in `:types` as a subtype of
    `object`, with a warning, instead of refusing the file."""
    index = _section_index(root, ":types")
    declared = {"object"} | ({str(t) for t in root[index][1:] if isinstance(t, sexpr.Token)} if index is not None
                             else set())
    new: dict[str, int] = {}  # type → line of its first use
    for node in sexpr.nodes(root):
        if not isinstance(node, sexpr.List) or node.head() in (":types", ":functions"):  # `- number` is no type
            continue
        for i, (x, t) in enumerate(zip(node, node[1:])):
            members = t[1:] if isinstance(t, sexpr.List) and t.head() == "either" else [t]
            if x == "-" and i > 0 and all(isinstance(m, sexpr.Token) for m in members):  # not `(- a b)`
                for m in members:
                    if m not in declared and str(m) not in new and NAME.fullmatch(m) and m not in KEYWORDS:
                        new[str(m)] = m.line
    if not new:
        return []
    if index is None:
        line = root[1].end_line
        root.insert(2, sexpr.List([sexpr.Token(":types", line)], line, line))
        index = 2
    root[index].extend(sexpr.Token(t, line) for t, line in new.items())
    return [f"type '{t}' is used (line {line}) but never declared: read as a subtype of object"
            for t, line in new.items()]


_NOT_PREDICATES = {"and", "or", "not", "imply", "exists", "forall", "when", "="}


def _atoms(node: sexpr.SExpr, found: dict[str, tuple[int, int]]) -> None:
    """The atoms of a formula (name → arity and line), skipping quantifiers' variable lists."""
    stack = [node]
    while stack:
        n = stack.pop()
        if not isinstance(n, sexpr.List) or not n or not isinstance(n[0], sexpr.Token):
            continue
        h = n.head()
        if h in _NOT_PREDICATES:
            stack.extend(n[2:] if h in ("exists", "forall") else n[1:])
        elif all(isinstance(x, sexpr.Token) for x in n):
            found.setdefault(str(h), (len(n) - 1, n.line))


__all__ = ["declare_parent_types", "complete_actions", "flatten_effects", "warn_requirements", "warn_parent_types",
           "declare_used_predicates", "declare_used_types"]
