"""A whole domain's program: the rules of every action of one model (`Compiler`), as the reasoning
questions ask for them (applicable, validate, plan, reach, diff, `amlasp facts`), kept per process."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Iterable

from ...model import Domain
from ..schema import APP, ASK, QUERY
from ..text import Reused
from .action import Compiler
from .rules import Comment, Kind, Rule, program_text


@dataclass(frozen=True)
class ActionRules:
    """The rules of one model, the readable text of each auxiliary condition, and whether a rule
    reads the typing of semantics.lp (`is_a`, `not_a`): when none does, a program needs neither
    semantics.lp nor the objects of its problems (applicable over well-typed states)."""

    text: str
    conditions: dict[int, str] = field(default_factory=dict)
    typing: bool = True


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


class ValidationRules:
    """validate.lp's rules of one model, in two parts, each action's compiled when a plan first uses it.
    `base`: whether each asked action (`query`) is applicable, one rule per action, and its effects,
    for every asked action (so that no state depends on applicability), after the derived
    predicates' rules. `why`: the unmet conjuncts of the actions asked in failed steps (`ask`,
    validate.lp's part `why`), grounded only when a plan fails: a rule per conjunct and per
    parameter type, most of a model's rules, so that a valid plan is checked by a third as many
    rules (floortile 67 → 25).

    Only the actions the plans name are compiled and given to clingo: a grounded IPC domain has
    hundreds of parameterless actions (promela optical-telegraph: 446, 0.65 s to compile and 0.5 s to
    parse and ground all of them) of which a plan uses a few. One `Compiler` compiles every action,
    so that `aux` numbers and `conditions` (the text of each `cond(K)` conjunct) stay unique."""

    def __init__(self, domain: Domain, tag: str, static: frozenset[str]):
        self._c = Compiler(domain, tag, static=static)
        self._actions = {a.name: a for a in domain.actions}
        self._order = {name: i for i, name in enumerate(self._actions)}
        self._c.derived_rules()
        self._derived = program_text(self._c.finish())
        self._parts: dict[tuple[str, str], str] = {}  # (part, action) → its rules' text
        self._texts: dict[tuple[str, tuple[str, ...]], Reused] = {}  # (part, actions) → the program's text
        #: The text of each `cond(K)` conjunct of part why's rules, K as `unmet` gives it.
        self.conditions: dict[int, str] = self._c.conditions

    def base(self, names: Iterable[str]) -> Reused:
        """Part base for the actions `names` (of this model; others are left out): the same text, so
        the same `Reused` parse, for the same actions whatever their order."""
        return self._text("base", names)

    def why(self, names: Iterable[str]) -> Reused:
        """Part why for the actions `names`."""
        return self._text("why", names)

    def _text(self, part: str, names: Iterable[str]) -> Reused:
        key = (part, tuple(sorted({n for n in names if n in self._actions}, key=self._order.__getitem__)))
        text = self._texts.get(key)
        if text is None:
            pieces = [self._derived] if part == "base" else []
            pieces += [self._action(part, name) for name in key[1]]
            text = self._texts[key] = Reused("".join(pieces))
            if len(self._texts) > 16:
                del self._texts[next(iter(self._texts))]
        return text

    def _action(self, part: str, name: str) -> str:
        text = self._parts.get((part, name))
        if text is None:
            action, c = self._actions[name], self._c
            c.emit(Comment(action.name))
            if part == "base":
                c.emit(c.asked_applicability(action))
                c.effects(action, QUERY)
            else:
                c.check(action, asked=ASK)
            text = self._parts[part, name] = program_text(c.finish())
        return text


def compile_domain(domain: Domain, tag: str, enumerate: bool = True, check: bool = False,
                   effects: bool = True, state: str = "S", relaxed: bool = False, typing: str = "positive",
                   static: frozenset[str] = frozenset(), effect_guard: str = "app",
                   typed_atoms: bool = False, runs: bool = False, derived: bool = True,
                   split_joins: bool = False) -> ActionRules:
    """The rules of `domain` (see `Compiler`). Kept for the process (the last 32 asked): a script
    that validates or evaluates again and again compiles a model once, and its rules are the same
    `Reused` text, whose parse run.py keeps."""
    return _compiled(domain, tag, enumerate, check, effects, state, relaxed, typing, frozenset(static),
                     effect_guard, typed_atoms, runs, derived, split_joins)


@lru_cache(maxsize=32)
def _compiled(domain: Domain, tag: str, enumerate: bool, check: bool, effects: bool, state: str, relaxed: bool,
              typing: str, static: frozenset[str], effect_guard: str, typed_atoms: bool, runs: bool,
              derived: bool, split_joins: bool) -> ActionRules:
    return program(Compiler(domain, tag, state, relaxed, typing, static, typed_atoms, split_joins=split_joins),
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
def compile_validation(domain: Domain, tag: str, static: frozenset[str]) -> ValidationRules:
    """validate.lp's rules of `domain` (`ValidationRules`), kept like `compile_domain`'s."""
    return ValidationRules(domain, tag, static)


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


__all__ = ["ActionRules", "program", "ValidationRules", "compile_domain", "compile_validation", "derived_program",
           "runs_apply"]
