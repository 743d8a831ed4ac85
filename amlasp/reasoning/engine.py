"""Run the encodings: facts + compiled rules → clingo → decoded answers.

One grounding and one solve per question: all the states of a question go into one
program. Python only builds text and reads the shown atoms.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Sequence

import clingo

from ..asp.compile import compile_domain
from ..asp.facts import ground, problem_facts, state_facts
from ..model import Atom, Domain, GroundAction, Literal, Problem
from ..asp.names import Decoder, asp_name
from ..asp.run import encoding, solve_once

MODEL = "m"


def decoder(domain: Domain, problem: Problem | None = None) -> Decoder:
    d = Decoder()
    d.add(*(p.name for p in domain.predicates), *(a.name for a in domain.actions), *(c for c, _ in domain.constants))
    if problem is not None:
        d.add(*(o for o, _ in problem.objects))
    return d


def domain_program(domain: Domain, tag: str = MODEL, **modes: bool) -> str:
    from ..asp.facts import domain_facts
    return domain_facts(domain, tag) + compile_domain(domain, tag, **modes).text


def _ground_action(dec: Decoder, sym: clingo.Symbol) -> GroundAction:
    name, args = dec.call(sym)
    return GroundAction(name, args)


def _atom(dec: Decoder, sym: clingo.Symbol) -> Atom:
    name, args = dec.call(sym)
    return Atom(name, args)


def static_predicates(domain: Domain) -> frozenset[str]:
    """Predicates that no action of `domain` changes (no effect, conditional or not, names them)."""
    changed = {e.literal.atom.predicate for a in domain.actions for e in a.effects}
    return frozenset(p.name for p in domain.predicates if p.name not in changed)


def applicable(domain: Domain, problem: Problem, states: Sequence[Iterable[Atom]] | None = None
               ) -> list[list[GroundAction]]:
    """The applicable ground actions of each state (default: the problem's initial state), sorted."""
    return applicable_many(domain, [(problem, [problem.init] if states is None else states)])[0]


def applicable_many(domain: Domain, sets: Sequence[tuple[Problem, Sequence[Iterable[Atom]]]]
                    ) -> list[list[list[GroundAction]]]:
    """`applicable` for the states of several problems, in one grounding: per set, per state.

    For speed over thousands of states (benchmarks/bench_applicable.py): atoms of static
    predicates are given once per group of states of a problem that agree on them
    (`fixed(P,F)`, each group a problem id P) instead of in every state, each distinct atom
    is given once (encodings/states.lp), and parameters that a state atom binds are typed by
    `not not_a(...)`, checked after the join (compile.py `typing="negative"`).
    """
    from ..asp.facts import domain_facts
    static = static_predicates(domain)
    rules = compile_domain(domain, MODEL, effects=False, typing="negative", static=static)
    groups: dict[tuple[int, frozenset[Atom]], int] = {}
    ids: dict[Atom, int] = {}  # encodings/states.lp: each distinct atom once
    text: list[str] = []
    first: list[int] = []  # the id of each set's first state
    i = 0
    for k, (problem, states) in enumerate(sets):
        first.append(i)
        for st in states:
            st = frozenset(st)
            fixed = frozenset(a for a in st if a.predicate in static) if static else frozenset()
            pid = groups.get((k, fixed))
            if pid is None:
                pid = groups[k, fixed] = len(groups)
                text.append(problem_facts(problem, pid, init=False))
                text.extend(f"fixed({pid},{ground(a)})." for a in fixed)
            ns = []
            for a in st:
                if a.predicate not in static:
                    n = ids.get(a)
                    if n is None:
                        n = ids[a] = len(ids)
                        text.append(f"atom_id({n},{ground(a)}).")
                    ns.append(str(n))
            text.append(f"state({i},{pid}). in_state({i},({';'.join(ns)}))." if ns else f"state({i},{pid}).")
            i += 1
    syms = solve_once([encoding("types"), encoding("semantics"), encoding("states"), domain_facts(domain, MODEL),
                       rules.text, "\n".join(text), "#show app/3."])
    dec = decoder(domain)
    dec.add(*{o for problem, _ in sets for o, _ in problem.objects})
    flat: list[list[GroundAction]] = [[] for _ in range(i)]
    for s in syms:  # `app(m,S,A)`: read as text, one C call per symbol (see Decoder.parse)
        t = str(s)
        if t.startswith("app("):
            _, sid, act = t[4:-1].split(",", 2)
            flat[int(sid)].append(GroundAction(*dec.parse(act)))
    ends = first[1:] + [i]
    return [[sorted(x, key=str) for x in flat[a:b]] for a, b in zip(first, ends)]


@dataclass(frozen=True)
class Unmet:
    """Why an action is not applicable: a failed precondition conjunct, or a wrong type."""

    kind: str  # pos | neg | eq | neq | type | cond | unknown
    text: str

    def __str__(self) -> str:
        return self.text


@dataclass
class Execution:
    """Executing a plan: the states reached, where it stopped, and the goal's fate."""

    plan: list[GroundAction]
    states: list[frozenset[Atom]]
    failed_step: int | None = None  # 0-based index of the first inapplicable action
    unmet: list[Unmet] = field(default_factory=list)
    goal_unmet: list[Literal] = field(default_factory=list)
    executable: bool = False
    valid: bool = False


def execute(domain: Domain, problem: Problem, plan: Sequence[GroundAction],
            start: Iterable[Atom] | None = None, states: bool = True) -> Execution:
    """Apply `plan` from `start` (default: the initial state); check the goal at the end."""
    return execute_many(domain, problem, [plan], start, states)[0]


def execute_many(domain: Domain, problem: Problem, plans: Sequence[Sequence[GroundAction]],
                 start: Iterable[Atom] | None = None, states: bool = True,
                 starts: Sequence[Iterable[Atom]] | None = None) -> list[Execution]:
    """Validate many plans in one grounding (each plan is a run of validate.lp), all from `start`
    or each from its own state in `starts`."""
    plans = [list(p) for p in plans]
    start_state = frozenset(problem.init if start is None else start)
    own = [frozenset(s) for s in starts] if starts is not None else None
    rules = compile_domain(domain, MODEL, enumerate=False, check=True, effects=True)
    from ..asp.facts import domain_facts, runs_facts
    text, _ = state_facts([start_state], 0)
    unknown = "".join(f"unknown({k},{t})." for k, plan in enumerate(plans) for t, a in enumerate(plan)
                      if (d := domain.action(a.name)) is None or d.arity != len(a.args))
    parts = [encoding("types"), encoding("semantics"), encoding("frame"), encoding("validate"),
             domain_facts(domain, MODEL), rules.text,
             problem_facts(problem, 0, init=False), text, runs_facts(plans), f"check({MODEL}).", unknown]
    if own is not None:
        parts.append("\n".join(f"own_start({k}). " + " ".join(f"holds(({k},0),{ground(a)})." for a in st)
                               for k, st in enumerate(own)))
    if states:
        parts.append("#show holds/2.")
    syms = solve_once(parts)
    dec = decoder(domain, problem)
    reached = [0] * len(plans)
    holds: dict[tuple[int, int], set[Atom]] = {}
    results = [Execution(plan, []) for plan in plans]
    for s in syms:
        name = s.name
        if name == "reached":
            k = s.arguments[0].number
            reached[k] = max(reached[k], s.arguments[1].number)
        elif name == "holds":
            at = s.arguments[0]
            if at.type == clingo.SymbolType.Function and len(at.arguments) == 2:
                holds.setdefault((at.arguments[0].number, at.arguments[1].number), set()).add(
                    _atom(dec, s.arguments[1]))
        elif name == "failed":
            results[s.arguments[0].number].failed_step = s.arguments[1].number
        elif name == "unmet":
            k, t = (x.number for x in s.arguments[1].arguments)
            results[k].unmet.append(_unmet(dec, s.arguments[3], rules.conditions, plans[k][t], domain))
        elif name == "goal_unmet":
            sign = s.arguments[1]
            results[s.arguments[0].number].goal_unmet.append(
                Literal(_atom(dec, sign.arguments[0]), sign.name == "pos"))
        elif name == "executable":
            results[s.arguments[0].number].executable = True
        elif name == "valid":
            results[s.arguments[0].number].valid = True
    for k, result in enumerate(results):
        if states:
            first = own[k] if own is not None else start_state
            result.states = [first] + [frozenset(holds.get((k, t), set())) for t in range(1, reached[k] + 1)]
        result.unmet.sort(key=lambda u: (u.kind, u.text))
        result.goal_unmet.sort(key=str)
    return results


def _unmet(dec: Decoder, why: clingo.Symbol, conditions: dict[int, str], action: GroundAction,
           domain: Domain) -> Unmet:
    if why.type == clingo.SymbolType.Function and why.name == "unknown":
        d = domain.action(action.name)
        if d is None:
            return Unmet("unknown", f"the model has no action '{action.name}'")
        return Unmet("unknown", f"'{action.name}' takes {d.arity} argument(s), {len(action.args)} given")
    kind = why.name
    if kind in ("pos", "neg"):
        atom = _atom(dec, why.arguments[0])
        return Unmet(kind, str(atom) if kind == "pos" else f"(not {atom})")
    if kind in ("eq", "neq"):
        x, y = (dec.name(a) for a in why.arguments)
        return Unmet(kind, f"(= {x} {y})" if kind == "eq" else f"(not (= {x} {y}))")
    if kind == "type":
        return Unmet(kind, f"{dec.name(why.arguments[0])} - {dec.name(why.arguments[1])}")
    if kind == "cond":
        return Unmet(kind, conditions.get(why.arguments[0].number, "a complex precondition"))
    return Unmet(kind, str(why))


__all__ = ["applicable", "applicable_many", "execute", "execute_many", "Execution", "Unmet", "domain_program"]
