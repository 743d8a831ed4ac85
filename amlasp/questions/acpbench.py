"""ACPBench's own scoring (`grade --scoring acpbench`), reimplemented, so that a paper can report it
beside the exact scoring.

What is reproduced (IBM/ACPBench, read at commit 5947a40 for `src/`, 7b75f34 for `evals/`):

- gen (`src/evaluate_gen.py`, `src/evaluators/`): the response is parsed by ACPBench's small grammar
  (written here again, `GRAMMAR`) with its error recovery (a token the parser does not expect is
  skipped; at the end of the text the missing tokens are supplied); a response that does not parse
  scores 0 ("parser error"). Then per task: app and prog compare sets of lower-cased actions (facts);
  val compares the index as text ("None" for -1, which its index grammar cannot read, so a -1 item is
  never scored right); reach and areach accept "None" iff the gold list is empty, a listed answer,
  or one a planner proves unreachable; land accepts a listed landmark, or "None" iff none is listed
  (no planner); nexta accepts a listed `yes`, rejects a listed `no` and any action outside `maybe`,
  and runs a planner on a `maybe`; just accepts any strictly shorter subsequence of the plan that is
  a plan (not only one or two consecutive removals).
- bool and mcq (`evals/acpbench.py`, its Inspect scorers): the first match of its answer pattern
  (case ignored) must have a group equal to the gold answer.

Where ACPBench runs a planner, amlasp's own deciders stand in for it (the same question: can the atom
hold, can the action's precondition hold, does the action start an optimal plan), under ACPBench's
time limits (`PLANNER_SECONDS`, `src/utils/pddl_utils.py` and `tarski_utils.py`): reach and areach run
its planner (K*, one plan) for 3 s on the task whose goal is the atom (the action's precondition), and
an answer scores 1 only if the planner proves that task unsolvable in time; a timeout or a planner
error scores 0. nexta's `maybe` answer runs one optimal search of 5 s from the action's successor (and,
when the item has no `opt`, one from the state first: there a failure crashes ACPBench's evaluator; here
it scores 0): it scores 1 iff a plan is found in time and is one step shorter than `opt`. The limit is
an option (`planner_seconds`); which searches end in time depends on the planner and the machine, so
the scores reproduce ACPBench's rule, not its timings. Tasks ACPBench does not have (verify, count,
value) are scored exactly.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any, Callable

from ..enums import Verdict
from ..errors import InputError
from ..reasoning.engine import execute
from ..reasoning.transitions import changes_many
from .answers import as_text
from .case import Case
from .items import Form, Task

#: ACPBench's answer grammar (the same language as its `src/grammar/acp_grammar.lark`).
GRAMMAR = r"""
NAME: /[a-zA-Z][a-zA-Z0-9-_]*/
LPAR : "("
RPAR : ")"
LSPAR: "["
RSPAR: "]"
COMMA: ","
WS: /[ \n]/
action_none : "None"
action_name : LPAR NAME (WS NAME)* RPAR
action_list : (action_name WS?)*
prog_list :  action_name* (COMMA action_name)*
progression_list : LSPAR prog_list RSPAR LSPAR prog_list RSPAR
act : action_name | action_none
index: /[0-9]+[0-9]*/
start: action_list
"""

#: ACPBench's planner time limits, in seconds: `is_unsolvable` (reach, areach) runs K* with timeout=3,
#: `is_on_optimal_plan` (nexta) each optimal search with timeout=5
PLANNER_SECONDS = {Task.REACH: 3.0, Task.AREACH: 3.0, Task.NEXTA: 5.0}

#: the grammar rule ACPBench parses each task's gen answer with
START = {Task.REACH: "act", Task.AREACH: "act", Task.LAND: "act", Task.PROG: "progression_list",
         Task.VAL: "index", Task.JUST: "action_list", Task.NEXTA: "action_name", Task.APP: "action_list"}

#: How ACPBench's Inspect scorers (evals/acpbench.py) find the answer in a response: the first match,
#: case ignored, of one alternation. Its parts, in its order (`.` is any character, as there):
#: after an "answer" phrase, the rest of the line but its last character; else a lone yes or no (bool)
#: or a lone label A-D, the first of several shapes (mcq; `[answer is ]` is a character class there,
#: so any letter of those words before a label counts, which is why "Answer: b)" reads as A).
_AFTER = ("The answer is ", "the answer is ", "The answer: ", "The final answer: ", "..Final Answer..: ",
          "..answer..: ", "..Answer..: ")
_BOOL_PARTS = tuple(f"(?<={p})(.*)(?=.)" for p in _AFTER) + (r"\b(Yes|No|yes|no)\b",)
_MCQ_PARTS = (r"((?<=[answer is ])[A-D])", r"([A-D]\n)", r"([A-D]\.)", r"( [A-D] )", r"(^[A-D]$)", r"(\[[A-D]\])",
              r"([A-D])") + tuple(f"(?<={p})(.*)(?=.)" for p in _AFTER[4:])
#: the whole alternation is one group, as there: a response scores when any group equals the gold answer
BOOL = "(" + "|".join(_BOOL_PARTS) + ")"
MCQ = "(" + "|".join(_MCQ_PARTS) + ")"


@lru_cache(maxsize=None)
def _parser(start: str):
    from lark import Lark
    return Lark(GRAMMAR, start=start, parser="lalr")


def parse(text: str, start: str) -> Any:
    """A response read as ACPBench reads it: None when it does not parse."""
    from lark import Token
    from lark.exceptions import LarkError
    parser = _parser(start)

    def recover(e) -> bool:
        if getattr(e, "token", None) is not None and e.token.type == "$END":
            for x in e.expected:
                if x != "WS":
                    e.interactive_parser.feed_token(Token(x, parser.get_terminal(x).pattern.value))
        return True
    try:
        tree = parser.parse(text.replace("\n", "").strip(), on_error=recover)
    except (LarkError, KeyError, AttributeError):
        return None
    return _read(tree, start)


def _read(tree, start: str) -> Any:
    """What ACPBench's visitor collects (its top-down visit), for the rule `start`."""
    names, index = None, None
    lists: list | None = None
    progression: list | None = None
    current: list | None = None
    for node in tree.iter_subtrees_topdown():
        kind = node.data
        if kind == "action_list":
            lists = []
        elif kind == "progression_list":
            progression = []
        elif kind == "prog_list":
            if current is not None and progression is not None:
                progression.append(current)
            current = []
        elif kind == "action_none":
            names = "None"
        elif kind == "action_name":
            names = "(" + "".join(str(t) for t in node.children[1:-1]) + ")"
            for target in (lists, current):
                if target is not None:
                    target.append(names)
        elif kind == "index":
            index = "".join(str(t) for t in node.children)
            index = index if index.isnumeric() else None
    if start == "progression_list":
        if progression is None:
            return None
        if current not in progression:
            progression.append(current)
        return progression
    return {"action_list": lists, "act": names, "action_name": names, "index": index}[start]


def _prepared(text: str, task: Task) -> str:
    """evaluate_gen's rewriting before parsing: prog's "Positive Effects ... Negative Effects" as two
    lists, just's text after "simplified plan:"."""
    low = text.lower()
    if task is Task.PROG and "positive effects" in low and "negative effects" in low and "[" not in text:
        return low.replace("*", "").replace("positive effects", "[").replace("negative effects", "] [") + "]"
    if task is Task.JUST and "simplified plan:" in low:
        return low.replace("*", "").split("simplified plan:")[1]
    return text


def score_choice(item: dict, answer: Any) -> bool:
    """bool and mcq: the first match of the pattern has a group equal to the gold answer (case ignored)."""
    m = re.search(BOOL if item["form"] == str(Form.BOOL) else MCQ, as_text(answer), re.IGNORECASE)
    gold = str(item["answer"]).lower()
    return m is not None and any(g is not None and g.lower() == gold for g in m.groups())


def score_gen(item: dict, c: Case | None, answer: Any, planner_seconds: float | None = None) -> tuple[bool, str]:
    """A gen answer scored as ACPBench's evaluator scores it: (right, why not, as a sentence). Its planner
    runs get `planner_seconds` each (default: ACPBench's own, `PLANNER_SECONDS`)."""
    task = Task(item["task"])
    parsed = parse(_prepared(as_text(answer), task), START[task])
    if parsed is None or (isinstance(parsed, list) and any(x is None for x in parsed)):
        return False, "ACPBench's parser cannot read the answer, and a parser error scores 0."
    if c is None:
        return False, "The item has no PDDL to score the answer against."
    seconds = planner_seconds if planner_seconds is not None else PLANNER_SECONDS.get(task, 0.0)
    why = _SCORERS[task](item, c, parsed, seconds)
    if why is None:
        return True, ""
    return False, f"ACPBench's {task} evaluator reads the answer as {_show(parsed)} and scores it 0: {why}."


def _show(parsed: Any) -> str:
    if isinstance(parsed, list):
        return " ".join(map(str, parsed)) or "nothing"
    return str(parsed)


def _fix(a: str) -> str:
    """ACPBench's fix_action_name: single spaces inside the parentheses."""
    return "(" + " ".join(x for x in a[1:-1].split(" ") if x) + ")"


# Each scorer returns None when ACPBench scores the answer 1, else why it scores 0 (a clause).

def _app(item: dict, c: Case, parsed: list, _t: float) -> str | None:
    same = {a.lower() for a in item["answer"]} == {_fix(a).lower() for a in parsed}
    return None if same else "the set of actions differs from the gold set"


def _prog(item: dict, c: Case, parsed: list, _t: float) -> str | None:
    if not 1 <= len(parsed) <= 2:
        return "it is not one or two lists of facts"
    pos = {a.lower() for a in parsed[0]}
    neg = {a.lower() for a in parsed[1]} if len(parsed) == 2 else set()
    same = pos == {a.lower() for a in item["answer"]["pos"]} and neg == {a.lower() for a in item["answer"]["neg"]}
    return None if same else "the positive or the negative effects differ from the gold sets"


def _val(item: dict, c: Case, parsed: str, _t: float) -> str | None:
    j = int(item["answer"])
    if ("None" if j == -1 else str(j)).lower() == parsed.strip().lower():
        return None
    return "its index grammar cannot express -1, the gold index" if j == -1 else f"the gold index is {j}"


def _reach(item: dict, c: Case, parsed: str, t: float) -> str | None:
    return _listed_or_unreachable([f"({x.strip().lower()})" for x in item["answer"]], parsed, c.atom,
                                  lambda r, atom: r.atom(atom), c, t)


def _areach(item: dict, c: Case, parsed: str, t: float) -> str | None:
    return _listed_or_unreachable(item["answer"], parsed, c.action, lambda r, action: r.action(action), c, t)


def _listed_or_unreachable(gold: list[str], parsed: str, read: Callable[[str], Any],
                           ask: Callable[[Any, Any], Any], c: Case, t: float) -> str | None:
    """reach and areach as ACPBench scores them: `None` iff the gold list is empty, a listed answer, or
    one that its planner proves can never happen within `t` seconds (here: amlasp's decider, one
    planner call of `t` s)."""
    from .decide import Reachability
    said = parsed.strip().lower()
    if not gold:
        return None if said == "none" else "the gold answer is None, and only None scores then"
    if said in gold:
        return None
    try:
        x = read(said)
    except InputError as e:
        return f"it is not in the gold list, and it names nothing of the problem ({e.message})"
    d = ask(Reachability(c.domain, c.problem, c.state, time_limit=t, planner_calls=1), x)
    if d.answer is Verdict.NO:
        return None
    if d.answer is Verdict.YES:
        return f"it is not in the gold list, and it can happen ({d.proof})"
    return f"it is not in the gold list, and no planner proves it impossible within {t:g} s ({d.proof})"


def _land(item: dict, c: Case, parsed: str, _t: float) -> str | None:
    yes = [a.lower() for a in item["answer"]["yes"]]
    said = parsed.strip().lower()
    if "(dummy val1)" in yes:
        return "ACPBench's evaluator scores every answer to this item 0 (its gold lists '(dummy val1)')"
    if said in yes or (said == "none" and not yes):
        return None
    return "it is not a listed landmark (its evaluator runs no planner for land)" if yes else \
        "the gold lists no landmark, and only None scores then"


def _nexta(item: dict, c: Case, parsed: str, t: float) -> str | None:
    """ACPBench's `is_on_optimal_plan` for a `maybe` answer: an optimal search from the successor (and
    from the state when the item has no `opt`), each with `t` seconds; 1 iff one step shorter than opt."""
    from dataclasses import replace

    from ..external.fast_downward import PlannerStatus, optimal_plan
    gold = item["answer"]
    said = parsed.strip().lower()
    if said in [a.lower() for a in gold["yes"]]:
        return None
    if said in [a.lower() for a in gold["no"]]:
        return "it is listed as an applicable action that does not start a shortest plan"
    if said not in [a.lower() for a in gold.get("maybe", [])]:
        return "it is neither a listed optimal first action nor one its planner is asked about"
    try:
        action = c.action(said)
    except InputError as e:
        return f"its planner cannot read it ({e.message})"
    opt = gold.get("opt")
    if opt is None:
        first = optimal_plan(c.domain, c.problem, timeout=t)
        if first.status is not PlannerStatus.PLAN or first.plan is None:
            return f"the item has no optimal length and no optimal plan from the state was found within {t:g} s"
        opt = len(first.plan)
    change = changes_many(c.domain, c.problem, [(c.state, [action])])[0][0]
    if change is None:
        return f"{action} is not applicable in the state"
    rest = optimal_plan(c.domain, replace(c.problem, init=change.apply(c.state)), timeout=t)
    if rest.status is not PlannerStatus.PLAN or rest.plan is None:
        return f"no optimal plan from its successor was found within {t:g} s ({rest.detail or rest.status})"
    if len(rest.plan) + 1 != int(opt):
        return f"the shortest plan after it has {len(rest.plan)} steps, not {int(opt) - 1}"
    return None


def _just(item: dict, c: Case, parsed: list, _t: float) -> str | None:
    """A strictly shorter subsequence of the plan (compared as text, as ACPBench does) that is a plan."""
    plan = item["question"][19:-147].replace(") (", ")######(").split("######")
    new = [_fix(a) for a in parsed]
    if not new or len(plan) <= len(new):
        return "it is not shorter than the plan"
    k = 0
    for a in plan:
        if k < len(new) and a == new[k]:
            k += 1
    if k < len(new):
        return "it is not a subsequence of the plan"
    try:
        steps = c.actions(" ".join(new))
    except InputError as e:
        return f"it names an action it cannot read ({e.message})"
    return None if execute(c.domain, c.problem, steps, states=False).valid else "it is not a valid plan"


_SCORERS: dict[Task, Callable[[dict, Case, Any, float], str | None]] = {
    Task.APP: _app, Task.PROG: _prog, Task.VAL: _val, Task.REACH: _reach, Task.AREACH: _areach,
    Task.LAND: _land, Task.NEXTA: _nexta, Task.JUST: _just}

def scored(item: dict) -> bool:
    """Does ACPBench score this item (one of its tasks)? Others are scored exactly."""
    return Task(item["task"]) in START


__all__ = ["GRAMMAR", "START", "BOOL", "MCQ", "PLANNER_SECONDS", "parse", "score_choice", "score_gen", "scored"]
