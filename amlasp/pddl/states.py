"""Reading states: trajectory files, JSON state files, problems (their initial state), literals;
JSON lines state files through pddl/jsonl.py.

Every ground atom is checked (`ground.Grounder`: a domain's predicates, the problem's
objects and their types) with `file:line:col` on errors. `ignore_unknown_predicates` lets an
evaluation keep literals the learned model does not declare and count them.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from ..errors import InputError
from ..model import Atom, Domain, Literal, Problem
from . import jsonpos, sexpr
from .ground import Grounder
from .inputs import input_files
from .jsonl import iter_jsonl_states, jsonl_problem_names
from .parse import load_problem
from .source import read_text
from .stateset import (
    UNUSUAL,
    StateSet,
    cached_problem,
    fast_atom,
    fast_literal,
    fast_pairs,
    fast_params,
    is_array,
    named_problem,
    parse_atom_text,
    problem_path,
)

_TRAJ_TOKEN = re.compile(r"\(\s*:(state|action)\b|\(([^()]*)\)|(\))|([^\s()]+)|(\()")


# One state machine over one regex scan (~80 lines): split into functions, it would lose the speed it exists for.
def _fast_trajectory(text: str, file: str, domain: Domain, problem: Problem,
                     ignore_unknown_predicates: bool) -> StateSet | None:
    """The common case in one regular-expression pass, each distinct atom checked once (about
    10x faster than the line-aware reader). None for anything unusual: comments, nesting, an
    unknown name; the careful reader then reads the file again and reports `file:line`."""
    if ";" in text:
        return None
    low = text.lower()
    start = re.match(r"\s*\(\s*:trajectory\b", low)
    if start is None:
        return None
    grounder = Grounder(domain, problem.object_types(domain))
    params = fast_params(domain)
    objs, fits = grounder.objects, grounder.fits
    atoms: dict[str, Any] = {}  # an atom, None (ignored) or UNUSUAL
    out = StateSet(problem, [], file)
    cur: set[Atom] = set()
    mode, act = "top", None
    end = None
    for m in _TRAJ_TOKEN.finditer(low, start.end()):
        head, inner, close, word, lone = m.groups()
        if end is not None or word is not None or lone is not None:
            return None
        if mode == "top":
            if head == "state":
                if len(out.actions) != len(out.states):  # two states in a row: the careful reader says where
                    return None
                mode, cur = "state", set()
            elif head == "action":
                if len(out.actions) != len(out.states) - 1:
                    return None
                mode, act = "action", None
            elif close is not None:
                end = m.end()
            else:
                return None
        elif mode == "state":
            if inner is not None:
                a: Any = atoms.get(inner, False)  # False: not read yet; UNUSUAL: for the careful reader
                if a is False:
                    a = atoms[inner] = fast_atom(inner.split(), params, objs, fits, ignore_unknown_predicates)
                    if a is UNUSUAL:
                        return None
                if a is None:
                    out.ignored += 1
                else:
                    cur.add(a)
            elif close is not None:
                out.states.append(frozenset(cur))
                mode = "top"
            else:
                return None
        else:  # action
            if inner is not None and act is None:
                parts = inner.split()
                act = grounder.plain_action(parts[0], parts[1:], check_action=False) if parts else None
                if act is None:
                    return None
            elif close is not None and act is not None:
                out.actions.append(act)
                mode = "top"
            else:
                return None
    if end is None or low[end:].strip() or not out.states or len(out.actions) != len(out.states) - 1:
        return None
    return out


def read_trajectory(path: str | Path, domain: Domain, problem: Problem,
                    ignore_unknown_predicates: bool = False) -> StateSet:
    """`(:trajectory (:state ...) (:action ...) ...)`: all states, and the actions between them."""
    file = str(path)
    text = read_text(path)
    fast = _fast_trajectory(text, file, domain, problem, ignore_unknown_predicates)
    if fast is not None:
        return fast
    root = sexpr.read(text, file)
    if root.head() != ":trajectory":
        raise InputError("expected (:trajectory (:state ...) (:action ...) ...)", file, at=root)
    grounder = Grounder(domain, problem.object_types(domain))
    out = StateSet(problem, [], file)
    for item in root[1:]:
        if not isinstance(item, sexpr.List) or item.head() not in (":state", ":action"):
            raise InputError("expected (:state ...) or (:action ...)", file, at=item)
        if item.head() == ":state":
            if len(out.states) != len(out.actions):
                raise InputError("two states without an action between them", file, at=item)
            atoms = set()
            for a in item[1:]:
                if ignore_unknown_predicates and isinstance(a, sexpr.List) and a.head() is not None \
                        and a.head() not in grounder.predicates:
                    out.ignored += 1
                    continue
                atoms.add(grounder.atom(a, file))
            out.states.append(frozenset(atoms))
        else:
            if len(item) != 2 or not isinstance(item[1], sexpr.List):
                raise InputError("expected (:action (name arg ...))", file, at=item)
            if len(out.actions) != len(out.states) - 1:
                raise InputError("an action must follow a state", file, at=item)
            out.actions.append(grounder.action(item[1], file, check_action=False))
    if not out.states:
        raise InputError("a trajectory without a state", file, at=root)
    if len(out.actions) == len(out.states):
        raise InputError("the trajectory ends with an action: the state it leads to is missing", file,
                         root.end_line, root.end_col)
    return out


def _fast_json(text: str, file: str, domain: Domain, base: Path, ignore_unknown_predicates: bool,
               problems: dict[str, Problem] | None) -> list[StateSet] | None:
    """The common case with the C JSON parser and each distinct literal checked once (the careful
    reader below tracks every value's line and column, ten times slower on big files). None for
    anything unusual: a repeated key, a missing problem, a literal that is not `(p a b)` with known
    names; the careful reader then reads the file again and reports `file:line:col`."""
    data = fast_pairs(text)  # None: not JSON, nested too deep, no object: the careful reader says where
    if data is None or len({k for k, _ in data}) != len(data):
        return None
    params = fast_params(domain)
    out = []
    for key, states in data:
        problem = named_problem(base, key, domain, problems) if is_array(states) else None
        if problem is None:
            return None
        grounder = Grounder(domain, problem.object_types(domain))
        objs, fits = grounder.objects, grounder.fits
        ss = StateSet(problem, [], file)
        known: dict[str, Atom | None] = {}
        for st in states:
            if not is_array(st):
                return None
            atoms: list[Atom | None] = []
            for lit in st:
                a: Any = known.get(lit, False) if isinstance(lit, str) else False  # False: not read yet
                if a is False:
                    a = fast_literal(lit, params, objs, fits, ignore_unknown_predicates)
                    if a is UNUSUAL:
                        return None
                    known[lit] = a
                atoms.append(a)
            ss.add(atoms)
        out.append(ss)
    return out


def read_json_states(path: str | Path, domain: Domain, problems_dir: str | Path | None = None,
                     ignore_unknown_predicates: bool = False,
                     problems: dict[str, Problem] | None = None) -> list[StateSet]:
    """`{"problem.pddl": [["(on a b)", ...], ...]}`: problems looked up next to the file or in `problems_dir`
    (read once for all the files read with the same `problems` cache)."""
    file = str(path)
    text = read_text(path)
    fast = _fast_json(text, file, domain, Path(problems_dir) if problems_dir else Path(path).parent,
                      ignore_unknown_predicates, problems)
    if fast is not None:
        return fast
    data = jsonpos.parse(text, file)
    if data.kind != "object":
        raise InputError("expected a JSON object mapping problem files to lists of states", file, data.line, data.col)
    base = Path(problems_dir) if problems_dir else Path(path).parent
    out = []
    for key, states in data.items:
        problem = named_problem(base, key.value, domain, problems)
        if problem is None:
            raise InputError(f"problem file '{key.value}' not found in {base} (names are relative to it, "
                             "and stay inside it)", file, key.line, key.col)
        if states.kind != "array" or any(s.kind != "array" for s in states.items):
            bad = states if states.kind != "array" else next(s for s in states.items if s.kind != "array")
            raise InputError(f"'{key.value}' must map to a list of states (lists of literals)", file, bad.line, bad.col)
        grounder = Grounder(domain, problem.object_types(domain))
        ss = StateSet(problem, [], file)
        known: dict[str, Atom | None] = {}  # each distinct literal is read (and checked) once
        for st in states.items:
            atoms: list[Atom | None] = []
            for lit in st.items:
                if lit.kind != "string":
                    raise InputError('expected a literal string like "(on a b)"', file, lit.line, lit.col)
                a: Any = known.get(lit.value, False)  # False: not read yet
                if a is False:
                    line, col = lit.inner(0)
                    a = known[lit.value] = parse_atom_text(lit.value, grounder, file, line, col,
                                                           ignore_unknown_predicates=ignore_unknown_predicates)
                atoms.append(a)
            ss.add(atoms)
        out.append(ss)
    return out


def find_problem_for(state_file: Path, problems_dir: Path | None) -> Path | None:
    """The problem of a trajectory file `3_blocksworld_traj` is `3_blocksworld_prob.pddl`."""
    stem = state_file.name
    candidates = [stem.replace("_traj", "_prob") + ".pddl", stem.replace("_traj", "") + ".pddl",
                  Path(stem).stem + ".pddl"]
    dirs = [d for d in (problems_dir, state_file.parent) if d is not None]
    for d in dirs:
        for c in candidates:
            if (Path(d) / c).exists() and (Path(d) / c) != state_file:
                return Path(d) / c
    return None


def load_states(paths: list[str | Path], domain: Domain, problems_dir: str | Path | None = None,
                ignore_unknown_predicates: bool = False, problem: Problem | None = None,
                problems: dict[str, Problem] | None = None) -> list[StateSet]:
    """Files or directories of trajectories, JSON state files, and problem files (initial states),
    listed by `inputs.input_files`. A trajectory is read with its own problem when one is found, else
    with `problem`. `problems`: a cache of the problems read (by path), for a caller that reads many
    files of few problems."""
    files = input_files(paths)
    out: list[StateSet] = []
    pdir = Path(problems_dir) if problems_dir else None
    for f in files:
        if f.suffix == ".json":
            out.extend(read_json_states(f, domain, problems_dir, ignore_unknown_predicates, problems))
            continue
        if f.suffix == ".jsonl":
            out.extend(iter_jsonl_states(f, domain, problems_dir, ignore_unknown_predicates, problems))
            continue
        head = read_text(f).lstrip()[:200].lower()
        if head.startswith("(define") and "(problem" in head:
            prob = load_problem(f, domain)
            out.append(StateSet(prob, [prob.init], str(f)))
        else:
            # a trajectory's own problem (next to it or in --problems) wins over the default one
            ppath = find_problem_for(f, pdir)
            if ppath is not None:
                prob = cached_problem(ppath, domain, problems)
            elif problem is not None:
                prob = problem
            else:
                raise InputError("cannot find the problem file of this trajectory (use --problems DIR)", f)
            out.append(read_trajectory(f, domain, prob, ignore_unknown_predicates))
    return out


def parse_literal(text: str, domain: Domain, problem: Problem, source: str = "<command line>") -> Literal:
    """A ground literal typed by a user, "(on b1 b2)" or "(not (clear b1))"; `source` names it in errors."""
    node = sexpr.read(text, source)
    positive = True
    if isinstance(node, sexpr.List) and node.head() == "not" and len(node) == 2:
        node, positive = node[1], False
    return Literal(Grounder(domain, problem.object_types(domain)).atom(node, source, derived=True), positive)


def parse_atom(text: str, domain: Domain, problem: Problem, source: str = "<atom>") -> Atom:
    """A ground atom, "(on b1 b2)" or "on b1 b2" (as ACPBench writes reach's answers); `source`
    names it in errors."""
    stripped = text.strip()
    if "(" in stripped or ")" in stripped:
        node = sexpr.read(stripped, source)
    else:  # read as if written with its parentheses
        node = sexpr.read(f"({stripped})", source, 1, 0)
        node.col = 1
    return Grounder(domain, problem.object_types(domain)).atom(node, source)


def parse_state(text_or_path: str, domain: Domain, problem: Problem) -> frozenset[Atom]:
    """A state given by a user: a file (trajectory, JSON, problem: its first state), else atoms "(on a b) (clear a)"."""
    if _is_file(text_or_path):
        sets = load_states([Path(text_or_path)], domain, problem=problem)
        if not sets or not sets[0].states:
            raise InputError("no state in this file", text_or_path)
        return sets[0].states[0]
    node = sexpr.read(f"({text_or_path})", "<--state>", 1, 0)
    node.col = 1  # the added '(' stands before the first column
    grounder = Grounder(domain, problem.object_types(domain))
    return frozenset(grounder.atom(a, "<--state>") for a in node)


def _is_file(text: str) -> bool:
    try:
        return Path(text).is_file()
    except (OSError, ValueError):
        return False


def _json_keys(f: Path) -> list[str]:
    """The keys of a JSON states file's top object, read with the C parser: positions are not
    needed here (a file that does not parse is refused with them when it is read, before anything
    is written), and the careful reader took 15-48 s and 1.6 GB on a 15 MB file (issue 20)."""
    try:
        data = fast_pairs(read_text(f))
    except InputError:
        return []
    return [k for k, _ in data] if data is not None else []


def state_inputs(paths: list[str | Path], problems_dir: str | Path | None = None) -> list[Path]:
    """Every file `load_states` would read for `paths` (directories listed, the problems of
    trajectories and those a JSON file names), so that `-o` can refuse to overwrite one of them.
    Missing and unreadable files are left to `load_states` to report."""
    files = input_files(p for p in paths if Path(p).exists())
    out = list(files)
    pdir = Path(problems_dir) if problems_dir else None
    for f in files:
        if f.suffix in (".json", ".jsonl"):
            base = pdir or f.parent
            keys = _json_keys(f) if f.suffix == ".json" else jsonl_problem_names(f)
            out += [pp for k in keys if (pp := problem_path(base, k)) is not None]
        else:
            found = find_problem_for(f, pdir)
            out += [found] if found is not None else []
    return out


__all__ = ["StateSet", "parse_atom_text", "read_trajectory", "read_json_states", "find_problem_for", "load_states",
           "parse_literal", "parse_atom", "parse_state", "state_inputs"]
