"""Models, problems, states and plans as ASP facts (the schema of docs/facts.md).

Every domain fact carries a model tag `M` so that a learned and a reference model
live in one program; problem facts carry a problem id `P`; state facts a state id `S`.
The facts are written through their declarations (asp/schema.py), never spelled here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable, Iterable, Sequence

from ..errors import InputError
from ..goal_rules import with_goal_rules
from ..logic import conjunction_literals, subformulas, top_literals
from ..model import (
    Action,
    And,
    Atom,
    Domain,
    Exists,
    Forall,
    Formula,
    GroundAction,
    Literal,
    Not,
    Problem,
    is_var,
    type_members,
)
from .compile import compile_domain
from .costs import cost_rules, domain_cost_facts, problem_cost_facts
from .names import asp_name, atom_text
from .run import encoding
from .schema import (
    ACTION,
    BUSY,
    CEFF,
    COMPLEX_COND,
    COMPLEX_PRE,
    CONSTANT,
    DOMAIN_NAME,
    ECND,
    EDGE,
    EFF,
    EFF_VAR,
    FIXED,
    GOAL,
    HOLDS,
    HORIZON_QUERY,
    INIT,
    MODEL,
    OBJECT,
    OCCURS,
    PARAM,
    PLAN_LENGTH,
    PRE,
    PRED_PARAM,
    PREDICATE,
    PROBLEM,
    PROBLEM_NAME,
    ROOT,
    RUN,
    STATE,
    SUBTYPE,
    TYPE,
    TYPE_MEMBER,
    UNKNOWN,
    Pred,
)


def lifted_parts(atom: Atom, params: dict[str, int]) -> tuple[str, list[str]]:
    """The predicate and arguments of `lifted_atom`: `eq` for an equality, `v(I)` for the I-th
    variable, `c(C)` for a constant."""
    args = [f"v({params[a]})" if is_var(a) else f"c({asp_name(a)})" for a in atom.args]
    return ("eq" if atom.predicate == "=" else asp_name(atom.predicate)), args


def lifted_atom(atom: Atom, params: dict[str, int]) -> str:
    """An atom of an action schema with its variables numbered: `on(v(1),c(table))`, `eq(v(1),v(2))`."""
    pred, args = lifted_parts(atom, params)
    return f"{pred}({','.join(args)})" if args else pred


def sign(l: Literal) -> str:
    """A literal's sign as the facts write it: pos or neg."""
    return "pos" if l.positive else "neg"


def _literal_fact(pred: Pred, key: tuple, l: Literal, params: dict[str, int]) -> str:
    """`pred(key,pos|neg,atom).`, e.g. `pre(m,stack,pos,holding(v(1))).`"""
    return pred.fact(*key, sign(l), lifted_atom(l.atom, params))


def domain_facts(domain: Domain, tag: str, schema: bool = True) -> str:
    """Schema-level facts: types, constants, predicates, actions, lifted pre/eff literals; without
    `schema`, only what semantics.lp types objects with (model, types, constants): the compiled
    rules of a program that asks nothing about the schema (applicable, validate) need no more."""
    m = tag
    out = [f"% domain {domain.name} as model {m}", MODEL.fact(m), DOMAIN_NAME.fact(m, f'"{domain.name}"')]
    for t, parent in domain.types:
        out.append(f"{TYPE.fact(m, asp_name(t))} {SUBTYPE.fact(m, asp_name(t), asp_name(parent))}")
    out += [CONSTANT.fact(m, asp_name(c), asp_name(t)) for c, t in domain.constants]
    out += [TYPE_MEMBER.fact(*pair) for pair in either_members(domain_types(domain))]
    if not schema:
        return "\n".join(out) + "\n"
    for p in domain.predicates:
        out.append(PREDICATE.fact(m, asp_name(p.name), p.arity))
        out += [PRED_PARAM.fact(m, asp_name(p.name), i, asp_name(t)) for i, (_, t) in enumerate(p.parameters, 1)]
    for a in domain.actions:
        _action_facts(out, m, a)
    return "\n".join(out) + "\n"


def domain_types(domain: Domain) -> set[str]:
    """Every type a domain writes: of its constants, predicates, parameters and quantified variables."""
    out = {t for _, t in domain.constants} | {t for p in domain.predicates for _, t in p.parameters}
    for a in domain.actions:
        out.update(t for _, t in a.parameters)
        formulas = [f for f in [a.precondition] + [e.condition for e in a.effects] if not _literals_only(f)]
        out.update(t for e in a.effects for _, t in e.variables)
        out.update(t for f in formulas for g in subformulas(f) if isinstance(g, (Exists, Forall))
                   for _, t in g.variables)
    return out


def _literals_only(f: Formula) -> bool:
    """`f` is a conjunction of literals (as most preconditions, and the condition of every effect without
    `when`, are): no quantifier to walk it for, looked at with no call per subformula."""
    return isinstance(f, And) and all(isinstance(g, Atom) or isinstance(g, Not) and isinstance(g.arg, Atom)
                                      for g in f.args)


def either_members(types: Iterable[str]) -> list[tuple[str, str]]:
    """The `type_member/2` arguments of the `either` types among `types` (types.lp reads them)."""
    return [(asp_name(t), asp_name(m)) for t in sorted(set(types)) if t.startswith("(either ")
            for m in type_members(t)]


def _action_facts(out: list[str], m: str, a: Action) -> None:
    """The schema facts of action `a` of model `m`, appended to `out`."""
    n = asp_name(a.name)
    params = {v: i for i, (v, _) in enumerate(a.parameters, 1)}
    out.append(ACTION.fact(m, n, a.arity))
    out += [PARAM.fact(m, n, i, asp_name(t)) for i, (_, t) in enumerate(a.parameters, 1)]
    pre = conjunction_literals(a.precondition)
    if pre is None:
        out.append(COMPLEX_PRE.fact(m, n))
        pre = top_literals(a.precondition)
    out += [_literal_fact(PRE, (m, n), l, params) for l in pre]
    for k, e in enumerate(a.effects):
        if e.unconditional:
            out.append(_literal_fact(EFF, (m, n), e.literal, params))
            continue
        local = dict(params)
        for j, (v, t) in enumerate(e.variables, 1):
            local[v] = len(params) + j
            out.append(EFF_VAR.fact(m, n, k, local[v], asp_name(t)))
        out.append(_literal_fact(CEFF, (m, n, k), e.literal, local))
        cond = conjunction_literals(e.condition)
        if cond is None:
            out.append(COMPLEX_COND.fact(m, n, k))
            cond = ()
        out += [_literal_fact(ECND, (m, n, k), l, local) for l in cond]


@lru_cache(maxsize=1 << 18)
def ground(atom: Atom) -> str:
    """`(on b1 b2)` → `on(b1,b2)`; cached: the same atoms recur in thousands of states."""
    return atom_text(atom.predicate, [asp_name(a) for a in atom.args])


@lru_cache(maxsize=1 << 16)
def action_term(a: GroundAction) -> str:
    """`(stack b1 b2)` → `stack(b1,b2)`; cached like `ground`: a batch's plans repeat their actions."""
    return atom_text(a.name, [asp_name(x) for x in a.args])


def problem_rows(problem: Problem, pid: int, init: bool = True, goal: bool = True) -> dict[Pred, list[str]]:
    """A problem's facts as rows (`Pred.row`: a fact's arguments) by declaration: problem/1,
    problem_name/2, object/3, init/2 (with `init`), goal/3 (with `goal`)."""
    rows = {PROBLEM: [PROBLEM.row(pid)], PROBLEM_NAME: [PROBLEM_NAME.row(pid, f'"{problem.name}"')],
            OBJECT: [OBJECT.row(pid, asp_name(o), asp_name(t)) for o, t in problem.objects],
            TYPE_MEMBER: [TYPE_MEMBER.row(*pair) for pair in either_members(t for _, t in problem.objects)]}
    if init:
        rows[INIT] = [INIT.row(pid, ground(a)) for a in sorted(problem.init, key=str) if a.predicate != "="]
    if goal:
        rows[GOAL] = [GOAL.row(pid, sign(l), ground(l.atom)) for l in problem.goal]
    return rows


def rows_text(pred: Pred, rows: Sequence[str]) -> str:
    """The facts of `pred`'s rows (`Pred.row`), a line each."""
    return pred.fixed().text(rows) + "\n" if rows else ""


def problem_facts(problem: Problem, pid: int, init: bool = True, goal: bool = True) -> str:
    """`problem_rows` as text: problem/1 and problem_name/2 on one line, then a fact a line."""
    rows = problem_rows(problem, pid, init, goal)
    name = f'"{problem.name}"'
    head = f"{PROBLEM.fact(pid)} {PROBLEM_NAME.fact(pid, name)}\n"
    del rows[PROBLEM], rows[PROBLEM_NAME]
    return head + "".join(rows_text(pred, r) for pred, r in rows.items())


def state_facts(states: Iterable[Iterable[Atom]], pid: int, first: int = 0) -> tuple[str, int]:
    """`state(S,P)` and `holds(S,F)` for each state, its atoms sorted (a state is a set: the same
    input gives the same text, whatever Python's string hashing); returns the text and the next free id."""
    out: list[str] = []
    s = first
    for st in states:
        out.append(STATE.fact(s, pid))
        if st:  # sorted as the facts' texts sort (all begin `holds(S,`): by the atom's text with its `).`
            out.append(HOLDS.fixed(s).text(sorted((ground(a) for a in st), key=lambda t: t + ").")))
        s += 1
    return "\n".join(out) + "\n", s


def state_text(sid: int, pid: int, atoms: Iterable[str]) -> str:
    """`state(S,P)` and `holds(S,F)` for each ground atom text of `atoms`, in their order: a state
    asked about (diff's layers, transitions)."""
    return f"{STATE.fact(sid, pid)}\n{HOLDS.fixed(sid).text(list(atoms))}\n"


def fixed_facts(atoms: Iterable[Atom], pid: int) -> str:
    """`fixed(P,F)` for each of `atoms`, the atoms of static predicates given once per problem."""
    return FIXED.fixed(pid).text([ground(a) for a in atoms])


def start_facts(atoms: Iterable[Atom], static: frozenset[str], pid: int) -> str:
    """A start state's atoms in their order, equalities left out: those of `static` predicates as
    `fixed(P,F)`, the others as `init(P,F)`."""
    return "".join(FIXED.fact(pid, ground(a)) if a.predicate in static else INIT.fact(pid, ground(a))
                   for a in atoms if a.predicate != "=")


def externals(pred: Pred, rows: Iterable[Sequence]) -> str:
    """`#external pred(row).` for each row (its arguments in field order)."""
    return "".join(f"#external {pred(*row)}." for row in rows)


def symbol_facts(symbols: Iterable) -> str:
    """Atoms of an answer (clingo symbols) given back as facts to another program."""
    return "".join(f"{s}." for s in symbols)


def plan_facts(plan: list[GroundAction]) -> str:
    out = [PLAN_LENGTH.fact(len(plan))]
    out += [OCCURS.fact(t, action_term(a)) for t, a in enumerate(plan)]
    return "\n".join(out) + "\n"


def avoid_plan(plan: Sequence[GroundAction], horizon: int) -> str:
    """cheapest.lp's constraint that excludes `plan` at `horizon` (its steps, then idle ones)."""
    body = [OCCURS(t, action_term(a)) for t, a in enumerate(plan)]
    if len(plan) < horizon:
        body.append(f"not {BUSY(len(plan))}")
    return f":- {', '.join([HORIZON_QUERY(horizon)] + body)}.\n"


def goal_facts(goal: Iterable[Literal], pid: int = 0) -> str:
    """Goal literals asked about instead of the problem's own goal (reach, landmarks)."""
    return "".join(GOAL.fact(pid, sign(l), ground(l.atom)) for l in goal) + "\n"


@dataclass(frozen=True)
class RunTree:
    """validate.lp's runs as a tree of states: the rows (`Pred.row`) of `root/3`, `edge/3`,
    `unknown/2` and `run/4`, and each run's states, from its root."""

    rows: dict[Pred, list[str]]
    paths: list[list[int]]

    def text(self) -> str:
        """The facts, as program text."""
        return "".join(rows_text(pred, rows) for pred, rows in self.rows.items())


def run_tree(runs: Sequence[tuple[int, int | str, Sequence[GroundAction]]],
             unknown: Callable[[int, GroundAction], bool]) -> RunTree:
    """validate.lp's runs, each `(problem id, start state's term, plan)`, as a tree of states: `root(N,P,I)`,
    `edge(N,A,N2)` (each once: runs that begin alike share their first steps' states),
    `unknown(N,A)` where `unknown(problem id, action)`, and `run(K,P,E,L)`.

    The rows are written in their declarations' field order by f-strings, not `Pred.row`: a step
    costs 0.3 us so, 1.1 us by `row` (3% of validating the 100 blocksworld plans)."""
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
    return RunTree({ROOT: roots, EDGE: edges, UNKNOWN: unknowns, RUN: ends}, paths)


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
    if problem is not None:
        domain = with_goal_rules(domain, [problem])
    parts = [domain_facts(domain, check_tag(tag)), domain_cost_facts(domain, tag)]
    if rules:
        parts.append("% compiled action rules (see encodings/semantics.lp)\n")
        parts.append(compile_domain(domain, tag, enumerate=True, check=True, effects=True).text)
        parts.append(cost_rules(domain, tag))
        parts += [encoding("types"), encoding("semantics"), encoding("check"), encoding("change")]
    if problem is not None:
        parts.append(problem_facts(problem, 0))
        parts.append(problem_cost_facts(problem, 0))
        if states is not None:
            parts.append(state_facts(states, 0)[0])
        else:
            parts.append("% the initial state as state 0\n" + state_facts([problem.init], 0)[0])
        if plan is not None:
            parts.append(plan_facts(plan))
    return "".join(parts)
