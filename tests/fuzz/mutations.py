"""Valid mutations and random damage: what must not change a result, and what must not crash amlasp.

Every operator takes a task, the role to mutate and a seeded `random.Random`, and returns a
`Case` (the mutated task and what is expected of it) or None where it does not apply. The
faults placed at a known token are in `faults`.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass

from . import sexp
from .inputs import Task

FILE_ROLES = ("domain", "problem", "plan", "trajectory", "states")
PDDL_ROLES = ("domain", "problem", "trajectory")


@dataclass(frozen=True)
class Expect:
    """`same`: the original's result (names mapped back by `rename`); `fault`: exit 2 at `role`, `line`,
    `col` with a message matching `words`; `any`: a documented exit code and, if refused, a located message."""

    kind: str
    role: str | None = None
    line: int = 0
    col: int = 0
    words: str = ""
    rename: tuple[str, str] | None = None  # (prefix added, ""): outputs are mapped back before comparing


@dataclass(frozen=True)
class Case:
    task: Task
    role: str
    mutation: str
    expect: Expect


SAME = Expect("same")
ANY = Expect("any")


def _case(t: Task, role: str, name: str, text: str, expect: Expect = SAME) -> Case:
    return Case(t.with_text(role, text), role, name, expect)


# --------------------------------------------------------------------------- valid mutations

def crlf(t: Task, role: str, rng: random.Random) -> Case | None:
    return _case(t, role, "crlf", getattr(t, role).replace("\n", "\r\n")) if role in FILE_ROLES else None


def cr_only(t: Task, role: str, rng: random.Random) -> Case | None:
    """Old Mac line ends, after a first comment line (the issue's case read as one comment: "empty file")."""
    if role not in FILE_ROLES:
        return None
    text = getattr(t, role)
    if role != "states":
        text = "; a first comment line\n" + text
    return _case(t, role, "cr_only", text.replace("\n", "\r"))


def bom(t: Task, role: str, rng: random.Random) -> Case | None:
    return _case(t, role, "bom", "\ufeff" + getattr(t, role)) if role in FILE_ROLES else None


def comments(t: Task, role: str, rng: random.Random) -> Case | None:
    if role not in PDDL_ROLES + ("plan",):
        return None
    lines = getattr(t, role).split("\n")
    for i in rng.sample(range(len(lines)), k=min(len(lines), 1 + rng.randrange(5))):
        lines[i] += rng.choice(["  ; a comment (with a parenthesis", "; (and)", ";;", "\t; ;)"])
    lines.insert(rng.randrange(len(lines) + 1), "; a whole comment line (define (domain x))")
    return _case(t, role, "comments", "\n".join(lines))


def case(t: Task, role: str, rng: random.Random) -> Case | None:
    """PDDL is case-insensitive: upper-case some names and keywords."""
    if role == "states":
        data = json.loads(t.states)
        up = {k: [[lit.upper() if rng.random() < 0.5 else lit for lit in s] for s in v] for k, v in data.items()}
        return _case(t, role, "case", json.dumps(up, indent=1))
    text = getattr(t, role)
    out = re.sub(r"(?<![;\w?-])[A-Za-z][\w-]*", lambda m: m.group().upper() if rng.random() < 0.4 else m.group(),
                 _strip_comments(text))
    return _case(t, role, "case", out)


def _strip_comments(text: str) -> str:
    return re.sub(r";[^\n]*", "", text)


def whitespace(t: Task, role: str, rng: random.Random) -> Case | None:
    text = getattr(t, role)
    if role == "states":
        return _case(t, role, "whitespace", text.replace("[", "[ \t").replace("{", "{\n\n"))
    spaces = ["  ", "\t", " \t "] + (["\n  ", "\n\n"] if role in PDDL_ROLES else [])
    return _case(t, role, "whitespace", re.sub(r"(?<=[^\s;]) (?=[^\s;])", lambda m: rng.choice(spaces)
                                                 if rng.random() < 0.3 else " ", _strip_comments(text)))


def rename(t: Task, role: str, rng: random.Random) -> Case | None:
    """Rename one predicate, action, type or object everywhere (every role): the result is the same, renamed."""
    if role != "domain":
        return None
    d, p = sexp.read(t.domain), sexp.read(t.problem)
    names: list[str] = []
    for sec in d.children[2:]:
        if sec.head == ":predicates":
            names += [c.head for c in sec.children[1:] if c.head]
        elif sec.head == ":action":
            names.append(sec.children[1].text.lower())
    for sec in p.children[2:]:
        if sec.head == ":objects":
            names += [c.text.lower() for c in sec.children[1:] if c.text and c.text != "-"]
    names = [n for n in names if n not in ("object", "either") and not n.startswith("?")]
    old = rng.choice(names)
    pattern = re.compile(rf"(?<![\w?-]){re.escape(old)}(?![\w-])", re.IGNORECASE)
    new = t
    for r in ("domain", "problem", "plan", "trajectory", "states", "literal", "action"):
        new = new.with_text(r, pattern.sub("zq" + old, getattr(new, r)))
    if list(json.loads(new.states)) != [t.problem_file]:  # the name is part of the problem's file name
        return None
    return Case(new, role, "rename", Expect("same", rename=("zq", "")))


def reorder(t: Task, role: str, rng: random.Random) -> Case | None:
    """Actions of a domain, init atoms of a problem, atoms of a state: their order means nothing."""
    text = getattr(t, role)
    if role == "states":
        data = json.loads(text)
        return _case(t, role, "reorder", json.dumps({k: [rng.sample(s, len(s)) for s in v] for k, v in data.items()},
                                                    indent=1))
    if role not in PDDL_ROLES:
        return None
    root = sexp.read(text)
    if role == "domain":
        groups = [[c for c in root.children if c.head == ":action"]]
    elif role == "problem":
        groups = [c.children[1:] for c in root.children if c.head == ":init"]
    else:
        groups = [c.children[1:] for c in root.children if c.head == ":state"]
    spans = [(n.start, n.end) for g in groups for n in g]
    texts = [text[a:b] for g in groups for a, b in ((n.start, n.end) for n in rng.sample(g, len(g)))]
    out, last = [], 0
    for (a, b), new in zip(spans, texts):
        out += [text[last:a], new]
        last = b
    return _case(t, role, "reorder", "".join(out) + text[last:])


def empty_and(t: Task, role: str, rng: random.Random) -> Case | None:
    """An empty conjunction inside a precondition, an effect or a goal adds nothing."""
    if role not in ("domain", "problem"):
        return None
    text = getattr(t, role)
    root = sexp.read(text)
    spots = [n for n in root.walk() if n.head == "and" and sexp._in_formula(n.children[0])] if role == "domain" \
        else [n for n in root.walk() if n.head == "and"]
    spots = [n for n in spots if n.parent is not None and (n.parent.head != "not")]
    if not spots:
        return None
    n = rng.choice(spots)
    at = n.children[0].end
    return _case(t, role, "empty_and", text[:at] + rng.choice([" (and)", " (and) ", " (AND)\n"]) + text[at:])


def glued_variables(t: Task, role: str, rng: random.Random) -> Case | None:
    """`(clean ?x)` written `(clean?x)`: a `?` starts a variable wherever it is (the `pddl` package agrees)."""
    if role != "domain":
        return None
    return _case(t, role, "glued_variables", re.sub(r"(?<=[\w-]) +(?=\?)", lambda m: "" if rng.random() < 0.5
                                                    else m.group(), t.domain))


VALID = (crlf, cr_only, bom, comments, case, whitespace, rename, reorder, empty_and, glued_variables)


# --------------------------------------------------------------------------- random damage

_PALETTE = list("()();?-_:.'\"\\{}[]0123456789azAZ\t \n") + ["é", "\x01", "\x7f", "\u00a0", "\u200b", "\x00", "\ufeff"]


def _any(t: Task, role: str, name: str, text: str) -> Case:
    return _case(t, role, name, text, ANY)


def flip(t: Task, role: str, rng: random.Random) -> Case | None:
    text = getattr(t, role)
    chars = list(text)
    for _ in range(1 + rng.randrange(3)):
        if chars:
            chars[rng.randrange(len(chars))] = rng.choice(_PALETTE)
    return _any(t, role, "flip", "".join(chars))


def delete(t: Task, role: str, rng: random.Random) -> Case | None:
    text = getattr(t, role)
    a = rng.randrange(len(text))
    return _any(t, role, "delete", text[:a] + text[a + 1 + rng.randrange(20):])


def duplicate(t: Task, role: str, rng: random.Random) -> Case | None:
    text = getattr(t, role)
    a = rng.randrange(len(text))
    b = min(len(text), a + 1 + rng.randrange(40))
    return _any(t, role, "duplicate", text[:b] + text[a:b] + text[b:])


def truncate(t: Task, role: str, rng: random.Random) -> Case | None:
    text = getattr(t, role)
    return _any(t, role, "truncate", text[:rng.randrange(len(text))])


def swap_tokens(t: Task, role: str, rng: random.Random) -> Case | None:
    text = getattr(t, role)
    toks = [m.span() for m in re.finditer(r"[^\s()\[\]{},\"]+|[()]", text)]
    if len(toks) < 2:
        return None
    (a, b), (c, d) = sorted(rng.sample(toks, 2))
    return _any(t, role, "swap_tokens", text[:a] + text[c:d] + text[b:c] + text[a:b] + text[d:])


def insert_noise(t: Task, role: str, rng: random.Random) -> Case | None:
    text = getattr(t, role)
    a = rng.randrange(len(text) + 1)
    noise = rng.choice(["(", ")", "()", "(()", "-", "- -", "?", "??x", ":action", "(:state)", "(either a b)", "=",
                        "(= ?x ?x)", "(not)", "(forall)", "\"", "]", "{}", ",", "null", "1e999", "9" * 5000,
                        "(" + "x" * 5000 + ")", "(and " * 300 + ")" * 300, "[" * 300, "(when (and) (and))"])
    return _any(t, role, "insert_noise", text[:a] + noise + text[a:])


RANDOM = (flip, delete, duplicate, truncate, swap_tokens, insert_noise)
