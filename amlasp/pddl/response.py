"""A plan inside a language model's answer (`amlasp validate --from-text`, docs/llm.md "Plans in an answer").

An answer holds a plan among other text: PDDL actions (`(unstack b a)`, in a code fence or not, numbered
or not) or English sentences that name an action and its objects ("Unstack b from a.", "First, pick up
block c. Then stack it..."). `extract_plan` finds the steps, each with its place in the answer and how it
was found (`pddl`, `english`), and the sentences that look like steps but name no single action: those
are reported (`Unmatched`), never guessed, and a plan with one is unreadable (`read_response`).

What is read (the rules, in order):

* The text is split into lines; a Markdown code fence (three backquotes or tildes) is one block, an
  unclosed fence runs to the end. Outside fences a new block starts at a heading (a line ending with
  `:`, a `#` line, a `[TAG]` line, a line all in bold), at a clause ending with `:` that names no
  action, at a list item whose number is not above the previous one's, and at "First"/"Firstly".
* A line is a PDDL line when it holds an innermost parenthesised group whose first word is one of the
  domain's actions (any case, `-` and `_` alike), or when it is nothing but an optional list marker, one
  group, an optional `[cost]` and an optional comment (then the group is a step whatever its first word,
  so that the reader reports an unknown action), except a group of a predicate, a keyword or a number.
  The rest of a PDDL line is commentary.
* Other lines are split into clauses (at `.`, `;`, `:`, `!`, `?` before a space, at `,`, "then", "and",
  "after that"). A clause is a step when, after leading words such as "first", "then", "we", "will",
  "next", "step 3", it begins with an action: its name as one word (`pick-up`), its words (`pick up`,
  the first one inflected or not: `picks up`), those without the words of a type (`drive t1` for
  `drive-truck`), or a two-word name around its first object (`put b down`); the objects are the
  problem's objects named after it, in order, as many as the action's parameters, and of their types
  (if the order given does not fit the types, the one order that does is taken; several: ambiguous).
  A clause may also be the English of the action's sentence (questions' templates, or the generic one),
  with any type word and article left out. Two readings of one clause are ambiguous, never chosen.
* A clause that begins with an action's name but reads as no action, a negated one ("do not unstack b
  from a"), a question, or a list item that reads as no action, is unmatched.
* The answer is the last block with a step, fenced blocks before others and blocks with PDDL steps
  before those without; the other blocks are drafts and are not read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import permutations
from typing import Mapping, Sequence

from ..errors import InputError
from ..limits import MAX_INPUT_MB, max_bytes
from ..model import Domain, GroundAction, Problem, canonical_name
from .plans import parse_plan

#: Unmatched sentences kept in an extraction (the others are counted): a hostile answer may have millions.
MAX_UNMATCHED = 50
#: Longest clause (characters) read for English: a longer run without a stop is no sentence of a plan.
MAX_CLAUSE = 2000

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2060-\u2064\ufeff]")
_FENCE = re.compile(r"^\s*(`{3,}|~{3,})")
_ITEM = re.compile(r"\s*(?:(?:step|action)\s*(?P<s>\d+)\s*[:.)\-]?|(?P<n>\d+)(?:\.\d+)?\s*[.):]|\((?P<p>\d+)\)"
                   r"|[-+\u2022])(?=\s|\(|$)\s*", re.IGNORECASE)
_GROUP = re.compile(r"\(([^()]*)\)")
_OPEN = re.compile(r"\(\s*([^\s()]+)[^()]*$")
#: A line that is one group: a plan file's line (`0: (a b) [1]`, `(a b) ; comment`).
_ALONE = re.compile(r"\s*\([^()]*\)\s*(?:\[[^\]]*\])?\s*(?:(?:;|#|//).*)?")
_HEADING = re.compile(r"\s*(?:#.*|\[[^\]]*\]\s*|.*:\s*)$")
_CLAUSE_END = re.compile(r"[.;:!?](?=\s|$)|,|->|=>|\u2192|\b(?:and then|then|and|after that|afterwards)\b",
                         re.IGNORECASE)
_TOKEN = re.compile(r"[^\W_][\w\-]*(?:'[a-z]+)?")
_NOT_STEP_HEADS = frozenset({"and", "or", "not", "define", "forall", "exists", "when", "either", "imply", "="})
#: Words an instruction may begin with before its action ("First, we will next ...").
_LEAD = frozenset("""first firstly second secondly third thirdly fourth fifth then next now finally lastly last
after that this afterwards subsequently step action we i you let let's lets us will shall should can could must
need needs to please so and also immediately in the end begin start by i'll we'll ll proceed go ahead
again simply just carefully do does did it arm robot hand agent starts begins by he she they""".split())
_NEGATION = frozenset({"not", "don't", "dont", "never", "cannot", "can't", "won't", "shouldn't", "mustn't",
                       "no", "avoid", "without"})
_PRONOUNS = frozenset({"it", "them", "this", "that", "these", "those", "one"})
_ARTICLES = frozenset({"the", "a", "an"})
_RESTART = frozenset({"first", "firstly"})
_SLOT = re.compile(r"\{(\?[^{}\s]+)\}")  # a template's slot (questions/templates.py)


@dataclass(frozen=True)
class Step:
    """One step found: the action as a plan line, where it is (1-based line and column), how it was found
    (`pddl`: a parenthesised group; `english`: a sentence) and the text it was read from."""

    action: str
    line: int
    col: int
    how: str
    text: str


@dataclass(frozen=True)
class Unmatched:
    """A sentence that looks like a step and is none: where it is, its text, and why."""

    text: str
    line: int
    col: int
    reason: str
    step: int  # the step it would have been (1-based): the steps before it, plus one


@dataclass(frozen=True)
class Extraction:
    """The plan read out of an answer: its steps, the unmatched sentences of its block (the first
    `MAX_UNMATCHED`; `more` counts the rest), how many blocks held a step, and the lines of the one read."""

    steps: tuple[Step, ...]
    unmatched: tuple[Unmatched, ...]
    blocks: int
    lines: tuple[int, int] | None  # first and last line of the block read; None: no step anywhere
    more: int = 0

    def plan_text(self) -> str:
        """The steps as plan lines, for `plans.parse_plan`."""
        return "\n".join(s.action for s in self.steps)

    def to_dict(self) -> dict:
        return {"plan": [s.action for s in self.steps], "how": [s.how for s in self.steps],
                "at": [f"{s.line}:{s.col}" for s in self.steps],
                "unmatched": [{"text": u.text, "at": f"{u.line}:{u.col}", "step": u.step, "reason": u.reason}
                              for u in self.unmatched],
                "unmatched_more": self.more, "blocks": self.blocks,
                "lines": list(self.lines) if self.lines else None}


class ResponseError(InputError):
    """An answer that holds no readable plan: located in the answer, with its `extraction` and the `step`
    (1-based) at which reading stopped."""

    def __init__(self, message: str, file: str, line: int | None, col: int | None, extraction: Extraction,
                 step: int | None):
        super().__init__(message, file, line, col)
        self.extraction, self.step = extraction, step


@dataclass(frozen=True)
class _Unit:
    """A step or an unmatched sentence, before blocks are chosen."""

    block: int
    fenced: bool
    step: Step | None
    miss: tuple[str, int, int, str] | None = None  # text, line, col, reason


class _Vocabulary:
    """The names a domain and problem give an answer: actions, objects, type words, template sentences."""

    def __init__(self, domain: Domain, problem: Problem, sentences: Mapping[str, str]):
        self.actions = {canonical_name(a.name): a for a in domain.actions}
        self.predicates = {canonical_name(p.name) for p in domain.predicates}
        table = problem.object_types(domain)
        self.objects = {canonical_name(o): o for o in table}
        self.types = table
        self.domain = domain
        self.type_words = {w for t, _ in domain.types for w in _words(t)} | {"object"}
        self.names: list[tuple[tuple[str, ...], object]] = []  # word forms of each action's name
        for a in domain.actions:
            full = tuple(_words(a.name))
            forms = {full, (canonical_name(a.name),), ("".join(full),)}  # pick up, pick-up, pickup
            short = tuple(w for w in full if w not in self.type_words)
            if short and short != full:
                forms.add(short)
            self.names += [(f, a) for f in forms]
        self.by_first: dict[str, list[tuple[str, ...]]] = {}  # forms by their first word
        for f, _ in self.names:
            self.by_first.setdefault(f[0], []).append(f)
        self.templates = [(a, _template(text, self.type_words)) for a in domain.actions
                          if (text := sentences.get(a.name))]

    def fits(self, args: Sequence[str], action) -> bool:
        return all(self.domain.fits(self.types[o], t) for o, (_, t) in zip(args, action.parameters))


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
        out += [f"(?:{w} )?" if w in _ARTICLES else f"{re.escape(w)} " for w in _TOKEN.findall(part)]
    return re.compile("".join(out))


def extract_plan(text: str, domain: Domain, problem: Problem, file: str = "<response>",
                 sentences: Mapping[str, str] | None = None) -> Extraction:
    """The plan in `text`, an answer (see the module's rules); `sentences`: each action's English with
    `{?param}` slots (`questions.language.action_sentences`), read besides the domain's names."""
    if len(text) > max_bytes(MAX_INPUT_MB):
        raise InputError(f"answer larger than {MAX_INPUT_MB.value():g} MB ({MAX_INPUT_MB.hint()})", file)
    vocabulary = _Vocabulary(domain, problem, sentences or {})
    text = _CONTROL.sub(" ", text.replace("\r\n", "\n").replace("\r", "\n"))
    units: list[_Unit] = []
    block, fence, last_number = 0, "", None
    stepped = -1  # the last block that has a step
    for n, raw in enumerate(text.split("\n"), 1):
        f = _FENCE.match(raw)
        if f is not None and (not fence or (f.group(1)[0] == fence[0] and len(f.group(1)) >= len(fence)
                                            and not raw[f.end():].strip())):
            fence = "" if fence else f.group(1)
            block, last_number = block + 1, None
            continue
        line = raw.replace("*", " ").replace("`", " ")
        item = _ITEM.match(line)
        number = None
        if item is not None:
            number = next((int(g) for g in item.group("s", "n", "p") if g is not None), None)
            if number is not None and last_number is not None and number <= last_number and not fence:
                block += 1
            if number is not None:
                last_number = number
        rest_at = item.end() if item else 0
        # a list item must name an action: a numbered one, or a bullet not indented (sub-bullets are commentary)
        listed = item is not None and (number is not None or len(line) - len(line.lstrip()) < 2)
        steps = _pddl_line(line, rest_at, n, vocabulary)
        if steps is not None:
            units += [_Unit(block, bool(fence), s) for s in steps]
            stepped = block
            continue
        bold = raw.strip().startswith("**") and raw.strip().endswith("**") and len(raw.strip()) > 4
        if not fence and not item and (bold or _HEADING.fullmatch(line)) and line.strip():
            if not _clause_readings(line, vocabulary)[0]:
                block, last_number = block + 1, None
                continue
        opened = _OPEN.match(line, rest_at) if line[rest_at:].lstrip().startswith("(") else None
        if opened and canonical_name(opened.group(1)) in vocabulary.actions:
            units.append(_Unit(block, bool(fence), None, (line[rest_at:].strip(), n, rest_at + 1,
                                                          "the action's parenthesis is never closed")))
            continue
        found_step, first_miss = False, None
        line = _GROUP.sub(lambda g: " " * len(g.group()), line)  # an aside in parentheses is no part of a step
        for start, clause, stop in _clauses(line, rest_at):
            readings, trigger = _clause_readings(clause, vocabulary)
            col = start + 1
            words = _TOKEN.findall(clause.lower())
            if not fence and words and words[0] in _RESTART and stepped == block:
                block, last_number = block + 1, number
            if stop == ":" and not readings and not trigger and not fence:
                block, last_number = block + 1, None
                continue
            if len(readings) == 1 and stop != "?":
                (name, args), = readings
                units.append(_Unit(block, bool(fence), Step(_line(name, args), n, col, "english", clause.strip())))
                found_step, stepped = True, block
            elif readings or trigger:
                reason = ("a question, not a step" if stop == "?" else
                          "ambiguous: " + " or ".join(_line(a, x) for a, x in sorted(readings))
                          if len(readings) > 1 else trigger)
                units.append(_Unit(block, bool(fence), None, (clause.strip(), n, col, reason)))
                found_step = True
            elif listed and first_miss is None and clause.strip():
                first_miss = (clause.strip(), n, col)
        if listed and not found_step and first_miss is not None:
            units.append(_Unit(block, bool(fence), None,
                               (line[rest_at:].strip(), n, rest_at + 1, "a list item that names no action")))
    return _answer(units)


def _line(name: str, args: Sequence[str]) -> str:
    return "(" + " ".join([name, *args]) + ")"


def _pddl_line(line: str, at: int, n: int, v: _Vocabulary) -> list[Step] | None:
    """The steps of a PDDL line (None: not one). Names are the domain's and problem's when they differ only
    in case or `-`/`_` (`model.canonical_name`); a group of an action whose other words are not all objects
    ("(unstack b from a)") is read as English when it reads as one action."""
    groups = list(_GROUP.finditer(line, at))
    if not groups:
        return None
    alone = len(groups) == 1 and _ALONE.fullmatch(line, at) is not None
    steps = []
    for g in groups:
        words = g.group(1).split()
        if not words or any(w.startswith("?") for w in words[1:]) or words[0].isdigit():
            continue  # "()", "(1)", or an action schema's parameters: no step
        head = canonical_name(words[0])
        action = v.actions.get(head)
        if action is not None and all(canonical_name(w) in v.objects for w in words[1:]):
            steps.append(Step(_line(action.name, [v.objects[canonical_name(w)] for w in words[1:]]), n,
                              g.start() + 1, "pddl", g.group(0)))
            continue
        readings, _ = _clause_readings(g.group(1), v)
        if len(readings) == 1:  # "(unstack c from a)", "(put down c)"
            (name, found), = readings
            steps.append(Step(_line(name, found), n, g.start() + 1, "english", g.group(0)))
        elif action is not None or (alone and head not in v.predicates and head not in _NOT_STEP_HEADS
                                    and not words[0].startswith((":", "?"))):
            steps.append(Step(_line(action.name if action else words[0], words[1:]), n, g.start() + 1, "pddl",
                              g.group(0)))  # as written: the plan's reader says what is wrong with it
    return steps or None


def _clauses(line: str, at: int):
    """(start, clause, stop) for each clause of `line` from `at`: `stop` is the mark that ended it."""
    start = at
    for m in _CLAUSE_END.finditer(line, at):
        yield start, line[start:m.start()][:MAX_CLAUSE], m.group()[0] if m.group()[0] in ".;:!?" else ","
        start = m.end()
    if line[start:].strip():
        yield start, line[start:][:MAX_CLAUSE], ""


def _tokens(clause: str, v: _Vocabulary) -> list[tuple[str, str | None]]:
    """The clause's words, lower-case, each with the object it names (None: a word)."""
    words = [w.lower().rstrip("-") for w in _TOKEN.findall(clause)]
    out: list[tuple[str, str | None]] = []
    for i, w in enumerate(words):
        obj = v.objects.get(canonical_name(w))
        if obj is not None and w in _ARTICLES and i + 1 < len(words) and words[i + 1] in v.type_words \
                and (i == 0 or words[i - 1] != "the"):
            obj = None  # "a block b": the article; "the a block": the object
        out.append((w, obj))
    return out


def _clause_readings(clause: str, v: _Vocabulary) -> tuple[set[tuple[str, tuple[str, ...]]], str]:
    """The actions a clause reads as, and why it reads as none although it begins with an action's name
    ('' when it does not); a negated clause ("do not unstack b from a") is no step and none missed."""
    tokens = _tokens(clause, v)
    lead = 0
    while lead < len(tokens) and tokens[lead][1] is None and (tokens[lead][0] in _LEAD or tokens[lead][0].isdigit()
                                                            or tokens[lead][0] in _NEGATION):
        lead += 1
    negated = any(w in _NEGATION for w, _ in tokens[:lead])
    subject = None  # "robot1 picks up ball1 ...": an object before the action's name is its first object
    if lead + 1 < len(tokens) and tokens[lead][1] is not None and tokens[lead + 1][1] is None:
        subject, lead = tokens[lead][1], lead + 1
    readings: dict[tuple[str, tuple[str, ...]], int] = {}
    trigger = ""
    for form, action in v.names:
        k = len(form)
        head = [w for w, _ in tokens[lead:lead + k]]
        particle = None
        if not _name_at(head, form):
            if k == 2 and len(tokens) > lead + 2 and _name_at([tokens[lead][0]], form[:1]) \
                    and tokens[lead + 1][1] is not None and tokens[lead + 2][0] == form[1]:
                particle = tokens[lead + 1][1]  # "put b down"
            else:
                continue
        rest = tokens[lead + (3 if particle else k):]
        args = [x for x in (subject, particle) if x] + [o for _, o in rest if o is not None]
        found = _orders(args, action, v)  # type: ignore[arg-type]
        if found:
            for x in found:
                readings[(action.name, x)] = max(readings.get((action.name, x), 0), k)  # type: ignore[attr-defined]
        elif not trigger:
            arity = len(action.parameters)  # type: ignore[attr-defined]
            trigger = (f"'{' '.join(form)}' with {len(args)} object(s) ({', '.join(args) or 'none'}): "
                       f"{action.name} takes {arity}" if len(args) != arity else  # type: ignore[attr-defined]
                       f"{action.name} {' '.join(args)}: the objects' types do not fit")  # type: ignore[attr-defined]
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
        trigger += " (a pronoun names no object: write the object's name)"
    return out, ("" if out else trigger)


def _named_inside(tokens: list[tuple[str, str | None]], lead: int, v: _Vocabulary) -> str:
    """Why a clause that names an action (as written, not inflected) further in, with an object after it,
    is no step ("I could pick up a now"): '' when it does not."""
    words = [w for w, _ in tokens]
    for i in range(lead + 1, len(words)):
        for form in v.by_first.get(words[i], ()):
            if tuple(words[i:i + len(form)]) == form and any(o is not None for _, o in tokens[i + len(form):]):
                return f"'{' '.join(form)}' is named after other words: a step begins with its action"
    return ""


def _name_at(words: list[str], form: tuple[str, ...]) -> bool:
    """`words` are the name `form` (its first word may be inflected: "picks up", "unstacking")."""
    if len(words) != len(form) or words[1:] != list(form[1:]):
        return False
    w, f = words[0], form[0]
    return canonical_name(w) == canonical_name(f) or w in (f + "s", f + "es", f + "ed", f + "d", f + "ing",
                                                           f + f[-1:] + "ing", f + f[-1:] + "ed", f[:-1] + "ing")


def _orders(args: list[str], action, v: _Vocabulary) -> list[tuple[str, ...]]:
    """The argument tuples of `action` the objects `args` give: as written if their types fit, else the
    orders that fit (several: each is a reading, so the clause is ambiguous)."""
    if len(args) != len(action.parameters):
        return []
    if v.fits(args, action):
        return [tuple(args)]
    if len(args) > 5:
        return []
    return sorted({p for p in permutations(args) if v.fits(p, action)})


def _template_readings(tokens: list[tuple[str, str | None]], v: _Vocabulary) -> set[tuple[str, tuple[str, ...]]]:
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


def _answer(units: list[_Unit]) -> Extraction:
    """The block read (module docstring) and its steps and unmatched sentences."""
    blocks: dict[int, list[_Unit]] = {}
    for u in units:
        blocks.setdefault(u.block, []).append(u)
    with_steps = [(b, us) for b, us in blocks.items() if any(u.step for u in us)]
    if not with_steps:  # no step anywhere: every unmatched sentence is reported
        chosen = units
    else:
        def rank(item: tuple[int, list[_Unit]]) -> tuple[bool, bool, int]:
            b, us = item
            return (us[0].fenced, any(u.step is not None and u.step.how == "pddl" for u in us), b)
        chosen = max(with_steps, key=rank)[1]
    steps: list[Step] = []
    missed: list[Unmatched] = []
    for u in chosen:
        if u.step is not None:
            steps.append(u.step)
        elif u.miss is not None:
            text, line, col, reason = u.miss
            missed.append(Unmatched(text[:200], line, col, reason, len(steps) + 1))
    lines = [u.step.line if u.step else u.miss[1] for u in chosen if u.step or u.miss]  # type: ignore[index]
    return Extraction(tuple(steps), tuple(missed[:MAX_UNMATCHED]), len(with_steps),
                      (min(lines), max(lines)) if with_steps else None, max(0, len(missed) - MAX_UNMATCHED))


def read_response(text: str, domain: Domain, problem: Problem, file: str = "<response>",
                  sentences: Mapping[str, str] | None = None) -> tuple[list[GroundAction], Extraction]:
    """The plan an answer gives, read (`plans.parse_plan`) and checked; `ResponseError` (located in the
    answer) when it has no step, an unmatched sentence, or a step the reader refuses."""
    x = extract_plan(text, domain, problem, file, sentences)
    if x.unmatched:
        u = x.unmatched[0]
        others = len(x.unmatched) - 1 + x.more
        also = f" ({others} more sentence(s) not read)" if others else ""
        raise ResponseError(f"step {u.step} not read: '{u.text}': {u.reason}{also}", file, u.line, u.col, x, u.step)
    if not x.steps:
        raise ResponseError("no plan found: no action of the domain, in PDDL or in English", file, None, None, x, 1)
    try:
        return parse_plan(x.plan_text(), domain, problem, file), x
    except InputError as e:
        k = (e.line or 1) - 1
        s = x.steps[k]
        raise ResponseError(f"step {k + 1}, {s.text}: {e.message}", file, s.line, s.col, x, k + 1) from None


__all__ = ["Extraction", "ResponseError", "Step", "Unmatched", "extract_plan", "read_response", "MAX_UNMATCHED"]
