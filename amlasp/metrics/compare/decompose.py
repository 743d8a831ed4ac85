"""The search for the best renaming of two big models, decomposed (issue 33: a domain of 500 actions
against its renamed copy ran out of 60 s grounding the candidate pairs of every two actions).

Three parts, each exact on its own terms:

- **A lower bound** on the edit distance, valid for every renaming (`Plan.lower_bound`). A unit can
  only match a unit of its class (compare.lp's `ucand`: category, sign, shape; a literal's predicate
  has the same arity), and the literals of an action match those of its counterpart one to one
  (predicates and parameters are renamed injectively, so a learned literal has one image and a
  reference literal one preimage). So a pair of actions (A, B) costs at least
  `|arity A - arity B| + sum over literal classes |n_A - n_B|`, plus, for the other classes (formula
  trees, conditional effects, numeric units, equalities: matched as sets, not shown one to one), the
  units of a class the other action lacks entirely. An unmatched action costs 1 and its units. The
  cheapest assignment of actions under these costs (`scipy`'s `linear_sum_assignment`; named actions
  only to their namesakes unless `--rename`), plus the predicates of each arity that cannot all be
  paired, is a lower bound.
- **An upper bound**: the search run on a few candidate pairs of actions only (`Plan.candidates`):
  those of the same colour under colour refinement (Weisfeiler-Leman: an action's colour is made
  from the colours of the predicates it uses, a predicate's from the actions that use it, with no
  name but the constants', which compare matches by name; what has no partner of its colour is
  grouped by the colours of the rounds before, which an edit has not reached yet), and for the
  actions left over, their cheapest partners under the lower bound's costs. Any renaming it finds
  is a renaming: its distance is an upper bound. When it equals the lower bound it is the optimum,
  proven (a renamed copy: 0 = 0).
- **Pruning** otherwise (`Plan.kept`): a pair (A, B) is left out of the full search when every
  renaming that pairs them costs more than the upper bound: its cost plus the cheapest option of
  every other learned action (or of every other reference action) plus the predicates' bound
  exceeds it. Every optimal renaming survives, so the search on the pairs kept is exact.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass

import numpy as np
from scipy.optimize import linear_sum_assignment
from scipy.spatial.distance import cdist

from ...asp.names import asp_name
from ...logic import atoms
from ...model import Atom, Domain, is_var
from .structure import Structure, static_costs

#: Free action pairs (learned x reference) from which the search is decomposed; below it the one search
#: over all pairs is quick, and its answer (which of several optimal renamings) is kept as it was.
MIN_PAIRS = 400
#: A colour class of at most this many pairs (learned x reference) is given whole; a larger one (the
#: actions refinement cannot tell apart) pairs its members in the models' order.
MAX_CLASS = 64
#: Pairs of predicates of one arity left without a partner of their colour beyond which they are paired
#: in order only.
MAX_LEFT = 2_000
#: Cheapest partners given to an action whose colour the other model lacks.
PARTNERS = 3
#: Colour refinement stops after this many rounds (or when the classes stop splitting).
ROUNDS = 10


@dataclass(frozen=True)
class Plan:
    """The decomposed search of two models' free actions (named ones are paired with their namesakes
    as before): `lower_bound` on the edit distance, the `candidates` of the first search, and what
    the pruning needs (per pair costs, the options' minima)."""

    lower_bound: int
    candidates: tuple[tuple[str, str], ...]
    predicates: tuple[tuple[str, str], ...]  # the first search's pairs of free predicates (same arity)
    free_l: tuple[str, ...]
    free_r: tuple[str, ...]
    cost: np.ndarray  # lower bounds of the free pairs (learned x reference)
    row_min: np.ndarray
    col_min: np.ndarray
    rows_total: float
    cols_total: float
    base: float  # the named actions' and the predicates' share of the bound

    def kept(self, upper: int) -> tuple[tuple[str, str], ...]:
        """The free pairs some renaming of distance at most `upper` may use: (A, B) is dropped when
        cost(A, B) + the cheapest options of the other learned actions + `base` > `upper`, or the same
        with the reference actions (each action of a renaming is matched or removed, and pays at least
        its cheapest option)."""
        by_row = self.cost - self.row_min[:, None] + self.rows_total + self.base
        by_col = self.cost - self.col_min[None, :] + self.cols_total + self.base
        ok = np.maximum(by_row, by_col) <= upper
        return tuple((self.free_l[i], self.free_r[j]) for i, j in zip(*np.nonzero(ok)))


def _units(s: Structure) -> dict[str, Counter]:
    """Per action (clingo name), its units counted by class: ("s", ...) one to one, ("w", ...) as sets."""
    out: dict[str, Counter] = defaultdict(Counter)
    for (a, unit), _ in s.unit_text.items():
        key: tuple
        if unit.startswith("lit("):
            category, sign, atom = unit[4:-1].split(",", 2)
            pred, args = s.atoms[atom]
            key = ("w", "eq", category, sign) if pred == "eq" else ("s", category, sign, len(args))
        elif unit == "cost":
            key = ("s", "cost")
        else:  # ce(K), pf(J), nu(...): trees, sets
            key = ("w", unit.split("(", 1)[0])
        out[a][key] += 1
    return out


def _matrix(names: list[str], units: dict[str, Counter], keys: list[tuple]) -> np.ndarray:
    m = np.zeros((len(names), len(keys)))
    index = {k: i for i, k in enumerate(keys)}
    for r, a in enumerate(names):
        for k, n in units.get(a, {}).items():
            if k in index:
                m[r, index[k]] = n
    return m


def _pair_costs(fl: list[str], fr: list[str], ul: dict[str, Counter], ur: dict[str, Counter],
                arity: dict[tuple[str, str], int]) -> np.ndarray:
    """The lower bound of each pair (learned x reference): see the module's docstring."""
    keys = sorted({k for u in (ul, ur) for a in u for k in u[a]}, key=repr)
    strong = [k for k in keys if k[0] == "s"]
    weak = [k for k in keys if k[0] == "w"]
    ls, rs = _matrix(fl, ul, strong), _matrix(fr, ur, strong)
    cost = cdist(ls, rs, "cityblock") if strong else np.zeros((len(fl), len(fr)))
    if weak:
        lw, rw = _matrix(fl, ul, weak), _matrix(fr, ur, weak)
        cost += lw @ (rw == 0).T + (lw == 0) @ rw.T
    al = np.array([arity[("l", a)] for a in fl], dtype=float)
    ar = np.array([arity[("r", b)] for b in fr], dtype=float)
    return cost + np.abs(al[:, None] - ar[None, :])


def _predicate_bound(ld: Domain, rd: Domain, rename: bool) -> int:
    """Predicates (and functions) that no renaming pairs: per arity, the surplus of either model's free
    ones (pairs keep their arity; predicates and functions never meet)."""
    total = 0
    for left, right in ((ld.predicates, rd.predicates),
                        (ld.functions + static_costs(ld), rd.functions + static_costs(rd))):
        lsig = {(asp_name(p.name), p.arity) for p in left}
        rsig = {(asp_name(p.name), p.arity) for p in right}
        fl = Counter(n for key, n in lsig if rename or (key, n) not in rsig)
        fr = Counter(n for key, n in rsig if rename or (key, n) not in lsig)
        total += sum(abs(fl[n] - fr[n]) for n in set(fl) | set(fr))
    return total


def free_pairs(ld: Domain, rd: Domain, rename: bool) -> int:
    """How many pairs of actions the search may match (the free ones: not paired by name)."""
    la, ra = {asp_name(a.name) for a in ld.actions}, {asp_name(b.name) for b in rd.actions}
    shared = set() if rename else la & ra
    return len(la - shared) * len(ra - shared)


def plan(ld: Domain, rd: Domain, ls: Structure, rs: Structure, rename: bool) -> Plan:
    """The lower bound and the first search's candidates for learned `ld` and reference `rd` (the
    predicates the search sees: those paired before it, by `unused.pair_unused`, left out)."""
    la = [asp_name(a.name) for a in ld.actions]
    ra = [asp_name(b.name) for b in rd.actions]
    shared = set() if rename else set(la) & set(ra)
    fl, fr = [a for a in la if a not in shared], [b for b in ra if b not in shared]
    ul, ur = _units(ls), _units(rs)
    arity = {("l", asp_name(a.name)): a.arity for a in ld.actions} | {("r", asp_name(b.name)): b.arity
                                                                      for b in rd.actions}

    def alone(side: str, a: str) -> int:
        return 1 + sum((ul if side == "l" else ur).get(a, Counter()).values())

    named = 0
    for a in sorted(shared):
        pair = _pair_costs([a], [a], ul, ur, arity)[0, 0]
        named += int(min(pair, alone("l", a) + alone("r", a)))
    base = named + _predicate_bound(ld, rd, rename)
    cost = _pair_costs(fl, fr, ul, ur, arity)
    un_l = np.array([alone("l", a) for a in fl], dtype=float)
    un_r = np.array([alone("r", b) for b in fr], dtype=float)
    free = 0
    if fl and fr:
        # a pair, or both left unmatched; the longer side's actions left over pay alone
        capped = np.minimum(cost, un_l[:, None] + un_r[None, :])
        rows, cols = linear_sum_assignment(capped)
        free = int(capped[rows, cols].sum())
        free += int(un_l.sum() - un_l[rows].sum()) + int(un_r.sum() - un_r[cols].sum())
    else:
        free = int(un_l.sum() + un_r.sum())
    row_min = np.minimum(cost.min(axis=1), un_l) if fr else un_l
    col_min = np.minimum(cost.min(axis=0), un_r) if fl else un_r
    colour = colours(ld, rd)
    return Plan(base + free, tuple(_candidates(colour, fl, fr, cost)), tuple(_predicates(ld, rd, colour, rename)),
                tuple(fl), tuple(fr), cost,
                row_min, col_min, float(row_min.sum()), float(col_min.sum()), float(base))


# ---------------------------------------------------------------- candidates: colour refinement
Occurrence = tuple[str, str, tuple]  # (role, predicate, argument pattern)


def _pattern(atom: Atom) -> tuple:
    """An atom's arguments without names: constants as themselves (matched by name), variables by
    their first position in the atom (so that neither renaming nor reordering parameters changes it)."""
    seen: dict[str, int] = {}
    return tuple(("v", seen.setdefault(x, len(seen))) if is_var(x) else ("c", asp_name(x)) for x in atom.args)


def _occurrences(d: Domain) -> dict[str, list[Occurrence]]:
    out: dict[str, list[Occurrence]] = {}
    for a in d.actions:
        occ: list[Occurrence] = [("pre", asp_name(x.predicate), _pattern(x)) for x in atoms(a.precondition)]
        for e in a.effects:
            role = ("eff+" if e.literal.positive else "eff-") + ("" if e.unconditional else "c")
            occ.append((role, asp_name(e.literal.atom.predicate), _pattern(e.literal.atom)))
            occ += [("cond", asp_name(x.predicate), _pattern(x)) for x in atoms(e.condition)]
        out[asp_name(a.name)] = [o for o in occ if o[1] != "="] + [(r, "=", p) for r, q, p in occ if q == "="]
    return out


def colours(ld: Domain, rd: Domain) -> list[Colours]:
    """Colour refinement of both models at once, round by round (the first: arities): actions and
    predicates start from their arity, and each round an action's colour becomes its colour with the
    multiset of (role, predicate colour, pattern) of its atoms, a predicate's its colour with the
    multiset of (role, action colour, pattern) of its uses. Names play no part, so a renamed copy's
    actions get their originals' colours; an edit changes the colours of what is near it, more with
    each round (the earlier rounds then still pair what the edit did not reach)."""
    occ = {("l", a): o for a, o in _occurrences(ld).items()} | {("r", b): o for b, o in _occurrences(rd).items()}
    act: dict[tuple[str, str], object] = {("l", asp_name(a.name)): ("a", a.arity) for a in ld.actions}
    act |= {("r", asp_name(b.name)): ("a", b.arity) for b in rd.actions}
    pred: dict[tuple[str, str], object] = {(s, asp_name(p.name)): ("p", p.arity)
                                           for s, d in (("l", ld), ("r", rd)) for p in d.predicates}
    pred[("l", "=")] = pred[("r", "=")] = ("=",)
    act, pred = _relabel(act), _relabel(pred)
    rounds = [_split(act, pred)]
    classes = len(set(act.values())) + len(set(pred.values()))
    for _ in range(ROUNDS):
        uses: dict[tuple[str, str], list] = defaultdict(list)
        new_act: dict[tuple[str, str], object] = {}
        for key, o in occ.items():
            side = key[0]
            new_act[key] = (act[key], tuple(sorted((r, pred.get((side, p), -1), pat) for r, p, pat in o)))
            for r, p, pat in o:
                uses[(side, p)].append((r, act[key], pat))
        new_pred = {key: (c, tuple(sorted(uses.get(key, ())))) for key, c in pred.items()}
        act, pred = _relabel(new_act), _relabel(new_pred)
        now = len(set(act.values())) + len(set(pred.values()))
        if now == classes:
            break
        classes = now
        rounds.append(_split(act, pred))
    return rounds


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


def _by_colour(fl: list[str], fr: list[str], rounds: list[tuple[dict[str, int], dict[str, int]]]
               ) -> tuple[set[tuple[int, int]], list[int], list[int]]:
    """Pairs (indices) of the same colour, from the last round back to the first: a class of at most
    `MAX_CLASS` pairs is given whole, a larger one pairs its members in order; what finds no partner of
    its colour in one round is grouped by the round before. Returns the pairs and the members left
    without a partner in the first round too, or paired in it by their order only (in a class of arity
    alone): the caller gives those more partners."""
    pairs: set[tuple[int, int]] = set()
    left_l, left_r = list(range(len(fl))), list(range(len(fr)))
    weak_l: list[int] = []
    weak_r: list[int] = []
    for r, (cl, cr) in reversed(list(enumerate(rounds))):
        by_l: dict[int, list[int]] = defaultdict(list)
        by_r: dict[int, list[int]] = defaultdict(list)
        for i in left_l:
            by_l[cl.get(fl[i], -1)].append(i)
        for j in left_r:
            by_r[cr.get(fr[j], -1)].append(j)
        left_l, left_r = [], []
        for c in sorted(set(by_l) | set(by_r)):
            xs, ys = by_l.get(c, []), by_r.get(c, [])
            if xs and ys and len(xs) * len(ys) <= MAX_CLASS:
                pairs |= {(i, j) for i in xs for j in ys}
            else:
                pairs |= set(zip(xs, ys))
                if r == 0 and len(xs) > 1 and len(ys) > 1:  # paired by arity and order alone: weak
                    weak_l += xs[:len(ys)]
                    weak_r += ys[:len(xs)]
                left_l += xs[len(ys):]
                left_r += ys[len(xs):]
    return pairs, sorted(left_l + weak_l), sorted(left_r + weak_r)


def _predicates(ld: Domain, rd: Domain, colour: list[Colours], rename: bool) -> list[tuple[str, str]]:
    """The first search's pairs of free predicates: of the same colour, and for those whose colour the
    other side lacks, every partner of their arity among those (in order beyond `MAX_LEFT` pairs).
    Functions are not restricted (compare.lp's `pcand` gives them all)."""
    lsig = {(asp_name(p.name), p.arity) for p in ld.predicates}
    rsig = {(asp_name(q.name), q.arity) for q in rd.predicates}
    fl = [asp_name(p.name) for p in ld.predicates if rename or (asp_name(p.name), p.arity) not in rsig]
    fr = [asp_name(q.name) for q in rd.predicates if rename or (asp_name(q.name), q.arity) not in lsig]
    arity = {asp_name(p.name): p.arity for p in ld.predicates} | {asp_name(q.name): q.arity for q in rd.predicates}
    same, left_l, left_r = _by_colour(fl, fr, [(c.predicates_l, c.predicates_r) for c in colour])
    pairs = {(fl[i], fr[j]) for i, j in same if arity[fl[i]] == arity[fr[j]]}
    for n in sorted({arity[fl[i]] for i in left_l}):
        xs = [fl[i] for i in left_l if arity[fl[i]] == n]
        ys = [fr[j] for j in left_r if arity[fr[j]] == n]
        pairs |= {(x, y) for x in xs for y in ys} if len(xs) * len(ys) <= MAX_LEFT else set(zip(xs, ys))
    return sorted(pairs)


def _candidates(colour: list[Colours], fl: list[str], fr: list[str], cost: np.ndarray) -> list[tuple[str, str]]:
    """The first search's pairs of free actions: same colour (a class too large to give whole: its
    members in order), and for the actions whose colour the other side lacks, their cheapest partners
    among those and the assignment's pair."""
    pairs, left_l, left_r = _by_colour(fl, fr, [(c.actions_l, c.actions_r) for c in colour])
    if left_l and left_r:
        sub = cost[np.ix_(left_l, left_r)]
        rows, cols = linear_sum_assignment(sub)
        pairs |= {(left_l[i], left_r[j]) for i, j in zip(rows, cols)}
        k = min(PARTNERS, len(left_r))
        for i, row in enumerate(sub):
            pairs |= {(left_l[i], left_r[j]) for j in np.argsort(row, kind="stable")[:k]}
        k = min(PARTNERS, len(left_l))
        for j, col in enumerate(sub.T):
            pairs |= {(left_l[i], left_r[j]) for i in np.argsort(col, kind="stable")[:k]}
    return [(fl[i], fr[j]) for i, j in sorted(pairs)]


__all__ = ["Plan", "plan", "colours", "free_pairs", "MIN_PAIRS"]
