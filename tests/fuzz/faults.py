"""Faults put at a known token: the refusal must name that file, line and column.

Each operator breaks one token of one input (an undefined predicate, a wrong arity, an
unknown object, an object of the wrong type, an undeclared type, an `either` type with an undeclared
member, a
5,000-character name, an unsupported feature, a removed declaration, deep nesting, an
unbalanced parenthesis, two states in a row, a duplicate or unknown JSON key, /dev/zero);
the expected position is computed here, on the mutated text, with our own reader.
"""

from __future__ import annotations

import json
import random
import re
from functools import lru_cache

from amlasp.pddl.parse import parse_domain, parse_problem

from . import sexp
from .inputs import DEV_ZERO, Task
from .mutations import Case, Expect

ATOM_ROLES = ("domain", "problem", "trajectory", "literal")


def _fault(t: Task, role: str, name: str, text: str, offset: int, words: str) -> Case:
    line, col = sexp.position(text, offset)
    return Case(t.with_text(role, text), role, name, Expect("fault", role, line, col, words))


def _root(role: str, text: str) -> sexp.Node:
    return sexp.read(text if role not in ("literal", "action") else text)


def _atoms(role: str, text: str) -> list[sexp.Node]:
    root = _root(role, text)
    if role == "literal":
        return [root]
    found = sexp.atoms(root)
    return [a for a in found if all(c.text for c in a.children)]


def _splice(text: str, node: sexp.Node, new: str) -> str:
    return text[:node.start] + new + text[node.end:]


@lru_cache(maxsize=None)
def _model(t: Task):
    d = parse_domain(t.domain, "domain.pddl")
    p = parse_problem(t.problem, d, t.problem_file)
    return d, p.object_types(d)


def _where(role: str, t: Task) -> str:
    return "" if role == "domain" else rf" \(not declared in domain {re.escape(_model(t)[0].name)}"


# --------------------------------------------------------------------------- atoms

def undefined_predicate(t: Task, role: str, rng: random.Random) -> Case | None:
    if role not in ATOM_ROLES:
        return None
    text = getattr(t, role)
    a = rng.choice(_atoms(role, text))
    head = a.children[0]
    return _fault(t, role, "undefined_predicate", _splice(text, head, "zzundef"), head.start,
                  f"undefined predicate 'zzundef'{_where(role, t)}")


def long_name(t: Task, role: str, rng: random.Random) -> Case | None:
    if role not in ("domain", "problem"):
        return None
    text = getattr(t, role)
    head = rng.choice(_atoms(role, text)).children[0]
    return _fault(t, role, "long_name", _splice(text, head, "p" * 5000), head.start,
                  r"undefined predicate 'p{40}…\(5000 chars\)'")


def _with_arguments(t: Task, role: str, roles: tuple[str, ...], nodes, rng: random.Random):
    """`role`'s text and one of its `nodes` (`_atoms` or `_actions`) that has arguments, at random, with their
    number; None where `role` is none of `roles` or no node has an argument."""
    if role not in roles:
        return None
    text = getattr(t, role)
    found = [a for a in nodes(role, text) if len(a.children) > 1]
    if not found:
        return None
    a = rng.choice(found)
    return text, a, len(a.children) - 1


def wrong_arity(t: Task, role: str, rng: random.Random) -> Case | None:
    picked = _with_arguments(t, role, ATOM_ROLES, _atoms, rng)
    if picked is None:
        return None
    text, a, n = picked
    if rng.random() < 0.5:
        last, before = a.children[-1], a.children[-2]
        new, given = text[:before.end] + text[last.end:], n - 1
    else:
        first = a.children[1]
        new, given = text[:a.children[-1].end] + " " + text[first.start:first.end] + text[a.children[-1].end:], n + 1
    return _fault(t, role, "wrong_arity", new, a.children[0].start,
                  rf"predicate '{re.escape(a.head)}' takes {n} argument\(s\), {given} given")


def unknown_object(t: Task, role: str, rng: random.Random) -> Case | None:
    if role not in ATOM_ROLES + ("plan", "action"):
        return None
    text = getattr(t, role)
    nodes = _actions(role, text) if role in ("plan", "action") else _atoms(role, text)
    args = [c for a in nodes for c in a.children[1:] if not c.text.startswith("?")]
    if role == "domain":
        args = [c for a in nodes for c in a.children[1:] if c.text.startswith("?")]
    if not args:
        return None
    arg = rng.choice(args)
    words = "unknown constant 'zzobj'" if role == "domain" else "unknown object 'zzobj'"
    return _fault(t, role, "unknown_object", _splice(text, arg, "zzobj"), arg.start, words)


def undeclared_variable(t: Task, role: str, rng: random.Random) -> Case | None:
    if role != "domain":
        return None
    args = [c for a in _atoms(role, t.domain) for c in a.children[1:] if c.text.startswith("?")]
    arg = rng.choice(args)
    return _fault(t, role, "undeclared_variable", _splice(t.domain, arg, "?zzfree"), arg.start,
                  r"undeclared variable '\?zzfree'")


def wrong_type(t: Task, role: str, rng: random.Random) -> Case | None:
    """An argument replaced by an object whose type does not fit the parameter's."""
    if role not in ("problem", "trajectory", "literal", "plan", "action"):
        return None
    domain, objects = _model(t)
    text = getattr(t, role)
    nodes = _actions(role, text) if role in ("plan", "action") else _atoms(role, text)
    spots = []
    for a in nodes:
        schema = domain.action(a.head) if role in ("plan", "action") else domain.predicate(a.head)
        if schema is None or schema.arity != len(a.children) - 1:
            continue
        for i, (arg, (_, expected)) in enumerate(zip(a.children[1:], schema.parameters), 1):
            bad = sorted(o for o, ot in objects.items() if expected not in domain.ancestors(ot))
            spots += [(a, i, arg, expected, o) for o in bad]
    if not spots:
        return None
    a, i, arg, expected, o = rng.choice(spots)
    what = f"parameter {i} of action" if role in ("plan", "action") else f"argument {i} of predicate"
    return _fault(t, role, "wrong_type", _splice(text, arg, o), arg.start,
                  re.escape(f"object '{o}' has type '{objects[o]}', but {what} '{a.head}' has type '{expected}'"))


# --------------------------------------------------------------------------- declarations and features

def _typed(root: sexp.Node, heads: tuple[str, ...]) -> list[sexp.Node]:
    """Type tokens (after '-') in the lists with these heads, or after `:parameters`."""
    out = []
    for n in root.walk():
        items = None
        if n.head in heads:
            items = n.children[1:]
        elif n.parent is not None and n.text is None and n.parent.key(":parameters") is n:
            items = n.children
        if items:
            out += [b for x, b in zip(items, items[1:]) if x.text == "-" and b.text]
    return out


def undeclared_type(t: Task, role: str, rng: random.Random) -> Case | None:
    if role not in ("domain", "problem"):
        return None
    text = getattr(t, role)
    types = _typed(sexp.read(text), (":objects",) if role == "problem" else ())
    if not types:
        return None
    tok = rng.choice(types)
    words = "undeclared type 'zztype'" + (r" \(not in domain" if role == "problem" else "$")
    return _fault(t, role, "undeclared_type", _splice(text, tok, "zztype"), tok.start, words)


def either_type(t: Task, role: str, rng: random.Random) -> Case | None:
    if role != "domain":
        return None
    types = _typed(sexp.read(t.domain), ())
    if not types:
        return None
    tok = rng.choice(types)  # an either type is read (issue 21); one of an undeclared type is refused at it
    first = f"(either {t.domain[tok.start:tok.end]} "
    return _fault(t, role, "either_type", _splice(t.domain, tok, first + "zzeither)"), tok.start + len(first),
                  "undeclared type 'zzeither'$")


def unsupported(t: Task, role: str, rng: random.Random) -> Case | None:
    if role != "domain":
        return None
    root = sexp.read(t.domain)
    ands = [a.key(":effect") for a in root.children if a.head == ":action"]
    ands = [e for e in ands if e is not None and e.head == "and"]
    if not ands:
        return None
    at = rng.choice(ands).children[0].end + 1
    # not a numeric effect: compare reads those (an undeclared function is then its error)
    return _fault(t, role, "unsupported", t.domain[:at] + "(oneof (and) (and)) " + t.domain[at:], at,
                  r"unsupported feature: non-deterministic effects \(oneof\)")


def bad_requirement(t: Task, role: str, rng: random.Random) -> Case | None:
    """`(:requirements ())`: it was a TypeError."""
    if role != "domain":
        return None
    root = sexp.read(t.domain)
    reqs = [c for sec in root.children if sec.head == ":requirements" for c in sec.children[1:]]
    if not reqs:
        return None
    tok = rng.choice(reqs)
    return _fault(t, role, "bad_requirement", _splice(t.domain, tok, "()"), tok.start,
                  "expected a requirement like :strips")


def removed_declaration(t: Task, role: str, rng: random.Random) -> Case | None:
    """A predicate declaration removed: refused at its first use, in the domain, or else in the problem
    (where the message names the domain that should declare it)."""
    if role != "domain":
        return None
    root = sexp.read(t.domain)
    preds = next(c for c in root.children if c.head == ":predicates")
    decl = rng.choice(preds.children[1:])
    new = t.domain[:decl.start] + t.domain[decl.end:]
    uses = [a for a in sexp.atoms(sexp.read(new)) if a.head == decl.head]
    if uses:
        return _fault(t, role, "removed_declaration", new, uses[0].children[0].start,
                      f"undefined predicate '{re.escape(decl.head)}'( \\(did you mean [\\w-]+\\?\\))?$")
    uses = [a for a in sexp.atoms(sexp.read(t.problem)) if a.head == decl.head]
    if not uses:
        return None
    line, col = sexp.position(t.problem, uses[0].children[0].start)
    return Case(t.with_text("domain", new), role, "removed_declaration",
                Expect("fault", "problem", line, col,
                       f"undefined predicate '{re.escape(decl.head)}'{_where('problem', t)}"))


def deep_nesting(t: Task, role: str, rng: random.Random) -> Case | None:
    """An atom wrapped in 300 parentheses (brackets in JSON): refused at the level beyond the limit (100)."""
    text = getattr(t, role)
    if role in ("domain", "problem", "trajectory"):
        a = rng.choice(_atoms(role, text))
        wrap, k = "(and " if role == "domain" else "(", a.depth
        new = text[:a.start] + wrap * 300 + text[a.start:a.end] + ")" * 300 + text[a.end:]
        return _fault(t, role, "deep_nesting", new, a.start + len(wrap) * (100 - k), "nesting deeper than 100 levels")
    if role == "states":
        m = re.search(r'"\(', text)
        new = text[:m.start()] + "[" * 300 + text[m.start():]
        return _fault(t, role, "deep_nesting", new, m.start() + 97, "nesting deeper than 100 levels")
    return None


def dev_zero(t: Task, role: str, rng: random.Random) -> Case | None:
    if role not in ("domain", "problem", "plan", "trajectory", "states"):
        return None
    what = "domain file larger than 5 MB" if role == "domain" else "file larger than 100 MB"
    return Case(t.with_text(role, DEV_ZERO), role, "dev_zero", Expect("fault", role, 0, 0, what))


# --------------------------------------------------------------------------- plans, trajectories, JSON

def _actions(role: str, text: str) -> list[sexp.Node]:
    if role == "action":
        return [sexp.read(text)]
    out, offset = [], 0
    for line in text.split("\n"):
        if line.strip().startswith("("):
            node = sexp.read(line)
            for n in node.walk():
                n.start, n.end = n.start + offset, n.end + offset
            out.append(node)
        offset += len(line) + 1
    return out


def unknown_action(t: Task, role: str, rng: random.Random) -> Case | None:
    if role not in ("plan", "action"):
        return None
    text = getattr(t, role)
    head = rng.choice(_actions(role, text)).children[0]
    return _fault(t, role, "unknown_action", _splice(text, head, "zzact"), head.start, "unknown action 'zzact'")


def wrong_arity_action(t: Task, role: str, rng: random.Random) -> Case | None:
    picked = _with_arguments(t, role, ("plan", "action"), _actions, rng)
    if picked is None:
        return None
    text, a, n = picked
    return _fault(t, role, "wrong_arity", text[:a.children[-2].end] + text[a.children[-1].end:], a.children[0].start,
                  rf"action '{re.escape(a.head)}' takes {n} argument\(s\), {n - 1} given")


def unbalanced_paren(t: Task, role: str, rng: random.Random) -> Case | None:
    if role != "plan":
        return None
    a = rng.choice(_actions(role, t.plan))
    if rng.random() < 0.5:
        return _fault(t, role, "unbalanced_paren", t.plan[:a.start] + "(" + t.plan[a.start:], a.start,
                      r"missing '\)': this '\(' is never closed")
    line_start = t.plan.rfind("\n", 0, a.start) + 1
    return _fault(t, role, "unbalanced_paren", t.plan[:line_start] + "(\n" + t.plan[line_start:], line_start,
                  "expected one action like")


def consecutive_states(t: Task, role: str, rng: random.Random) -> Case | None:
    if role != "trajectory":
        return None
    root = sexp.read(t.trajectory)
    acts = [c for c in root.children if c.head == ":action"]
    a = rng.choice(acts)
    new = t.trajectory[:a.start] + t.trajectory[a.end:]
    nxt = root.children[root.children.index(a) + 1]
    return _fault(t, role, "consecutive_states", new, nxt.start - (a.end - a.start),
                  "two states without an action between them")


def json_literal(t: Task, role: str, rng: random.Random) -> Case | None:
    """A literal of a JSON state file with an unknown object or a wrong arity, at its line and column."""
    if role != "states":
        return None
    lits = list(re.finditer(r'"(\([^"]*\))"', t.states))
    m = rng.choice(lits)
    atom = sexp.read(m.group(1))
    base = m.start(1)
    if len(atom.children) > 1 and rng.random() < 0.5:
        arg = rng.choice(atom.children[1:])
        new = t.states[:base + arg.start] + "zzobj" + t.states[base + arg.end:]
        return _fault(t, role, "json_literal", new, base + arg.start, "unknown object 'zzobj'")
    new = t.states[:base + atom.children[-1].end] + " zzextra" + t.states[base + atom.children[-1].end:]
    n = len(atom.children) - 1
    return _fault(t, role, "json_literal", new, base + atom.children[0].start,
                  rf"predicate '{re.escape(atom.head)}' takes {n} argument\(s\), {n + 1} given")


def json_key(t: Task, role: str, rng: random.Random) -> Case | None:
    """A duplicate key (the first list of states would be lost), or a key naming no problem file."""
    if role != "states":
        return None
    key = json.dumps(t.problem_file)
    at = t.states.index(key)
    if rng.random() < 0.5:
        end = t.states.rindex("}")
        new = t.states[:end].rstrip() + ',\n ' + key + ': [[]]\n' + t.states[end:]
        return _fault(t, role, "json_key", new, new.rindex(key), "duplicate key")
    bad = json.dumps(rng.choice(["", ".", "missing.pddl", "problems", "x" * 300]))
    return _fault(t, role, "json_key", t.states[:at] + bad + t.states[at + len(key):], at, "not found in")


FAULTS = (undefined_predicate, long_name, wrong_arity, unknown_object, undeclared_variable, wrong_type,
          undeclared_type, either_type, unsupported, bad_requirement, removed_declaration, deep_nesting,
          dev_zero, unknown_action, wrong_arity_action, unbalanced_paren, consecutive_states, json_literal, json_key)
