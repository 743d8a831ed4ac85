"""Leniencies: what real learned domains get wrong but mean clearly, repaired before the conversion.

Each pass repairs the s-expression of a domain in place and returns its warnings (some
repairs are silent: they change nothing a user means). `parse.parse_domain` runs them in
order, after the checks, and `convert` reads the repaired tree, whose tokens keep their
positions. `declare_parent_types` repairs our declarations rather than the tree.
"""

from __future__ import annotations

from typing import Iterable, Iterator

from ..errors import InputError
from ..model import supertypes, type_members
from . import sexpr
from .check import NAME
from .declarations import Named, typed_names
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
    warnings: list[str] = []
    for section in root[2:]:
        if section.head() == ":action" and not _complete(section):
            _complete_action(section, warnings)
    return warnings


def _complete(node: sexpr.List) -> bool:
    """The action as PDDL's grammar writes it, which `_complete_action` leaves as it is: the three keys in
    order, and neither the precondition nor the effect `()` (a domain of thousands of actions is all so)."""
    return len(node) == 8 and node[2] == ":parameters" and node[4] == ":precondition" and node[6] == ":effect" \
        and not (isinstance(node[5], sexpr.List) and not node[5]) and not (isinstance(node[7], sexpr.List)
                                                                             and not node[7])


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
            if key == ":effect":  # each `and` of the effect, as it was before any was spliced: splicing one
                for node in sexpr.headed(section[i + 1], _AND):  # changes its own children only, and again
                    _splice_ands(node)  # spliced it changes nothing, so the order and the detached ones do not count
    return []


_AND = frozenset({"and"})


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


def implied(declared: set[str]) -> set[str]:
    """The requirements `declared`, and those they imply (`:adl` its eight)."""
    return declared | {x for r in declared for x in _IMPLIES.get(r, ())}


def warn_requirements(root: sexpr.List) -> list[str]:
    """A missing `:requirements`, and each feature used without its requirement, said (not silently
    assumed): the domain is then read as if it had declared them."""
    index = _section_index(root, ":requirements")
    if index is None:
        return ["no (:requirements ...): read as declaring every requirement amlasp supports"]
    declared = {str(r) for r in root[index][1:] if isinstance(r, sexpr.Token)}
    unknown = [f"unknown requirement {r}{did_you_mean(r, REQUIREMENTS)} (ignored)"
               for r in root[index][1:] if isinstance(r, sexpr.Token) and r not in REQUIREMENTS]
    declared = implied(declared)
    used: dict[str, int] = {}
    holding = sexpr.first_holding(root, "-")  # the first "-" is in the first list that holds one
    if holding is not None:
        used[":typing"] = next(t.line for t in _tokens(holding) if t == "-")
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
    if not isinstance(node, sexpr.List):
        return
    stack = [(node, precondition)]
    while stack:  # its lists, each child's last first (tokens and `()` are no feature): the first use kept
        n, pre = stack.pop()
        if not n:
            continue
        h = n[0]
        if isinstance(h, str) and h in _FEATURES and (h != "not" or pre) and (h != "forall" or pre):
            used.setdefault(_FEATURES[h], n.line)
        if h == "when":
            stack.extend([(child, pre or i == 1) for i, child in enumerate(n) if isinstance(child, sexpr.List)])
        else:
            stack.extend([(child, pre) for child in n if isinstance(child, sexpr.List)])


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


# --------------------------------------------------------------------------- typos of a typed list

def split_glued_dashes(root: sexpr.List, outline: sexpr.Outline | None = None) -> list[str]:
    """`?l1- location` (a type's dash glued to the END of a name: 17 of 27 hand-written domains of a published
    benchmark have it) is `?l1 - location`, in every typed list of a domain. Said in every domain, not only
    a learned model's: a reference domain with this typo is read (with the warning), not refused."""
    return [f"{message} (line {tok.line}, column {tok.col})"
            for tok, message in split_glued_dashes_at(root, outline=outline)]


def split_glued_dashes_at(root: sexpr.List, types: Iterable[str] | None = None,
                          outline: sexpr.Outline | None = None) -> list[tuple[sexpr.Token, str]]:
    """`split_glued_dashes`, for a domain or a problem (`:objects`, with the domain's `types`): each repair's
    token and warning. Only a name ending in `-` and followed by a type is split: a variable followed by a
    name (a variable's list holds no other names), or a name followed by a type the file or the domain
    declares (names may end in `-` too: promela's `forks-0- forks-1- - queue` is read as written);
    `a-b - block` keeps its name, and `b-` alone, or before a `-`, is left to the checks. (`?b -boat`,
    the dash glued to the type, is read so by `sexpr`.) `outline`: the tree's, if the caller has it."""
    known = {"object"} | set(types if types is not None else _declared_types(root))
    out = []
    for items, start in _typed_lists(root, outline):
        i = start
        while i < len(items) - 1:
            tok, nxt = items[i], items[i + 1]
            if isinstance(tok, sexpr.Token) and len(tok) > 1 and tok.endswith("-") and nxt != "-" \
                    and (nxt in known or tok.startswith("?") and isinstance(nxt, sexpr.Token)
                         or isinstance(nxt, sexpr.List) and nxt.head() == "either"):
                name = sexpr.Token(tok[:-1], tok.line, tok.col)
                items[i:i + 1] = [name, sexpr.Token("-", tok.line, tok.col + len(tok) - 1 if tok.col else 0)]
                shown = nxt if isinstance(nxt, sexpr.Token) else f"(either {' '.join(nxt[1:])})"
                out.append((tok, f"'{tok}' is read as '{name} - {shown}': a dash glued to the end of a name"))
                i += 3
            else:
                i += 1
    return out


def _declared_types(root: sexpr.List) -> set[str]:
    """The names of a domain's `:types` section that may be types (not those ending in `-`, `-` itself)."""
    return {str(t) for section in root[2:] if isinstance(section, sexpr.List) and section.head() == ":types"
            for t in section[1:] if isinstance(t, sexpr.Token) and not t.endswith("-")}


_TYPED_HEADS = frozenset({":types", ":constants", ":objects", ":predicates", "forall", "exists", ":derived"})


def _typed_lists(root: sexpr.List, outline: sexpr.Outline | None = None) -> list[tuple[sexpr.List, int]]:
    """Every typed list of a domain or problem, as (the list holding it, the index where it starts):
    `:types`, `:constants`, `:objects`, each predicate declaration, `:parameters`, `forall`/`exists`
    variables, the head of a `:derived` rule."""
    out: list[tuple[sexpr.List, int]] = []
    found = outline.headed(_TYPED_HEADS, ":parameters") if outline else sexpr.headed(root, _TYPED_HEADS, ":parameters")
    for node in found:
        head = node.head()
        if head in (":types", ":constants", ":objects") and any(node is s for s in root[2:]):
            out.append((node, 1))
        elif head == ":predicates":
            out += [(p, 1) for p in node[1:] if isinstance(p, sexpr.List)]
        elif head in ("forall", "exists", ":derived") and len(node) > 1 and isinstance(node[1], sexpr.List):
            out.append((node[1], 1 if head == ":derived" else 0))
        out += [(node[i + 1], 0) for i, x in enumerate(node[:-1])
                if x == ":parameters" and isinstance(node[i + 1], sexpr.List)]
    return out


# --------------------------------------------------------------------------- what a learned model forgot to declare

def used_types(root: sexpr.List, constants: Named, types: Named) -> list[sexpr.Token]:
    """The types a learned model uses after a `-` (constants, predicates, parameters, quantifiers) but never
    declares, each at its first use. Such a use says only that it is a type, so it is read as a subtype of
    `object` (as `declare_parent_types` reads an undeclared parent). A name close to a declared type (a
    likely typo: `locaton` beside `location`) or not a valid name is left to the checks, which refuse it."""
    declared = {"object"} | {str(t) for t, _ in types}
    uses = [t for _, t in constants if isinstance(t, sexpr.Token)]
    for items, start in _typed_lists(root):
        if items.head() not in (":types", ":constants", ":objects"):
            uses += [t for _, t in _typed_uses(items[start:])]
    out: dict[str, sexpr.Token] = {}
    for t in uses:
        for m in type_members(t):
            if m not in declared and m not in out and NAME.fullmatch(m) and not did_you_mean(m, declared):
                out[m] = sexpr.Token(m, t.line, t.col) if isinstance(t, sexpr.Token) else sexpr.Token(m, 0)
    return list(out.values())


def _typed_uses(items: list[sexpr.SExpr]) -> list[tuple[sexpr.Token, sexpr.Token]]:
    """(`-`, type) of a typed list, without reading it (its errors are the checks' to report); an either type
    is one token per member, at the member."""
    out = []
    for x, t in zip(items, items[1:]):
        if x == "-":
            if isinstance(t, sexpr.Token):
                out.append((x, t))
            elif t.head() == "either":
                out += [(x, m) for m in t[1:] if isinstance(m, sexpr.Token)]
    return out


def declare_used_types(types: Named, used: list[sexpr.Token]) -> Named:
    """`used_types` declared as subtypes of `object`."""
    return list(types) + [(t, "object") for t in used]


def warn_used_types(used: list[sexpr.Token]) -> list[str]:
    """`declare_used_types`'s repair, said."""
    return [f"type '{t}' is used (line {t.line}, column {t.col}) but never declared (read as a subtype of object)"
            for t in used]


def used_constants(root: sexpr.List, predicates: dict[str, sexpr.List], constants: Named, types: Named,
                   file: str) -> Named:
    """The constants a learned model's actions use but never declare, each with the type its uses fix: the
    type of the predicate parameters it is an argument of (the most specific, when they are one chain of
    subtypes). Uses that disagree (`(at home)` with `?l - location`, `(holding home)` with `?b - block`) are
    refused at the first use; a name used only in `=`, or not a valid name, is left to the checks."""
    params = {name: [str(t) for _, t in typed_names(list(decl[1:]), file)] for name, decl in predicates.items()}
    declared = {str(c) for c, _ in constants}
    found: dict[str, tuple[sexpr.Token, dict[str, str]]] = {}  # name → (first use, {type: predicate})
    for section in root[2:]:
        if section.head() != ":action":
            continue
        for key, value in zip(section, section[1:]):
            if key not in (":precondition", ":effect"):
                continue
            for atom in sexpr.nodes(value):
                if not isinstance(atom, sexpr.List) or atom.head() not in params \
                        or len(atom) - 1 != len(params[str(atom.head())]):
                    continue
                for arg, t in zip(atom[1:], params[str(atom.head())]):
                    if isinstance(arg, sexpr.Token) and not arg.startswith("?") and arg not in declared \
                            and NAME.fullmatch(arg):
                        found.setdefault(str(arg), (arg, {}))[1].setdefault(t, str(atom.head()))
    out: Named = []
    for name, (first, seen) in found.items():
        chain = [t for t in seen if all(u in supertypes(types, t) for u in seen)]
        if not chain:
            uses = ", ".join(f"'{t}' as an argument of '{p}'" for t, p in seen.items())
            raise InputError(f"unknown constant '{name}' (not in the domain's :constants), and its uses disagree "
                             f"on its type: {uses}", file, at=first)
        out.append((first, chain[0]))
    return out


def warn_used_constants(used: Named) -> list[str]:
    """`used_constants`' repair, said."""
    return [f"constant '{c}' is used (line {c.line}, column {c.col}) but never declared in :constants "
            f"(read as a constant of type '{t}')" for c, t in used]


__all__ = ["declare_parent_types", "complete_actions", "flatten_effects", "warn_requirements", "warn_parent_types",
           "declare_used_predicates", "split_glued_dashes", "split_glued_dashes_at", "used_types",
           "declare_used_types", "warn_used_types", "used_constants", "warn_used_constants"]
