"""A plan inside a language model's answer (`amlasp validate --from-text`, docs/llm.md "Plans in an answer").

An answer holds a plan among other text: PDDL actions (`(unstack b a)`, in a code fence or not, numbered
or not) or English sentences that name an action and its objects ("Unstack b from a.", "First, pick up
block c. Then stack it..."). `extract_plan` finds the steps, each with its place in the answer and how it
was found (`pddl`, `english`), and the sentences that look like steps but name no single action: those
are reported (`Unmatched`), never guessed, and a plan with one is unreadable (`read_response`).

What is read (the rules, in order):

* The text is split into lines; a Markdown code fence (three backquotes or tildes) is one block, an
  unclosed fence runs to the end. Outside fences a new block starts at a heading (a line ending with
  `:`, a `#` line, a `[TAG]` line, a line all in bold), at a list item whose number is not above the
  previous one's, and in prose (not in a list item) at a clause ending with `:` that names no action and
  at "First"/"Firstly" after steps.
* A line is a PDDL line when it holds an innermost parenthesised group whose first word is one of the
  domain's actions (any case, `-` and `_` alike: the names are the domain's and problem's), or when it is
  nothing but an optional list marker, one group, an optional `[cost]` and an optional comment (then the
  group is a step whatever its first word, so that the plan's reader reports an unknown action), except a
  group of a predicate, a keyword, a number or variables. A group that reads as one action in English
  ("(unstack c from a)") is that action. The rest of a PDDL line is commentary.
* Other lines are split into clauses (at `.`, `;`, `:`, `!`, `?` before a space, at `,`, `->`, "then",
  "and", "after that"), their asides in parentheses left out (kept when only so a clause reads); a clause
  is a step when it reads as one action (pddl/sentences.py: the action's name or its English sentence,
  then its objects).
* Unmatched: a clause that names an action but reads as none (too few or too many objects, types that do
  not fit, two readings, a pronoun, the name after other words, a name's first word alone), a question,
  an `(action ...` never closed, and a list item (numbered, or a bullet not indented) that names no
  action. A negated clause ("do not unstack b from a") is neither a step nor unmatched.
* The answer is the last block with a step, fenced blocks before others and blocks with PDDL steps
  before those without; the other blocks are drafts and are not read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Mapping, Sequence

from ..errors import InputError
from ..identity import by_identity
from ..limits import MAX_INPUT_MB, max_bytes
from ..model import Domain, GroundAction, Problem, canonical_name
from .plans import PlanReading, parse_plan, read_plan_text
from .sentences import TOKEN, Vocabulary, read_clause

#: Unmatched sentences kept in an extraction (the others are counted): a hostile answer may have millions.
MAX_UNMATCHED = 50
#: Longest clause (characters) read for English: a longer run without a stop is no sentence of a plan.
MAX_CLAUSE = 2000

_VOCABULARIES: dict = {}
_NONE: Mapping[str, str] = {}
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2060-\u2064\ufeff]")
_FENCE = re.compile(r"^\s*(`{3,}|~{3,})")
#: A list item's marker: `1.`, `1)`, `(1)`, `Step 1:`, `0.000:`, a bullet; its number (at most 9 digits: a longer
#: run is no item's number, and no int is made of it).
_ITEM = re.compile(r"\s*(?:(?:step|action)\s*(?P<s>\d{1,9})\s*[:.)\-]?|(?P<n>\d{1,9})(?:\.\d+)?\s*[.):]"
                   r"|\((?P<p>\d{1,9})\)|[-+\u2022\u2013])(?=\s|\(|$)\s*", re.IGNORECASE)
_GROUP = re.compile(r"\(([^()]*)\)")
_OPEN = re.compile(r"\(\s*([^\s()]+)[^()]*$")
#: A line that is one group: a plan file's line (`0: (a b) [1]`, `(a b) ; comment`).
_ALONE = re.compile(r"\s*\([^()]*\)\s*(?:\[[^\]]*\])?\s*(?:(?:;|#|//).*)?")
_HEADING = re.compile(r"\s*(?:#.*|\[[^\]]*\]\s*|.*:\s*)$")
_NOT_STEP_HEADS = frozenset({"and", "or", "not", "define", "forall", "exists", "when", "either", "imply", "="})
_RESTART = frozenset({"first", "firstly"})
_CLAUSE_END = re.compile(r"[.;:!?](?=\s|$)|,|->|=>|\u2192|\b(?:and then|then|and|after that|afterwards)\b",
                         re.IGNORECASE)


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


def extract_plan(text: str, domain: Domain, problem: Problem, file: str = "<response>",
                 sentences: Mapping[str, str] | None = None) -> Extraction:
    """The plan in `text`, an answer (see the module's rules); `sentences`: each action's English with
    `{?param}` slots (`questions.language.action_sentences`), read besides the domain's names."""
    if len(text) > max_bytes(MAX_INPUT_MB):
        raise InputError(f"answer larger than {MAX_INPUT_MB.value():g} MB ({MAX_INPUT_MB.hint()})", file)
    said = _NONE if sentences is None else sentences  # a batch reads many answers with one vocabulary
    reader = _Reader(by_identity(_VOCABULARIES, 16, (domain, problem, said), None,
                                 lambda: Vocabulary(domain, problem, said)))
    for n, raw in enumerate(_CONTROL.sub(" ", text.replace("\r\n", "\n").replace("\r", "\n")).split("\n"), 1):
        reader.line(n, raw)
    return _answer(reader.units)


class _Reader:
    """An answer read a line at a time: its steps and unmatched sentences, each in its block."""

    def __init__(self, vocabulary: Vocabulary):
        self.v = vocabulary
        self.units: list[_Unit] = []
        self.block, self.fence = 0, ""  # the block, and the fence open ("" outside fences)
        self.number: int | None = None  # the last list item's number in the block
        self.stepped = -1  # the last block that has a step

    def _new_block(self, number: int | None = None) -> None:
        self.block, self.number = self.block + 1, number

    def _add(self, step: Step | None, miss: tuple[str, int, int, str] | None = None) -> None:
        self.units.append(_Unit(self.block, bool(self.fence), step, miss))
        if step is not None:
            self.stepped = self.block

    def line(self, n: int, raw: str) -> None:
        f = _FENCE.match(raw)
        if f is not None and (not self.fence or (f.group(1)[0] == self.fence[0] and len(f.group(1)) >= len(self.fence)
                                                 and not raw[f.end():].strip())):
            self.fence = "" if self.fence else f.group(1)
            self._new_block()
            return
        line = raw.replace("*", " ").replace("`", " ")
        item = _ITEM.match(line)
        number = next((int(g) for g in item.group("s", "n", "p") if g is not None), None) if item else None
        if number is not None:
            if self.number is not None and number <= self.number and not self.fence:
                self._new_block()  # the numbering starts again: a new list
            self.number = number
        at = item.end() if item else 0
        units = _pddl_line(line, at, n, self.v)
        if units is not None:
            for u in units:
                self._add(u.step, u.miss)
            return
        bold = raw.strip().startswith("**") and raw.strip().endswith("**") and len(raw.strip()) > 4
        if not self.fence and not item and line.strip() and (bold or _HEADING.fullmatch(line)) \
                and not read_clause(line, self.v)[0]:
            self._new_block()
            return
        opened = _OPEN.match(line, at) if line[at:].lstrip().startswith("(") else None
        if opened and canonical_name(opened.group(1)) in self.v.actions:
            self._add(None, (line[at:].strip(), n, at + 1, "the action's parenthesis is never closed"))
            return
        # a list item must name an action: a numbered one, or a bullet not indented (sub-bullets are commentary)
        listed = item is not None and (number is not None or len(line) - len(line.lstrip()) < 2)
        if not self._english(line, at, n, item is not None) and listed \
                and line[at:].strip():
            self._add(None, (line[at:].strip(), n, at + 1, "a list item that names no action"))

    def _english(self, line: str, at: int, n: int, item: bool) -> bool:
        """Read the clauses of `line` from `at`, their asides in parentheses left out (or kept, when only so the
        clause reads as one action); whether one named an action.
        In prose (not in a fence, nor in a list item: "2. Put down c. Now the state is:" goes on the list),
        "First, ..." after steps and a clause before `:` that names no action start a new block."""
        named = False
        prose = not self.fence and not item
        bare = _GROUP.sub(lambda g: " " * len(g.group()), line)  # asides blanked: commentary
        for start, clause, stop in _clauses(bare, at):
            readings, why = read_clause(clause, self.v)
            if why and bare != line:  # "drive tru1 from pos1 to apt1 (in city cit1)": the aside named an object
                whole = read_clause(line[start:start + len(clause)].replace("(", " ").replace(")", " "), self.v)
                readings, why = whole if len(whole[0]) == 1 else (readings, why)
            col = start + 1
            words = TOKEN.findall(clause[:40].lower())
            if prose and words and words[0] in _RESTART and self.stepped == self.block:
                self._new_block()  # "First, ..." again: a new plan
            if prose and stop == ":" and not readings and not why:
                self._new_block()  # "Here is the corrected plan:"
                continue
            if len(readings) == 1 and stop != "?":
                (name, args), = readings
                self._add(Step(_line(name, args), n, col, "english", clause.strip()))
            elif readings or why:
                self._add(None, (clause.strip(), n, col, "a question, not a step" if stop == "?" else
                                 _ambiguous(readings) if len(readings) > 1 else why))
            named = named or bool(readings or why)
        return named


def _line(name: str, args: Sequence[str]) -> str:
    return "(" + " ".join([name, *args]) + ")"


def _ambiguous(readings) -> str:
    return "ambiguous: " + " or ".join(_line(a, x) for a, x in sorted(readings))


def _pddl_line(line: str, at: int, n: int, v: Vocabulary) -> list[_Unit] | None:
    """The steps of a PDDL line (None: not one; `_Unit`s of block 0, the caller's to place). Names are the
    domain's and problem's when they differ only in case or `-`/`_` (`model.canonical_name`); a group of an
    action whose other words are not all objects ("(unstack b from a)") is read as English: one reading is
    the step, two are ambiguous."""
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
            steps.append(_Unit(0, False, Step(_line(action.name, [v.objects[canonical_name(w)] for w in words[1:]]),
                                              n, g.start() + 1, "pddl", g.group(0))))
            continue
        readings, _ = read_clause(g.group(1), v)
        if len(readings) == 1:  # "(unstack c from a)", "(put down c)"
            (name, found), = readings
            steps.append(_Unit(0, False, Step(_line(name, found), n, g.start() + 1, "english", g.group(0))))
        elif len(readings) > 1:
            steps.append(_Unit(0, False, None, (g.group(0), n, g.start() + 1, _ambiguous(readings))))
        elif action is not None or (alone and head not in v.predicates and head not in _NOT_STEP_HEADS
                                    and not words[0].startswith((":", "?"))):
            steps.append(_Unit(0, False, Step(_line(action.name if action else words[0], words[1:]), n,
                                              g.start() + 1, "pddl", g.group(0))))  # as written: the reader says why
    return steps or None


def _clauses(line: str, at: int):
    """(start, clause, stop) for each clause of `line` from `at` (its leading spaces left out, its first
    MAX_CLAUSE characters): `stop` is the mark that ended it."""
    start = at
    for m in _CLAUSE_END.finditer(line, at):
        text = line[start:m.start()]
        skip = len(text) - len(text.lstrip())
        yield start + skip, text[skip:skip + MAX_CLAUSE], m.group()[0] if m.group()[0] in ".;:!?" else ","
        start = m.end()
    text = line[start:]
    if text.strip():
        skip = len(text) - len(text.lstrip())
        yield start + skip, text[skip:skip + MAX_CLAUSE], ""


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


def read_answer(text: str, domain: Domain, problem: Problem, file: str = "<response>",
                sentences: Mapping[str, str] | None = None) -> tuple[PlanReading, Extraction]:
    """The plan an answer gives, read as far as it goes (`plans.PlanReading`, the one reading of every mode):
    the steps before the first that cannot be read (an unmatched or ambiguous sentence, a step the reader
    refuses) and that step's error, located in the answer; an answer with no action at all is the empty
    plan ("no plan is possible"), as VAL reads an empty plan."""
    try:
        steps, x = read_response(text, domain, problem, file, sentences)
        return PlanReading(tuple(steps)), x
    except ResponseError as e:
        x, k = e.extraction, e.step or 1
        if not x.steps and not x.unmatched:
            return PlanReading(()), x
        before = read_plan_text("\n".join(s.action for s in x.steps[:k - 1]), domain, problem, file)
        if before.error is not None:  # a step before the sentence not read is refused: that one is the first
            s = x.steps[len(before.steps)]
            return PlanReading(before.steps, InputError(f"step {len(before.steps) + 1}, {s.text}: "
                                                        f"{before.error.message}", file, s.line, s.col,
                                                        kind=before.error.kind)), x
        return PlanReading(before.steps, InputError(e.message, file, e.line or 1, e.col, kind=e.kind)), x


__all__ = ["Extraction", "ResponseError", "Step", "Unmatched", "extract_plan", "read_answer", "read_response",
           "MAX_UNMATCHED"]
