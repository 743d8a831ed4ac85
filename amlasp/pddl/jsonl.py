"""JSON lines state files (`*.jsonl`): one state a line, in full or as a change of the line before.

A million states as JSON state files take 6 GB (each state lists every atom, static ones too); as
differences, about 0.2 KB a state. Each non-blank line is one JSON object, one state:

    {"problem": "p01.pddl", "state": ["(robot-at r1 t1)", ...]}   a state in full, of this problem
    {"state": [...]}                                               in full, of the line before's problem
    {"del": ["(clear t2)"], "add": ["(painted t2 black)"]}         the line before's state, changed

The file is read a line at a time (each line at most `limits.MAX_INPUT_MB`, the file of any size)
and its states are given as StateSets of at most `CHUNK` states, so that eval streams it. Each
line is read with the C JSON parser and each distinct literal checked once per problem; a line
that is anything unusual is read again by the careful reader (`jsonpos`), which reports
`file:line:col`. docs/input.md says what is checked.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterator

from ..errors import InputError
from ..limits import MAX_INPUT_MB, max_bytes
from ..model import Atom, Domain, Problem
from . import jsonpos
from .ground import Grounder
from .source import BOM
from .stateset import UNUSUAL, StateSet, fast_literal, fast_pairs, fast_params, is_array, named_problem, parse_atom_text

#: States per StateSet given: eval takes whole StateSets into its batches.
CHUNK = 1000
#: Distinct literal texts remembered per problem (each checked once); beyond, the memory starts again.
_KNOWN = 100_000
_KEYS = {"problem", "state", "add", "del"}


class _Problem:
    """A problem of the file: its checks, and each distinct literal text read (→ its atom, None if ignored)."""

    def __init__(self, problem: Problem, domain: Domain):
        self.problem = problem
        self.grounder = Grounder(domain, problem.object_types(domain))
        self.known: dict[str, Atom | None] = {}


class _Reader:
    def __init__(self, path: str | Path, domain: Domain, base: Path, ignore_unknown_predicates: bool,
                 problems: dict[str, Problem] | None):
        self.file, self.domain, self.base, self.ignore = str(path), domain, base, ignore_unknown_predicates
        self.problems = problems if problems is not None else {}
        self.params = fast_params(domain)
        self.by_name: dict[str, _Problem] = {}
        self.current: _Problem | None = None
        self.state: set[Atom] = set()
        self.ignored = 0

    def lines(self) -> Iterator[tuple[int, str]]:
        """(line number, text) of each non-blank line; refused: too long, binary, not UTF-8."""
        cap = max_bytes(MAX_INPUT_MB)
        try:
            fh = open(self.file, "rb")
        except OSError as e:
            raise InputError(f"cannot read: {e.strerror or type(e).__name__}", self.file) from None
        with fh:
            n = 0
            while raw := fh.readline(cap + 1):
                n += 1
                if len(raw) > cap:
                    raise InputError(f"a line longer than {MAX_INPUT_MB.value():g} MB ({MAX_INPUT_MB.hint()})",
                                     self.file, n)
                if b"\x00" in raw:
                    raise InputError("binary data, not a JSON lines state file", self.file, n,
                                     len(raw[:raw.index(b"\x00")].decode("utf-8", "replace")) + 1)
                try:
                    text = raw.decode("utf-8")
                except UnicodeDecodeError as e:
                    raise InputError("not UTF-8 text", self.file, n,
                                     len(raw[:e.start].decode("utf-8", "replace")) + 1) from None
                if n == 1 and text.startswith(BOM):
                    text = " " + text[1:]  # columns as written
                if text.strip():
                    yield n, text.rstrip("\r\n")

    def states(self) -> Iterator[StateSet]:
        out: StateSet | None = None
        count = 0
        for n, text in self.lines():
            problem = self.line(n, text)
            if out is None or problem is not out.problem or len(out.states) >= CHUNK:
                if out is not None:
                    yield out
                out = StateSet(problem, [], self.file, first=count)
                self.ignored = 0
            out.states.append(frozenset(self.state))
            out.ignored = self.ignored
            count += 1
        if out is None:
            raise InputError("no state in this JSON lines file", self.file)
        yield out

    def line(self, n: int, text: str) -> Problem:
        """Read line `n` into `self.state` (its problem: the line's or the one before's)."""
        fast = self._fast(text)
        if fast is None:
            fast = self._careful(n, text)
        name, full, add, delete = fast
        if name is not None:
            self.current = self._problem(name, n, text)
        if full is not None:
            self.state = set(full)
        else:
            self.state -= delete
            self.state |= add
        assert self.current is not None
        return self.current.problem

    def _fast(self, text: str) -> tuple[str | None, list[Atom] | None, set[Atom], set[Atom]] | None:
        """The line's problem name, its full state or changes, by the C parser; None if anything is unusual."""
        pairs = fast_pairs(text)
        if not pairs or len({k for k, _ in pairs}) != len(pairs):
            return None
        data = dict(pairs)
        if not data.keys() <= _KEYS or not _shape_ok(data, self.current is not None):
            return None
        name = data.get("problem")
        if name is not None and name not in self.by_name:
            return None  # a problem not read yet: the careful reader finds and reads it
        at = self.by_name[name] if name is not None else self.current
        assert at is not None
        lists = [data.get(k) for k in ("state", "add", "del")]
        atoms: list[list[Atom] | None] = []
        for lits in lists:
            if lits is None:
                atoms.append(None)
                continue
            got = []
            for lit in lits:
                a: Any = at.known.get(lit, False) if isinstance(lit, str) else False  # False: not read yet
                if a is False:
                    a = fast_literal(lit, self.params, at.grounder.objects, at.grounder.fits, self.ignore)
                    if a is UNUSUAL:
                        return None
                    if len(at.known) >= _KNOWN:
                        at.known.clear()
                    at.known[lit] = a
                if a is None:
                    self.ignored += 1
                else:
                    got.append(a)
            atoms.append(got)
        full, add, delete = atoms
        add_set, del_set = set(add or ()), set(delete or ())
        if full is None and (not del_set <= self.state or add_set & self.state):
            return None
        return name, full, add_set, del_set

    def _careful(self, n: int, text: str) -> tuple[str | None, list[Atom] | None, set[Atom], set[Atom]]:
        """The line read with positions: the first problem with it as `file:line:col`."""
        try:
            value = jsonpos.parse(text, self.file)
        except InputError as e:
            raise e.moved(self.file, n, e.col) from None
        if value.kind != "object":
            raise InputError('expected a JSON object: {"problem": ..., "state": [...]} or {"add": [...], "del": [...]}',
                             self.file, n, value.col)
        data = {k.value: (k, v) for k, v in value.items}
        for k, _ in value.items:
            if k.value not in _KEYS:
                raise InputError(f"unknown key '{k.value}' (expected problem, state, add, del)", self.file, n, k.col)
        name = None
        if "problem" in data:
            key, v = data["problem"]
            if v.kind != "string":
                raise InputError("'problem' must be a problem file name", self.file, n, v.col)
            if "state" not in data:
                raise InputError("a line naming a problem gives its state in full ('state')", self.file, n, key.col)
            name = v.value
            self.current = self._problem(name, n, text, v.col)
        if self.current is None:
            raise InputError("the first line must name its problem: {\"problem\": ..., \"state\": [...]}",
                             self.file, n, value.col)
        if "state" in data and ("add" in data or "del" in data):
            raise InputError("a line gives a state in full ('state') or changes ('add', 'del'), not both",
                             self.file, n, value.col)
        if not data:
            raise InputError("an empty line object: a state in full ('state') or changes ('add', 'del')",
                             self.file, n, value.col)
        out: dict[str, list[tuple[Atom, jsonpos.Value]]] = {}
        for k in ("state", "add", "del"):
            if k in data:
                out[k] = self._literals(n, k, data[k][1])
        for a, lit in out.get("del", []):
            if a not in self.state:
                raise InputError(f"'del' of {lit.value}, which is not true in the state before", self.file, n, lit.col)
        for a, lit in out.get("add", []):
            if a in self.state:
                raise InputError(f"'add' of {lit.value}, which is already true in the state before", self.file, n,
                                 lit.col)
        full = [a for a, _ in out["state"]] if "state" in out else None
        return name, full, {a for a, _ in out.get("add", [])}, {a for a, _ in out.get("del", [])}

    def _literals(self, n: int, key: str, v: jsonpos.Value) -> list[tuple[Atom, jsonpos.Value]]:
        if v.kind != "array":
            raise InputError(f"'{key}' must be a list of literals", self.file, n, v.col)
        assert self.current is not None
        out = []
        for lit in v.items:
            if lit.kind != "string":
                raise InputError('expected a literal string like "(on a b)"', self.file, n, lit.col)
            a = parse_atom_text(lit.value, self.current.grounder, self.file, n, lit.inner(0)[1], self.ignore)
            if a is not None:
                out.append((a, lit))
        return out

    def _problem(self, name: str, n: int, text: str, col: int | None = None) -> _Problem:
        at = self.by_name.get(name)
        if at is None:
            problem = named_problem(self.base, name, self.domain, self.problems)
            if problem is None:
                raise InputError(f"problem file '{name}' not found in {self.base} (names are relative to it, "
                                 "and stay inside it)", self.file, n, col or text.find('"problem"') + 1)
            at = self.by_name[name] = _Problem(problem, self.domain)
        return at


def _shape_ok(data: dict, started: bool) -> bool:
    """Keys and value kinds of a well-formed line (the careful reader says what is wrong with another)."""
    if "problem" in data and (not isinstance(data["problem"], str) or "state" not in data):
        return False
    if "state" in data and ("add" in data or "del" in data):
        return False
    if not data or (not started and "problem" not in data):
        return False
    return all(is_array(data[k]) for k in ("state", "add", "del") if k in data)


def iter_jsonl_states(path: str | Path, domain: Domain, problems_dir: str | Path | None = None,
                      ignore_unknown_predicates: bool = False,
                      problems: dict[str, Problem] | None = None) -> Iterator[StateSet]:
    """The states of a JSON lines state file, a line at a time, as StateSets of at most `CHUNK` states
    (problems named relative to `problems_dir`, else the file's folder; read once per `problems` cache)."""
    base = Path(problems_dir) if problems_dir else Path(path).parent
    yield from _Reader(path, domain, base, ignore_unknown_predicates, problems).states()


def jsonl_problem_names(path: str | Path) -> list[str]:
    """The problem names a JSON lines state file's lines give (for `-o`'s refusal to overwrite an
    input); lines that do not parse are left to the reader to report."""
    names: dict[str, None] = {}
    try:
        with open(path, "rb") as fh:
            cap = max_bytes(MAX_INPUT_MB)
            while raw := fh.readline(cap + 1):
                if b'"problem"' in raw:
                    try:
                        data = json.loads(raw)
                    except (ValueError, RecursionError):
                        continue
                    if isinstance(data, dict) and isinstance(data.get("problem"), str):
                        names[data["problem"]] = None
    except OSError:
        return []
    return list(names)


__all__ = ["CHUNK", "iter_jsonl_states", "jsonl_problem_names"]
