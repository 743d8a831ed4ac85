"""Models, problems, states and plans as ASP facts (the schema of docs/facts.md).

Every domain fact carries a model tag `M` so that a learned and a reference model
live in one program; problem facts carry a problem id `P`; state facts a state id `S`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable, Iterable, Sequence

from ..errors import InputError
from ..logic import conjunction_literals, top_literals
from ..model import Atom, Domain, GroundAction, Literal, Problem, is_var
from .compile import compile_domain
from .names import asp_name, atom_text
from .run import encoding


def lifted_atom(atom: Atom, params: dict[str, int]) -> str:
    """An atom of an action schema with its variables numbered: `on(v(1),c(table))`, `eq(v(1),v(2))`."""
    args = [f"v({params[a]})" if is_var(a) else f"c({asp_name(a)})" for a in atom.args]
    if atom.predicate == "=":
        return f"eq({','.join(args)})"
    return atom_text(atom.predicate, args)


def _literal_fact(kind: str, key: str, l: Literal, params: dict[str, int]) -> str:
    """`kind(key,pos|neg,atom).`, e.g. `pre(m,stack,pos,holding(v(1))).`"""
    return f"{kind}({key},{'pos' if l.positive else 'neg'},{lifted_atom(l.atom, params)})."


def domain_facts(domain: Domain, tag: str, schema: bool = True) -> str:
    """Schema-level facts: types, constants, predicates, actions, lifted pre/eff literals; without
    `schema`, only what semantics.lp types objects with (model, types, constants): the compiled
    rules of a program that asks nothing about the schema (applicable, validate) need no more."""
    m = tag
    out = [f"% domain {domain.name} as model {m}", f"model({m}).", f"domain_name({m},\"{domain.name}\")."]
    for t, parent in domain.types:
        out.append(f"type({m},{asp_name(t)}). subtype({m},{asp_name(t)},{asp_name(parent)}).")
    for c, t in domain.constants:
        out.append(f"constant({m},{asp_name(c)},{asp_name(t)}).")
    if not schema:
        return "\n".join(out) + "\n"
    for p in domain.predicates:
        out.append(f"predicate({m},{asp_name(p.name)},{p.arity}).")
        out += [f"pred_param({m},{asp_name(p.name)},{i},{asp_name(t)})." for i, (_, t) in enumerate(p.parameters, 1)]
    for a in domain.actions:
        n = asp_name(a.name)
        params = {v: i for i, (v, _) in enumerate(a.parameters, 1)}
        out.append(f"action({m},{n},{a.arity}).")
        out += [f"param({m},{n},{i},{asp_name(t)})." for i, (_, t) in enumerate(a.parameters, 1)]
        pre = conjunction_literals(a.precondition)
        if pre is None:
            out.append(f"complex_pre({m},{n}).")
            pre = top_literals(a.precondition)
        out += [_literal_fact("pre", f"{m},{n}", l, params) for l in pre]
        for k, e in enumerate(a.effects):
            if e.unconditional:
                out.append(_literal_fact("eff", f"{m},{n}", e.literal, params))
                continue
            local = dict(params)
            for j, (v, t) in enumerate(e.variables, 1):
                local[v] = len(params) + j
                out.append(f"eff_var({m},{n},{k},{local[v]},{asp_name(t)}).")
            out.append(_literal_fact("ceff", f"{m},{n},{k}", e.literal, local))
            cond = conjunction_literals(e.condition)
            if cond is None:
                out.append(f"complex_cond({m},{n},{k}).")
                cond = ()
            out += [_literal_fact("ecnd", f"{m},{n},{k}", l, local) for l in cond]
    return "\n".join(out) + "\n"


@lru_cache(maxsize=1 << 18)
def ground(atom: Atom) -> str:
    """`(on b1 b2)` → `on(b1,b2)`; cached: the same atoms recur in thousands of states."""
    return atom_text(atom.predicate, [asp_name(a) for a in atom.args])


@lru_cache(maxsize=1 << 16)
def action_term(a: GroundAction) -> str:
    """`(stack b1 b2)` → `stack(b1,b2)`; cached like `ground`: a batch's plans repeat their actions."""
    return atom_text(a.name, [asp_name(x) for x in a.args])


def problem_rows(problem: Problem, pid: int, init: bool = True, goal: bool = True) -> dict[str, list[str]]:
    """A problem's facts as rows (a fact's arguments) by predicate: problem/1, problem_name/2,
    object/3, init/2 (with `init`), goal/3 (with `goal`)."""
    rows = {"problem": [str(pid)], "problem_name": [f"{pid},\"{problem.name}\""],
            "object": [f"{pid},{asp_name(o)},{asp_name(t)}" for o, t in problem.objects]}
    if init:
        rows["init"] = [f"{pid},{ground(a)}" for a in sorted(problem.init, key=str) if a.predicate != "="]
    if goal:
        rows["goal"] = [f"{pid},{'pos' if l.positive else 'neg'},{ground(l.atom)}" for l in problem.goal]
    return rows


def problem_facts(problem: Problem, pid: int, init: bool = True, goal: bool = True) -> str:
    """`problem_rows` as text: problem/1 and problem_name/2 on one line, then a fact a line."""
    rows = problem_rows(problem, pid, init, goal)
    head = f"problem({rows.pop('problem')[0]}). problem_name({rows.pop('problem_name')[0]}).\n"
    return head + "".join(f"{name}({row}).\n" for name, r in rows.items() for row in r)


def state_facts(states: Iterable[Iterable[Atom]], pid: int, first: int = 0) -> tuple[str, int]:
    """`state(S,P)` and `holds(S,F)` for each state, its atoms sorted (a state is a set: the same
    input gives the same text, whatever Python's string hashing); returns the text and the next free id."""
    out: list[str] = []
    s = first
    for st in states:
        out.append(f"state({s},{pid}).")
        out.extend(sorted(f"holds({s},{ground(a)})." for a in st))
        s += 1
    return "\n".join(out) + "\n", s


def plan_facts(plan: list[GroundAction]) -> str:
    out = [f"plan_length({len(plan)})."]
    out += [f"occurs({t},{action_term(a)})." for t, a in enumerate(plan)]
    return "\n".join(out) + "\n"


def goal_facts(goal: Iterable[Literal], pid: int = 0) -> str:
    """Goal literals asked about instead of the problem's own goal (reach, landmarks)."""
    return "".join(f"goal({pid},{'pos' if l.positive else 'neg'},{ground(l.atom)})." for l in goal) + "\n"


@dataclass(frozen=True)
class RunTree:
    """validate.lp's runs as a tree of states: the rows (a fact's arguments, as text) of `root/3`,
    `edge/3`, `unknown/2` and `run/4`, and each run's states, from its root."""

    rows: dict[str, list[str]]
    paths: list[list[int]]

    ARITY = {"root": 3, "edge": 3, "unknown": 2, "run": 4}

    def text(self) -> str:
        """The facts, as program text."""
        return "".join(f"{name}({row}).\n" for name, rows in self.rows.items() for row in rows)


def run_tree(runs: Sequence[tuple[int, int | str, Sequence[GroundAction]]],
             unknown: Callable[[int, GroundAction], bool]) -> RunTree:
    """validate.lp's runs, each `(problem id, start state's term, plan)`, as a tree of states: `root(N,P,I)`,
    `edge(N,A,N2)` (each once: runs that begin alike share their first steps' states),
    `unknown(N,A)` where `unknown(problem id, action)`, and `run(K,P,E,L)`."""
    nodes: dict[tuple, int] = {}  # (problem, start) for a root, (state, action) for a step → state
    roots: list[str] = []
    edges: list[str] = []
    unknowns: list[str] = []
    ends: list[str] = []
    paths: list[list[int]] = []
    for k, (pid, sid, plan) in enumerate(runs):
        node = nodes.get((pid, sid))
        if node is None:
            node = nodes[pid, sid] = len(nodes)
            roots.append(f"{node},{pid},{sid}")
        path = [node]
        for a in plan:
            child = nodes.get((node, a))
            if child is None:
                child = nodes[node, a] = len(nodes)
                term = action_term(a)
                edges.append(f"{node},{term},{child}")
                if unknown(pid, a):
                    unknowns.append(f"{node},{term}")
            node = child
            path.append(node)
        ends.append(f"{k},{pid},{node},{len(plan)}")
        paths.append(path)
    return RunTree({"root": roots, "edge": edges, "unknown": unknowns, "run": ends}, paths)


#: A model tag is a clingo constant: it is written into every fact, unquoted.
_TAG = re.compile(r"[a-z][a-z0-9_]*")


def check_tag(tag: str) -> str:
    """`tag` if it is a clingo constant that can name a model (a lower-case letter, then letters, digits, _)."""
    if not _TAG.fullmatch(tag) or tag == "not":
        raise InputError(f"--tag '{tag}' is not a valid model tag: use a lower-case letter, then lower-case "
                         "letters, digits or _ (e.g. m, learned, ref_1)")
    return tag


def facts_program(domain: Domain, problem: Problem | None = None, states: Sequence[Iterable[Atom]] | None = None,
                  plan: list[GroundAction] | None = None, tag: str = "m", rules: bool = True) -> str:
    """A self-contained program for one's own clingo queries (`amlasp facts`): the model's facts and,
    with `rules`, its compiled action rules and the encodings that give them meaning; then the
    problem, its `states` (by default the initial state, as state 0) and a `plan`."""
    if problem is None and (states is not None or plan is not None):
        raise ValueError("states and a plan need a problem")
    parts = [domain_facts(domain, check_tag(tag))]
    if rules:
        parts.append("% compiled action rules (see encodings/semantics.lp)\n")
        parts.append(compile_domain(domain, tag, enumerate=True, check=True, effects=True).text)
        parts += [encoding("types"), encoding("semantics"), encoding("check"), encoding("change")]
    if problem is not None:
        parts.append(problem_facts(problem, 0))
        if states is not None:
            parts.append(state_facts(states, 0)[0])
        else:
            parts.append("% the initial state as state 0\n" + state_facts([problem.init], 0)[0])
        if plan is not None:
            parts.append(plan_facts(plan))
    return "".join(parts)
