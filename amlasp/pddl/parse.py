"""PDDL text → normalised model (`amlasp.model`), with `file:line:col` on every error: the driver.

A domain goes through named passes, in the spirit of Fast Downward's `normalize.py`:
  1. read: our position-aware reader (`sexpr`) checks the parentheses and the nesting depth;
  2. check (`check`, on `declarations`): the structure, unsupported features, names, types;
  3. repair (`repair`): what learned models get wrong but mean clearly (missing
     `:requirements`, `:precondition` or `:effect`, `- object`, sections or keys out of order,
     nested `and` in effects), with warnings;
  4. check the formulas (`formulas`): every atom, variable and operator of the actions;
  5. parse: the `pddl` package reads the repaired text, whose tokens keep their positions;
  6. convert (`convert`): its objects become ours.
A problem is flat (objects, init atoms, goal literals): passes 1, 2 and 6 check it completely.
"""

from __future__ import annotations

import sys
from functools import lru_cache
from pathlib import Path

from ..errors import InputError, warn_input
from ..limits import MAX_DEPTH, MAX_DOMAIN_MB
from ..model import Domain, Problem, canonical_name
from . import check, convert, costs, declarations, formulas, numeric, repair, sexpr
from .source import read_text

_PROBLEM_SECTIONS = (":domain", ":requirements", ":objects", ":init", ":goal", ":metric")

# The repairs, in order: each changes the tree in place and returns its warnings.
_REPAIRS = (
    repair.warn_requirements,  # a missing :requirements, or a feature used without its requirement, said
    repair.order_sections,  # requirements, types, constants, predicates, then the actions
    repair.declare_requirements,  # :requirements lists all we support
    repair.declare_object_alias,  # a domain naming `object` declares our alias of it
    repair.drop_object_type,  # `object` is not declared again as a type of its own
    repair.complete_actions,  # missing :parameters, :precondition, :effect are empty
    repair.flatten_effects,  # (and a (and b)) in an effect is (and a b)
    repair.alias_object,  # `- object` → `- alias` in typed lists
    repair.escape_variables,  # `?object` → `?object-k` (`pddl` refuses keywords as variable names)
    repair.plain_either_constants,  # `pddl` reads no `(either ...)` in :constants, no `object` in one
)


@lru_cache(maxsize=None)
def _domain_parser():
    """Built once per process, on the first domain (`grammar`: Lark's tables from a cache)."""
    from .grammar import domain_parser
    return domain_parser()


def parse_domain(text: str, file: str = "<domain>", *, undeclared_predicates: bool = False,
                 numeric_fluents: bool = False) -> Domain:
    """The passes of the module docstring, in order; the first error in the file is the one reported.

    `undeclared_predicates`: declare the predicates the actions use but the domain does not (with a
    warning each) instead of refusing them; compare and eval read learned models so.
    `numeric_fluents`: read `:functions` and numeric conditions and effects (`pddl.numeric`), as compare
    does; otherwise the first of them is refused."""
    root = sexpr.read(text, file)
    header = check.expect_define(root, "domain", file)
    cost = costs.take_domain(root, file)  # `:action-costs`, kept beside the tree
    check.refuse_unsupported(root, file, numeric_fluents)
    check.single_sections(root, file)
    taken = numeric.take(root, file) if numeric_fluents else None
    lenient = repair.declare_used_predicates(root) if undeclared_predicates else []
    sections = declarations.sections(root)
    declared_types = declarations.types(sections, file)
    check.valid_names(declared_types, "type", file)
    check.unique_names(declared_types, "type", file)
    lenient += repair.warn_parent_types(declared_types)
    types = repair.declare_parent_types(declared_types)
    check.acyclic_types(types, file)
    type_names = declarations.type_names(types)
    constants = declarations.typed_section(sections, ":constants", file)
    check.valid_names(constants, "constant", file)
    check.unique_names(constants, "constant", file)
    check.known_types(constants, type_names, file)
    predicates = declarations.predicates(sections, file)
    if taken is not None:
        taken.check(type_names, predicates)
    actions = declarations.actions(root, file)
    derived = declarations.derived(root, file)
    check.declared_types(root, type_names, file)
    check.distinct_symbols([(t, "type") for t, _ in types] + [(c, "constant") for c, _ in constants]
                           + [(p[0], "predicate") for p in predicates.values()]
                           + [(n, "action") for n in actions]
                           + [(f, "function") for f, _ in (taken.functions.values() if taken else ())], file)
    warnings = lenient + [w for fix in _REPAIRS for w in fix(root)]
    vocabulary = formulas.vocabulary(predicates, constants, file, derived)
    formulas.check_derived(derived, vocabulary)
    formulas.check_actions(actions, vocabulary)
    positions: list = []
    parsed = _call_pddl(sexpr.write(root, positions), file, root, positions)
    declared = declarations.DomainDeclarations(types, constants, predicates, actions, derived)
    try:
        domain = costs.with_costs(convert.to_domain(parsed, str(header[1]), declared, warnings, file), cost)
        return domain if taken is None else numeric.restore(domain, taken)
    except RecursionError:  # the conversion recurses on `pddl`'s objects, as deep as the formulas nest
        raise _too_deep(file, root) from None


def _too_deep(file: str, root: sexpr.List) -> InputError:
    """Nesting within our limit but beyond what a recursive parser (not ours) can take: the limit was raised."""
    return InputError(f"nesting too deep for the PDDL parser: keep {MAX_DEPTH.env} (now {MAX_DEPTH.value():g}) "
                      f"below a few hundred", file, at=root)


def _call_pddl(text: str, file: str, root: sexpr.List, positions: list):
    """Run the `pddl` parser and turn its errors into ours (it also leaks sys.tracebacklimit).

    Our checks run first and should leave nothing for it to refuse; if it does, the error is put
    back at the user's token through the positions `sexpr.write` recorded."""
    from lark.exceptions import UnexpectedInput  # lark is imported with the parser, not before
    old = getattr(sys, "tracebacklimit", None)
    try:
        return _domain_parser()(text)
    except UnexpectedInput as e:
        _domain_parser.cache_clear()  # see below
        tok = getattr(e, "token", None)
        what = f" near '{tok}'" if tok not in (None, "") else ""
        at = sexpr.at_position(positions, getattr(e, "line", -1), getattr(e, "column", None))
        raise InputError(f"PDDL syntax error{what}", file, at=at if at is not None else root) from None
    except RecursionError:
        _domain_parser.cache_clear()
        raise _too_deep(file, root) from None
    except Exception as e:  # pddl's own validation: locate the first name it mentions
        # A parse that failed half-way leaves state in the parser's transformer (`_types`), and it then
        # refuses every later domain with :types ("parser is in an unexpected state"): build a new one.
        _domain_parser.cache_clear()
        msg = str(e).splitlines()[0] if str(e) else type(e).__name__
        msg = msg.replace(repair.OBJECT_ALIAS, "object")
        at = root
        for word in msg.replace("'", " ").replace(",", " ").split():
            hit = sexpr.find_token(root, word.strip("[]{}().").lower())
            if hit is not None:
                at = hit
                break
        raise InputError(f"invalid PDDL: {msg}", file, at=at) from None
    finally:
        if old is None:
            if hasattr(sys, "tracebacklimit"):
                del sys.tracebacklimit
        else:
            sys.tracebacklimit = old


def parse_problem(text: str, domain: Domain, file: str = "<problem>") -> Problem:
    """Problems are flat (objects, init atoms, goal literals), so our line-aware reader checks
    them completely; `pddl`'s parser would add nothing but 7x the reading time (measured on
    the 413 IPC problems: 3.7 s with it, 0.5 s without)."""
    root = sexpr.read(text, file)
    header = check.expect_define(root, "problem", file)
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


def load_domain(path: str | Path, *, undeclared_predicates: bool = False, numeric_fluents: bool = False) -> Domain:
    """A domain file, refused up front beyond `limits.MAX_DOMAIN_MB` (reading one costs seconds per MB)."""
    return parse_domain(read_text(path, MAX_DOMAIN_MB, "domain file"), str(path),
                        undeclared_predicates=undeclared_predicates, numeric_fluents=numeric_fluents)


def load_problem(path: str | Path, domain: Domain) -> Problem:
    return parse_problem(read_text(path), domain, str(path))


__all__ = ["load_domain", "parse_domain", "load_problem", "parse_problem"]
