"""Normalised model → PDDL text, so that a changed Domain (e.g. a perturbed copy) can be saved and re-read.

The writer is the inverse of `amlasp.parse` on the normalised model: `parse_domain(to_pddl(d))`
equals `d` up to source lines and file name. Effects are written one per flattened
`Effect`, each with its own `forall`/`when`, which is exactly how the parser flattens them.
"""

from __future__ import annotations

from ..logic import atoms
from ..model import (
    TRUE, Action, And, Atom, Domain, Effect, Exists, Forall, Formula, Imply, Literal, Not, Or, Predicate, Typed,
)


def typed_text(items: tuple[Typed, ...] | list[Typed], typed: bool = True) -> str:
    """`?x - t ?y - u`; `object` stays implicit in untyped domains."""
    return " ".join(n if (not typed or t == "object") else f"{n} - {t}" for n, t in items)


def atom_text(a: Atom) -> str:
    return str(a)


def literal_text(lit: Literal) -> str:
    return str(lit)


def formula_text(f: Formula, typed: bool = True) -> str:
    if isinstance(f, Atom):
        return str(f)
    if isinstance(f, Not):
        return f"(not {formula_text(f.arg, typed)})"
    if isinstance(f, And):
        return "(and" + "".join(" " + formula_text(g, typed) for g in f.args) + ")"
    if isinstance(f, Or):
        return "(or" + "".join(" " + formula_text(g, typed) for g in f.args) + ")"
    if isinstance(f, Imply):
        return f"(imply {formula_text(f.left, typed)} {formula_text(f.right, typed)})"
    if isinstance(f, (Exists, Forall)):
        q = "exists" if isinstance(f, Exists) else "forall"
        return f"({q} ({typed_text(f.variables, typed)}) {formula_text(f.body, typed)})"
    raise TypeError(f"not a formula: {f!r}")


def effect_text(e: Effect, typed: bool = True) -> str:
    text = str(e.literal)
    if e.condition != TRUE:
        text = f"(when {formula_text(e.condition, typed)} {text})"
    if e.variables:
        text = f"(forall ({typed_text(e.variables, typed)}) {text})"
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

    def walk(f: Formula, neg: bool = False):
        yield f, neg
        if isinstance(f, Not):
            yield from walk(f.arg, not neg)
        elif isinstance(f, (And, Or)):
            for g in f.args:
                yield from walk(g, neg)
        elif isinstance(f, Imply):
            yield from walk(f.left, not neg)
            yield from walk(f.right, neg)
        elif isinstance(f, (Exists, Forall)):
            yield from walk(f.body, neg)

    parts = [x for f in forms for x in walk(f)]
    if any(isinstance(f, Not) for f, _ in parts):
        reqs.append(":negative-preconditions")
    if any(isinstance(f, (Or, Imply)) for f, _ in parts):
        reqs.append(":disjunctive-preconditions")
    if any(isinstance(f, Exists) for f, _ in parts):
        reqs.append(":existential-preconditions")
    if any(isinstance(f, Forall) for f, _ in parts):
        reqs.append(":universal-preconditions")
    if any(a.predicate == "=" for f in forms for a in atoms(f)) or \
            any(e.literal.atom.predicate == "=" for a in d.actions for e in a.effects):
        reqs.append(":equality")
    if any(not e.unconditional for a in d.actions for e in a.effects):
        reqs.append(":conditional-effects")
    return reqs


def predicate_text(p: Predicate, typed: bool = True) -> str:
    inner = typed_text(p.parameters, typed)
    return f"({p.name}{' ' + inner if inner else ''})"


def action_text(a: Action, typed: bool = True) -> str:
    effects = "(and" + "".join("\n      " + effect_text(e, typed) for e in a.effects) + ")"
    return (f"  (:action {a.name}\n    :parameters ({typed_text(a.parameters, typed)})\n"
            f"    :precondition {formula_text(a.precondition, typed)}\n    :effect {effects})")


def to_pddl(domain: Domain) -> str:
    """The domain as PDDL text; `parse_domain` reads it back to an equal Domain (lines aside)."""
    typed = _is_typed(domain)
    out = [f"(define (domain {domain.name})", f"  (:requirements {' '.join(requirements(domain))})"]
    if domain.types:
        out.append("  (:types")
        out += [f"    {t} - {parent}" for t, parent in domain.types]
        out.append("  )")
    if domain.constants:
        out.append(f"  (:constants {typed_text(domain.constants, typed)})")
    out.append("  (:predicates")
    out += [f"    {predicate_text(p, typed)}" for p in domain.predicates]
    out.append("  )")
    out += [action_text(a, typed) for a in domain.actions]
    out.append(")")
    return "\n".join(out) + "\n"


__all__ = ["to_pddl", "formula_text", "effect_text", "typed_text", "action_text", "predicate_text", "requirements"]
