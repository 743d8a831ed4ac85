"""PDDL text → normalised model (`amlasp.model`), with `file:line:col` on every error: the driver.

A domain goes through named passes, in the spirit of Fast Downward's `normalize.py`:
  1. read: our position-aware reader (`sexpr`) checks the parentheses and the nesting depth; a dash
     glued to the end of a name in a typed list (`?l1- location`) is split from it, with a warning;
  2. check (`check`, on `declarations`): the structure, unsupported features, names, types;
  3. repair (`repair`): what learned models get wrong but mean clearly (missing
     `:requirements`, `:precondition` or `:effect`, keys out of order, nested `and` in effects),
     with warnings;
  4. check the formulas (`formulas`): every atom, variable and operator of the actions;
  5. convert (`convert`): the checked tree becomes our model.
A problem is flat (objects, init atoms, goal literals): passes 1, 2 and 5 check it completely.
(Until issue 24 a pass between 4 and 5 had the `pddl` package parse the text again: 80 ms on a
process's first domain, for nothing the checks had not already refused.)
"""

from __future__ import annotations

import gc
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from ..errors import InputError, warn_input
from ..limits import MAX_DEPTH, MAX_DOMAIN_MB
from ..model import Domain, Problem, canonical_name
from . import check, convert, costs, declarations, flat, flat_domain, formulas, numeric, repair, sexpr
from .source import normalise, read_text
from .unwrap import unwrap

_PROBLEM_SECTIONS = (":domain", ":requirements", ":objects", ":init", ":goal", ":metric")

# The repairs, in order: each changes the tree in place and returns its warnings.
_REPAIRS = (
    repair.warn_requirements,  # a missing :requirements, or a feature used without its requirement, said
    repair.complete_actions,  # missing :parameters, :precondition, :effect are empty
    repair.flatten_effects,  # (and a (and b)) in an effect is (and a b)
)


def parse_domain(text: str, file: str = "<domain>", *, undeclared_predicates: bool = False,
                 numeric_fluents: bool = False, recover: bool = False) -> Domain:
    """The passes of the module docstring, in order; the first error in the file is the one reported.

    `undeclared_predicates`: a learned model, read leniently (compare and eval read learned models so):
    the predicates, types and constants its actions use but the domain does not declare are declared,
    where their use fixes them (with a warning each), instead of refused (docs/input.md, "What is repaired").
    `numeric_fluents`: read `:functions` and numeric conditions and effects (`pddl.numeric`), as compare
    does; otherwise the first of them is refused.
    `recover`: an action or derived rule that cannot be read or checked, or one bad entry of `:types`,
    `:constants` or `:predicates`, is left out with a warning and kept as its located error
    (`Domain.broken`, `pddl.recover`); the rest is read. A header that does not read is refused still."""
    with _collector_paused():
        return _parse_domain(text, file, undeclared_predicates, numeric_fluents, recover)


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector paused while a file is read and converted: the tree and the model are
    tens of thousands of new objects, none of them garbage, and the collector's passes over them found nothing
    for a tenth of a big domain's reading (reference counting frees what the passes drop, as always)."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def _parse_domain(text: str, file: str, undeclared_predicates: bool, numeric_fluents: bool, recover: bool) -> Domain:
    text = unwrap(text, file)  # a Markdown fence or a sentence around the definition (an LLM's answer)
    if recover:
        from .recover import read_domain  # a learned model's read only: not on a start-up's path
        return read_domain(text, file, lambda root: _passes(root, sexpr.Outline.of(root), file,
                                                            undeclared_predicates, numeric_fluents))
    if not (undeclared_predicates or numeric_fluents):  # a reference domain: its actions of the common shape
        plain = plain_domain(text, file)
        if plain is not None:
            return plain
    return _passes(*sexpr.read_outlined(text, file), file, undeclared_predicates, numeric_fluents)


def plain_domain(text: str, file: str) -> Domain | None:
    """A reference domain read by `flat_domain` (the text before its first action by the passes), or None:
    the passes read it all."""
    return flat_domain.read_domain(normalise(text), file, lambda header: _passes(
        *sexpr.read_outlined(header, file), file, False, False))


def _passes(root: sexpr.List, outline: sexpr.Outline, file: str, undeclared_predicates: bool,
            numeric_fluents: bool) -> Domain:
    """Passes 2 to 5 on the tree of a domain (changed in place by the repairs). `outline`: the tree's, which
    the passes that look for lists by their head filter; made again after a pass that changed the tree."""
    header = check.expect_define(root, "domain", file)
    glued = repair.split_glued_dashes(root, outline)  # `?l1- location`: before anything reads a typed list
    if glued:  # a typed list's head may have changed
        outline = sexpr.Outline.of(root)
    cost = costs.take_domain(root, file, outline)  # `:action-costs`, kept beside the tree
    if cost is not None:  # its effects were taken out
        outline = sexpr.Outline.of(root)
    check.refuse_unsupported(root, file, numeric_fluents, outline)
    check.single_sections(root, file)
    taken = numeric.take(root, file) if numeric_fluents else None
    lenient = repair.declare_used_predicates(root) if undeclared_predicates else []
    sections = declarations.sections(root)
    declared_types = declarations.types(sections, file)
    check.valid_names(declared_types, "type", file)
    declared_types, repeated = check.type_parents(declared_types, file)
    lenient += repeated + repair.warn_parent_types(declared_types)
    types = repair.declare_parent_types(declared_types)
    constants = declarations.typed_section(sections, ":constants", file)
    if undeclared_predicates:  # a learned model: a type it uses but never declares is a subtype of object
        used = repair.used_types(root, constants, types)
        lenient += repair.warn_used_types(used)
        types = repair.declare_used_types(types, used)
    check.acyclic_types(types, file)
    type_names = declarations.type_names(types)
    check.valid_names(constants, "constant", file)
    check.unique_names(constants, "constant", file)
    check.known_types(constants, type_names, file)
    predicates = declarations.predicates(sections, file)
    if taken is not None:
        taken.check(type_names, predicates)
    actions = declarations.actions(root, file)
    derived = declarations.derived(root, file)
    check.declared_types(root, type_names, file,  # the tree unchanged since the outline, but by these two
                         None if taken is not None or undeclared_predicates else outline)
    if undeclared_predicates:  # a learned model: a constant its actions use, of the type its uses fix
        used_constants = repair.used_constants(root, predicates, constants, types, file)
        lenient += repair.warn_used_constants(used_constants)
        constants = constants + used_constants
    check.distinct_symbols([(t, "type") for t, _ in types] + [(c, "constant") for c, _ in constants]
                           + [(p[0], "predicate") for p in predicates.values()]
                           + [(n, "action") for n in actions]
                           + [(f, "function") for f, _ in (taken.functions.values() if taken else ())], file)
    warnings = glued + lenient + [w for fix in _REPAIRS for w in fix(root)]
    vocabulary = formulas.vocabulary(predicates, constants, file, derived)
    formulas.check_derived(derived, vocabulary)
    formulas.check_actions(actions, vocabulary)
    declared = declarations.DomainDeclarations(types, constants, predicates, actions, derived)
    try:
        domain = costs.with_costs(convert.to_domain(str(header[1]), declared, warnings, file), cost)
        return domain if taken is None else numeric.restore(domain, taken)
    except RecursionError:  # the conversion recurses as deep as the formulas nest
        raise InputError(f"nesting too deep: keep {MAX_DEPTH.env} (now {MAX_DEPTH.value():g}) below a few hundred",
                         file, at=root) from None


def parse_problem(text: str, domain: Domain, file: str = "<problem>") -> Problem:
    """Problems are flat (objects, init atoms, goal literals), so our line-aware reader checks
    them completely; `pddl`'s parser would add nothing but 7x the reading time (measured on
    the 413 IPC problems: 3.7 s with it, 0.5 s without)."""
    with _collector_paused():
        return _parse_problem(text, domain, file)


def _parse_problem(text: str, domain: Domain, file: str) -> Problem:
    text = unwrap(text, file)
    plain = flat.read_problem(text, domain, file)  # the common shape, read without positions
    if plain is not None:
        return plain
    root = sexpr.read(text, file)
    header = check.expect_define(root, "problem", file)
    for tok, message in repair.split_glued_dashes_at(root, declarations.type_names(domain.types)):
        warn_input(message, file, at=tok)
    cost = costs.take_problem(root, domain, file)  # cost values in :init and the metric, kept beside the tree
    check.refuse_unsupported(root, file)
    check.known_sections(root, _PROBLEM_SECTIONS, file)
    check.single_sections(root, file)
    sections = declarations.sections(root)
    domain_name = declarations.domain_name(sections, root, file)
    if canonical_name(domain_name or "?") != canonical_name(domain.name):  # names differing in case or -/_ are one name
        warn_input(f"(:domain {domain_name}) names another domain than {domain.name}, the one it is read with",
                   file, at=sections[":domain"][1] if len(sections[":domain"]) > 1 else sections[":domain"])
    objects = declarations.typed_section(sections, ":objects", file)
    check.valid_names(objects, "object", file)
    check.unique_names(objects, "object", file)
    check.known_types(objects, declarations.type_names(domain.types), file, f" (not in domain {domain.name}"
                      + (f", {domain.file})" if domain.file else ")"))
    check.complete_problem(sections, root, file)
    check.distinct_symbols([(sexpr.Token(n, 0), kind) for names, kind in (
        ([t for t, _ in domain.types], "type"), ([c for c, _ in domain.constants], "constant"),
        ([p.name for p in domain.predicates], "predicate"), ([a.name for a in domain.actions], "action"))
        for n in names] + [(o, "object") for o, _ in objects], file)
    return costs.with_problem_costs(convert.to_problem(str(header[1]), domain_name, objects, sections, domain, file),
                                    cost)


def load_domain(path: str | Path, *, undeclared_predicates: bool = False, numeric_fluents: bool = False,
                recover: bool = False) -> Domain:
    """A domain file, refused up front beyond `limits.MAX_DOMAIN_MB` (reading one costs seconds per MB)."""
    return parse_domain(read_text(path, MAX_DOMAIN_MB, "domain file"), str(path),
                        undeclared_predicates=undeclared_predicates, numeric_fluents=numeric_fluents,
                        recover=recover)


def load_lenient(path: str | Path, *, numeric_fluents: bool = False) -> Domain:
    """A domain read as leniently as amlasp reads a learned model: undeclared predicates, types and constants
    declared from their use (docs/input.md, "What is repaired"), broken definitions left out (each with a
    warning): a flawed reference, on request (`--lenient-reference`)."""
    return load_domain(path, undeclared_predicates=True, numeric_fluents=numeric_fluents, recover=True)


def load_problem(path: str | Path, domain: Domain) -> Problem:
    return parse_problem(read_text(path), domain, str(path))


__all__ = ["load_domain", "load_lenient", "parse_domain", "load_problem", "parse_problem"]
