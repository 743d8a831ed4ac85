"""Ground atoms and actions (`(on b1 b2)`, `(stack b1 b2)`) checked against a domain and a problem's objects.

Init atoms, goals, states, plans and what a user types all meet here, so they are checked
alike: the predicate or action is the domain's, with its arity, every argument is an object of
the problem (or a constant of the domain) and its type fits the declared parameter type (a
subtype counts). A car where a curb is expected is refused, naming the object, its type and
the type expected, at the argument's line and column: PDDL's typing is part of the model's
meaning, and an ill-typed atom would silently never match an action.
"""

from __future__ import annotations

from itertools import repeat

from ..errors import InputError
from ..model import Atom, Domain, GroundAction
from . import sexpr
from .suggest import did_you_mean


class Grounder:
    """A domain with a table of objects (name → type): what ground atoms and actions are checked against."""

    def __init__(self, domain: Domain, objects: dict[str, str]):
        self.domain = domain
        self.objects = objects
        self.predicates = {p.name: p for p in domain.predicates}
        self._types = {p.name: tuple(t for _, t in p.parameters) for p in domain.predicates}
        self._actions = {a.name: a for a in domain.actions}
        self.derived = domain.derived_predicates()

    def fits(self, obj: str, expected: str) -> bool:
        """`obj`'s type is `expected` or one of its subtypes (`Domain.fits`: `either` types too)."""
        return self.domain.fits(self.objects[obj], expected)

    def _where(self) -> str:
        d = self.domain
        return f"domain {d.name}" + (f", {d.file}" if d.file else "")

    def atom(self, node: sexpr.SExpr, file: str, equality: bool = False, derived: bool = False) -> Atom:
        """One ground atom like (on b1 b2): for init, goals, states and literals typed by a user;
        `(= a b)` too with `equality` (goals), and one of a derived predicate only with `derived`
        (a goal, a literal asked about): a state holds basic atoms, its derived ones are computed."""
        name = node.head() if isinstance(node, sexpr.List) else None
        if name is None:
            raise InputError(f"expected a ground atom like (on a b), got '{_text(node)}'", file, at=node)
        assert isinstance(node, sexpr.List)
        if name == "not":
            raise InputError("negative literals are not allowed here (states are closed-world: list true atoms)",
                             file, at=node)
        if name == "=" and equality:
            args = self._arguments(node, file)
            if len(args) != 2:
                raise InputError(f"'=' takes two arguments, {len(args)} given", file, at=node[0])
            return Atom("=", tuple(str(a) for a in args))
        decl = self.predicates.get(name)
        if decl is None:
            raise InputError(f"undefined predicate '{name}' (not declared in {self._where()})"
                             f"{did_you_mean(name, self.predicates)}", file, at=node[0], kind="undeclared-predicate")
        if not derived and name in self.derived:
            raise InputError(f"derived predicate '{name}' in a state: it is computed from the state's other "
                             f"atoms, not given", file, at=node[0])
        if len(node) - 1 != decl.arity:
            raise InputError(f"predicate '{name}' takes {decl.arity} argument(s), {len(node) - 1} given", file,
                             at=node[0], kind="wrong-arity")
        args = self._arguments(node, file)
        expect = self._types[name]
        if not all(map(self.fits, args, expect)):  # a problem's init holds thousands of atoms
            for i, (a, expected) in enumerate(zip(args, expect), 1):
                if not self.fits(a, expected):
                    raise InputError(f"object '{a}' has type '{self.objects[a]}', but argument {i} of predicate "
                                     f"'{name}' has type '{expected}'", file, at=a, kind="wrong-type")
        return Atom(name, tuple(map(str, args)))

    def action(self, node: sexpr.SExpr, file: str, check_action: bool = True, check_types: bool = True
               ) -> GroundAction:
        """One ground action like (stack b1 b2). Without `check_action` (a trajectory's actions, which may
        come from another model), an unknown name or arity is let through, but a known action's types are checked."""
        name = node.head() if isinstance(node, sexpr.List) else None
        if name is None:
            raise InputError("expected an action like (stack b1 b2)", file, at=node)
        assert isinstance(node, sexpr.List)
        schema = self._actions.get(name)
        if check_action:
            if schema is None:
                raise InputError(f"unknown action '{name}' (not in {self._where()})", file, at=node[0],
                                 kind="unknown-action")
            if schema.arity != len(node) - 1:
                raise InputError(f"action '{name}' takes {schema.arity} argument(s), {len(node) - 1} given", file,
                                 at=node[0], kind="wrong-arity")
        args = self._arguments(node, file, what="an action")
        if check_types and schema is not None and schema.arity == len(args):
            for i, (a, (_, expected)) in enumerate(zip(args, schema.parameters), 1):
                if not self.fits(a, expected):
                    raise InputError(f"object '{a}' has type '{self.objects[a]}', but parameter {i} of action "
                                     f"'{name}' has type '{expected}'", file, at=a, kind="wrong-type")
        return GroundAction(str(name), tuple(str(a) for a in args))

    def plain_action(self, name: str, args: list[str], check_action: bool = True, check_types: bool = True
                     ) -> GroundAction | None:
        """The action `name(args)` (lower-case words) if it passes every check of `action` (with
        the same `check_action`), else None: the caller reads it again through `action`, which says
        where it fails. Plan lines and trajectories are read so, without building tokens that
        remember their positions: 5x faster."""
        schema = self._actions.get(name)
        known = schema is not None and schema.arity == len(args)
        if (check_action and not known) or not all(a in self.objects for a in args):
            return None
        if check_types and schema is not None and known and not all(self.fits(a, expected)
                                                    for a, (_, expected) in zip(args, schema.parameters)):
            return None
        return GroundAction(name, tuple(args))

    def _arguments(self, node: sexpr.List, file: str, what: str = "an atom") -> list[sexpr.Token]:
        args = node[1:]
        if all(map(isinstance, args, repeat(sexpr.Token))) and all(map(self.objects.__contains__, args)):
            return args  # every argument an object's token: tested without a call per argument
        for a in args:
            if not isinstance(a, sexpr.Token):
                raise InputError(f"nested parentheses in {what}", file, at=a)
            if a not in self.objects:
                raise InputError(f"unknown object '{a}'", file, at=a, kind="unknown-object")
        return args


def _text(node: sexpr.SExpr) -> str:
    return str(node) if isinstance(node, sexpr.Token) else "(...)"


__all__ = ["Grounder"]
