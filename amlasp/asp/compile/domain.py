"""A whole domain's program: the rules of every action of one model (`Compiler`), as the reasoning
questions ask for them (applicable, validate, plan, reach, diff, `amlasp facts`), kept per process."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from ...model import Domain
from ..schema import APP, ASK, QUERY
from ..text import Reused
from .action import Compiler
from .rules import Comment, Kind, Rule, program_text


@dataclass(frozen=True)
class ActionRules:
    """The rules of one model, the readable text of each auxiliary condition, and whether a rule
    reads the typing of semantics.lp (`is_a`, `not_a`): when none does, a program needs neither
    semantics.lp nor the objects of its problems (applicable over well-typed states).
    `why`: validate.lp's second part, the unmet conjuncts of the asked actions that failed
    (`compile_validation`; empty otherwise)."""

    text: str
    conditions: dict[int, str] = field(default_factory=dict)
    typing: bool = True
    why: str = ""


def program(c: Compiler, enumerate: bool = True, check: bool = False, effects: bool = True,
            effect_guard: str = "app", runs: bool = False, derived: bool = True) -> ActionRules:
    """The rules of every action of `c`'s domain, after those of its derived predicates (`derived`: a
    multi-shot program may add them to another part, `derived_program`); `runs`: applicability over
    runs of states (`Compiler.run_applicability`); `effect_guard`: `app` or `query` (`Compiler.effects`)."""
    if effect_guard not in ("app", "query"):
        raise ValueError(effect_guard)
    applied = APP if effect_guard == "app" else QUERY
    if derived:
        c.derived_rules()
    for action in c.domain.actions:
        c.emit(Comment(action.name))
        if enumerate:
            c.emit(c.run_applicability(action) if runs else c.applicability(action))
        if check:
            c.check(action)
        if effects:
            c.effects(action, applied)
    rules = c.finish()
    typing = any(lit.kind is Kind.TYPING for r in rules if isinstance(r, Rule) for lit in r.body)
    return ActionRules(Reused(program_text(rules)), dict(c.conditions), typing)


def validation(c: Compiler) -> ActionRules:
    """validate.lp's rules, in two parts. `text`: whether each asked action (`query`) is
    applicable, one rule per action, and its effects, for every asked action (so that no state
    depends on applicability). `why`: the unmet conjuncts of the actions asked in failed steps
    (`ask`, validate.lp's part `why`), grounded only when a plan fails: a rule per conjunct and
    per parameter type, most of a model's rules, so that a valid plan is checked by a third
    as many rules (floortile 67 → 25)."""
    c.derived_rules()
    for action in c.domain.actions:
        c.emit(Comment(action.name))
        c.emit(c.asked_applicability(action))
        c.effects(action, QUERY)
    base = c.finish()
    for action in c.domain.actions:
        c.emit(Comment(action.name))
        c.check(action, asked=ASK)
    why = c.finish()
    return ActionRules(Reused(program_text(base)), dict(c.conditions), True, Reused(program_text(why)))


def compile_domain(domain: Domain, tag: str, enumerate: bool = True, check: bool = False,
                   effects: bool = True, state: str = "S", relaxed: bool = False, typing: str = "positive",
                   static: frozenset[str] = frozenset(), effect_guard: str = "app",
                   typed_atoms: bool = False, runs: bool = False, derived: bool = True) -> ActionRules:
    """The rules of `domain` (see `Compiler`). Kept for the process (the last 32 asked): a script
    that validates or evaluates again and again compiles a model once, and its rules are the same
    `Reused` text, whose parse run.py keeps."""
    return _compiled(domain, tag, enumerate, check, effects, state, relaxed, typing, frozenset(static),
                     effect_guard, typed_atoms, runs, derived)


@lru_cache(maxsize=32)
def _compiled(domain: Domain, tag: str, enumerate: bool, check: bool, effects: bool, state: str, relaxed: bool,
              typing: str, static: frozenset[str], effect_guard: str, typed_atoms: bool, runs: bool,
              derived: bool) -> ActionRules:
    return program(Compiler(domain, tag, state, relaxed, typing, static, typed_atoms),
                   enumerate=enumerate, check=check, effects=effects, effect_guard=effect_guard, runs=runs,
                   derived=derived)


@lru_cache(maxsize=32)
def derived_program(domain: Domain, tag: str, state: str, static: frozenset[str] = frozenset()) -> str:
    """The derived predicates' rules alone, over state term `state` (planning adds them once per layer,
    where the actions' rules of the next layer read them); their `aux` atoms are apart from the actions'."""
    c = Compiler(domain, tag, state, static=frozenset(static), aux_prefix="d")
    c.derived_rules()
    return Reused(program_text(c.finish()))


@lru_cache(maxsize=32)
def compile_validation(domain: Domain, tag: str, static: frozenset[str]) -> ActionRules:
    """validate.lp's two parts of `domain`'s rules (`validation`), kept like `compile_domain`'s."""
    return validation(Compiler(domain, tag, static=static))


def runs_apply(domain: Domain, static: frozenset[str]) -> bool:
    """Can applicability be computed over runs of states (`Compiler.run_applicability`)? Yes when
    every precondition is a conjunction of literals whose negative ones are static or equalities:
    a negative state condition would cut runs apart; and no atom is derived (computed per state)."""
    if domain.derived:
        return False
    for a in domain.actions:
        lits = a.precondition_literals()
        if lits is None or any(not l.positive and l.atom.predicate not in static and l.atom.predicate != "="
                               for l in lits):
            return False
    return True


__all__ = ["ActionRules", "program", "validation", "compile_domain", "compile_validation", "derived_program",
           "runs_apply"]
