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
- **A renaming read off the colours** (`direct`), before any search: when the last round's colours
  pair every free action and every free predicate one to one (a renamed copy's usually do), and each
  pair of actions' parameters one to one by where they occur, that renaming is given to the metric
  program as it is. Its distance is then compare.lp's own count under it, and compare.lp checks that
  it is one the search could choose (`unfit/1`: types and arities); when it meets the lower bound it
  is the optimum, proven, and no search is grounded at all (a renamed copy of 16,000 actions: the
  search's grounding took longer than the time limit). Otherwise the searches below run as before.
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
from ...asp.schema import AM, PM, VM
from ...model import Domain
from .colours import Colours, colours, discrete, parameter_uses
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


# ---------------------------------------------------------------- a renaming read off the colours
@dataclass(frozen=True)
class Direct:
    """A whole renaming (learned → reference, clingo names): predicates, actions, and per pair of
    actions their parameters (positions, 1-based). Given to the metric program as mapping `best`."""

    predicates: tuple[tuple[str, str], ...]
    actions: tuple[tuple[str, str], ...]
    parameters: tuple[tuple[str, str, int, int], ...]

    def facts(self) -> str:
        return "\n".join([*(PM.fact("best", p, q) for p, q in self.predicates),
                          *(AM.fact("best", a, b) for a, b in self.actions),
                          *(VM.fact("best", a, b, i, j) for a, b, i, j in self.parameters)]) + "\n"


def _one_to_one(left: list[str], right: list[str], cl: dict[str, int], cr: dict[str, int]
                ) -> list[tuple[str, str]] | None:
    """The pairs of `left` and `right` of the same colour when every colour has one member a side."""
    by_l = {cl.get(x, -1): x for x in left}
    by_r = {cr.get(y, -1): y for y in right}
    if len(by_l) != len(left) or len(by_r) != len(right) or by_l.keys() != by_r.keys():
        return None
    return [(by_l[c], by_r[c]) for c in sorted(by_l)]


def _coloured(uses: dict[str, list[list[tuple]]], colour: dict[str, int]) -> dict[str, list[tuple]]:
    """`parameter_uses` with predicates by their colours, each parameter's uses sorted."""
    return {a: [tuple(sorted(((rp, "=" if q == "=" else colour.get(q, -1), k) for rp, q, k in u), key=repr))
                for u in us] for a, us in uses.items()}


def _parameters(ul: list[tuple], ur: list[tuple]) -> list[tuple[int, int]] | None:
    """Parameters paired by their uses (the same uses in both: in order), or None when the uses differ."""
    if len(ul) != len(ur):
        return None
    by_l: dict[tuple, list[int]] = defaultdict(list)
    by_r: dict[tuple, list[int]] = defaultdict(list)
    for i, u in enumerate(ul, 1):
        by_l[u].append(i)
    for j, u in enumerate(ur, 1):
        by_r[u].append(j)
    if any(len(by_l[u]) != len(by_r.get(u, ())) for u in by_l):
        return None
    return sorted(pair for u in by_l for pair in zip(by_l[u], by_r[u]))


def direct(ld: Domain, rd: Domain, rename: bool) -> Direct | None:
    """The renaming that the last round of colour refinement gives, when it gives one: every free
    action and free predicate the only one of its colour on its side with one partner of that colour
    on the other (named ones with their namesakes), and the parameters of each pair of actions paired
    by their uses. None otherwise, or when either model has functions (renamed apart, not coloured).
    Nothing here is taken on trust: the metric program counts its edits and checks its pairs."""
    if ld.functions or rd.functions or static_costs(ld) or static_costs(rd):
        return None
    last = discrete(ld, rd)
    if last is None:
        return None
    psig_l = {asp_name(p.name): p.arity for p in ld.predicates}
    psig_r = {asp_name(q.name): q.arity for q in rd.predicates}
    named_p = [] if rename else [p for p, n in psig_l.items() if psig_r.get(p) == n]
    fl = [p for p in psig_l if p not in named_p]
    fr = [q for q in psig_r if q not in named_p]
    preds = _one_to_one(fl, fr, last.predicates_l, last.predicates_r)
    la, ra = [asp_name(a.name) for a in ld.actions], [asp_name(b.name) for b in rd.actions]
    named_a = [] if rename else sorted(set(la) & set(ra))
    acts = _one_to_one([a for a in la if a not in named_a], [b for b in ra if b not in named_a],
                       last.actions_l, last.actions_r)
    if preds is None or acts is None:
        return None
    uses_l = _coloured(parameter_uses(ld), last.predicates_l)
    uses_r = _coloured(parameter_uses(rd), last.predicates_r)
    params: list[tuple[str, str, int, int]] = []
    for a, b in [(a, a) for a in named_a] + acts:
        pairs = _parameters(uses_l[a], uses_r[b])
        if pairs is None:
            return None
        params += [(a, b, i, j) for i, j in pairs]
    return Direct(tuple([(p, p) for p in named_p] + preds), tuple([(a, a) for a in named_a] + acts), tuple(params))


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


__all__ = ["Plan", "Direct", "plan", "direct", "colours", "free_pairs", "MIN_PAIRS"]
