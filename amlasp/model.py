"""The normalised planning model every metric works on.

Small immutable classes, in the spirit of the `pddl` package, but with what our
encodings need kept explicit: file order of actions, source lines, and effects
flattened to (forall-variables, condition, literal) triples.
Names are PDDL names, lower case. Terms are strings: `?x` is a variable, anything
else an object or constant.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field
from functools import cached_property
from typing import Mapping, Sequence, Union

Number = Union[int, float]  # a cost: int when the text is an integer, else float
Typed = tuple[str, str]  # (name, type): a typed variable, object or constant

_NOT_IN_NAME = re.compile(r"[^a-z0-9_]")


def is_var(term: str) -> bool:
    return term.startswith("?")


def canonical_name(name: str) -> str:
    """The one name that names differing only in case or `-`/`_` share (`Pick-Up`, `pick_up`): PDDL
    is case-insensitive, and learned models spell `-` and `_` alike, so such names are one name when
    models are matched, and two of them in one model are refused. Any other character that is no
    letter, digit or `_` becomes `_` too (clingo's symbols, `asp.names.asp_name`, are built on this)."""
    return _NOT_IN_NAME.sub("_", name.lower())


def either_type(members) -> str:
    """The one name of the type `(either a b ...)` (members sorted, each once; one member is itself):
    a type is a string in the model, an `either` type this text (`type_members` reads it back)."""
    names = sorted(set(members))
    return names[0] if len(names) == 1 else "(either " + " ".join(names) + ")"


def type_members(t: str) -> tuple[str, ...]:
    """The types of an `either` type (`either_type`), or `(t,)` for a plain one."""
    return tuple(t[len("(either "):-1].split()) if t.startswith("(either ") else (t,)


@dataclass(frozen=True)
class Atom:
    predicate: str  # "=" for equality
    args: tuple[str, ...] = ()

    def __str__(self) -> str:
        return "(" + " ".join((self.predicate,) + self.args) + ")"

    def bind(self, sub: Mapping[str, str]) -> "Atom":
        """The atom with each term that `sub` maps replaced (an action's parameters by its arguments)."""
        return Atom(self.predicate, tuple(sub.get(x, x) for x in self.args))


@dataclass(frozen=True)
class Not:
    arg: "Formula"


@dataclass(frozen=True)
class And:
    args: tuple["Formula", ...] = ()


@dataclass(frozen=True)
class Or:
    args: tuple["Formula", ...] = ()


@dataclass(frozen=True)
class Imply:
    left: "Formula"
    right: "Formula"


@dataclass(frozen=True)
class Exists:
    variables: tuple[Typed, ...]
    body: "Formula"


@dataclass(frozen=True)
class Forall:
    variables: tuple[Typed, ...]
    body: "Formula"


# Numeric fluents (read by `compare` only; the semantic commands refuse them, docs/input.md).


@dataclass(frozen=True)
class Num:
    """A number, as canonical decimal text (`1.50` is `1.5`, `2.0` is `2`)."""

    value: str

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class Fluent:
    """A function term `(f t1 ... tn)`: a numeric fluent of the state."""

    function: str
    args: tuple[str, ...] = ()

    def __str__(self) -> str:
        return "(" + " ".join((self.function,) + self.args) + ")"


@dataclass(frozen=True)
class Arith:
    """`(op e1 ... en)` with op one of + - * / (a `-` of one operand negates it)."""

    op: str
    args: tuple["Expr", ...]

    def __str__(self) -> str:
        return "(" + " ".join([self.op] + [str(a) for a in self.args]) + ")"


Expr = Union[Num, Fluent, Arith]


@dataclass(frozen=True)
class Comparison:
    """A numeric condition `(op left right)`, op one of < <= = >= >: a leaf of a formula, like an atom."""

    op: str
    left: Expr
    right: Expr

    def __str__(self) -> str:
        return f"({self.op} {self.left} {self.right})"


Formula = Union[Atom, Not, And, Or, Imply, Exists, Forall, Comparison]
TRUE = And(())


@dataclass(frozen=True)
class Literal:
    atom: Atom
    positive: bool = True

    def __str__(self) -> str:
        return str(self.atom) if self.positive else f"(not {self.atom})"

    def bind(self, sub: Mapping[str, str]) -> "Literal":
        return Literal(self.atom.bind(sub), self.positive)


#: The start of the name of the derived predicate that stands for a goal conjunct that is no literal
#: (`GoalCondition`); `@` is in no PDDL name, as in Fast Downward's `new-axiom@N`.
GOAL_PREFIX = "goal@"


@dataclass(frozen=True)
class GoalCondition(Literal):
    """A conjunct of a problem's goal that is no literal (`forall`, `exists`, `or`, `imply`, `not` of a
    formula), compiled as Fast Downward compiles it: in the goal it is the atom of a 0-ary derived predicate
    (`GOAL_PREFIX` and a digest of `text`, so that equal conjuncts of many problems are one rule) whose one
    rule's body is `formula` (`goal_rules.goal_rules`); it reads as that formula's PDDL text, which every message
    naming an unmet goal shows."""

    formula: Formula = TRUE
    text: str = ""
    line: int | None = field(default=None, compare=False)  # where the conjunct starts in the problem file
    col: int | None = field(default=None, compare=False)

    def __str__(self) -> str:
        return self.text

    def bind(self, sub: Mapping[str, str]) -> "Literal":
        return self  # ground: the formula's variables are its own quantifiers'


# The two reads of a conjunction that actions need themselves (logic.py, built on this module,
# re-exports them with the other operations on formulas).


def conjuncts(f: Formula) -> list[Formula]:
    """The conjuncts of nested `and`s (a formula that is no conjunction is its own)."""
    return spliced(f, And)


def spliced(f: Formula, kind: type[And] | type[Or]) -> list[Formula]:
    """The operands of `f` and of the `kind` formulas nested in it, in order (`f` itself if not of `kind`)."""
    out: list[Formula] = []
    stack = [f]
    while stack:
        g = stack.pop()
        if isinstance(g, kind):
            stack.extend(reversed(g.args))
        else:
            out.append(g)
    return out


def conjunction_literals(f: Formula) -> tuple[Literal, ...] | None:
    """The literals of a conjunction of literals, or None for anything richer."""
    out: list[Literal] = []
    for g in conjuncts(f):
        if isinstance(g, Atom):
            out.append(Literal(g, True))
        elif isinstance(g, Not) and isinstance(g.arg, Atom):
            out.append(Literal(g.arg, False))
        else:
            return None
    return tuple(out)


@dataclass(frozen=True)
class Effect:
    """One effect literal; `variables` are forall-bound, `condition` is the `when` guard."""

    literal: Literal
    condition: Formula = TRUE
    variables: tuple[Typed, ...] = ()

    @property
    def unconditional(self) -> bool:
        return not self.variables and self.condition == TRUE


@dataclass(frozen=True)
class NumericEffect:
    """`(op fluent value)`, op one of increase decrease assign scale-up scale-down; `variables` and
    `condition` as in `Effect`."""

    op: str
    fluent: Fluent
    value: Expr
    condition: Formula = TRUE
    variables: tuple[Typed, ...] = ()

    def __str__(self) -> str:
        return f"({self.op} {self.fluent} {self.value})"


@dataclass(frozen=True)
class Predicate:
    name: str
    parameters: tuple[Typed, ...] = ()

    @property
    def arity(self) -> int:
        return len(self.parameters)


#: What an action adds to `(total-cost)` (`:action-costs`): a number, or a static cost function's
#: application `(f ?x ...)` whose value the problem's `:init` gives.
Cost = Union[int, float, Atom]


@dataclass(frozen=True)
class Action:
    name: str
    parameters: tuple[Typed, ...]
    precondition: Formula = TRUE
    effects: tuple[Effect, ...] = ()
    line: int | None = None
    numeric_effects: tuple[NumericEffect, ...] = ()
    cost: Cost | None = None  # `(increase (total-cost) ...)`; None: the action has none

    @property
    def arity(self) -> int:
        return len(self.parameters)

    def precondition_literals(self) -> tuple[Literal, ...] | None:
        """The literals of a precondition that is a conjunction of literals, or None."""
        return conjunction_literals(self.precondition)

    def binding(self, args: Sequence[str]) -> dict[str, str]:
        """Each parameter's argument in the ground action with `args`."""
        return dict(zip((v for v, _ in self.parameters), args))

    def ground_precondition(self, args: Sequence[str]) -> tuple[Literal, ...] | None:
        """The literals of a conjunctive precondition with `args` for the parameters, or None for a
        precondition that is not a conjunction of literals (the one substitution of the reasoning code)."""
        lits = self.precondition_literals()
        if lits is None:
            return None
        sub = self.binding(args)
        return tuple(l.bind(sub) for l in lits)

    def ground_effects(self, args: Sequence[str]) -> tuple[Literal, ...]:
        """The unconditional effect literals with `args` for the parameters (conditional ones left out)."""
        sub = self.binding(args)
        return tuple(e.literal.bind(sub) for e in self.effects if e.unconditional)


@dataclass(frozen=True)
class Derived:
    """`(:derived (p ?x - t) body)`: p(x) holds in a state where `body` does, the least fixpoint over
    the state's basic atoms (PDDL 2.2's axioms; negation of derived predicates only stratified). Never
    in an effect, an initial state or a state given as input: computed from each state."""

    predicate: str
    parameters: tuple[Typed, ...]
    body: Formula
    line: int | None = None

    @property
    def head(self) -> Atom:
        return Atom(self.predicate, tuple(v for v, _ in self.parameters))


@dataclass(frozen=True)
class Broken:
    """A definition of a domain that could not be read or checked, kept as its located error only: a
    recovering read (`parse_domain(recover=True)`) leaves it out and reads the rest, as a compiler does."""

    kind: str  # what it defines: "action", "derived", "type", "predicate" or "constant"
    name: str | None  # its name, when it can be read (a derived rule's: its predicate)
    error: str  # the error's class (`errors.KINDS`): "undeclared-variable", "unbalanced", ...
    message: str  # the error's message, without its location
    file: str | None = None
    line: int | None = None
    col: int | None = None

    @property
    def location(self) -> str:  # `file:line:col`, as far as it is known
        return ":".join(str(x) for x in (self.file, self.line, self.col) if x is not None)

    def to_dict(self) -> dict:
        return asdict(self)


def supertypes(types: Sequence[tuple[str, str]], t: str) -> list[str]:
    """`t` and the types above it in `types`, (type, parent) pairs, nearest first and `object` last: breadth
    first, since a type may have several parents (a DAG); the parser's declarations and `Domain.ancestors`."""
    parents: dict[str, list[str]] = {}
    for x, p in types:
        parents.setdefault(str(x), []).append(str(p))
    out = [t]
    for x in out:
        out += [p for p in parents.get(x, ()) if p not in out]
    if "object" in out:
        out.remove("object")
    return out + ["object"]


@dataclass(frozen=True)
class Domain:
    name: str
    types: tuple[Typed, ...] = ()  # (type, parent); roots have parent "object"; a type may have several parents
    constants: tuple[Typed, ...] = ()
    predicates: tuple[Predicate, ...] = ()
    actions: tuple[Action, ...] = ()  # file order
    file: str | None = None
    functions: tuple[Predicate, ...] = ()  # numeric fluents (:functions), each of type number
    warnings: tuple[str, ...] = field(default=(), compare=False)
    cost_functions: tuple[Predicate, ...] = ()  # `:action-costs`: total-cost and the static cost functions
    derived: tuple[Derived, ...] = ()  # the :derived rules, file order
    broken: tuple[Broken, ...] = ()  # definitions a recovering read left out (`parse_domain(recover=True)`)

    @property
    def action_costs(self) -> bool:
        """The domain declares `(total-cost)`: its plans are measured by their actions' costs."""
        return any(f.name == "total-cost" for f in self.cost_functions)

    def predicate(self, name: str) -> Predicate | None:
        return self._named()[0].get(name)

    def action(self, name: str) -> Action | None:
        return self._named()[1].get(name)

    def _named(self) -> tuple[dict[str, Predicate], dict[str, Action]]:  # kept: a grounded domain has 10,000 actions
        return self.__dict__.get("_by_name") or self.__dict__.setdefault("_by_name", (  # reversed: a name's first
            {p.name: p for p in reversed(self.predicates)}, {a.name: a for a in reversed(self.actions)}))

    def predicate_named(self, name: str) -> Predicate:
        """The predicate `name`, which the caller knows the domain has (a KeyError if not: a bug)."""
        if (found := self.predicate(name)) is None:
            raise KeyError(f"no predicate '{name}' in domain {self.name}")
        return found

    def action_named(self, name: str) -> Action:
        """The action `name`, which the caller knows the domain has (a KeyError if not: a bug)."""
        if (found := self.action(name)) is None:
            raise KeyError(f"no action '{name}' in domain {self.name}")
        return found

    def ancestors(self, t: str) -> list[str]:
        """`t` and its supertypes up to `object`, nearest first (cycles are rejected by the parser; a type
        may have several parents, as Fast Downward reads a type declared twice): the types an
        object declared `t` has. One declared `(either a b)` has that type, `a` and `b` (as in VAL)."""
        if t.startswith("(either "):
            out = [t]
            for m in type_members(t):
                out += [x for x in self.ancestors(m) if x not in out]
            return out
        return supertypes(self.types, t)

    def fits(self, have: str, want: str) -> bool:
        """An object of type `have` is of type `want`: among its `ancestors`, or one of them in `(either ...)`; kept."""
        memo = self.__dict__.setdefault("_fits", {})
        if (have, want) not in memo:
            types = self.ancestors(have)
            memo[have, want] = want in types or any(m in types for m in type_members(want))
        return memo[have, want]

    def static_predicates(self) -> frozenset[str]:
        """Predicates that no action changes (no effect, conditional or not, names them): their atoms
        keep their initial truth value, so programs give them once instead of in every state."""
        changed = {e.literal.atom.predicate for a in self.actions for e in a.effects} | self.derived_predicates()
        return frozenset(p.name for p in self.predicates if p.name not in changed)

    def derived_predicates(self) -> frozenset[str]:
        """The predicates that :derived rules define (the others are basic: states give them)."""
        return frozenset(d.predicate for d in self.derived)


@dataclass(frozen=True)
class Problem:
    name: str
    domain_name: str
    objects: tuple[Typed, ...]
    init: frozenset[Atom]
    goal: tuple[Literal, ...]
    file: str | None = None
    costs: tuple[tuple[Atom, Number], ...] = ()  # `(= (f a b) 3)` of :init, `(total-cost)`'s start value too
    metric: bool = False  # `(:metric minimize (total-cost))`

    @cached_property
    def cost_table(self) -> dict[Atom, Number]:
        """The values `:init` gives the cost functions' ground applications (looked up per step)."""
        return dict(self.costs)

    def object_types(self, domain: Domain) -> dict[str, str]:
        """Objects of the problem and constants of the domain, with their declared type."""
        return {**dict(domain.constants), **dict(self.objects)}


@dataclass(frozen=True, order=True)
class GroundAction:
    """An action instance such as `(stack b1 b2)`: what plans and answers are made of."""

    name: str
    args: tuple[str, ...] = ()

    def __str__(self) -> str:
        return "(" + " ".join((self.name,) + self.args) + ")"
