"""PDDL text → normalised model (`amlasp.model`), with `file:line` on every error.

Flow: our line-aware reader (`sexpr`) checks the structure, refuses unsupported
features, and repairs what real learned models get wrong but mean clearly (missing
`:requirements`, `:precondition` or `:effect`, `- object`); the `pddl` package then
parses the repaired text, whose tokens keep their lines; finally we convert to our
model and check names, arities and types ourselves (`pddl` does not).
"""

from __future__ import annotations

import sys
from functools import lru_cache
from pathlib import Path

import pddl.logic.base as pl
import pddl.logic.effects as pe
import pddl.logic.predicates as pp
import pddl.logic.terms as pt
from lark.exceptions import UnexpectedInput

from . import sexpr
from ..errors import InputError, UnsupportedError
from ..asp.names import asp_name
from ..model import (
    TRUE, And, Atom, Domain, Effect, Exists, Forall, Formula, Imply, Literal, Not, Or,
    Predicate, Problem, Action, Typed, atoms_of, conjunction_literals, is_var,
)

# `pddl` refuses `- object` in typed lists once `:types` is declared; we hand it this alias.
_OBJECT_ALIAS = "amlasp-object-type"
_SUPPORTED_REQUIREMENTS = (
    ":strips", ":typing", ":negative-preconditions", ":disjunctive-preconditions",
    ":equality", ":existential-preconditions", ":universal-preconditions",
    ":quantified-preconditions", ":conditional-effects", ":adl",
)
_UNSUPPORTED_REQUIREMENTS = {
    ":numeric-fluents", ":fluents", ":durative-actions", ":derived-predicates",
    ":timed-initial-literals", ":preferences", ":constraints", ":non-deterministic",
    ":probabilistic-effects", ":continuous-effects", ":duration-inequalities",
    ":object-fluents", ":time",
}
_UNSUPPORTED_SECTIONS = {
    ":functions": "numeric fluents (:functions)", ":durative-action": "durative actions",
    ":derived": "derived predicates (:derived)", ":process": "processes", ":event": "events",
    ":constraints": "constraints", ":metric": None,
}
_UNSUPPORTED_OPERATORS = {
    "increase": "numeric effects", "decrease": "numeric effects", "assign": "numeric effects",
    "scale-up": "numeric effects", "scale-down": "numeric effects", "oneof": "non-deterministic effects",
    "<": "numeric comparisons", ">": "numeric comparisons", "<=": "numeric comparisons",
    ">=": "numeric comparisons", "preference": "preferences", "at": None,
}


@lru_cache(maxsize=None)
def _domain_parser():
    from pddl.parser.domain import DomainParser
    return DomainParser()


@lru_cache(maxsize=None)
def _problem_parser():
    from pddl.parser.problem import ProblemParser
    return ProblemParser()


def _read_text(path: str | Path) -> str:
    p = Path(path)
    if not p.exists():
        raise InputError("no such file", p)
    if p.is_dir():
        raise InputError("is a directory, expected a PDDL file", p)
    data = p.read_bytes()
    if b"\x00" in data:
        raise InputError("binary data, not a PDDL text file", p, 1)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data[: e.start].count(b"\n") + 1
        raise InputError("not UTF-8 text (is this a PDDL file?)", p, line) from None


def _call_pddl(parser, text: str, file: str, root: sexpr.List):
    """Run a `pddl` parser and turn its errors into ours (it also leaks sys.tracebacklimit)."""
    old = getattr(sys, "tracebacklimit", None)
    try:
        return parser(text)
    except UnexpectedInput as e:
        _domain_parser.cache_clear()  # see below
        tok = getattr(e, "token", None)
        what = f" near '{tok}'" if tok not in (None, "") else ""
        raise InputError(f"PDDL syntax error{what}", file, getattr(e, "line", None)) from None
    except Exception as e:  # pddl's own validation: locate the first name it mentions
        # A parse that failed half-way leaves state in the parser's transformer (`_types`), and it then
        # refuses every later domain with :types ("parser is in an unexpected state"): build a new one.
        _domain_parser.cache_clear()
        msg = str(e).splitlines()[0] if str(e) else type(e).__name__
        msg = msg.replace(_OBJECT_ALIAS, "object")
        line = root.line
        for word in msg.replace("'", " ").replace(",", " ").split():
            hit = sexpr.find_token(root, word.strip("[]{}().").lower())
            if hit is not None:
                line = hit.line
                break
        raise InputError(f"invalid PDDL: {msg}", file, line) from None
    finally:
        if old is None:
            if hasattr(sys, "tracebacklimit"):
                del sys.tracebacklimit
        else:
            sys.tracebacklimit = old


# --------------------------------------------------------------------------- structure

def _expect_define(root: sexpr.List, kind: str, file: str) -> sexpr.List:
    if root.head() != "define" or len(root) < 2 or not isinstance(root[1], sexpr.List):
        raise InputError(f"expected (define ({kind} NAME) ...)", file, root.line)
    header = root[1]
    if header.head() != kind or len(header) != 2 or not isinstance(header[1], sexpr.Token):
        other = "problem" if kind == "domain" else "domain"
        if header.head() == other:
            raise InputError(f"this is a {other} file, expected a {kind} file", file, header.line)
        raise InputError(f"expected ({kind} NAME)", file, header.line)
    for section in root[2:]:
        if not isinstance(section, sexpr.List) or section.head() is None:
            raise InputError("expected a section like (:predicates ...)", file, getattr(section, "line", root.line))
    return header


def _refuse_unsupported(root: sexpr.List, file: str) -> None:
    for section in root[2:]:
        head = section.head()
        if head in _UNSUPPORTED_SECTIONS and _UNSUPPORTED_SECTIONS[head] is not None:
            raise UnsupportedError(f"unsupported feature: {_UNSUPPORTED_SECTIONS[head]}", file, section.line)
        if head == ":requirements":
            for req in section[1:]:
                if req in _UNSUPPORTED_REQUIREMENTS:
                    raise UnsupportedError(f"unsupported requirement {req}", file, req.line)
        if head in (":action", ":goal", ":init"):
            _refuse_operators(section, file, head)


def _refuse_operators(node: sexpr.SExpr, file: str, where: str) -> None:
    if not isinstance(node, sexpr.List):
        return
    h = node.head()
    if h in _UNSUPPORTED_OPERATORS and not (h == "at" and where != ":goal" or h == "at" and len(node) != 3):
        if h != "at" or (isinstance(node[1], sexpr.Token) and node[1] in ("start", "end")):
            raise UnsupportedError(f"unsupported feature: {_UNSUPPORTED_OPERATORS[h] or 'timed literals'} ({h})",
                                   file, node.line)
    if h == "=" and where == ":init":
        raise UnsupportedError("unsupported feature: numeric fluents (= in :init)", file, node.line)
    for child in node:
        _refuse_operators(child, file, where)


def _typed_names(items: list[sexpr.SExpr], file: str, line: int) -> list[tuple[sexpr.Token, str]]:
    """Parse a PDDL typed list `a b - t c - u d` (untyped items are `object`)."""
    out: list[tuple[sexpr.Token, str]] = []
    pending: list[sexpr.Token] = []
    i = 0
    while i < len(items):
        it = items[i]
        if isinstance(it, sexpr.List):
            raise InputError("unexpected '(' in a typed list", file, it.line)
        if it == "-":
            if i + 1 >= len(items):
                raise InputError("'-' without a type", file, it.line)
            t = items[i + 1]
            if isinstance(t, sexpr.List):
                if t.head() == "either":
                    raise UnsupportedError("unsupported feature: (either ...) types", file, t.line)
                raise InputError("expected a type name after '-'", file, t.line)
            if not pending:
                raise InputError(f"type '{t}' given to no name", file, t.line)
            out.extend((p, str(t)) for p in pending)
            pending = []
            i += 2
        else:
            pending.append(it)
            i += 1
    out.extend((p, "object") for p in pending)
    return out


def _alias_object(items: list[sexpr.SExpr]) -> None:
    for i in range(len(items) - 1):
        if items[i] == "-" and items[i + 1] == "object":
            items[i + 1] = sexpr.Token(_OBJECT_ALIAS, items[i + 1].line)


def _normalise_typed_lists(node: sexpr.SExpr, in_types: bool = False) -> None:
    """Replace `- object` by the alias everywhere a typed list can occur."""
    if not isinstance(node, sexpr.List):
        return
    h = node.head()
    if h in (":constants", ":objects", ":parameters", ":types") or h in ("forall", "exists"):
        pass
    if h in (":constants", ":objects") or h == ":types":
        _alias_object(node)
    for i, child in enumerate(node):
        if isinstance(child, sexpr.List):
            prev = node[i - 1] if i > 0 else None
            if prev == ":parameters" or h in ("forall", "exists") and i == 1 or h == ":predicates":
                _alias_object(child)
            _normalise_typed_lists(child)


def _requirements_node(line: int) -> sexpr.List:
    toks = [sexpr.Token(":requirements", line)] + [sexpr.Token(r, line) for r in _SUPPORTED_REQUIREMENTS
                                                    if r not in (":adl", ":quantified-preconditions")]
    return sexpr.List(toks, line, line)


def _prepare(root: sexpr.List, kind: str, file: str) -> list[str]:
    """Repair the tree in place for `pddl`; returns warnings about what was repaired."""
    warnings: list[str] = []
    uses_types = any(t == "-" for t in _walk_tokens(root))
    req_index = next((i for i, s in enumerate(root) if isinstance(s, sexpr.List) and s.head() == ":requirements"), None)
    declared = set(root[req_index][1:]) if req_index is not None else set()
    if uses_types and kind == "domain" and not declared & {":typing", ":adl"}:
        warnings.append("types are used but :typing is not declared in :requirements (assumed)")
    new_req = _requirements_node(root[req_index].line if req_index is not None else root[1].end_line)
    if req_index is not None:
        root[req_index] = new_req
    elif kind == "domain":
        root.insert(2, new_req)
    types_index = next((i for i, s in enumerate(root) if isinstance(s, sexpr.List) and s.head() == ":types"), None)
    if kind == "domain":
        uses_object = any(t == "object" for t in _walk_tokens(root))
        if types_index is None and uses_object:
            line = root[1].end_line
            root.insert(3, sexpr.List([sexpr.Token(":types", line), sexpr.Token(_OBJECT_ALIAS, line)], line, line))
        elif types_index is not None:
            node = root[types_index]
            declared_types = [t for t in node[1:] if isinstance(t, sexpr.Token) and t != "-"]
            if _OBJECT_ALIAS not in declared_types and uses_object:
                node.append(sexpr.Token(_OBJECT_ALIAS, node.end_line))
            # `object` declared as a type of its own is the built-in root: drop it.
            items = list(node[1:])
            kept: list[sexpr.SExpr] = []
            i = 0
            while i < len(items):
                if items[i] == "object" and (i == 0 or items[i - 1] != "-"):
                    i += 1
                    continue
                kept.append(items[i])
                i += 1
            node[1:] = kept
        for section in root[2:]:
            if section.head() == ":action":
                _complete_action(section, warnings)
    _normalise_typed_lists(root)
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
            node[i + 1] = sexpr.List([sexpr.Token("and", node[i + 1].line)], node[i + 1].line, node[i + 1].end_line)


def _walk_tokens(node: sexpr.SExpr):
    if isinstance(node, sexpr.Token):
        yield node
    else:
        for c in node:
            yield from _walk_tokens(c)


# --------------------------------------------------------------------------- conversion

class _Converter:
    """Turns `pddl` objects into ours, checking names against the declarations."""

    def __init__(self, file: str, predicates: dict[str, Predicate], constants: dict[str, str],
                 types: set[str]):
        self.file = file
        self.predicates = predicates
        self.constants = constants
        self.types = types

    def type_of(self, tags, line: int) -> str:
        names = sorted(tags)
        if not names:
            return "object"
        if len(names) > 1:
            raise UnsupportedError("unsupported feature: (either ...) types", self.file, line)
        t = "object" if names[0] == _OBJECT_ALIAS else str(names[0])
        if t not in self.types:
            raise InputError(f"undeclared type '{t}'", self.file, line)
        return t

    def term(self, t, scope: dict[str, str], node: sexpr.SExpr) -> str:
        if isinstance(t, pt.Variable):
            name = "?" + t.name
            if name not in scope:
                raise InputError(f"undeclared variable {name}", self.file, _line_of(node, name))
            return name
        name = str(t.name)
        if name not in self.constants:
            raise InputError(f"unknown object or constant '{name}'", self.file, _line_of(node, name))
        return name

    def atom(self, f, scope: dict[str, str], node: sexpr.SExpr) -> Atom:
        if isinstance(f, pp.EqualTo):
            return Atom("=", (self.term(f.left, scope, node), self.term(f.right, scope, node)))
        name = str(f.name)
        decl = self.predicates.get(name)
        hit = sexpr.find(node, name)
        line = hit.line if hit is not None else getattr(node, "line", None)
        if decl is None:
            raise InputError(f"undefined predicate '{name}'", self.file, line)
        if len(f.terms) != decl.arity:
            raise InputError(f"predicate '{name}' takes {decl.arity} argument(s), {len(f.terms)} given",
                             self.file, line)
        return Atom(name, tuple(self.term(t, scope, node) for t in f.terms))

    def variables(self, vs, node: sexpr.SExpr) -> tuple[Typed, ...]:
        return tuple(sorted(("?" + v.name, self.type_of(v.type_tags, _line_of(node, "?" + v.name))) for v in vs))

    def formula(self, f, scope: dict[str, str], node: sexpr.SExpr) -> Formula:
        if isinstance(f, (pp.Predicate, pp.EqualTo)):
            return self.atom(f, scope, node)
        if isinstance(f, pl.Not):
            return Not(self.formula(f.argument, scope, node))
        if isinstance(f, pl.And):
            return And(tuple(self.formula(g, scope, node) for g in f.operands))
        if isinstance(f, pl.Or):
            return Or(tuple(self.formula(g, scope, node) for g in f.operands))
        if isinstance(f, pl.Imply):
            left, right = f.operands
            return Imply(self.formula(left, scope, node), self.formula(right, scope, node))
        if isinstance(f, (pl.ForallCondition, pl.ExistsCondition)):
            vs = self.variables(f.variables, node)
            inner = dict(scope, **dict(vs))
            body = self.formula(f.condition, inner, node)
            return Forall(vs, body) if isinstance(f, pl.ForallCondition) else Exists(vs, body)
        raise UnsupportedError(f"unsupported condition {f}", self.file, getattr(node, "line", None))

    def effects(self, e, scope: dict[str, str], node: sexpr.SExpr, cond: Formula = TRUE,
                vs: tuple[Typed, ...] = ()) -> list[Effect]:
        if isinstance(e, pl.And):
            return [x for g in e.operands for x in self.effects(g, scope, node, cond, vs)]
        if isinstance(e, pe.Forall):
            new = self.variables(e.variables, node)
            return self.effects(e.effect, dict(scope, **dict(new)), node, cond, vs + new)
        if isinstance(e, pe.When):
            c = self.formula(e.condition, scope, node)
            c = c if cond == TRUE else And((cond, c))
            return self.effects(e.effect, scope, node, c, vs)
        if isinstance(e, pl.Not) and isinstance(e.argument, pp.Predicate):
            return [Effect(Literal(self.atom(e.argument, scope, node), False), cond, vs)]
        if isinstance(e, pp.Predicate):
            return [Effect(Literal(self.atom(e, scope, node), True), cond, vs)]
        raise UnsupportedError(f"unsupported effect {e}", self.file, getattr(node, "line", None))


def _line_of(node: sexpr.SExpr, word: str) -> int | None:
    hit = sexpr.find_token(node, word)
    return hit.line if hit is not None else getattr(node, "line", None)


def _check_unique(names: list[tuple[sexpr.Token, str]], what: str, file: str) -> None:
    seen: set[str] = set()
    for tok, _ in names:
        if tok in seen:
            raise InputError(f"{what} '{tok}' declared twice", file, tok.line)
        seen.add(tok)


def parse_domain(text: str, file: str = "<domain>") -> Domain:
    root = sexpr.read(text, file)
    header = _expect_define(root, "domain", file)
    _refuse_unsupported(root, file)
    sections = {s.head(): s for s in root[2:]}
    # our own view of the declarations, with lines
    types: list[tuple[sexpr.Token, str]] = _typed_names(list(sections[":types"][1:]), file, sections[":types"].line) \
        if ":types" in sections else []
    types = [(t, p) for t, p in types if t != "object"]
    type_names = {"object"} | {str(t) for t, _ in types}
    # a parent type that is never declared itself (`disc table - platform`) is a root type
    for _, parent in list(types):
        if parent not in type_names:
            types.append((sexpr.Token(parent, 0), "object"))
            type_names.add(parent)
    _check_acyclic(types, file)
    consts = _typed_names(list(sections[":constants"][1:]), file, sections[":constants"].line) \
        if ":constants" in sections else []
    _check_unique(consts, "constant", file)
    for c, t in consts:
        if t not in type_names:
            raise InputError(f"undeclared type '{t}'", file, c.line)
    pred_nodes = {}
    if ":predicates" in sections:
        for p in sections[":predicates"][1:]:
            if not isinstance(p, sexpr.List) or p.head() is None:
                raise InputError("expected a predicate declaration like (on ?x ?y)", file, getattr(p, "line", None))
            if p.head() in pred_nodes:
                raise InputError(f"predicate '{p.head()}' declared twice", file, p.line)
            pred_nodes[p.head()] = p
    action_nodes: dict[str, sexpr.List] = {}
    for s in root[2:]:
        if s.head() == ":action":
            if len(s) < 2 or not isinstance(s[1], sexpr.Token):
                raise InputError("action without a name", file, s.line)
            if s[1] in action_nodes:
                raise InputError(f"action '{s[1]}' declared twice", file, s.line)
            action_nodes[s[1]] = s
        elif s.head() not in (":requirements", ":types", ":constants", ":predicates"):
            raise InputError(f"unknown section {s.head()}", file, s.line)
    order = list(action_nodes)
    _check_declared_types(root, type_names, file)
    _check_distinct_symbols([(t, "type") for t, _ in types] + [(c, "constant") for c, _ in consts]
                            + [(p.head(), "predicate") for p in pred_nodes.values()]
                            + [(n, "action") for n in action_nodes], file)
    warnings = _prepare(root, "domain", file)
    d = _call_pddl(_domain_parser(), sexpr.write(root), file, root)

    predicates: dict[str, Predicate] = {}
    conv = _Converter(file, predicates, {str(c): t for c, t in consts}, type_names)
    for p in d.predicates:
        node = pred_nodes.get(str(p.name))
        params = tuple(("?" + t.name, conv.type_of(t.type_tags, node.line if node else None)) for t in p.terms)
        predicates[str(p.name)] = Predicate(str(p.name), params)
    actions = {}
    by_name = {str(a.name): a for a in d.actions}
    for name in order:
        a = by_name[name]
        node = action_nodes[name]
        params = tuple(("?" + v.name, conv.type_of(v.type_tags, _line_of(node, "?" + v.name))) for v in a.parameters)
        seen = set()
        for v, _ in params:
            if v in seen:
                raise InputError(f"parameter {v} declared twice in action '{name}'", file, _line_of(node, v))
            seen.add(v)
        scope = dict(params)
        pre_node = _key_node(node, ":precondition")
        eff_node = _key_node(node, ":effect")
        pre = conv.formula(a.precondition, scope, pre_node) if a.precondition is not None else TRUE
        effs = tuple(conv.effects(a.effect, scope, eff_node)) if a.effect is not None else ()
        actions[name] = Action(name, params, _simplify(pre), effs, node.line)
    return Domain(
        name=str(header[1]),
        types=tuple((str(t), p) for t, p in types),
        constants=tuple((str(c), t) for c, t in consts),
        predicates=tuple(predicates[str(p.head())] for p in pred_nodes.values()),
        actions=tuple(actions[n] for n in order),
        file=file,
        warnings=tuple(warnings),
    )


def _check_declared_types(node: sexpr.SExpr, type_names: set[str], file: str) -> None:
    """Every type in a predicate declaration, action parameter list or quantifier is declared."""
    if not isinstance(node, sexpr.List):
        return
    lists = []
    if node.head() == ":predicates":
        lists = [p[1:] for p in node[1:] if isinstance(p, sexpr.List)]
    elif node.head() in ("forall", "exists") and len(node) > 1 and isinstance(node[1], sexpr.List):
        lists = [node[1]]
    lists += [node[i + 1] for i, x in enumerate(node[:-1]) if x == ":parameters" and isinstance(node[i + 1], sexpr.List)]
    for items in lists:
        for i, x in enumerate(items[:-1]):
            t = items[i + 1]
            if x == "-" and isinstance(t, sexpr.Token) and t not in type_names:
                raise InputError(f"undeclared type '{t}'", file, t.line)
    for child in node:
        _check_declared_types(child, type_names, file)


def _check_distinct_symbols(names: list[tuple[sexpr.Token, str]], file: str) -> None:
    """Two different names that clingo would see as one symbol (`a-b`, `a_b`) are refused.

    Names are matched across models case- and `-`/`_`-insensitively (names.asp_name); within
    one domain and problem, two such names would silently become one object or predicate."""
    seen: dict[str, tuple[str, str]] = {}
    for tok, kind in names:
        key = asp_name(str(tok))
        other = seen.setdefault(key, (str(tok), kind))
        if other[0] != str(tok):
            raise InputError(f"{kind} '{tok}' and {other[1]} '{other[0]}' differ only in case or -/_ and cannot be "
                             f"told apart: rename one", file, tok.line or None)


def _check_acyclic(types: list[tuple[sexpr.Token, str]], file: str) -> None:
    parent = {str(t): p for t, p in types}
    for t, _ in types:
        seen = {str(t)}
        cur = parent.get(str(t))
        while cur is not None and cur != "object":
            if cur in seen:
                raise InputError(f"type hierarchy has a cycle through '{t}'", file, t.line)
            seen.add(cur)
            cur = parent.get(cur)


def _key_node(action: sexpr.List, key: str) -> sexpr.SExpr:
    for i, x in enumerate(action):
        if x == key and i + 1 < len(action):
            return action[i + 1]
    return action


def _simplify(f: Formula) -> Formula:
    """Flatten nested conjunctions so that literal lists are easy to read off."""
    if isinstance(f, And):
        out: list[Formula] = []
        for g in f.args:
            g = _simplify(g)
            out.extend(g.args if isinstance(g, And) else (g,))
        return And(tuple(out))
    if isinstance(f, Atom):
        return And((f,))
    if isinstance(f, Not) and isinstance(f.arg, Atom):
        return And((f,))
    return f


def load_domain(path: str | Path) -> Domain:
    return parse_domain(_read_text(path), str(path))


# --------------------------------------------------------------------------- problems

def parse_problem(text: str, domain: Domain, file: str = "<problem>") -> Problem:
    """Problems are flat (objects, init atoms, goal literals), so our line-aware reader checks
    them completely; `pddl`'s parser would add nothing but 7x the reading time (measured on
    the 413 IPC problems: 3.7 s with it, 0.5 s without)."""
    root = sexpr.read(text, file)
    header = _expect_define(root, "problem", file)
    _refuse_unsupported(root, file)
    sections = {s.head(): s for s in root[2:]}
    for s in root[2:]:
        if s.head() not in (":domain", ":requirements", ":objects", ":init", ":goal", ":metric"):
            raise InputError(f"unknown section {s.head()}", file, s.line)
    if ":domain" not in sections:
        raise InputError("missing (:domain NAME)", file, root.line)
    dname = str(sections[":domain"][1]) if len(sections[":domain"]) > 1 else ""
    objs = _typed_names(list(sections[":objects"][1:]), file, sections[":objects"].line) \
        if ":objects" in sections else []
    _check_unique(objs, "object", file)
    type_names = {"object"} | {t for t, _ in domain.types}
    for o, t in objs:
        if t not in type_names:
            raise InputError(f"undeclared type '{t}' (not in domain {domain.name})", file, o.line)
    if ":init" not in sections or ":goal" not in sections:
        raise InputError("a problem needs (:init ...) and (:goal ...)", file, root.line)
    _check_distinct_symbols([(sexpr.Token(n, 0), kind) for names, kind in (
        ([t for t, _ in domain.types], "type"), ([c for c, _ in domain.constants], "constant"),
        ([p.name for p in domain.predicates], "predicate"), ([a.name for a in domain.actions], "action"))
        for n in names] + [(o, "object") for o, _ in objs], file)
    constants = dict(domain.constants)
    constants.update({str(o): t for o, t in objs})
    preds = {p.name: p for p in domain.predicates}
    init: set[Atom] = set()
    for item in sections[":init"][1:]:
        init.add(ground_atom(item, preds, constants, file))
    goal_section = sections[":goal"]
    if len(goal_section) > 2:
        raise InputError("(:goal ...) takes one formula: wrap the literals in (and ...)", file, goal_section[2].line)
    goal_node = goal_section[1] if len(goal_section) > 1 else sexpr.List([], goal_section.line, goal_section.line)
    conv = _Converter(file, preds, constants, type_names)
    goal = _goal_literals(goal_node, conv, file)
    return Problem(str(header[1]), dname, tuple((str(o), t) for o, t in objs), frozenset(init), goal, file)


def _goal_literals(node: sexpr.SExpr, conv: _Converter, file: str) -> tuple[Literal, ...]:
    out: list[Literal] = []

    def walk(n: sexpr.SExpr) -> None:
        if not isinstance(n, sexpr.List):
            raise InputError("expected a literal in :goal", file, getattr(n, "line", None))
        h = n.head()
        if h == "and":
            for c in n[1:]:
                walk(c)
        elif h == "not" and len(n) == 2 and isinstance(n[1], sexpr.List) and n[1].head() not in ("and", "or", "not"):
            out.append(Literal(_ground(n[1], conv, file), False))
        elif h in ("or", "exists", "forall", "imply", "not"):
            raise UnsupportedError(f"unsupported feature: '{h}' in a goal (goals must be conjunctions of literals)",
                                   file, n.line)
        elif len(n) == 0:
            return
        else:
            out.append(Literal(_ground(n, conv, file), True))

    walk(node)
    return tuple(out)


def _ground(n: sexpr.List, conv: _Converter, file: str) -> Atom:
    if n.head() == "=":
        if len(n) != 3:
            raise InputError("'=' takes two arguments", file, n.line)
        for a in n[1:]:
            if a not in conv.constants:
                raise InputError(f"unknown object '{a}'", file, getattr(a, 'line', n.line))
        return Atom("=", tuple(str(a) for a in n[1:]))
    return ground_atom(n, conv.predicates, conv.constants, file)


def ground_atom(node: sexpr.SExpr, predicates: dict[str, Predicate], objects: dict[str, str] | set[str],
                file: str) -> Atom:
    """Check and build one ground atom like (on b1 b2): used for init, goals, states and plans."""
    if not isinstance(node, sexpr.List) or node.head() is None:
        raise InputError(f"expected a ground atom like (on a b), got '{node}'", file, getattr(node, "line", None))
    name = node.head()
    if name == "not":
        raise InputError("negative literals are not allowed here (states are closed-world: list true atoms)",
                         file, node.line)
    decl = predicates.get(name)
    if decl is None:
        raise InputError(f"undefined predicate '{name}'", file, node.line)
    args = node[1:]
    if len(args) != decl.arity:
        raise InputError(f"predicate '{name}' takes {decl.arity} argument(s), {len(args)} given", file, node.line)
    for a in args:
        if not isinstance(a, sexpr.Token):
            raise InputError("nested parentheses in an atom", file, a.line)
        if a not in objects:
            raise InputError(f"unknown object '{a}'", file, a.line)
    return Atom(name, tuple(str(a) for a in args))


def load_problem(path: str | Path, domain: Domain) -> Problem:
    return parse_problem(_read_text(path), domain, str(path))


__all__ = ["load_domain", "parse_domain", "load_problem", "parse_problem", "ground_atom",
           "conjunction_literals", "atoms_of", "is_var"]
