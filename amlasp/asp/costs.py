"""Action costs in ASP (docs/facts.md): the facts of a model's costs and a problem's cost values, and
the compiled rules `action_cost(M,S,A,C)` that give an applicable action its cost.

A cost function term is written like an atom (`road_length(a,b)`), lifted in a schema's facts
(`cost(m,drive,road_length(v(2),v(3)))`). clingo's numbers are integers: a cost that is not one is
written as a string in the facts, and refused by the programs that add costs up (`integer`).
"""

from __future__ import annotations

from ..errors import UnsupportedError
from ..model import Atom, Domain, Number, Problem, is_var
from .names import asp_name, atom_text
from .schema import ACTION_COST, APP, COST, COST_FUNCTION, COST_VALUE, METRIC, STATE


def number_term(value: Number) -> str:
    """An integer as itself; any other number as a string (clingo has no other numbers)."""
    return str(value) if isinstance(value, int) else f'"{value}"'


def integer(value: Number, where: str) -> int:
    """`value`, which a program adds up, as an integer; anything else is refused by name."""
    if not isinstance(value, int):
        raise UnsupportedError(f"unsupported feature: a non-integer action cost ({value}) in {where}")
    return value


def domain_cost_facts(domain: Domain, tag: str) -> str:
    """`cost_function/3` and `cost/3` of `domain` as model `tag`."""
    out = [COST_FUNCTION.fact(tag, asp_name(f.name), f.arity) for f in domain.cost_functions]
    for a in domain.actions:
        if a.cost is None:
            continue
        params = {v: i for i, (v, _) in enumerate(a.parameters, 1)}
        term = atom_text(a.cost.predicate, [f"v({params[x]})" if is_var(x) else f"c({asp_name(x)})"
                                            for x in a.cost.args]) if isinstance(a.cost, Atom) else number_term(a.cost)
        out.append(COST.fact(tag, asp_name(a.name), term))
    return "".join(line + "\n" for line in out)


def problem_cost_facts(problem: Problem, pid: int) -> str:
    """`cost_value/3` of each value :init gives, and `metric/1` when the problem minimises total-cost."""
    out = [COST_VALUE.fact(pid, atom_text(atom.predicate, [asp_name(x) for x in atom.args]), number_term(v))
           for atom, v in problem.costs]
    if problem.metric:
        out.append(METRIC.fact(pid))
    return "".join(line + "\n" for line in out)


def cost_rules(domain: Domain, tag: str, state: str = "S", where: str = "") -> str:
    """One rule per action with a cost: `action_cost(M,S,A,C) :- app(M,S,A)[, state(S,P), cost_value(P,f(..),C)]`.

    `where` (a command) asks for integer costs only: the programs that add costs up."""
    out = []
    for a in domain.actions:
        if a.cost is None:
            continue
        params = [f"V{i}" for i in range(a.arity)]
        action = atom_text(a.name, params)
        if isinstance(a.cost, Atom):
            sub = dict(zip((v for v, _ in a.parameters), params))
            term = atom_text(a.cost.predicate, [sub[x] if x in sub else asp_name(x) for x in a.cost.args])
            out.append(f"{ACTION_COST(tag, state, action, 'C')} :- {APP(tag, state, action)}, {STATE(state, 'P')}, "
                       f"{COST_VALUE('P', term, 'C')}.")
        else:
            value = integer(a.cost, where) if where else a.cost
            out.append(f"{ACTION_COST(tag, state, action, number_term(value))} :- {APP(tag, state, action)}.")
    return "".join(line + "\n" for line in out)


__all__ = ["number_term", "integer", "domain_cost_facts", "problem_cost_facts", "cost_rules"]
