"""PDDL text → normalised model (`amlasp.model`), with `file:line` on every error: the driver.

A domain goes through named passes, in the spirit of Fast Downward's `normalize.py`:
  1. read: our line-aware reader (`sexpr`) checks the parentheses;
  2. check (`check`, on `declarations`): the structure, unsupported features, names, types;
  3. repair (`repair`): what learned models get wrong but mean clearly (missing
     `:requirements`, `:precondition` or `:effect`, `- object`), with warnings;
  4. parse: the `pddl` package reads the repaired text, whose tokens keep their lines;
  5. convert (`convert`): its objects become ours, each name checked against its declaration.
A problem is flat (objects, init atoms, goal literals): passes 1, 2 and 5 check it completely.
"""

from __future__ import annotations

import sys
from functools import lru_cache
from pathlib import Path

from . import check, convert, declarations, repair, sexpr
from .source import read_text
from ..asp.names import asp_name
from ..errors import InputError, warn_input
from ..model import Domain, Problem

_PROBLEM_SECTIONS = (":domain", ":requirements", ":objects", ":init", ":goal", ":metric")

# The repairs, in order: each changes the tree in place and returns its warnings.
_REPAIRS = (
    repair.warn_requirements,  # a missing :requirements, or a feature used without its requirement, said
    repair.declare_requirements,  # :requirements lists all we support
    repair.declare_object_alias,  # a domain naming `object` declares our alias of it
    repair.drop_object_type,  # `object` is not declared again as a type of its own
    repair.complete_actions,  # missing :parameters, :precondition, :effect are empty
    repair.alias_object,  # `- object` → `- alias` in typed lists
)


@lru_cache(maxsize=None)
def _domain_parser():
    """Built once per process, on the first domain (`grammar`: Lark's tables from a cache)."""
    from .grammar import domain_parser
    return domain_parser()


def parse_domain(text: str, file: str = "<domain>", *, undeclared_predicates: bool = False) -> Domain:
    """The passes of the module docstring, in order; the first error in the file is the one reported.

    `undeclared_predicates`: declare the predicates the actions use but the domain does not (with a
    warning each) instead of refusing them; compare and eval read learned models so."""
    root = sexpr.read(text, file)
    header = check.expect_define(root, "domain", file)
    check.refuse_unsupported(root, file)
    lenient = repair.declare_used_predicates(root) if undeclared_predicates else []
    sections = declarations.sections(root)
    declared_types = declarations.types(sections, file)
    lenient += repair.warn_parent_types(declared_types)
    types = repair.declare_parent_types(declared_types)
    check.acyclic_types(types, file)
    type_names = declarations.type_names(types)
    constants = declarations.typed_section(sections, ":constants", file)
    check.unique_names(constants, "constant", file)
    check.known_types(constants, type_names, file)
    predicates = declarations.predicates(sections, file)
    actions = declarations.actions(root, file)
    check.declared_types(root, type_names, file)
    check.distinct_symbols([(t, "type") for t, _ in types] + [(c, "constant") for c, _ in constants]
                           + [(p.head(), "predicate") for p in predicates.values()]
                           + [(n, "action") for n in actions], file)
    warnings = lenient + [w for fix in _REPAIRS for w in fix(root)]
    parsed = _call_pddl(sexpr.write(root), file, root)
    declared = declarations.DomainDeclarations(types, constants, predicates, actions)
    return convert.to_domain(parsed, str(header[1]), declared, warnings, file)


def _call_pddl(text: str, file: str, root: sexpr.List):
    """Run the `pddl` parser and turn its errors into ours (it also leaks sys.tracebacklimit)."""
    from lark.exceptions import UnexpectedInput  # lark is imported with the parser, not before
    old = getattr(sys, "tracebacklimit", None)
    try:
        return _domain_parser()(text)
    except UnexpectedInput as e:
        _domain_parser.cache_clear()  # see below
        tok = getattr(e, "token", None)
        what = f" near '{tok}'" if tok not in (None, "") else ""
        raise InputError(f"PDDL syntax error{what}", file, getattr(e, "line", None)) from None
    except Exception as e:  # pddl's own validation: locate the first name it mentions
        # A parse that failed half-way leaves state in the parser's transformer (`_types`), and it then
        # refuses every later domain with :types ("parser is in an unexpected state"): build a new one.
        _domain_parser.cache_clear()
        msg = str(e).splitlines()[0] if str(e) else type(e).__name__
        msg = msg.replace(repair.OBJECT_ALIAS, "object")
        line = root.line
        for word in msg.replace("'", " ").replace(",", " ").split():
            hit = sexpr.find_token(root, word.strip("[]{}().").lower())
            if hit is not None:
                line = hit.line
                break
        raise InputError(f"invalid PDDL: {msg}", file, line) from None
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
    check.refuse_unsupported(root, file)
    sections = declarations.sections(root)
    check.known_sections(root, _PROBLEM_SECTIONS, file)
    domain_name = declarations.domain_name(sections, root, file)
    if asp_name(domain_name or "?") != asp_name(domain.name):  # names differing in case or -/_ are one name
        warn_input(f"(:domain {domain_name}) names another domain than {domain.name}, the one it is read with",
                   file, sections[":domain"].line)
    objects = declarations.typed_section(sections, ":objects", file)
    check.unique_names(objects, "object", file)
    check.known_types(objects, declarations.type_names(domain.types), file, f" (not in domain {domain.name})")
    check.complete_problem(sections, root, file)
    check.distinct_symbols([(sexpr.Token(n, 0), kind) for names, kind in (
        ([t for t, _ in domain.types], "type"), ([c for c, _ in domain.constants], "constant"),
        ([p.name for p in domain.predicates], "predicate"), ([a.name for a in domain.actions], "action"))
        for n in names] + [(o, "object") for o, _ in objects], file)
    return convert.to_problem(str(header[1]), domain_name, objects, sections, domain, file)


def load_domain(path: str | Path, *, undeclared_predicates: bool = False) -> Domain:
    return parse_domain(read_text(path), str(path), undeclared_predicates=undeclared_predicates)


def load_problem(path: str | Path, domain: Domain) -> Problem:
    return parse_problem(read_text(path), domain, str(path))


__all__ = ["load_domain", "parse_domain", "load_problem", "parse_problem"]
