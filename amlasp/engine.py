"""Run the encodings: facts + compiled rules → clingo → decoded answers.

One grounding and one solve per question: all the states of a question go into one
program. Python only builds text and reads the shown atoms.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Iterable, Sequence

import clingo

from .compile import compile_domain
from .facts import plan_facts, problem_facts, state_facts
from .model import Atom, Domain, GroundAction, Literal, Problem
from .names import Decoder, asp_name

MODEL = "m"


@lru_cache(maxsize=None)
def encoding(name: str) -> str:
    """The text of `encodings/<name>.lp` (installed as `amlasp/encodings`)."""
    try:
        return (resources.files("amlasp") / "encodings" / f"{name}.lp").read_text()
    except (FileNotFoundError, ModuleNotFoundError, NotADirectoryError):
        return (Path(__file__).resolve().parent.parent / "encodings" / f"{name}.lp").read_text()


def solve(parts: Iterable[str], shown: bool = True) -> list[clingo.Symbol]:
    """Ground and solve once; the programs here are stratified, so the answer is unique."""
    ctl = clingo.Control(["--warn=none", "--models=1"])
    for text in parts:
        ctl.add("base", [], text)
    ctl.ground([("base", [])])
    symbols: list[clingo.Symbol] | None = None
    with ctl.solve(yield_=True) as handle:
        for model in handle:
            symbols = model.symbols(shown=shown)
            break
    if symbols is None:
        raise RuntimeError("internal error: the encoding has no answer set")
    return symbols


def decoder(domain: Domain, problem: Problem | None = None) -> Decoder:
    d = Decoder()
    d.add(*(p.name for p in domain.predicates), *(a.name for a in domain.actions), *(c for c, _ in domain.constants))
    if problem is not None:
        d.add(*(o for o, _ in problem.objects))
    return d


def domain_program(domain: Domain, tag: str = MODEL, **modes: bool) -> str:
    from .facts import domain_facts
    return domain_facts(domain, tag) + compile_domain(domain, tag, **modes).text


def _ground_action(dec: Decoder, sym: clingo.Symbol) -> GroundAction:
    name, args = dec.call(sym)
    return GroundAction(name, args)


def _atom(dec: Decoder, sym: clingo.Symbol) -> Atom:
    name, args = dec.call(sym)
    return Atom(name, args)


def applicable(domain: Domain, problem: Problem, states: Sequence[Iterable[Atom]] | None = None
               ) -> list[list[GroundAction]]:
    """The applicable ground actions of each state (default: the problem's initial state), sorted."""
    states = [problem.init] if states is None else list(states)
    text, _ = state_facts(states, 0)
    syms = solve([encoding("semantics"), domain_program(domain, effects=False), problem_facts(problem, 0, init=False),
                  text, "#show app/3."])
    dec = decoder(domain, problem)
    out: list[list[GroundAction]] = [[] for _ in states]
    for s in syms:
        if s.name == "app":
            out[s.arguments[1].number].append(_ground_action(dec, s.arguments[2]))
    return [sorted(x, key=str) for x in out]


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
            start: Iterable[Atom] | None = None) -> Execution:
    """Apply `plan` from `start` (default: the initial state); check the goal at the end."""
    plan = list(plan)
    start_state = frozenset(problem.init if start is None else start)
    unknown = [t for t, a in enumerate(plan)
               if (d := domain.action(a.name)) is None or d.arity != len(a.args)]
    rules = compile_domain(domain, MODEL, enumerate=False, check=True, effects=True)
    from .facts import domain_facts
    text, _ = state_facts([start_state], 0)
    parts = [encoding("semantics"), encoding("validate"), domain_facts(domain, MODEL), rules.text,
             problem_facts(problem, 0, init=False), text, plan_facts(plan), f"check({MODEL}).",
             "".join(f"unknown({t})." for t in unknown), "#show holds/2."]
    syms = solve(parts)
    dec = decoder(domain, problem)
    reached = 0
    holds: dict[int, set[Atom]] = {}
    result = Execution(plan, [])
    for s in syms:
        if s.name == "reached":
            reached = max(reached, s.arguments[0].number)
        elif s.name == "holds":
            holds.setdefault(s.arguments[0].number, set()).add(_atom(dec, s.arguments[1]))
        elif s.name == "failed":
            result.failed_step = s.arguments[0].number
        elif s.name == "unmet":
            result.unmet.append(_unmet(dec, s.arguments[3], rules.conditions, plan[s.arguments[1].number], domain))
        elif s.name == "goal_unmet":
            sign = s.arguments[0]
            result.goal_unmet.append(Literal(_atom(dec, sign.arguments[0]), sign.name == "pos"))
        elif s.name == "executable":
            result.executable = True
        elif s.name == "valid":
            result.valid = True
    result.states = [frozenset(holds.get(t, set())) for t in range(reached + 1)]
    result.unmet.sort(key=lambda u: (u.kind, u.text))
    result.goal_unmet.sort(key=str)
    return result


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


__all__ = ["applicable", "execute", "Execution", "Unmet", "solve", "encoding", "domain_program", "asp_name"]
