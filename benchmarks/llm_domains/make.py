"""Writes the corpus of LLM-style PDDL domains (benchmarks/llm_domains/, README.md says why and how).

Each IPC reference domain of benchmarks/ipc/domains/ is rewritten `--per-domain` times the way a
language model writes PDDL: its own layout, some names reworded, and mistakes of the classes seen in
GPT-written domains (Proc2PDDL's: an undeclared variable, an undeclared type, a wrong arity, an unknown
constant, `exists` as an effect, an `(:action` left unclosed, a predicate used but never declared,
`?l1- location`), mostly in ONE action, some candidates clean, some with several. The manifest
(manifest.json) lists every candidate, its reference and the changes put in it (class, kind, action).

    python benchmarks/llm_domains/make.py [--seed 31 --per-domain 5]

Self-contained on purpose (a small s-expression reader of its own, no amlasp import): the corpus
measures amlasp's reader, so it must not be made by it. Same seed, same files.
"""

from __future__ import annotations

import argparse
import copy
import json
import random
import re
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
REFERENCES = HERE.parent / "ipc" / "domains"

#: kind of each change: `breaking` is not valid PDDL, `lenient` is not valid PDDL but read by amlasp's
#: leniencies for learned models (with a warning), `semantic` is valid PDDL that models something else
#: (or the same thing under other names), `cosmetic` changes nothing a reader sees.
KINDS = {
    "undeclared_variable": "breaking", "undeclared_type": "breaking", "wrong_arity": "breaking",
    "unknown_constant": "breaking", "exists_effect": "breaking", "unclosed_action": "breaking",
    "glued_hyphen": "breaking", "keyword_typo": "breaking", "missing_and": "breaking",
    "equality_effect": "breaking", "markdown_fence": "breaking", "prose_preamble": "breaking",
    "undeclared_predicate": "lenient", "type_as_predicate": "lenient", "missing_requirements": "lenient",
    "renamed_action": "semantic", "renamed_predicate": "semantic", "missing_precondition": "semantic",
    "extra_precondition": "semantic", "effect_as_precondition": "semantic", "missing_delete": "semantic",
    "prose_comments": "cosmetic",
}
#: the mistakes in an action, weighted after the refusals of GPT-written Proc2PDDL domains (undeclared
#: variables most often, then undeclared types, wrong arities, unknown constants; the rest seen less)
ACTION_BREAKS = {"undeclared_variable": 3, "undeclared_type": 2, "wrong_arity": 2, "unknown_constant": 2,
                 "exists_effect": 1, "unclosed_action": 1, "glued_hyphen": 1, "keyword_typo": 1, "missing_and": 1,
                 "equality_effect": 1, "undeclared_predicate": 1, "type_as_predicate": 1}
FILE_BREAKS = ("markdown_fence", "prose_preamble")
SEMANTIC = ("missing_precondition", "extra_precondition", "effect_as_precondition", "missing_delete")
#: words an LLM puts for ours (an undeclared type, a reworded name)
SYNONYMS = {
    "location": "place", "place": "location", "car": "vehicle", "truck": "vehicle", "block": "cube",
    "person": "passenger", "passenger": "person", "city": "town", "room": "location", "ball": "object-ball",
    "gripper": "hand", "aircraft": "plane", "floor": "level", "robot": "agent", "tile": "cell", "cell": "square",
    "package": "parcel", "vehicle": "truck", "size": "capacity", "level": "amount", "child": "kid",
    "sandwich": "food", "tray": "plate", "rover": "robot", "satellite": "spacecraft", "camera": "sensor",
    "man": "worker", "spanner": "wrench", "stone": "box", "shaker": "container", "shot": "glass",
}
PROSE = ("Here is the PDDL domain for the task described above.",
         "Sure! Below is the complete domain file.",
         "The following PDDL domain models the actions described in the text:")


Tree = list  # an s-expression: a list of str tokens and nested lists


def read_sexpr(text: str) -> Tree:
    """The first s-expression of `text`, comments dropped, names lower case."""
    tokens = re.findall(r"\(|\)|[^\s()]+", re.sub(r";[^\n]*", "", text).lower())
    stack: list[Tree] = [[]]
    for t in tokens:
        if t == "(":
            stack.append([])
        elif t == ")":
            done = stack.pop()
            stack[-1].append(done)
        else:
            stack[-1].append(t)
    return stack[0][0]


def flat(t: Tree | str) -> str:
    return t if isinstance(t, str) else "(" + " ".join(flat(x) for x in t) + ")"


def typed(items: list[str]) -> list[tuple[str, str]]:
    """`?x ?y - t ?z` as [(?x, t), (?y, t), (?z, object)]."""
    out: list[tuple[str, str]] = []
    pending: list[str] = []
    i = 0
    while i < len(items):
        if items[i] == "-":
            out += [(p, flat(items[i + 1])) for p in pending]
            pending, i = [], i + 2
        else:
            pending.append(items[i])
            i += 1
    return out + [(p, "object") for p in pending]


@dataclass
class Action:
    name: str
    params: list[tuple[str, str]]
    pre: Tree | None
    eff: Tree
    glued: int = -1  # a parameter written `?x- t`
    pre_key: str = ":precondition"
    unclosed: bool = False
    comment: str = ""
    bare_pre: bool = False  # `:precondition ((p) (q))`, the `and` left out


@dataclass
class Domain:
    name: str
    requirements: list[str]
    types: list[tuple[str, str]]
    constants: list[tuple[str, str]]
    predicates: list[tuple[str, list[tuple[str, str]]]]
    actions: list[Action]
    fence: bool = False
    preamble: str = ""
    declared_types: set[str] = field(default_factory=set)


def to_domain(tree: Tree) -> Domain:
    d = Domain("", [], [], [], [], [])
    for part in tree[1:]:
        head = part[0]
        if head == "domain":
            d.name = part[1]
        elif head == ":requirements":
            d.requirements = part[1:]
        elif head == ":types":
            d.types = typed(part[1:])
        elif head == ":constants":
            d.constants = typed(part[1:])
        elif head == ":predicates":
            d.predicates = [(p[0], typed(p[1:])) for p in part[1:]]
        elif head == ":action":
            keys = dict(zip(part[2::2], part[3::2]))
            d.actions.append(Action(part[1], typed(keys.get(":parameters", [])), keys.get(":precondition"),
                                    keys.get(":effect", ["and"])))
    d.declared_types = {"object"} | {n for n, _ in d.types} | {t for _, t in d.types}
    return d


# ---------------------------------------------------------------------------------------------------------------
# Writing, in the layout of a model's answer


def render_formula(f: Tree, ind: str, depth: int) -> str:
    if isinstance(f, list) and f and f[0] == "and" and len(f) > 2:
        inner = "\n".join(ind * (depth + 1) + flat(x) for x in f[1:])
        return f"(and\n{inner}\n{ind * depth})"
    return flat(f)


def render_params(a: Action) -> str:
    return " ".join(f"{v}- {t}" if i == a.glued else f"{v} - {t}" for i, (v, t) in enumerate(a.params))


def render_action(a: Action, ind: str) -> str:
    lines = [f"{ind}; {a.comment}"] if a.comment else []
    lines += [f"{ind}(:action {a.name}", f"{ind * 2}:parameters ({render_params(a)})"]
    if a.pre is not None:
        if a.bare_pre:
            pre = "(" + " ".join(flat(x) for x in a.pre[1:]) + ")"
        else:
            pre = render_formula(a.pre, ind, 2)
        lines.append(f"{ind * 2}{a.pre_key} {pre}")
    lines.append(f"{ind * 2}:effect {render_formula(a.eff, ind, 2)}")
    lines.append(ind if a.unclosed else f"{ind})")
    return "\n".join(lines)


def render(d: Domain, ind: str) -> str:
    def pairs(xs: list[tuple[str, str]]) -> str:
        """`a b - t c - u d`: names of one type together, `- object` unless at the end."""
        out: list[str] = []
        for i, (n, t) in enumerate(xs):
            out.append(n)
            if i + 1 == len(xs) and t == "object":
                break
            if i + 1 == len(xs) or xs[i + 1][1] != t:
                out += ["-", t]
        return " ".join(out)
    out = [f"(define (domain {d.name})"]
    if d.requirements:
        out.append(f"{ind}(:requirements {' '.join(d.requirements)})")
    if d.types:
        out.append(f"{ind}(:types {pairs(d.types)})")
    if d.constants:
        out.append(f"{ind}(:constants {pairs(d.constants)})")
    out.append(f"{ind}(:predicates")
    out += [f"{ind * 2}({' '.join([p, *(f'{v} - {t}' for v, t in args)])})" for p, args in d.predicates]
    out.append(f"{ind})")
    out += ["", "\n\n".join(render_action(a, ind) for a in d.actions), ")"]
    text = "\n".join(out) + "\n"
    if d.fence:
        text = f"```pddl\n{text}```\n"
    if d.preamble:
        text = f"{d.preamble}\n\n{text}"
    return text


# ---------------------------------------------------------------------------------------------------------------
# The changes: each returns False when it does not apply to the action it was given


def atoms(f: Tree | None, path: tuple = ()) -> list[tuple[tuple, Tree]]:
    """(path, atom) of every atom of a formula (under `not` too), in order."""
    if not isinstance(f, list) or not f:
        return []
    if f[0] in ("and", "or", "not", "imply"):
        return [x for i, g in enumerate(f[1:], 1) for x in atoms(g, path + (i,))]
    if f[0] in ("exists", "forall", "when", "="):
        return []
    return [(path, f)]


def conj(f: Tree | None) -> Tree:
    return ["and"] if f is None else (f if f[0] == "and" else ["and", f])


def used_vars(a: Action) -> set[str]:
    return {x for _, at in atoms(a.pre) + atoms(a.eff) for x in at[1:] if isinstance(x, str) and x.startswith("?")}


def brk_undeclared_variable(d: Domain, a: Action, rng: random.Random) -> bool:
    used = sorted(used_vars(a) & {v for v, _ in a.params})
    if not used:
        return False
    v = rng.choice(used)
    if rng.random() < 0.5 and len(a.params) > 1:  # forgotten in :parameters
        a.params = [(x, t) for x, t in a.params if x != v]
        return True
    spots = [(p, at) for p, at in atoms(a.eff) + atoms(a.pre) if v in at]  # one use reworded
    _, at = rng.choice(spots)
    new = {"?from": "?source", "?to": "?destination"}.get(v, v + "-new" if len(v) > 3 else v + "1")
    if new in {x for x, _ in a.params}:
        return False
    at[at.index(v)] = new
    return True


def brk_undeclared_type(d: Domain, a: Action, rng: random.Random) -> bool:
    options = [i for i, (_, t) in enumerate(a.params) if SYNONYMS.get(t, t + "s") not in d.declared_types]
    if not options:
        return False
    i = rng.choice(options)
    v, t = a.params[i]
    a.params[i] = (v, SYNONYMS.get(t, t + "s"))
    return True


def brk_wrong_arity(d: Domain, a: Action, rng: random.Random) -> bool:
    spots = [at for _, at in atoms(a.pre) + atoms(a.eff) if len(at) > 1]
    if not spots:
        return False
    at = rng.choice(spots)
    extra = [v for v, _ in a.params if v not in at]
    if extra and rng.random() < 0.5:
        at.append(rng.choice(extra))
    else:
        at.pop()
    return True


def brk_unknown_constant(d: Domain, a: Action, rng: random.Random) -> bool:
    spots = [at for _, at in atoms(a.pre) + atoms(a.eff) if any(x.startswith("?") for x in at[1:])]
    if not spots:
        return False
    at = rng.choice(spots)
    i = rng.choice([i for i, x in enumerate(at) if i and x.startswith("?")])
    at[i] = at[i][1:] if rng.random() < 0.5 else dict(a.params).get(at[i], "thing") + "1"
    return True


def brk_exists_effect(d: Domain, a: Action, rng: random.Random) -> bool:
    e = conj(a.eff)
    spots = [i for i, x in enumerate(e) if i and isinstance(x, list) and x[0] != "not" and len(x) > 1]
    if not spots:
        return False
    i = rng.choice(spots)
    lit = e[i]
    var = lit[-1]
    t = dict(a.params).get(var, "object")
    z = "?z" if "?z" not in dict(a.params) else "?zz"
    e[i] = ["exists", [z, "-", t], [*lit[:-1], z]]
    a.eff = e
    return True


def brk_equality_effect(d: Domain, a: Action, rng: random.Random) -> bool:
    if len(a.params) < 2:
        return False
    (x, _), (y, _) = rng.sample(a.params, 2)
    a.eff = conj(a.eff) + [["not", ["=", x, y]]]
    return True


def brk_unclosed_action(d: Domain, a: Action, rng: random.Random) -> bool:
    if a is d.actions[-1]:  # left open before the next `(:action`: needs a next one
        return False
    a.unclosed = True
    return True


def brk_glued_hyphen(d: Domain, a: Action, rng: random.Random) -> bool:
    if not a.params:
        return False
    a.glued = rng.randrange(len(a.params))
    return True


def brk_keyword_typo(d: Domain, a: Action, rng: random.Random) -> bool:
    if a.pre is None:
        return False
    a.pre_key = rng.choice([":preconditions", ":pre-condition", ":condition"])
    return True


def brk_missing_and(d: Domain, a: Action, rng: random.Random) -> bool:
    if a.pre is None or a.pre[0] != "and" or len(a.pre) < 3:
        return False
    a.bare_pre = True
    return True


def brk_undeclared_predicate(d: Domain, a: Action, rng: random.Random) -> bool:
    spots = atoms(a.pre) + atoms(a.eff)
    if not spots:
        return False
    _, at = rng.choice(spots)
    at[0] = rng.choice(["is-", "has-"]) + at[0] if rng.random() < 0.5 else at[0] + "-now"
    return True


def brk_type_as_predicate(d: Domain, a: Action, rng: random.Random) -> bool:
    typed_params = [(v, t) for v, t in a.params if t != "object" and not t.startswith("(")]
    if not typed_params or {t for _, t in typed_params} & {p for p, _ in d.predicates}:
        return False
    v, t = rng.choice(typed_params)
    a.pre = conj(a.pre) + [[t, v]]
    return True


def sem_missing_precondition(d: Domain, a: Action, rng: random.Random) -> bool:
    pre = conj(a.pre)
    if len(pre) < 3:
        return False
    del pre[rng.randrange(1, len(pre))]
    a.pre = pre
    return True


def sem_extra_precondition(d: Domain, a: Action, rng: random.Random) -> bool:
    """A declared predicate over parameters of the right types, not already required."""
    have = {flat(x) for _, x in atoms(a.pre)}
    cands = []
    for p, args in d.predicates:
        fits = [[v for v, t in a.params if t == want] for _, want in args]
        if all(fits):
            atom = [p, *(rng.choice(f) for f in fits)]
            if flat(atom) not in have:
                cands.append(atom)
    if not cands:
        return False
    a.pre = conj(a.pre) + [rng.choice(cands)]
    return True


def sem_effect_as_precondition(d: Domain, a: Action, rng: random.Random) -> bool:
    adds = [x for x in conj(a.eff)[1:] if isinstance(x, list) and x[0] not in ("not", "when", "forall")]
    if not adds:
        return False
    a.pre = conj(a.pre) + [list(rng.choice(adds))]
    return True


def sem_missing_delete(d: Domain, a: Action, rng: random.Random) -> bool:
    eff = conj(a.eff)
    dels = [i for i, x in enumerate(eff) if i and isinstance(x, list) and x[0] == "not"]
    if not dels:
        return False
    del eff[rng.choice(dels)]
    a.eff = eff
    return True


CHANGES = {name.split("_", 1)[1]: f for name, f in globals().items() if name.startswith(("brk_", "sem_"))}


def reworded(name: str, taken: set[str], noun: str = "") -> str:
    """A name as a model rewords it: a synonym, or the noun it is about added (`pick-up-block`)."""
    parts = re.split(r"[-_]", name)
    new = "-".join(SYNONYMS.get(p, p) for p in parts)
    if new.replace("-", "_") == name.replace("-", "_"):
        new = f"{new}-{noun}" if noun and noun not in parts else f"is-{new}"
    while new in taken:
        new += "-x"
    return new


def rename_action(d: Domain, a: Action) -> str:
    old = a.name
    a.name = reworded(old, {x.name for x in d.actions}, a.params[0][1] if a.params else "")
    return old


def rename_predicate(d: Domain, rng: random.Random) -> str:
    """A predicate reworded everywhere it occurs (declaration and every use)."""
    i = rng.randrange(len(d.predicates))
    old, args = d.predicates[i]
    new = reworded(old, {p for p, _ in d.predicates} | {n for n, _ in d.types})
    d.predicates[i] = (new, args)
    for a in d.actions:
        for _, at in atoms(a.pre) + atoms(a.eff):
            if at[0] == old:
                at[0] = new
    return old


# ---------------------------------------------------------------------------------------------------------------
# One candidate


#: how many mistakes (breaking or lenient, in an action or around the domain) a candidate gets: none, one, 2-3;
#: the rewordings, the semantic changes and a missing :requirements come on top, in any profile
PROFILES = (("clean", 0.2), ("one_broken", 0.6), ("several_broken", 0.2))


def make_candidate(ref: Tree, rng: random.Random) -> tuple[str, str, list[dict]]:
    d = to_domain(copy.deepcopy(ref))
    profile = rng.choices([p for p, _ in PROFILES], [w for _, w in PROFILES])[0]
    changes: list[dict] = []

    def note(cls: str, action: Action | None) -> None:
        changes.append({"class": cls, "kind": KINDS[cls], "action": action.name if action else None})

    # what a model rewords and gets wrong in meaning, in any candidate
    if rng.random() < 0.3:
        old = rename_predicate(d, rng)
        changes.append({"class": "renamed_predicate", "kind": "semantic", "action": None, "predicate": old})
    renamed = rng.sample(d.actions, rng.choice([0, 0, 0, 1, 1, 2])) if len(d.actions) > 1 else []
    for a in renamed:
        old = rename_action(d, a)
        changes.append({"class": "renamed_action", "kind": "semantic", "action": a.name, "was": old})
    for _ in range(rng.choice([0, 0, 1, 1, 2])):
        a, cls = rng.choice(d.actions), rng.choice(SEMANTIC)
        if CHANGES[cls](d, a, rng):
            note(cls, a)
    if rng.random() < 0.25:
        d.requirements = []
        note("missing_requirements", None)
    if rng.random() < 0.3:
        for a in d.actions:
            a.comment = f"{a.name.replace('-', ' ').replace('_', ' ')}: " + rng.choice(
                ["the agent performs this step of the procedure", "changes the state as described in the text",
                 "preconditions must hold before the step"])
        note("prose_comments", None)
    # the mistakes
    wanted = {"clean": 0, "one_broken": 1, "several_broken": rng.choice([2, 3])}[profile]
    hit: set[int] = set()
    tries, before = 0, len(changes)
    while len(changes) - before < wanted and tries < 60:
        tries += 1
        free = [i for i in range(len(d.actions)) if i not in hit]
        if profile == "several_broken" and (rng.random() < 0.2 or not free):  # around the domain, not in it
            cls = rng.choice(FILE_BREAKS)
            if cls == "markdown_fence" and not d.fence:
                d.fence = True
                note(cls, None)
            elif cls == "prose_preamble" and not d.preamble:
                d.preamble = rng.choice(PROSE)
                note(cls, None)
            continue
        i = rng.choice(free)
        cls = rng.choices(list(ACTION_BREAKS), list(ACTION_BREAKS.values()))[0]
        if CHANGES[cls](d, d.actions[i], rng):
            hit.add(i)
            note(cls, d.actions[i])
    return render(d, rng.choice(["  ", "    ", "\t"])), profile, changes


def write(root: Path, seed: int = 31, per_domain: int = 5) -> list[dict]:
    """The corpus into `root` (domains/*.pddl and manifest.json, old candidates removed); its manifest."""
    rng = random.Random(seed)
    out = root / "domains"
    out.mkdir(parents=True, exist_ok=True)
    for old in out.glob("*.pddl"):
        old.unlink()
    manifest = []
    for ref in sorted(REFERENCES.glob("*.pddl")):
        tree = read_sexpr(ref.read_text(encoding="utf-8"))
        for k in range(1, per_domain + 1):
            text, profile, changes = make_candidate(tree, rng)
            name = f"{ref.stem}-{k}.pddl"
            (out / name).write_text(text, encoding="utf-8")
            manifest.append({"candidate": f"domains/{name}", "reference": f"../ipc/domains/{ref.name}",
                             "profile": profile, "changes": changes})
    (root / "manifest.json").write_text(json.dumps({"seed": seed, "candidates": manifest}, indent=1) + "\n",
                                        encoding="utf-8")
    return manifest


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=31)
    ap.add_argument("--per-domain", type=int, default=5)
    ap.add_argument("--out", type=Path, default=HERE, help="the corpus's folder (default: this one)")
    args = ap.parse_args()
    manifest = write(args.out, args.seed, args.per_domain)
    print(f"{len(manifest)} candidates in {args.out / 'domains'}")


if __name__ == "__main__":
    main()
