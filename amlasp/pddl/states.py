"""Reading states: trajectory files, JSON state files, problems (their initial state), literals.

Every ground atom is checked against a vocabulary (a domain's predicates and the
problem's objects) with `file:line` on errors. `ignore_unknown_predicates` lets an
evaluation keep literals the learned model does not declare and count them.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from . import sexpr
from ..errors import InputError
from ..model import Atom, Domain, GroundAction, Literal, Problem
from .convert import ground_atom
from .parse import load_problem
from .plans import ground_action
from .source import read_text


@dataclass
class StateSet:
    """States of one problem, in order, with where they came from."""

    problem: Problem
    states: list[frozenset[Atom]]
    source: str
    actions: list[GroundAction | None] = field(default_factory=list)  # action after state i (trajectories)
    ignored: int = 0  # literals dropped because their predicate is not in the vocabulary


def parse_atom_text(text: str, domain: Domain, problem: Problem, file: str, line: int,
                    ignore_unknown_predicates: bool = False) -> Atom | None:
    """One atom of a JSON state file, reported at `line`; None for an unknown predicate that is to be ignored."""
    try:
        node = sexpr.read(text, file)
    except InputError as e:
        raise InputError(e.message, file, line) from None
    sexpr.relocate(node, line)
    if ignore_unknown_predicates and isinstance(node, sexpr.List) and node.head() is not None \
            and domain.predicate(node.head()) is None:
        return None
    return ground_atom(node, {p.name: p for p in domain.predicates}, problem.object_types(domain), file)


_TRAJ_TOKEN = re.compile(r"\(\s*:(state|action)\b|\(([^()]*)\)|(\))|([^\s()]+)|(\()")


# One state machine over one regex scan (~70 lines): split into functions, it would lose the speed it exists for.
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
    arity = {p.name: p.arity for p in domain.predicates}
    objs = problem.object_types(domain)
    atoms: dict[str, Atom | None] = {}
    out = StateSet(problem, [], file)
    mode, cur, act = "top", set(), None
    end = None
    for m in _TRAJ_TOKEN.finditer(low, start.end()):
        head, inner, close, word, lone = m.groups()
        if end is not None or word is not None or lone is not None:
            return None
        if mode == "top":
            if head == "state":
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
                a = atoms.get(inner, False)
                if a is False:
                    parts = inner.split()
                    if not parts:
                        return None
                    if parts[0] not in arity:
                        if not ignore_unknown_predicates:
                            return None
                        a = None
                    elif arity[parts[0]] != len(parts) - 1 or any(x not in objs for x in parts[1:]):
                        return None
                    else:
                        a = Atom(parts[0], tuple(parts[1:]))
                    atoms[inner] = a
                if a is None:
                    out.ignored += 1
                else:
                    cur.add(a)
            elif close is not None:
                if len(out.actions) < len(out.states):
                    out.actions.append(None)
                out.states.append(frozenset(cur))
                mode = "top"
            else:
                return None
        else:  # action
            if inner is not None and act is None:
                parts = inner.split()
                if not parts or any(x not in objs for x in parts[1:]):
                    return None
                act = GroundAction(parts[0], tuple(parts[1:]))
            elif close is not None and act is not None:
                out.actions.append(act)
                mode = "top"
            else:
                return None
    if end is None or low[end:].strip():
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
        raise InputError("expected (:trajectory (:state ...) (:action ...) ...)", file, root.line)
    preds = {p.name: p for p in domain.predicates}
    objs = problem.object_types(domain)
    out = StateSet(problem, [], file)
    for item in root[1:]:
        if not isinstance(item, sexpr.List) or item.head() not in (":state", ":action"):
            raise InputError("expected (:state ...) or (:action ...)", file, getattr(item, "line", root.line))
        if item.head() == ":state":
            atoms = set()
            for a in item[1:]:
                if ignore_unknown_predicates and isinstance(a, sexpr.List) and a.head() not in preds:
                    out.ignored += 1
                    continue
                atoms.add(ground_atom(a, preds, objs, file))
            if len(out.actions) < len(out.states):
                out.actions.append(None)
            out.states.append(frozenset(atoms))
        else:
            if len(item) != 2 or not isinstance(item[1], sexpr.List):
                raise InputError("expected (:action (name arg ...))", file, item.line)
            if len(out.actions) != len(out.states) - 1:
                raise InputError("an action must follow a state", file, item.line)
            out.actions.append(ground_action(item[1], domain, objs, file, check_action=False))
    return out


def read_json_states(path: str | Path, domain: Domain, problems_dir: str | Path | None = None,
                     ignore_unknown_predicates: bool = False) -> list[StateSet]:
    """`{"problem.pddl": [["(on a b)", ...], ...]}`: problems looked up next to the file or in `problems_dir`."""
    file = str(path)
    text = read_text(path)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise InputError(f"invalid JSON: {e.msg}", file, e.lineno) from None
    if not isinstance(data, dict):
        raise InputError("expected a JSON object mapping problem files to lists of states", file, 1)
    lines = text.splitlines()

    def line_of(needle: str) -> int:
        for i, l in enumerate(lines, 1):
            if needle in l:
                return i
        return 1

    out = []
    for name, states in data.items():
        base = Path(problems_dir) if problems_dir else Path(path).parent
        ppath = base / name
        if not ppath.exists():
            raise InputError(f"problem file '{name}' not found in {base}", file, line_of(f'"{name}"'))
        problem = load_problem(ppath, domain)
        if not isinstance(states, list) or not all(isinstance(s, list) for s in states):
            raise InputError(f"'{name}' must map to a list of states (lists of literals)", file, line_of(f'"{name}"'))
        ss = StateSet(problem, [], file)
        known: dict[str, Atom | None] = {}  # each distinct literal is read (and located) once
        for st in states:
            atoms = set()
            for lit in st:
                if not isinstance(lit, str):
                    raise InputError(f"expected a literal string like \"(on a b)\", got {lit!r}", file, 1)
                a = known.get(lit, False)
                if a is False:
                    a = known[lit] = parse_atom_text(lit, domain, problem, file, line_of(lit),
                                                     ignore_unknown_predicates)
                if a is None:
                    ss.ignored += 1
                else:
                    atoms.add(a)
            ss.states.append(frozenset(atoms))
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
                ignore_unknown_predicates: bool = False, problem: Problem | None = None) -> list[StateSet]:
    """Files or directories of trajectories, JSON state files, and problem files (initial states).
    A trajectory is read with its own problem when one is found, else with `problem`."""
    files: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            files.extend(sorted(x for x in p.iterdir() if x.is_file()))
        elif p.exists():
            files.append(p)
        else:
            raise InputError("no such file or directory", p)
    out: list[StateSet] = []
    pdir = Path(problems_dir) if problems_dir else None
    for f in files:
        if f.suffix == ".json":
            out.extend(read_json_states(f, domain, problems_dir, ignore_unknown_predicates))
            continue
        head = read_text(f).lstrip()[:200].lower()
        if head.startswith("(define") and "(problem" in head:
            prob = load_problem(f, domain)
            out.append(StateSet(prob, [prob.init], str(f)))
        else:
            # a trajectory's own problem (next to it or in --problems) wins over the default one
            ppath = find_problem_for(f, pdir)
            if ppath is not None:
                prob = load_problem(ppath, domain)
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
    preds = {x.name: x for x in domain.predicates}
    return Literal(ground_atom(node, preds, problem.object_types(domain), source), positive)


def parse_state(text_or_path: str, domain: Domain, problem: Problem) -> frozenset[Atom]:
    """A state given by a user: a file (trajectory, JSON, problem: its first state), else atoms "(on a b) (clear a)"."""
    if Path(text_or_path).exists():
        sets = load_states([Path(text_or_path)], domain, problem=problem)
        return sets[0].states[0]
    node = sexpr.read(f"({text_or_path})", "<--state>")
    preds = {x.name: x for x in domain.predicates}
    return frozenset(ground_atom(a, preds, problem.object_types(domain), "<--state>") for a in node)


__all__ = ["StateSet", "parse_atom_text", "read_trajectory", "read_json_states", "find_problem_for", "load_states",
           "parse_literal", "parse_state"]
