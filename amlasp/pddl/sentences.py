"""English sentences read as ground actions: a clause of a language model's answer ("Unstack b from a",
"robot1 picks up ball1 in rooma with lgripper1", "put c down") against a domain's names and the English of
its actions (questions' templates); pddl/response.py finds the clauses (docs/llm.md, "Plans in an answer").

A clause reads as an action when, after leading words such as "first", "then", "we", "will", "step 3"
(and an object, its subject), it begins with the action's name: as one word (`pick-up`, `pickup`), as its
words (`pick up`; the first inflected or not: `picks up`, `picking up`), without the words of a type
(`drive t1` for `drive-truck`), or around its first object (`put b down`). Its objects are the problem's
objects named after the name, in order, as many as the action's parameters, of their types; when the
order given does not fit the types, each order that does is a reading. A clause may also be the action's
sentence with any article or type word before an object left out. The longest name read wins; two
readings left are ambiguous, and are never chosen between.
"""

from __future__ import annotations

import re
from itertools import permutations
from typing import Mapping, Sequence

from ..model import Action, Domain, Problem, canonical_name

Reading = tuple[str, tuple[str, ...]]  # an action's name and its objects

TOKEN = re.compile(r"[^\W_][\w\-]*(?:'[a-z]+)?")
#: Words an instruction may begin with before its action ("First, we will next ...").
_LEAD = frozenset("""first firstly second secondly third thirdly fourth fifth then next now finally lastly last
after that this afterwards subsequently step action we i you let let's lets us will shall should can could must
need needs to please so and also immediately in the end begin start by i'll we'll ll proceed go ahead
again simply just carefully do does did it arm robot hand agent starts begins by he she they""".split())
_NEGATION = frozenset({"not", "don't", "dont", "never", "cannot", "can't", "won't", "shouldn't", "mustn't",
                       "no", "avoid", "without"})
_PRONOUNS = frozenset({"it", "them", "this", "that", "these", "those", "one"})
_ARTICLES = frozenset({"the", "a", "an"})
_SLOT = re.compile(r"\{(\?[^{}\s]+)\}")  # a template's slot (questions/templates.py)


class Vocabulary:
    """The names a domain and problem give an answer: actions, objects, type words, template sentences."""

    def __init__(self, domain: Domain, problem: Problem, sentences: Mapping[str, str]):
        self.actions = {canonical_name(a.name): a for a in domain.actions}
        self.predicates = {canonical_name(p.name) for p in domain.predicates}
        table = problem.object_types(domain)
        self.objects = {canonical_name(o): o for o in table}
        self.types = table
        self.domain = domain
        self.type_words = {w for t, _ in domain.types for w in _words(t)} | {"object"}
        self.names: list[tuple[tuple[str, ...], Action]] = []  # word forms of each action's name
        for a in domain.actions:
            full = tuple(_words(a.name))
            forms = {full, (canonical_name(a.name),), ("".join(full),)}  # pick up, pick-up, pickup
            short = tuple(w for w in full if w not in self.type_words)
            if short and short != full:
                forms.add(short)
            self.names += [(f, a) for f in forms]
        self.by_first: dict[str, list[tuple[str, ...]]] = {}  # forms by their first word
        self.firsts: dict[str, list[tuple[tuple[str, ...], Action]]] = {}  # ... by its inflections too
        for f, a in self.names:
            self.by_first.setdefault(f[0], []).append(f)
            for w in _inflected(canonical_name(f[0])):
                self.firsts.setdefault(w, []).append((f, a))
        self.templates = [(a, _template(text, self.type_words)) for a in domain.actions
                          if (text := sentences.get(a.name))]
        # a clause with none of these words names no action: the first word of each name, the first
        # word of each sentence that must be written; `-` and `_` alike
        cues = {f[0] for f, _ in self.names} | {_cue(text, self.type_words) for text in sentences.values()}
        cues = {c[:-1] if c.endswith("e") and len(c) > 2 else c for c in cues}  # move: moving
        self.cue = re.compile("|".join(re.escape(c).replace("_", "[-_]") for c in sorted(cues - {""}, key=len,
                                                                                          reverse=True)) or "(?!)",
                              re.IGNORECASE)

    def fits(self, args: Sequence[str], action: Action) -> bool:
        return all(self.domain.fits(self.types[o], t) for o, (_, t) in zip(args, action.parameters))


def _inflected(word: str) -> set[str]:
    """A verb and its forms: pick, picks, picked, picking (unstack: unstacks, unstacked, unstacking; move:
    moving), not a full English morphology."""
    return {word, word + "s", word + "es", word + "ed", word + "d", word + "ing", word + word[-1:] + "ing",
            word + word[-1:] + "ed", word[:-1] + "ing"}


def _cue(text: str, type_words: set[str]) -> str:
    """The first word of a sentence that must be written (no article, type word or slot)."""
    return next((w for w in TOKEN.findall(_SLOT.sub(" ", text.lower())) if w not in _ARTICLES
                 and w not in type_words), "")


def _words(name: str) -> list[str]:
    """`pick-up`, `pick_up`, `pickUp` → pick, up."""
    return re.sub(r"([a-z])([A-Z])", r"\1 \2", name).replace("-", " ").replace("_", " ").lower().split()


def _template(text: str, type_words: set[str]) -> re.Pattern:
    """An action's sentence as a pattern over a clause's tokens, each followed by a space (objects written
    `§k`, k their place among the clause's objects): articles, and the type word before a slot, may be left out."""
    out: list[str] = []
    for i, part in enumerate(_SLOT.split(text.lower())):
        if i % 2:
            word = ""
            if out and out[-1][:-1] in type_words:  # "block {?x}": "block" may be left out
                word = f"(?:{out.pop()})?"
            out.append(rf"(?:(?:the|a|an) )?{word}§(\d+) ")
            continue
        out += [f"(?:{w} )?" if w in _ARTICLES else f"{re.escape(w)} " for w in TOKEN.findall(part)]
    return re.compile("".join(out))


def _tokens(clause: str, v: Vocabulary) -> list[tuple[str, str | None]]:
    """The clause's words, lower-case, each with the object it names (None: a word)."""
    words = [w.lower().rstrip("-") for w in TOKEN.findall(clause)]
    out: list[tuple[str, str | None]] = []
    for i, w in enumerate(words):
        obj = v.objects.get(canonical_name(w))
        if obj is not None and w in _ARTICLES and i + 1 < len(words) and words[i + 1] in v.type_words \
                and (i == 0 or words[i - 1] != "the"):
            obj = None  # "a block b": the article; "the a block": the object
        out.append((w, obj))
    return out


def read_clause(clause: str, v: Vocabulary) -> tuple[set[Reading], str]:
    """The actions a clause reads as, and why it reads as none although it begins with an action's name
    ('' when it does not); a negated clause ("do not unstack b from a") is no step and none missed."""
    if v.cue.search(clause) is None:
        return set(), ""
    tokens = _tokens(clause, v)
    lead = 0
    while lead < len(tokens) and tokens[lead][1] is None and (tokens[lead][0] in _LEAD or tokens[lead][0].isdigit()
                                                            or tokens[lead][0] in _NEGATION):
        lead += 1
    negated = any(w in _NEGATION for w, _ in tokens[:lead])
    subject = None  # "robot1 picks up ball1 ...": an object before the action's name is its first object
    if lead + 1 < len(tokens) and tokens[lead][1] is not None and tokens[lead + 1][1] is None:
        subject, lead = tokens[lead][1], lead + 1
    readings: dict[Reading, int] = {}
    trigger = ""
    words = [w for w, _ in tokens]
    for form, action in v.firsts.get(canonical_name(words[lead]), []) if lead < len(words) else []:
        k = len(form)
        particle = None
        if tuple(words[lead + 1:lead + k]) != form[1:]:
            if k == 2 and len(tokens) > lead + 2 and tokens[lead + 1][1] is not None and words[lead + 2] == form[1]:
                particle = tokens[lead + 1][1]  # "put b down"
            else:
                continue
        rest = tokens[lead + (3 if particle else k):]
        args = [x for x in (subject, particle) if x] + [o for _, o in rest if o is not None]
        found = _orders(args, action, v)
        if found:
            for x in found:
                readings[(action.name, x)] = max(readings.get((action.name, x), 0), k)
        elif not trigger:
            arity = len(action.parameters)
            trigger = (f"'{' '.join(form)}' with {len(args)} object(s) ({', '.join(args) or 'none'}): "
                       f"{action.name} takes {arity}" if len(args) != arity else
                       f"{action.name} {' '.join(args)}: the objects' types do not fit")
    candidates = v.firsts.get(canonical_name(words[lead]), []) if lead < len(words) else []
    if candidates and not readings and not trigger and any(o is not None for _, o in tokens[lead:]):
        names = sorted({a.name for _, a in candidates})  # "put b on top of d": begins as put_down, is none
        trigger = f"'{words[lead]}' with {', '.join(o for _, o in tokens[lead:] if o)} is not {' or '.join(names)}"
    if readings:  # the longest name read wins ("pick up from table b": pick-up-from-table, not pick-up)
        longest = max(readings.values())
        readings = {r: k for r, k in readings.items() if k == longest}
    found_template = _template_readings(tokens[lead - (subject is not None):], v)
    out = set(readings) | found_template
    if negated:  # "do not unstack b from a": no step, and none missed
        return set(), ""
    if not out and not trigger:
        trigger = _named_inside(tokens, lead, v)
    if not out and trigger and any(w in _PRONOUNS for w, _ in tokens[lead:]):
        trigger += " (a pronoun names no object: write the name of the object)"
    return out, ("" if out else trigger)


def _named_inside(tokens: list[tuple[str, str | None]], lead: int, v: Vocabulary) -> str:
    """Why a clause that names an action (as written, not inflected) further in, with an object after it,
    is no step ("I could pick up a now"): '' when it does not."""
    words = [canonical_name(w) for w, _ in tokens]
    for i in range(lead + 1, len(words)):
        for form in v.by_first.get(words[i], ()):
            if tuple(words[i:i + len(form)]) == form and any(o is not None for _, o in tokens[i + len(form):]):
                return f"'{' '.join(form)}' is named after other words: a step begins with its action"
    return ""


def _orders(args: list[str], action: Action, v: Vocabulary) -> list[tuple[str, ...]]:
    """The argument tuples of `action` the objects `args` give: as written if their types fit, else the
    orders that fit (several: each is a reading, so the clause is ambiguous)."""
    if len(args) != len(action.parameters):
        return []
    if v.fits(args, action):
        return [tuple(args)]
    if len(args) > 5:
        return []
    return sorted({p for p in permutations(args) if v.fits(p, action)})


def _template_readings(tokens: list[tuple[str, str | None]], v: Vocabulary) -> set[Reading]:
    """The actions whose English sentence the clause is (trailing words without objects allowed)."""
    if not v.templates:
        return set()
    objs = [o for _, o in tokens if o is not None]
    parts, k = [], 0
    for w, o in tokens:
        parts.append(w if o is None else f"§{k}")
        k += o is not None
    text = " ".join(parts) + " "
    out = set()
    for action, pattern in v.templates:
        m = pattern.match(text)
        if m is None or "§" in text[m.end():]:
            continue
        args = tuple(objs[int(g)] for g in m.groups())
        if len(args) == len(action.parameters) and v.fits(args, action):
            out.add((action.name, args))
    return out


__all__ = ["Reading", "TOKEN", "Vocabulary", "read_clause"]
