"""Normalised model → PDDL text: the one writer of domains and problems (as the `pddl` package has
one formatter), so that a changed model can be saved, given to a planner or put in a question.

The writer is the inverse of `amlasp.pddl.parse` on the normalised model: `parse_domain(to_pddl(d))`
equals `d` and `parse_problem(problem_to_pddl(p), d)` equals `p`, up to source lines and file
names. Effects are written one per flattened `Effect`, each with its own `forall`/`when`, which is
exactly how the parser flattens them.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Sequence

from .. import logic
from ..goal_rules import is_goal_predicate
from ..model import (
    TRUE,
    Action,
    Atom,
    Comparison,
    Cost,
    Derived,
    Domain,
    Effect,
    Exists,
    Forall,
    Imply,
    Not,
    NumericEffect,
    Or,
    Predicate,
    Problem,
    Typed,
)


def effect_text(e: Effect | NumericEffect, typed: bool = True) -> str:
    """An effect (a literal, or a numeric effect) with its own `when` and `forall`."""
    text = str(e.literal) if isinstance(e, Effect) else str(e)
    if e.condition != TRUE:
        text = f"(when {logic.text(e.condition, typed)} {text})"
    if e.variables:
        text = f"(forall ({logic.typed_text(e.variables, typed)}) {text})"
    return text


def _is_typed(d: Domain) -> bool:
    types = [t for _, t in d.constants] + [t for p in d.predicates for _, t in p.parameters]
    types += [t for a in d.actions for _, t in a.parameters]
    return bool(d.types) or any(t != "object" for t in types)


def requirements(d: Domain) -> list[str]:
    """The requirements the domain really uses (the parser does not need them, readers do)."""
    reqs = [":strips"]
    if _is_typed(d):
        reqs.append(":typing")
    forms = [a.precondition for a in d.actions] + [e.condition for a in d.actions for e in a.effects]
    forms += [e.condition for a in d.actions for e in a.numeric_effects]
    forms += [r.body for r in d.derived]
    parts = [g for f in forms for g in logic.subformulas(f)]
    if any(isinstance(f, Not) for f in parts):
        reqs.append(":negative-preconditions")
    if any(isinstance(f, (Or, Imply)) for f in parts):
        reqs.append(":disjunctive-preconditions")
    if any(isinstance(f, Exists) for f in parts):
        reqs.append(":existential-preconditions")
    if any(isinstance(f, Forall) for f in parts):
        reqs.append(":universal-preconditions")
    if any(a.predicate == "=" for f in forms for a in logic.atoms(f)) or \
            any(e.literal.atom.predicate == "=" for a in d.actions for e in a.effects):
        reqs.append(":equality")
    if any(not e.unconditional for a in d.actions for e in a.effects) or \
            any(e.condition != TRUE or e.variables for a in d.actions for e in a.numeric_effects):
        reqs.append(":conditional-effects")
    if d.functions or any(isinstance(f, Comparison) for f in parts):
        reqs.append(":numeric-fluents")
    if d.action_costs:
        reqs.append(":action-costs")
    if d.derived:
        reqs.append(":derived-predicates")
    return reqs


def predicate_text(p: Predicate, typed: bool = True) -> str:
    inner = logic.typed_text(p.parameters, typed)
    return f"({p.name}{' ' + inner if inner else ''})"


def cost_text(cost: Cost) -> str:
    """`(increase (total-cost) ...)` of an action's cost."""
    return f"(increase (total-cost) {cost})"


def action_text(a: Action, typed: bool = True) -> str:
    texts = [effect_text(e, typed) for e in a.effects + a.numeric_effects] + \
        ([cost_text(a.cost)] if a.cost is not None else [])
    effects = "(and" + "".join("\n      " + t for t in texts) + ")"
    return (f"  (:action {a.name}\n    :parameters ({logic.typed_text(a.parameters, typed)})\n"
            f"    :precondition {logic.text(a.precondition, typed)}\n    :effect {effects})")


def derived_text(r: Derived, typed: bool = True) -> str:
    head = predicate_text(Predicate(r.predicate, r.parameters), typed)
    return f"  (:derived {head}\n    {logic.text(r.body, typed)})"


def to_pddl(domain: Domain) -> str:
    """The domain as PDDL text; `parse_domain` reads it back to an equal Domain (lines aside). The rules that
    `goal_rules.with_goal_rules` adds for a problem's goal conditions are left out: the problem's goal says them."""
    if any(is_goal_predicate(r.predicate) for r in domain.derived):
        domain = replace(domain, predicates=tuple(p for p in domain.predicates if not is_goal_predicate(p.name)),
                         derived=tuple(r for r in domain.derived if not is_goal_predicate(r.predicate)))
    typed = _is_typed(domain)
    out = [f"(define (domain {domain.name})", f"  (:requirements {' '.join(requirements(domain))})"]
    if domain.types:
        out.append("  (:types")
        out += [f"    {t} - {parent}" for t, parent in domain.types]
        out.append("  )")
    if domain.constants:
        out.append(f"  (:constants {logic.typed_text(domain.constants, typed)})")
    out.append("  (:predicates")
    out += [f"    {predicate_text(p, typed)}" for p in domain.predicates]
    out.append("  )")
    functions = domain.functions + domain.cost_functions  # numeric fluents (compare reads them), action costs
    if functions:
        out.append("  (:functions")
        out += [f"    {predicate_text(f, typed)} - number" for f in functions]
        out.append("  )")
    out += [derived_text(r, typed) for r in domain.derived]
    out += [action_text(a, typed) for a in domain.actions]
    out.append(")")
    return "\n".join(out) + "\n"


def problem_to_pddl(problem: Problem, domain_name: str | None = None, objects: Sequence[Typed] | None = None) -> str:
    """The problem as PDDL text, for `domain_name` (default: the one it names) and with `objects`
    (default: its own; a planner's task adds the constants its model lacks). Init atoms are sorted,
    so that the text of a problem does not depend on the order of a set."""
    objs = problem.objects if objects is None else objects
    init = " ".join([str(a) for a in sorted(problem.init, key=str)] + [_value_text(a, v) for a, v in problem.costs])
    goal = " ".join(str(g) for g in problem.goal)
    return "\n".join([
        f"(define (problem {problem.name}) (:domain {problem.domain_name if domain_name is None else domain_name})",
        f"  (:objects {logic.typed_text(objs)})",
        f"  (:init {init})",
        f"  (:goal (and {goal}))" if goal else "  (:goal (and))",
        *(["  (:metric minimize (total-cost))"] if problem.metric else []),
        ")",
    ]) + "\n"


def _value_text(atom: Atom, value: object) -> str:
    """`(= (f a b) 3)`: a cost function's value in :init."""
    return f"(= {atom} {value})"


__all__ = ["to_pddl", "problem_to_pddl", "effect_text", "action_text", "predicate_text", "derived_text",
           "requirements"]
