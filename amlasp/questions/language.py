"""English from PDDL: facts, actions, the domain's rules, objects, states and goals.

Every predicate and action gets a sentence with `{?param}` slots: from the domain's template
file when there is one (questions/templates.py), else a generic one built from its name and
parameter types ("(at c1 l0)" with `at ?c - car ?l - location` reads "car c1 is at location l0").
The same sentences, read backwards as patterns, let a grader recognise an action or a fact that
an answer gives in English.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property

from .. import logic
from ..model import (
    And,
    Atom,
    Domain,
    Exists,
    Forall,
    Formula,
    GoalCondition,
    GroundAction,
    Imply,
    Literal,
    Not,
    Or,
    Problem,
)
from .templates import SLOT, Templates, templates_for

_VERBS = ("is", "are", "has", "have", "can", "does", "do", "was", "must", "should", "needs", "contains")


def words(name: str) -> str:
    """`at-ferry`, `at_ferry`, `atFerry` → "at ferry"."""
    return " ".join(re.sub(r"([a-z])([A-Z])", r"\1 \2", name).replace("-", " ").replace("_", " ").split()).lower()


#: nouns whose plural no rule gives ("3 childs", "2 aircrafts", "2 goodses")
IRREGULAR = {"child": "children", "person": "people", "man": "men", "woman": "women", "aircraft": "aircraft",
             "goods": "goods", "foot": "feet", "mouse": "mice", "sheep": "sheep", "fish": "fish",
             "series": "series", "species": "species", "die": "dice"}


def plural(noun: str, table: dict[str, str] | None = None) -> str:
    if table and noun in table:
        return table[noun]
    w = words(noun)
    head, _, last = w.rpartition(" ")
    if last in IRREGULAR:
        return f"{head} {IRREGULAR[last]}".strip()
    if re.search(r"(s|x|z|ch|sh)$", w):
        return w + "es"
    if re.search(r"[^aeiou]y$", w):
        return w[:-1] + "ies"
    return w + "s"


def enumerate_text(parts: list[str], last: str = "and") -> str:
    """"a", "a and b", "a, b and c"."""
    if not parts:
        return ""
    if len(parts) == 1:
        return parts[0]
    return ", ".join(parts[:-1]) + f" {last} " + parts[-1]


def _typed_slot(param: str, type_name: str, skip_type: bool) -> str:
    return f"{{{param}}}" if type_name == "object" or skip_type else f"{words(type_name)} {{{param}}}"


def generic_fact(name: str, params: list[tuple[str, str]]) -> str:
    """"car {?c} is at location {?l}"; "empty ferry is true"; "can traverse holds for ..."."""
    w = words(name)
    head = w.split(" ", 1)[0]
    verb = head in _VERBS or (len(head) > 3 and head.endswith("s") and not head.endswith("ss"))  # "supports"
    if not params:
        return f"{w} is true"
    first = _typed_slot(params[0][0], params[0][1], False)
    if len(params) == 1:
        return f"{first} {w}" if verb else f"{first} is {w}"
    if len(params) == 2:
        v, t = params[1]
        second = _typed_slot(v, t, w.split()[-1] == words(t))  # "in city {?c}", not "in city city {?c}"
        return f"{first} {w} {second}" if verb else f"{first} is {w} {second}"
    rest = [_typed_slot(v, t, False) for v, t in params]
    return f"{w} holds for {enumerate_text(rest)}"


def generic_action(name: str, params: list[tuple[str, str]]) -> str:
    """"board car {?car} and location {?loc}"."""
    w = words(name)
    slots = [_typed_slot(v, t, i == 0 and w.split()[-1] == words(t)) for i, (v, t) in enumerate(params)]
    return f"{w} {enumerate_text(slots)}".strip()


def negate(sentence: str) -> str:
    """"x is at y" → "x is not at y"; otherwise "it is not the case that ..."."""
    for verb in ("is", "are"):
        m = re.search(rf"\b{verb}\b", sentence)
        if m and "{" not in sentence[m.start():m.end()]:
            return sentence[:m.end()] + " not" + sentence[m.end():]
    return f"it is not the case that {sentence}"


def _literal(text: str) -> str:
    """A literal part of a sentence as a pattern: any run of spaces matches any whitespace."""
    return re.escape(text).replace(r"\ ", r"\s+")


@dataclass(frozen=True)
class Sentence:
    """A sentence with `{?param}` slots, for the parameters `params` in order."""

    text: str
    params: tuple[str, ...]
    nouns: frozenset[str] | None = None  # the words that may be dropped before an object named after them

    def fill(self, args: tuple[str, ...]) -> str:
        """The sentence for `args`; a type word before an object named after it goes ("rover rover0" → "rover0"),
        never another word ("is at attic1" keeps its "at")."""
        table = dict(zip(self.params, args))
        out, last = [], 0
        for m in SLOT.finditer(self.text):
            before = self.text[last:m.start()]
            value = table.get(m.group(1), m.group(1))
            word = re.search(r"(\w+)\s+$", before)
            if word and (self.nouns is None or word.group(1).lower() in self.nouns) and \
                    value.lower().startswith(word.group(1).lower()) and value.lower() != word.group(1).lower():
                before = before[:word.start()]
            out += [before, value]
            last = m.end()
        return "".join(out) + self.text[last:]

    @cached_property
    def pattern(self) -> re.Pattern:
        """The sentence as a pattern over lower-case, single-spaced text, a group per slot (`g<k>`, or
        `h<k>` for a value read without the type word before it, which `fill` drops before "rover0")."""
        out: list[str] = []
        last, seen = 0, dict[str, str]()
        for m in SLOT.finditer(self.text):
            before = re.sub(r"\s+", " ", self.text[last:m.start()].lower())
            v = m.group(1)
            word = re.search(r"(\w+) $", before)
            if v in seen:
                out += [_literal(before), f"(?P={seen[v]})"]
            else:
                seen[v] = f"g{len(seen)}"
                k = seen[v][1:]
                if word:
                    w = re.escape(word.group(1))
                    out += [_literal(before[:word.start()]),
                            rf"(?:{w}\s+(?P<g{k}>[\w\-.]+)|(?P<h{k}>{w}[\w\-.]+))"]
                else:
                    out += [_literal(before), rf"(?P<g{k}>[\w\-.]+)"]
            last = m.end()
        out.append(_literal(re.sub(r"\s+", " ", self.text[last:].lower())))
        return re.compile("".join(out))

    def match(self, text: str) -> tuple[str, ...] | None:
        m = self.pattern.fullmatch(" ".join(text.lower().split()))
        if m is None:
            return None
        found = m.groupdict()
        groups = {v: found.get(f"g{i}") or found.get(f"h{i}")
                  for i, v in enumerate(dict.fromkeys(SLOT.findall(self.text)))}
        if any(groups.get(p) is None for p in self.params):
            return None  # a parameter the sentence does not mention cannot be read back
        return tuple(groups[p] or "" for p in self.params)  # none is None (checked above)


class Phrasebook:
    """The sentences of one domain (templates first, generic otherwise)."""

    def __init__(self, domain: Domain, templates: Templates | None = None):
        self.domain = domain
        self.templates = templates
        t = templates or Templates(domain.name)
        nouns = frozenset(w for name, _ in domain.types for w in words(name).split()) | {"object"}
        self.facts: dict[str, Sentence] = {}
        self.negated: dict[str, Sentence] = {}
        for p in domain.predicates:
            params = tuple(v for v, _ in p.parameters)
            text = t.predicates.get(p.name) or generic_fact(p.name, list(p.parameters))
            self.facts[p.name] = Sentence(text, params, nouns)
            self.negated[p.name] = Sentence(t.negated.get(p.name) or negate(text), params, nouns)
        self.actions = {a.name: Sentence(t.actions.get(a.name) or generic_action(a.name, list(a.parameters)),
                                         tuple(v for v, _ in a.parameters), nouns) for a in domain.actions}
        self.description = t.description
        self.plurals = dict(t.plurals)
        # memos: a thousand items of one problem describe the same facts, rules and static facts again
        self._facts: dict[Atom, str] = {}
        self._fixed: dict[frozenset[Atom], str] = {}
        self._domain_text: str | None = None

    # -- ground
    def fact(self, atom: Atom) -> str:
        text = self._facts.get(atom)
        if text is None:
            if atom.predicate == "=":
                text = f"{atom.args[0]} is {atom.args[1]}"
            else:
                s = self.facts.get(atom.predicate)
                text = s.fill(atom.args) if s else str(atom)
            self._facts[atom] = text
        return text

    def not_fact(self, atom: Atom) -> str:
        if atom.predicate == "=":
            return f"{atom.args[0]} is not {atom.args[1]}"
        s = self.negated.get(atom.predicate)
        return s.fill(atom.args) if s else f"not {atom}"

    def literal(self, lit: Literal) -> str:
        return self.fact(lit.atom) if lit.positive else self.not_fact(lit.atom)

    def action(self, a: GroundAction) -> str:
        s = self.actions.get(a.name)
        return s.fill(a.args) if s else str(a)

    def read_action(self, text: str) -> GroundAction | None:
        """The ground action an English phrase names (one of our sentences, read back), or None."""
        text = text.strip().rstrip(".").strip()
        for name, s in self.actions.items():
            args = s.match(text)
            if args is not None:
                return GroundAction(name, args)
        return None

    def read_fact(self, text: str) -> Atom | None:
        text = text.strip().rstrip(".").strip()
        for name, s in self.facts.items():
            args = s.match(text)
            if args is not None:
                return Atom(name, args)
        return None

    # -- lifted: the rules of the domain
    def formula(self, f: Formula) -> str:
        """A precondition or condition in English, variables shown as `?x`."""
        def atom(a: Atom, _env) -> str:
            return self.fact(a)

        def node(g: Formula, parts: list[str], _env) -> str:
            if isinstance(g, Not):
                inner = g.arg
                return self.not_fact(inner) if isinstance(inner, Atom) else f"it is not the case that ({parts[0]})"
            if isinstance(g, And):
                return enumerate_text(parts) if parts else "nothing"
            if isinstance(g, Or):
                return "either " + enumerate_text(parts, "or")
            if isinstance(g, Imply):
                return f"if {parts[0]} then {parts[1]}"
            assert isinstance(g, (Exists, Forall))  # the connectives are handled above
            variables = enumerate_text([f"{words(t)} {v}" if t != "object" else v for v, t in g.variables])
            if isinstance(g, Exists):
                return f"there is {variables} such that {parts[0]}"
            return f"for every {variables}, {parts[0]}"
        return logic.fold(f, atom, node)

    def rule(self, name: str) -> str:
        """What an action requires and what it does, in one sentence; its variables are named by
        capital letters (X, Y, Z, ...), never `?x`."""
        a = self.domain.action_named(name)
        head = _infinitive(self.actions[name].text, {words(t) for t, _ in self.domain.types} | {"object"})
        head = head.replace("{", "").replace("}", "")
        pre = self.formula(a.precondition) if a.precondition != And(()) else ""
        effects = []
        added = {(e.literal.atom, e.condition, e.variables) for e in a.effects if e.literal.positive}
        for e in a.effects:
            if not e.literal.positive and (e.literal.atom, e.condition, e.variables) in added:
                continue  # deleted and added again: the add wins (delete before add), so it is only added
            lit = self.fact(e.literal.atom) if e.literal.positive else self.not_fact(e.literal.atom)
            if e.condition != And(()):
                lit = f"if {self.formula(e.condition)}, then {lit}"
            if e.variables:
                lit = "for every " + enumerate_text([f"{words(t)} {v}" for v, t in e.variables]) + f", {lit}"
            effects.append(lit)
        requires = f" requires that {pre}" if pre else " can always be done"
        result = f"; afterwards, {enumerate_text(effects)}" if effects else "; it changes nothing"
        return _lettered(f"To {head}{requires}{result}.", [v for v, _ in a.parameters])

    def vocabulary(self) -> str:
        """ACPBench's list of the PDDL names a free answer may use."""
        preds = [f"({p.name}{''.join(' ' + v for v, _ in p.parameters)}) - {self.facts[p.name].text}"
                 for p in self.domain.predicates]
        acts = [f"({a.name}{''.join(' ' + v for v, _ in a.parameters)}) - {self.actions[a.name].text}"
                for a in self.domain.actions]
        strip = lambda s: s.replace("{", "").replace("}", "")  # noqa: E731
        return (f"The available propositions are: {strip(enumerate_text(preds))}. "
                f"The available actions are: {strip(enumerate_text(acts))}.")

    # -- problems and states
    def objects(self, problem: Problem) -> str:
        by_type: dict[str, list[str]] = {}
        for o, t in problem.objects:
            by_type.setdefault(t, []).append(o)
        parts = []
        for t in sorted(by_type):
            objs = sorted(by_type[t])
            noun = "object" if t == "object" else words(t)
            name = noun if len(objs) == 1 else plural(t, self.plurals) if t != "object" else "objects"
            parts.append(f"{len(objs)} {name} ({enumerate_text(objs)})")
        if not parts:
            return "There are no objects."
        verb = "is" if len(by_type[min(by_type)]) == 1 else "are"  # "There is 1 ball and 2 rooms"
        return f"There {verb} {enumerate_text(parts)}."

    def facts_text(self, atoms, positive: bool = True) -> str:
        """Facts grouped by predicate (in the domain's order), each group sorted."""
        order = {p.name: i for i, p in enumerate(self.domain.predicates)}
        atoms = sorted((a for a in atoms if a.predicate != "="), key=lambda a: (order.get(a.predicate, 10**6), a.args))
        return enumerate_text([self.fact(a) if positive else self.not_fact(a) for a in atoms])

    def state(self, state, static: frozenset[str], lead: str = "Currently") -> str:
        fluent = [a for a in state if a.predicate not in static]
        fixed = frozenset(a for a in state if a.predicate in static)
        out = []
        if fixed:
            if fixed not in self._fixed:
                self._fixed[fixed] = f"The following facts never change: {self.facts_text(fixed)}."
            out.append(self._fixed[fixed])
        out.append(f"{lead}, {self.facts_text(fluent)}." if fluent else f"{lead}, none of the other facts hold.")
        out.append("Any fact not listed is false.")
        return " ".join(out)

    def goal(self, goal: tuple[Literal, ...]) -> str:
        """The goal's conjuncts in English; a goal condition (`forall`, `or`, ...) as its formula, its
        variables named by capital letters."""
        parts = [_lettered(self.formula(g.formula), []) if isinstance(g, GoalCondition) else self.literal(g)
                 for g in goal]
        return "The goal is to reach a state where " + enumerate_text(parts) + "."

    def domain_text(self) -> str:
        if self._domain_text is None:
            intro = self.description.strip() or f"This is the {self.domain.name} planning domain."
            rules = " ".join(self.rule(a.name) for a in self.domain.actions)
            self._domain_text = f"{intro} {rules}"
        return self._domain_text


def action_sentences(domain: Domain) -> dict[str, str]:
    """Each action's English with `{?param}` slots (the shipped templates that fit the domain, else the
    generic sentence): what `validate --from-text` reads in an answer besides the domain's names."""
    return {name: s.text for name, s in Phrasebook(domain, templates_for(domain)).actions.items()}


PLACEHOLDERS = "XYZWVUTSRQPONMLKJIHGFEDCBA"
#: words in -s after a subject that are not a verb of it
_NOT_VERBS = frozenset({"its", "is", "was", "has", "as", "this", "plus", "thus", "towards", "always"})


def _lettered(text: str, params: list[str]) -> str:
    """`?from`, `?to` → X, Y (the action's parameters first, in order, then any other variable)."""
    names: dict[str, str] = {}
    for v in params + re.findall(r"\?[A-Za-z][\w-]*", text):
        if v not in names:
            k = len(names)
            names[v] = PLACEHOLDERS[k] if k < len(PLACEHOLDERS) else f"X{k}"
    return re.sub(r"\?[A-Za-z][\w-]*", lambda m: names[m.group(0)], text)


def _infinitive(template: str, nouns: set[str]) -> str:
    """An action's sentence after "To": as written when it is a command ("sail from location {?from}
    ..."); "have robot {?r} pick up ..." when it has a subject ("robot {?r} picks up ...", "the positive
    hand {?h} puts down ...": a noun phrase ending in its first slot, then a verb in -s)."""
    tokens = template.split()
    k = next((i for i, w in enumerate(tokens) if w.startswith("{")), None)
    if k is None or k > 3 or len(tokens) <= k + 1 or tokens[k].endswith(","):
        return template
    verb = tokens[k + 1]
    subject = k == 0 or (words(tokens[k - 1]) in nouns and (tokens[0] in ("the", "a", "an") or k == 1) and
                         all(w.isalpha() for w in tokens[:k - 1]))
    if not subject or not re.fullmatch(r"[a-z]+s", verb) or verb in _NOT_VERBS or verb.endswith("ss"):
        return template
    base = verb[:-3] + "y" if verb.endswith("ies") else verb[:-2] if re.search(r"(sh|ch|ss|x|o)es$", verb) else \
        verb[:-1] if verb.endswith("s") and not verb.endswith("ss") else verb
    return " ".join(["have", *tokens[:k + 1], base, *tokens[k + 2:]])


__all__ = ["Phrasebook", "Sentence", "action_sentences",
           "words", "plural", "enumerate_text", "generic_fact", "generic_action", "negate"]
