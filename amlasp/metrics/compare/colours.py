"""Colour refinement of two models at once (Weisfeiler-Leman; metrics/compare/decompose.py's candidates
and its renaming read off the colours): actions and predicates coloured by what they use and what uses
them, with no name but the constants'. Names play no part, so a renamed copy's actions get their
originals' colours."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from ...asp.names import asp_name
from ...logic import atoms
from ...model import Atom, Domain, is_var

#: Colour refinement stops after this many rounds (or when the classes stop splitting).
ROUNDS = 10
#: Members of a symmetric class given colours of their own (`discrete`) before the renaming read off the
#: colours is given up (psr middle's grounded domain-44 needs 131; each costs a refinement near the pair).
INDIVIDUALISE = 512


def parameter_uses(d: Domain) -> dict[str, list[list[tuple]]]:
    """Per action (clingo name), per parameter in order, its uses: (role and pattern of the atom,
    predicate (clingo name, `=` for equality), position in the atom). Names of parameters play no part."""
    out: dict[str, list[list[tuple]]] = {}
    for a in d.actions:
        index = {v: i for i, (v, _) in enumerate(a.parameters)}
        uses: list[list[tuple]] = [[] for _ in a.parameters]
        occ = [("pre", x) for x in atoms(a.precondition)]
        for e in a.effects:
            role = ("eff+" if e.literal.positive else "eff-") + ("" if e.unconditional else "c")
            occ.append((role, e.literal.atom))
            occ += [("cond", x) for x in atoms(e.condition)]
        for role, x in occ:
            rp = (role, pattern(x))
            for k, arg in enumerate(x.args):
                if arg in index:
                    uses[index[arg]].append((rp, asp_name(x.predicate), k))
        out[asp_name(a.name)] = uses
    return out



# ---------------------------------------------------------------- candidates: colour refinement
Occurrence = tuple[str, str, tuple]  # (role, predicate, argument pattern)


def pattern(atom: Atom) -> tuple:
    """An atom's arguments without names: constants as themselves (matched by name), variables by
    their first position in the atom (so that neither renaming nor reordering parameters changes it)."""
    seen: dict[str, int] = {}
    return tuple(("v", seen.setdefault(x, len(seen))) if is_var(x) else ("c", asp_name(x)) for x in atom.args)


def _occurrences(d: Domain) -> dict[str, list[Occurrence]]:
    out: dict[str, list[Occurrence]] = {}
    for a in d.actions:
        occ: list[Occurrence] = [("pre", asp_name(x.predicate), pattern(x)) for x in atoms(a.precondition)]
        for e in a.effects:
            role = ("eff+" if e.literal.positive else "eff-") + ("" if e.unconditional else "c")
            occ.append((role, asp_name(e.literal.atom.predicate), pattern(e.literal.atom)))
            occ += [("cond", asp_name(x.predicate), pattern(x)) for x in atoms(e.condition)]
        out[asp_name(a.name)] = [o for o in occ if o[1] != "="] + [(r, "=", p) for r, q, p in occ if q == "="]
    return out


def colours(ld: Domain, rd: Domain) -> list[Colours]:
    """Colour refinement of both models at once, round by round (the first: arities): actions and
    predicates start from their arity, and each round an action's colour becomes its colour with the
    multiset of (role, predicate colour, pattern) of its atoms, a predicate's its colour with the
    multiset of (role, action colour, pattern) of its uses. Names play no part, so a renamed copy's
    actions get their originals' colours; an edit changes the colours of what is near it, more with
    each round (the earlier rounds then still pair what the edit did not reach)."""
    occ, act, pred = _start(ld, rd)
    rounds = [_split(act, pred)]
    classes = len(set(act.values())) + len(set(pred.values()))
    for _ in range(ROUNDS):
        act, pred = _round(occ, act, pred)
        now = len(set(act.values())) + len(set(pred.values()))
        if now == classes:
            break
        classes = now
        rounds.append(_split(act, pred))
    return rounds


Keyed = dict[tuple[str, str], int]  # (side, clingo name) → colour


Coded = dict[tuple[str, str], list[tuple[int, tuple[str, str]]]]  # per action: (role and pattern, predicate)


def _start(ld: Domain, rd: Domain) -> tuple[Coded, Keyed, Keyed]:
    """The atoms of every action of both models, each as (a number for its role and pattern, its
    predicate), and the first round's colours (arities)."""
    occ = {("l", a): o for a, o in _occurrences(ld).items()} | {("r", b): o for b, o in _occurrences(rd).items()}
    code = {rp: i for i, rp in enumerate(sorted({(r, pat) for o in occ.values() for r, _, pat in o}, key=repr))}
    coded = {key: [(code[(r, pat)], (key[0], p)) for r, p, pat in o] for key, o in occ.items()}
    act: dict[tuple[str, str], object] = {("l", asp_name(a.name)): ("a", a.arity) for a in ld.actions}
    act |= {("r", asp_name(b.name)): ("a", b.arity) for b in rd.actions}
    pred: dict[tuple[str, str], object] = {(s, asp_name(p.name)): ("p", p.arity)
                                           for s, d in (("l", ld), ("r", rd)) for p in d.predicates}
    pred[("l", "=")] = pred[("r", "=")] = ("=",)
    return coded, _relabel(act), _relabel(pred)


def _round(occ: Coded, act: Keyed, pred: Keyed) -> tuple[Keyed, Keyed]:
    """One round of refinement: each colour with the multiset of its neighbours' (see `colours`)."""
    uses: dict[tuple[str, str], list] = defaultdict(list)
    new_act: dict[tuple[str, str], tuple] = {}
    for key, o in occ.items():
        c = act[key]
        new_act[key] = (c, tuple(sorted([(rp, pred.get(pk, -1)) for rp, pk in o])))
        for rp, pk in o:
            uses[pk].append((rp, c))
    new_pred = {key: (c, tuple(sorted(uses.get(key, ())))) for key, c in pred.items()}
    return _numbered(new_act), _numbered(new_pred)


def _numbered(colour: dict) -> Keyed:
    """`_relabel` for signatures of numbers only (compared as they are, not by their text)."""
    order = {sig: i for i, sig in enumerate(sorted(set(colour.values())))}
    return {k: order[v] for k, v in colour.items()}


# long: one refinement, its closures (a node's signature, refine) sharing the colours and classes it splits
def discrete(ld: Domain, rd: Domain, limit: int = INDIVIDUALISE) -> Colours | None:
    """Colours that tell every action and every predicate apart, both models at once, or None: colour
    refinement to the end, then, while a class has several members a side (a symmetry: eleven
    philosophers alike), one learned and one reference member of the smallest such class given a colour
    of their own and refinement again (individualisation, as graph isomorphism tools do), at most
    `limit` times. A class with more members on one side than the other: None. Which members are
    individualised is a guess that a renamed copy's symmetries make right; `direct`'s caller checks
    the renaming (its distance and its fitness), so a wrong guess costs time, not correctness.
    Twins (actions of one model with the same atoms and parameter uses: psr's 8,337 REACH-GOAL actions
    alike) are refined as one node with their number in its colour, and paired in order at the end: no
    refinement can tell them apart, and individualising them a pair at a time took a refinement each.
    Refinement here re-examines only the classes next to what changed (a ring of 29 philosophers
    takes as many rounds as it has members: each round over everything took 40 s)."""
    occ, act, pred = _start(ld, rd)
    linked: dict[tuple, list[list[tuple]]] = {}
    for side, d in (("l", ld), ("r", rd)):
        for a, uses in parameter_uses(d).items():
            linked[("a", side, a)] = [[(rp, ("p", side, q), k) for rp, q, k in u] for u in uses]
    twins = _twins(occ, linked)
    colour: dict[tuple, int] = {("a", *k): c for k, c in
                                _relabel({k: (act[k], len(twins[k])) for k in twins}).items()}
    base = max(colour.values(), default=0) + 1
    colour |= {("p", *k): base + c for k, c in pred.items()}
    near: dict[tuple, list[tuple[int, tuple]]] = defaultdict(list)
    undeclared: dict[str, int] = {}  # atoms of no declared predicate (numeric placeholders): by name
    for (side, a) in twins:
        for rp, (_, q) in occ[(side, a)]:
            pk = ("p", side, q)
            if pk not in colour:
                colour[pk] = undeclared.setdefault(q, max(colour.values(), default=0) + 1)
            near[("a", side, a)].append((rp, pk))
            near[pk].append((rp, ("a", side, a)))
    members: dict[int, list[tuple]] = defaultdict(list)
    for node, c in colour.items():
        members[c].append(node)

    # a node's signature: the sum of a hash of (role and pattern, colour) over its neighbours (a multiset's
    # hash), kept up to date as they change colour, so that looking at a class costs its size, not its
    # members' degrees (optical telegraph's predicates of hundreds of uses re-read at each look: 20 s of
    # 31); an action's parameter uses (`linked`) read again when a neighbour changed. Two signatures whose
    # hashes meet would be one class: a wrong guess at worst, which the caller's check catches.
    hsum = {node: sum(_mix(rp, colour[n]) for rp, n in near[node]) & _MASK for node in colour}
    known: dict[tuple, tuple] = {}
    dirty: set[tuple] = set()

    def signature(node: tuple) -> object:
        if node[0] == "p" or not linked[node]:
            return hsum[node]
        if node in known and node not in dirty:
            return known[node]
        dirty.discard(node)
        sig = hsum[node], tuple(sorted(tuple(sorted([(rp, colour[q], k) for rp, q, k in u])) for u in linked[node]))
        known[node] = sig
        return sig
    fresh = [max(colour.values(), default=0) + 1]

    def recolour(node: tuple, new: int, todo: set[int]) -> None:
        old, colour[node] = colour[node], new
        for rp, n in near[node]:
            hsum[n] = (hsum[n] + _mix(rp, new) - _mix(rp, old)) & _MASK
            todo.add(colour[n])
            dirty.add(n)

    def refine(todo: set[int]) -> bool:
        """Refinement from the classes `todo`; False when a class it leaves has more members on one side.
        The largest part of a split class keeps its colour (the others' neighbours are updated)."""
        while todo:
            work, todo = sorted(todo), set()
            for c in work:
                groups: dict[object, list[tuple]] = defaultdict(list)
                for node in members[c]:
                    groups[signature(node)].append(node)
                if len(groups) == 1:
                    continue
                keep, *split = sorted(groups, key=lambda g: (-len(groups[g]), repr(g)))
                members[c] = groups[keep]
                for sig in split:
                    members[fresh[0]] = groups[sig]
                    for node in groups[sig]:
                        recolour(node, fresh[0], todo)
                    fresh[0] += 1
                if not all(_balanced(ns) for ns in groups.values()):
                    return False
        return True

    if not all(_balanced(ns) for ns in members.values()) or not refine(set(members)):
        return None
    for _ in range(limit + 1):
        pick = min(((len(ns), n[0], c) for c, ns in members.items() if len(ns) > 2 for n in ns[:1]), default=None)
        if pick is None:
            return _expanded(colour, twins, fresh[0])
        c = pick[2]
        x = min(n for n in members[c] if n[1] == "l")
        y = min(n for n in members[c] if n[1] == "r")
        members[c] = [n for n in members[c] if n not in (x, y)]
        members[fresh[0]] = [x, y]
        todo: set[int] = set()
        recolour(x, fresh[0], todo)
        recolour(y, fresh[0], todo)
        fresh[0] += 1
        if not refine(todo):
            return None
    return None


_MASK = (1 << 64) - 1


def _mix(a: int, b: int) -> int:
    """A 64-bit hash of two numbers (splitmix64's finaliser: the same in every process, unlike `hash` of a
    text), summed over a node's neighbours as its signature."""
    x = (a * 0x9E3779B97F4A7C15 + b * 0xC2B2AE3D27D4EB4F + 0x165667B19E3779F9) & _MASK
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK
    return x ^ (x >> 31)


def _balanced(nodes: list[tuple]) -> bool:
    """As many learned as reference members."""
    return sum(1 for n in nodes if n[1] == "l") * 2 == len(nodes)


def _twins(occ: Coded, linked: dict[tuple, list[list[tuple]]]) -> dict[tuple[str, str], list[str]]:
    """Per side, the actions grouped by their atoms and parameter uses (predicates by name): each group's
    first action (in the models' order) with the group, in the models' order."""
    groups: dict[tuple, list[str]] = {}
    for (side, a), o in occ.items():
        key = (side, len(linked[("a", side, a)]), tuple(sorted(o)),
               tuple(sorted(tuple(sorted(u)) for u in linked[("a", side, a)])))
        groups.setdefault(key, []).append(a)
    return {(key[0], names[0]): names for key, names in groups.items()}


def _expanded(colour: dict[tuple, int], twins: dict[tuple[str, str], list[str]], fresh: int) -> Colours:
    """The discrete colours of the twins' representatives given to the twins: the k-th twin of a learned
    representative paired with the k-th of its reference partner (twins are interchangeable)."""
    get: dict[tuple[str, str], dict[str, int]] = {(kind, side): {} for kind in "ap" for side in "lr"}
    more: dict[tuple[int, int], int] = {}  # (representative's colour, k) → the k-th twins' colour
    for (kind, side, n), c in colour.items():
        if kind == "p":
            get[("p", side)][n] = c
            continue
        for k, twin in enumerate(twins[(side, n)]):
            get[("a", side)][twin] = c if k == 0 else more.setdefault((c, k), fresh + len(more))
    return Colours(get[("a", "l")], get[("a", "r")], get[("p", "l")], get[("p", "r")])


def _split(act: dict, pred: dict) -> Colours:
    return Colours({a: c for (s, a), c in act.items() if s == "l"}, {b: c for (s, b), c in act.items() if s == "r"},
                   {p: c for (s, p), c in pred.items() if s == "l"}, {q: c for (s, q), c in pred.items() if s == "r"})


@dataclass(frozen=True)
class Colours:
    """The colours of the actions and predicates of the learned and the reference model (clingo names)."""

    actions_l: dict[str, int]
    actions_r: dict[str, int]
    predicates_l: dict[str, int]
    predicates_r: dict[str, int]


def _relabel(colour: dict) -> dict:
    """Colours as small integers, numbered by the sorted order of their signatures (deterministic)."""
    order = {sig: i for i, sig in enumerate(sorted(set(colour.values()), key=repr))}
    return {k: order[v] for k, v in colour.items()}


__all__ = ["Colours", "colours", "discrete", "parameter_uses", "pattern"]
