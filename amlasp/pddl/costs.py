"""`:action-costs` (IPC 2008 on): read from the s-expression and taken out of it, before the other passes.

A cost domain declares `(:functions (total-cost) - number (f ?x - t ...) - number ...)`, and an
action's effect may add to the total cost: `(increase (total-cost) 5)` or `(increase (total-cost)
(f ?x ...))`, with `f` static (no action changes it), valued in the problem's `:init` by
`(= (f a b) 3)`; the problem asks `(:metric minimize (total-cost))`. Costs never change which
actions apply or what they do, so this pass takes them out of the tree (the `pddl` package and
our checks then see a plain STRIPS/ADL domain) and keeps them beside it, each term at its token.
A domain whose numeric parts are anything more (a function in a condition, an effect on another
function, a cost under `when`/`forall`) is left as it is, for the numeric passes to refuse or read.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..errors import InputError, UnsupportedError
from ..model import Atom, Cost, Domain, Number, Predicate, Problem
from . import sexpr
from .declarations import typed_names
from .functions import ObjectFluents, decimal, declarations
from .ground import Grounder

TOTAL = "total-cost"
_NUMERIC = {"increase", "decrease", "assign", "scale-up", "scale-down", "<", ">", "<=", ">=", "=",
            "+", "-", "*", "/"}


@dataclass(frozen=True)
class DomainCosts:
    """The cost functions (total-cost included) and each action's cost term, as read."""

    functions: tuple[Predicate, ...]
    actions: dict[str, Cost]


def number(tok: sexpr.SExpr, file: str, what: str) -> Number:
    """A non-negative number token: an int when it is written as one (`3`, `3.0`), else a float."""
    if not isinstance(tok, sexpr.Token):
        raise UnsupportedError(f"unsupported feature: {what} that is an expression (only numbers)", file, at=tok)
    d = decimal(tok, file, f"a number as {what}")
    if d < 0:
        raise InputError(f"negative {what} {tok} (action costs are non-negative)", file, at=tok)
    return int(d) if d == d.to_integral_value() else float(d)


def _conjuncts(effect: sexpr.SExpr) -> list[tuple[sexpr.List, int]]:
    """The cost increases among the conjuncts of an effect (nested `and`s looked into): (parent, index)."""
    out = []
    stack = [effect]
    while stack:  # `x[0] == "and"` is `x.head() == "and"` for a list `x` that is not empty (a list is no "and")
        node = stack.pop()
        if not isinstance(node, sexpr.List) or not node or node[0] != "and":
            continue
        for i, child in enumerate(node):
            if i and isinstance(child, sexpr.List) and child:
                if child[0] == "and":
                    stack.append(child)
                elif child[0] == "increase":
                    out.append((node, i))
    return out


def _is_total(node: sexpr.SExpr) -> bool:
    return isinstance(node, sexpr.List) and len(node) == 1 and node.head() == TOTAL


def take_domain(root: sexpr.List, file: str, outline: sexpr.Outline | None = None) -> DomainCosts | None:
    """Take the cost functions and the actions' cost effects out of `root`; None (`root` unchanged)
    when the domain has no `(total-cost)` or numeric parts other than action costs. `outline`: the
    tree's, if the caller has it."""
    found = {s.head(): s for s in root[2:]}
    section = found.get(":functions")
    if section is None:
        return None
    try:
        declared = declarations(section, file)
    except ObjectFluents:
        return None  # for the numeric passes to refuse
    if not any(d.head() == TOTAL and len(d) == 1 for d, _ in declared):
        return None
    names = {str(d.head()) for d, _ in declared}
    actions = [s for s in root[2:] if s.head() == ":action"]
    terms: dict[str, tuple[sexpr.List, int, sexpr.SExpr]] = {}
    for action in actions:
        effect = _key(action, ":effect")
        spots = _conjuncts(effect) if isinstance(effect, sexpr.List) else []
        if isinstance(effect, sexpr.List) and effect.head() == "increase":
            spots = [(action, next(i for i, x in enumerate(action) if x is effect))]
        costs = [(parent, i) for parent, i in spots if len(parent[i]) == 3 and _is_total(parent[i][1])]
        if len(costs) > 1:
            second, j = costs[1]
            raise UnsupportedError("unsupported feature: two cost effects in one action", file, at=second[j])
        if costs:
            parent, i = costs[0]
            terms[str(action[1])] = (parent, i, parent[i][2])
    if not _only_costs(root, names, {id(p[i]) for p, i, _ in terms.values()}, file, outline):
        return None
    functions = tuple(Predicate(str(d.head()), tuple((str(v), str(t)) for v, t in params))
                      for d, params in declared)
    arity = {f.name: f.arity for f in functions}
    out: dict[str, Cost] = {}
    for action in actions:
        hit = terms.get(str(action[1]))
        if hit is None:
            continue
        parent, i, term = hit
        out[str(action[1])] = _term(term, arity, _parameters(action, file), file)
        if parent is action:  # the effect is the increase alone
            parent[i] = sexpr.List([sexpr.Token("and", term.line if isinstance(term, sexpr.Token) else 0)],
                                   parent[i].line, parent[i].end_line, parent[i].col, parent[i].end_col)
        else:
            del parent[i]
    root[:] = [s for s in root if s is not section]
    return DomainCosts(functions, out)


def _only_costs(root: sexpr.List, functions: set[str], costs: set[int], file: str,
                outline: sexpr.Outline | None) -> bool:
    """Every numeric construct of the actions is one of the cost effects `costs` (by identity), and
    the functions appear nowhere else; a cost effect under `when` or `forall` is refused."""
    heads = frozenset(_NUMERIC) | functions
    for action in (s for s in root[2:] if s.head() == ":action"):
        if _plain(outline.headed(heads, within=action) if outline else sexpr.headed(action, heads), heads, costs):
            continue
        stack: list[tuple[sexpr.SExpr, bool]] = [(action, False)]
        while stack:
            node, inside = stack.pop()
            if not isinstance(node, sexpr.List):
                continue
            if id(node) in costs:
                continue
            h = node.head()
            if h in _NUMERIC and h != "=" or h in functions:
                if h == "increase" and len(node) == 3 and _is_total(node[1]) and inside:
                    raise UnsupportedError("unsupported feature: a conditional action cost (increase (total-cost) "
                                           "...) under when or forall", file, at=node)
                return False
            if h == "=" and any(isinstance(x, sexpr.List) for x in node[1:]):
                return False
            below = inside or h in ("when", "forall")
            stack.extend([(x, below) for x in node if isinstance(x, sexpr.List)])  # a token is no construct
    return True


def _plain(found: list[sexpr.List], heads: frozenset[str], costs: set[int]) -> bool:
    """No list of an action that `_only_costs` stops at (with a head in `heads`, outside the cost effects
    `costs`, no `(= a b)` of terms), given its lists with a head in `heads` (`found`, of one walk with no
    call per node, which a domain of thousands of actions needs); the others are walked as `_only_costs`
    walks them, for its answer or its error."""
    inside: set[int] = set()
    for node in found:
        if id(node) in inside:
            continue
        if id(node) in costs:
            inside.update(id(n) for n in sexpr.headed(node, heads))
        elif node.head() != "=" or any(isinstance(x, sexpr.List) for x in node[1:]):
            return False
    return True


def _key(action: sexpr.List, key: str) -> sexpr.SExpr | None:
    for i, x in enumerate(action[:-1]):
        if x == key:
            return action[i + 1]
    return None


def _parameters(action: sexpr.List, file: str) -> set[str]:
    params = _key(action, ":parameters")
    return {str(v) for v, _ in typed_names(list(params), file)} if isinstance(params, sexpr.List) else set()


def _term(term: sexpr.SExpr, arity: dict[str, int], params: set[str], file: str) -> Cost:
    """A cost term: a number, or `(f ?x ...)` with `f` a declared function other than total-cost."""
    if isinstance(term, sexpr.Token):
        return number(term, file, "an action cost")
    h = term.head()
    if h is None or h in _NUMERIC:
        raise UnsupportedError("unsupported feature: an action cost that is an expression (a number or "
                               "(f ?x ...) only)", file, at=term)
    if h not in arity or h == TOTAL:
        raise InputError(f"undefined function '{h}' (not in :functions)", file, at=term[0])
    if len(term) - 1 != arity[h]:
        raise InputError(f"function '{h}' takes {arity[h]} argument(s), {len(term) - 1} given", file, at=term[0])
    for x in term[1:]:
        if not isinstance(x, sexpr.Token):
            raise InputError("nested parentheses in a function's arguments", file, at=x)
        if x.startswith("?") and x not in params:
            raise InputError(f"undeclared variable '{x}'", file, at=x)
    return Atom(str(h), tuple(str(x) for x in term[1:]))


def with_costs(domain: Domain, costs: DomainCosts | None) -> Domain:
    """`domain` with the cost functions and each action's cost."""
    if costs is None:
        return domain
    actions = tuple(replace(a, cost=costs.actions[a.name]) if a.name in costs.actions else a
                    for a in domain.actions)
    return replace(domain, actions=actions, cost_functions=costs.functions)


# --------------------------------------------------------------------------- problems

@dataclass(frozen=True)
class ProblemCosts:
    values: tuple[tuple[Atom, Number], ...]
    metric: bool


def take_problem(root: sexpr.List, domain: Domain, file: str) -> ProblemCosts | None:
    """Take the cost functions' values out of `:init` and `(:metric minimize (total-cost))` out of
    `root`; None for a domain without action costs (then `root` is unchanged)."""
    if not domain.action_costs:
        return None
    functions = {f.name: f for f in domain.cost_functions}
    sections = {s.head(): s for s in root[2:]}
    values: dict[Atom, Number] = {}
    init = sections.get(":init")
    if init is not None:
        keep = [init[0]]
        table = dict(domain.constants)
        table.update(_objects(sections, file))
        grounder = Grounder(domain, table)
        for item in init[1:]:
            if isinstance(item, sexpr.List) and item.head() == "=" and len(item) == 3 \
                    and isinstance(item[1], sexpr.List) and item[1].head() in functions:
                atom = _ground(item[1], functions[str(item[1].head())], grounder, file)
                if atom in values:
                    raise InputError(f"{atom} given a value twice", file, at=item)
                values[atom] = number(item[2], file, f"the value of {atom}")
            else:
                keep.append(item)
        init[:] = keep
    metric = sections.get(":metric")
    if metric is not None:
        if len(metric) != 3 or metric[1] != "minimize" or not _is_total(metric[2]):
            raise UnsupportedError("unsupported feature: a metric other than (:metric minimize (total-cost))",
                                   file, at=metric)
        root[:] = [s for s in root if s is not metric]
    return ProblemCosts(tuple(sorted(values.items(), key=lambda kv: str(kv[0]))), metric is not None)


def _objects(sections: dict[str, sexpr.List], file: str) -> dict[str, str]:
    section = sections.get(":objects")
    return {str(o): str(t) for o, t in typed_names(list(section[1:]), file)} if section is not None else {}


def _ground(node: sexpr.List, decl: Predicate, grounder: Grounder, file: str) -> Atom:
    """`(f a b)`: the function's arity, and each argument an object of its type."""
    if len(node) - 1 != decl.arity:
        raise InputError(f"function '{decl.name}' takes {decl.arity} argument(s), {len(node) - 1} given", file,
                         at=node[0])
    for i, (a, (_, expected)) in enumerate(zip(node[1:], decl.parameters), 1):
        if not isinstance(a, sexpr.Token):
            raise InputError("nested parentheses in a function's arguments", file, at=a)
        if a not in grounder.objects:
            raise InputError(f"unknown object '{a}'", file, at=a)
        if not grounder.fits(a, expected):
            raise InputError(f"object '{a}' has type '{grounder.objects[a]}', but argument {i} of function "
                             f"'{decl.name}' has type '{expected}'", file, at=a)
    return Atom(decl.name, tuple(str(a) for a in node[1:]))


def with_problem_costs(problem: Problem, costs: ProblemCosts | None) -> Problem:
    return problem if costs is None else replace(problem, costs=costs.values, metric=costs.metric)


__all__ = ["TOTAL", "DomainCosts", "ProblemCosts", "take_domain", "take_problem", "with_costs",
           "with_problem_costs", "number"]
