"""A domain whose actions are of the common shape, its actions read without positions: the fast path of
`parse.parse_domain`.

Reading a domain costs seconds per MB with positions (`sexpr`: a `Token` per word) and the passes, each
walking every action: about 0.3 s of CPU for organic-synthesis-split's 1,252 actions (450 KB), where VAL
validates a plan in 64 ms (benchmarks/README.md). Most actions of big domains are plain:

    (:action NAME :parameters (?x - type ...) :precondition (and LITERAL ...)
     :effect (and LITERAL ... [(increase (total-cost) NUMBER)]))

with a literal `(p t ...)`, `(not (p t ...))` and, in a precondition, `(= t t)`. Here the text before the
first action (the header: requirements, types, constants, predicates, functions) is read by the passes, as
a domain without actions; the actions are read from the words of the text (one regular expression) and
checked as the passes check them. Anything else, and anything a pass would refuse or warn about, gives
None, and the caller reads the whole text with the passes, which say where and why: so the Domain is the
passes' one whenever this gives one (tests/pddl/test_flat_domain.py: every domain of the repository read
both ways, and edited ones).

Left to the passes: a text with a character other than plain ASCII, a header the passes warn about or that
has derived predicates or numeric fluents, any section after the actions, an action with keys missing or
out of order, any other formula or effect (`or`, quantifiers, `when`, nested `and`), `either` types, a
dash glued to a name, a cost that is not a number, a use of a requirement the header does not declare,
and every error.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Callable, Optional

from ..errors import InputError
from ..limits import MAX_DEPTH
from ..model import TRUE, Action, And, Atom, Domain, Effect, Formula, Literal, Not, canonical_name
from . import sexpr
from .check import KEYWORDS, NAME
from .costs import TOTAL, number
from .declarations import type_names
from .repair import implied

_WORD = re.compile(r"[()]|[^\s()]+")
_COMMENT = re.compile(r";[^\n]*")
_ACTION = re.compile(r"\(\s*:action(?=[\s()])")
_REQUIREMENTS = re.compile(r"\(\s*:requirements([^()]*)\)")
# what only the passes read: a character other than plain ASCII words and separators
_OTHER = re.compile(r"[^\x09\x0a\x0c\x20-\x7e]")
#: The deepest an action of this shape nests (an atom under `not` under `and` under the action, in define).
_DEPTH = 5


class _Decline(Exception):
    """The text is not of the shape read here: the passes read it."""


def read_domain(text: str, file: str, header: Callable[[str], Domain]) -> Optional[Domain]:
    """The Domain of `text` (a normalised, unwrapped domain text), or None for the passes to read it.
    `header(text)`: the passes' Domain of a text (the header with a closing parenthesis)."""
    if not text.isascii() or _OTHER.search(text) is not None or MAX_DEPTH.value() <= _DEPTH:
        return None
    clean = _COMMENT.sub(lambda m: " " * len(m.group()), text.lower())  # offsets and lines kept
    starts = [m.start() for m in _ACTION.finditer(clean)]
    if not starts:
        return None
    try:
        head = header(text[:starts[0]] + ")")
    except InputError:
        return None
    if head.warnings or head.derived or head.functions or head.actions:
        return None
    try:
        return _Actions(head, clean, starts, file).domain()
    except (_Decline, IndexError):  # IndexError: the words ended inside an action
        return None


class _Actions:
    """The actions of the text after the header, read a word at a time with a cursor."""

    def __init__(self, head: Domain, clean: str, starts: list[int], file: str):
        self.head, self.file, self.starts = head, file, starts
        self.words = _WORD.findall(clean, starts[0])
        self.at = 0
        self.line = clean.count("\n", 0, starts[0]) + 1
        self.clean = clean
        self.arity = {p.name: p.arity for p in head.predicates}
        self.constants = {c for c, _ in head.constants}
        self.types = type_names(head.types)
        self.costs = head.action_costs
        found = _REQUIREMENTS.search(clean, 0, starts[0])
        self.declared = implied(set(found.group(1).split()) if found else set())
        self.taken = {canonical_name(n) for names in ([t for t, _ in head.types], self.constants,
                                                     [p.name for p in head.predicates]) for n in names}

    def domain(self) -> Domain:
        actions = []
        for k, start in enumerate(self.starts):
            if k:
                self.line += self.clean.count("\n", self.starts[k - 1], start)
            actions.append(self.action())
        if self.words[self.at:] != [")"]:  # the end of the define, and nothing after it
            raise _Decline
        return replace(self.head, actions=tuple(actions))

    def take(self, word: str) -> None:
        if self.at >= len(self.words) or self.words[self.at] != word:
            raise _Decline
        self.at += 1

    def word(self) -> str:
        """The next word, which must not be a parenthesis."""
        if self.at >= len(self.words):
            raise _Decline
        w = self.words[self.at]
        if w in ("(", ")"):
            raise _Decline
        self.at += 1
        return w

    def action(self) -> Action:
        self.take("(")
        self.take(":action")
        name = self.word()
        if not NAME.fullmatch(name) or name in KEYWORDS or canonical_name(name) in self.taken:
            raise _Decline  # an invalid, repeated or clashing name: the passes' error
        self.taken.add(canonical_name(name))
        self.take(":parameters")
        params = self.parameters()
        scope = {v for v, _ in params}
        self.take(":precondition")
        pre = self.precondition(scope)
        self.take(":effect")
        effects, cost = self.effects(scope)
        self.take(")")
        if cost is not None and not self.costs:
            raise _Decline
        return Action(name, params, pre, effects, self.line, cost=cost)

    def parameters(self) -> tuple[tuple[str, str], ...]:
        self.take("(")
        out: list[tuple[str, str]] = []
        pending: list[str] = []
        while self.words[self.at] != ")":
            w = self.word()
            if w == "-":
                t = self.word()
                if not pending or t not in self.types:  # a type given to no name, or undeclared (or glued)
                    raise _Decline
                out += [(v, t) for v in pending]
                pending = []
                self.needs(":typing")
            elif w[0] != "?" or not NAME.fullmatch(w[1:]):
                raise _Decline  # not a variable, or a dash glued to one (`?x-`)
            else:
                pending.append(w)
        self.at += 1
        out += [(v, "object") for v in pending]
        if len({v for v, _ in out}) != len(out):
            raise _Decline
        return tuple(out)

    def needs(self, requirement: str) -> None:
        if requirement not in self.declared:
            raise _Decline  # the passes say it is used but not declared

    def precondition(self, scope: set[str]) -> Formula:
        if self.words[self.at:self.at + 2] == ["(", "and"]:
            self.at += 2
            out: list[Formula] = []
            while self.words[self.at] != ")":
                out.append(self.condition(scope))
            self.at += 1
            return And(tuple(dict.fromkeys(out)))
        return And((self.condition(scope),))

    def condition(self, scope: set[str]) -> Formula:
        positive, atom = self.literal(scope, True)
        return atom if positive else Not(atom)

    def literal(self, scope: set[str], precondition: bool) -> tuple[bool, Atom]:
        """A literal: whether it is positive, and its atom."""
        self.take("(")
        if self.words[self.at] == "not":
            self.at += 1
            if precondition:
                self.needs(":negative-preconditions")
            inner = self.atom(scope, precondition)
            self.take(")")
            return False, inner
        return True, self.atom(scope, precondition, opened=True)

    def atom(self, scope: set[str], precondition: bool, opened: bool = False) -> Atom:
        if not opened:
            self.take("(")
        name = self.word()
        args = []
        while self.words[self.at] != ")":
            a = self.word()
            if not (a in scope if a[0] == "?" else a in self.constants):
                raise _Decline
            args.append(a)
        self.at += 1
        if name == "=":
            if not precondition or len(args) != 2:
                raise _Decline
            self.needs(":equality")
        elif self.arity.get(name) != len(args):
            raise _Decline
        return Atom(name, tuple(args))

    def effects(self, scope: set[str]) -> tuple[tuple[Effect, ...], Optional[int | float]]:
        cost = None
        out: list[Effect] = []
        nested = self.words[self.at:self.at + 2] == ["(", "and"]
        if nested:
            self.at += 2
        while not nested or self.words[self.at] != ")":
            if self.words[self.at:self.at + 2] == ["(", "increase"]:
                if cost is not None:
                    raise _Decline
                cost = self.cost()
            else:
                positive, atom = self.literal(scope, False)
                out.append(Effect(Literal(atom, positive), TRUE, ()))
            if not nested:
                break
        if nested:
            self.at += 1
        return tuple(dict.fromkeys(out)), cost

    def cost(self) -> int | float:
        self.at += 2
        for w in ("(", TOTAL, ")"):
            self.take(w)
        value = self.word()
        self.take(")")
        try:
            return number(sexpr.Token(value, self.line), self.file, "an action cost")
        except InputError:
            raise _Decline from None


__all__ = ["read_domain"]
