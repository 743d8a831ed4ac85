"""Generation: walks → situations → per task one analysis per state → items of each form.

For each task, states come from seeded random walks in the reference model, round robin over the
problems; each state's answer is computed once (task builders, tasks/) and asked in every form
that still needs items, until each form has `per_task` items. A state that gives no proven
question is skipped and its reason counted. Everything random is drawn from generators seeded by
(seed, task, problem, walk), so the same arguments give the same file.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Iterator, Sequence

from ..jobs import Jobs, run_chunks
from ..model import GoalCondition
from ..pddl.parse import load_domain, load_problem
from ..pddl.source import read_text
from ..pddl.writer import problem_to_pddl
from ..workers import ProgressCallback
from .catalog import entry
from .items import Form, Item, Task, item_id
from .language import Phrasebook
from .tasks.common import Draft, Situation, Skip, Source, TaskEntry
from .templates import Templates, load_templates, templates_for
from .walks import plan_walks, random_walks

BATCH = 16  # walks per problem and batch


@dataclass(frozen=True)
class Options:
    tasks: tuple[Task, ...] = tuple(Task)
    forms: tuple[Form, ...] = tuple(Form)
    per_task: int = 10  # items per task and form
    seed: int = 0
    depth: tuple[int, int] = (0, 5)
    time_limit: float = 10.0  # seconds per planner call
    explore_states: int = 300  # breadth-first search budget of reach and areach


@dataclass
class Generation:
    items: list[Item] = field(default_factory=list)
    skipped: Counter = field(default_factory=Counter)  # (task, reason) → states skipped
    states: Counter = field(default_factory=Counter)  # task → states analysed
    wanted: int = 0  # per task and form
    asked: list[tuple[Task, Form]] = field(default_factory=list)  # the task and form pairs asked for
    gave_up: dict[Task, str] = field(default_factory=dict)  # task → why it stopped early (see GIVE_UP)
    near_goal: dict[Task, str] = field(default_factory=dict)  # task → why its states came from along a plan

    def jsonl(self) -> str:
        return "".join(json.dumps(i.to_dict(), ensure_ascii=False) + "\n" for i in self.items)

    def balance(self) -> list[dict]:
        """Per task and form: items, yes/no counts, choice labels, the size of gen answers, mean depth."""
        out = []
        groups: dict[tuple[Task, Form], list[Item]] = {}
        for i in self.items:
            groups.setdefault((i.task, i.form), []).append(i)
        for (task, form), items in groups.items():
            sizes = sorted(answer_size(i.answer) for i in items) if form is Form.GEN else []
            row = {"task": str(task), "form": str(form), "items": len(items),
                   "yes": sum(i.answer == "yes" for i in items) if form is Form.BOOL else None,
                   "no": sum(i.answer == "no" for i in items) if form is Form.BOOL else None,
                   "labels": "/".join(str(sum(i.answer == l for i in items)) for l in "ABCD")
                   if form is Form.MCQ else None,
                   "answer_size": f"{sizes[0]}/{sizes[len(sizes) // 2]}/{sizes[-1]}" if sizes else None,
                   "mean_depth": round(sum(i.depth for i in items) / len(items), 2)}
            out.append(row)
        return out

    def skips(self) -> list[dict]:
        return [{"task": str(t), "reason": r, "states": n} for (t, r), n in sorted(self.skipped.items())]

    def shortfall(self) -> dict[tuple[Task, Form], int]:
        """(task, form) asked → how many items fewer than asked were made (none at all included)."""
        made = Counter((i.task, i.form) for i in self.items)
        return {tf: self.wanted - made[tf] for tf in self.asked if made[tf] < self.wanted}


def answer_size(answer) -> int:
    """How big a free answer is: a number's value, a list's length, a dict's lists' total length."""
    if isinstance(answer, bool):
        return int(answer)
    if isinstance(answer, int):
        return answer
    if isinstance(answer, dict):
        return sum(len(v) for v in answer.values() if isinstance(v, list))
    if isinstance(answer, list):
        return len(answer)
    return 1


def load_sources(domain_file: str | Path, problem_files: Sequence[str | Path], templates: str | Path | None = None,
                 options: Options = Options()) -> list[Source]:
    domain = load_domain(domain_file)
    t: Templates | None = load_templates(templates, domain) if templates is not None else templates_for(domain)
    book = Phrasebook(domain, t)
    text = read_text(domain_file)
    return [Source(domain, load_problem(p, domain), text, str(p), book, options.time_limit, options.explore_states)
            for p in problem_files]


def _situations(sources: Sequence[Source], options: Options, task: Task,
                near: list[bool] | None = None) -> Iterator[tuple[str, Situation]]:
    """Situations from fresh walks, round robin over the problems, each with its own seeded generators;
    a task with a `sequel` walks on past the state (in the same batch: no clingo call per state).
    Once `near[0]` is set (a `near_goal` task whose states were all undecided), states along a plan
    instead, 1 to NEAR steps before its end, in a seeded order."""
    lo, hi = options.depth
    sequel = entry(task).sequel
    batch = 0
    while not (near and near[0]):
        walks: list[tuple[Any, list[str], list]] = []
        for src in sources:
            keys = [f"{options.seed}|{task}|{src.problem_file}|{batch}|{j}" for j in range(BATCH)]
            rngs = [random.Random(k) for k in keys]
            depths = [r.randint(lo, hi) for r in rngs]
            extra = [r.randint(*sequel) for r in rngs] if sequel else [0] * BATCH
            ws = random_walks(src.domain, src.problem, src.problem.init, [d + e for d, e in zip(depths, extra)], rngs)
            walks.append((src, keys, [w.split(min(d, w.depth)) if sequel else (w, None) for w, d in zip(ws, depths)]))
        for j in range(BATCH):
            for src, keys, split in walks:
                walk, after = split[j]
                yield keys[j], Situation(src, walk, random.Random(keys[j] + "|q"), after)
                if near and near[0]:
                    break
            if near and near[0]:
                break
        batch += 1
    for src in sources:
        steps = list(range(1, NEAR + 1))
        random.Random(f"{options.seed}|{task}|{src.problem_file}|plan").shuffle(steps)
        for k, walk in zip(steps, plan_walks(src.domain, src.problem, steps, options.time_limit)):
            key = f"{options.seed}|{task}|{src.problem_file}|plan|{k}"
            yield key, Situation(src, walk, random.Random(key + "|q"))


#: how many steps before a plan's end the states of a `near_goal` task may be (see `_situations`)
NEAR = 12


def context(sit: Situation, task: Task, form: Form, goal: bool) -> str:
    book, src = sit.book, sit.source
    parts = [book.domain_text(), book.objects(src.problem)]
    if entry(task).after_sequence:
        parts.append(book.state(sit.walk.states[0], src.static, lead="Initially"))
    else:
        parts.append(book.state(sit.state, src.static))
    if goal:
        parts.append(book.goal(src.problem.goal))
    if form is Form.GEN:
        parts.append(book.vocabulary())
    return "\n".join(parts)


def _draft(analysis, form: Form, yes: bool) -> Draft | None:
    if form is Form.GEN:
        return analysis.gen()
    if form is Form.BOOL:
        return analysis.boolean(yes)
    return analysis.mcq()


def _reason(e: Skip) -> str:
    return str(e).split(":", 1)[0]


#: A task stops after this many states in a row left undecided while it has no item yet: the limits
#: (`--time-limit`, the problem's size) are out of reach, and trying 4 x N more states would only take long.
GIVE_UP = 8


def generate(sources: Sequence[Source], options: Options, progress: ProgressCallback | None = None,
             jobs: Jobs = Jobs()) -> Generation:
    """`options.per_task` items per task and form (fewer when the states give no more: see `shortfall`).
    `jobs`: where the work is done (amlasp/jobs.py): with more than one process or on Dask, each task is a
    chunk of its own (tasks draw their states and answers independently), handed out costliest first
    (`handed_out`), the parts put together in the order of the tasks: the same items, bit for bit.
    `progress("items", done, total)` then counts the items of all tasks."""
    out = Generation(wanted=options.per_task)
    if jobs.parallel and len(options.tasks) > 1:
        return _parallel(out, sources, options, progress, jobs)
    for k, task in enumerate(options.tasks):
        _task(out, sources, options, k, task, progress)
    return out


def _parallel(out: Generation, sources: Sequence[Source], options: Options, progress: ProgressCallback | None,
              jobs: Jobs) -> Generation:
    from ..asp.worker import WORKER_MB
    total = sum(len([f for f in options.forms if f in entry(t).forms]) for t in options.tasks) * options.per_task
    made = [0]

    def count(n: int) -> None:
        made[0] += n
        if progress is not None:
            progress("items", made[0], total)

    parts: dict[int, Generation] = {}
    order = handed_out(options)
    chunks = [(tuple(sources), options, k) for k in order]
    for index, part in run_chunks(_task_chunk, chunks, jobs, count, limit_mb=WORKER_MB):
        if jobs.dask:
            count(len(part.items))
        parts[order[index]] = part
    for k in range(len(options.tasks)):
        part = parts[k]
        out.items += part.items
        out.skipped.update(part.skipped)
        out.states.update(part.states)
        out.asked += part.asked
        out.gave_up.update(part.gave_up)
        out.near_goal.update(part.near_goal)
    return out


def handed_out(options: Options) -> list[int]:
    """The tasks (their positions in `options.tasks`) in the order workers are given them: the costliest first
    (an item's `TaskEntry.cost` times the items asked), so that the last to finish are the short ones and no
    worker waits long for another (longest processing time first); ties in the order asked."""
    def expected(k: int) -> float:
        spec = entry(options.tasks[k])
        return spec.cost * options.per_task * len([f for f in options.forms if f in spec.forms])
    return sorted(range(len(options.tasks)), key=lambda k: -expected(k))


def _task_chunk(chunk: tuple[Sequence[Source], Options, int], report) -> Generation:
    """A worker's part: the `k`th task's items, as the serial run makes them."""
    sources, options, k = chunk
    out = Generation(wanted=options.per_task)
    _task(out, sources, options, k, options.tasks[k], (lambda stage, done, total: report(1)) if report else None)
    return out


def _task(out: Generation, sources: Sequence[Source], options: Options, k: int, task: Task,
          progress: ProgressCallback | None) -> None:
    """The items of `task`, the `k`th asked for (its first yes/no answer alternates from task to task), into `out`."""
    spec = entry(task)
    forms = [f for f in options.forms if f in spec.forms]
    out.asked += [(task, f) for f in forms]
    made: Counter = Counter()
    yes: Counter = Counter()
    total = len(forms) * options.per_task
    seen: set[tuple] = set()
    limit = 4 * total + 20  # states analysed at most
    drawn = undecided = 0
    last_why = ""
    near = [False]
    for key, sit in [] if _refused(out, spec, sources) else _situations(sources, options, task, near):
        if all(made[f] >= options.per_task for f in forms) or out.states[task] >= limit or drawn >= 10 * limit:
            break
        if undecided >= GIVE_UP and not made:
            why = (f"the first {undecided} states were all undecided within the limits (--time-limit "
                   f"{options.time_limit:g} s per planner call), the last because {last_why}")
            if spec.near_goal and not near[0]:
                near[0], undecided = True, 0
                out.near_goal[task] = f"{why}; so states 1 to {NEAR} steps before the end of a plan"
                continue
            out.gave_up[task] = f"{why}; try smaller problems or a longer limit"
            break
        drawn += 1
        where = (sit.source.problem_file, sit.walk.states[0] if spec.after_sequence else sit.state,
                 tuple(sit.walk.actions) if spec.after_sequence else ())
        if where in seen:  # a state asked about already (small state spaces repeat)
            continue
        seen.add(where)
        out.states[task] += 1
        try:
            analysis = spec.analyse(sit)
        except Skip as e:
            out.skipped[task, _reason(e)] += 1
            undecided = undecided + 1 if _reason(e) == "undecided" else 0
            last_why = str(e).split(":", 1)[-1].strip()
            continue
        undecided = 0
        for form in forms:
            if made[form] >= options.per_task:
                continue
            # balanced yes/no per task, the first answer alternating from task to task
            want_yes = yes[True] < yes[False] or (yes[True] == yes[False] and k % 2 == 0)
            draft = _ask(out, task, analysis, form, want_yes)
            if draft is None:
                continue
            if form is Form.BOOL:
                yes[draft.answer == "yes"] += 1
            out.items.append(_item(sit, task, form, draft, key, options, spec.needs_goal))
            made[form] += 1
            if progress is not None:
                progress(str(task), sum(made.values()), total)
    if near[0] and not made and task not in out.gave_up:
        out.gave_up[task] = f"states along a plan too were undecided within the limits, the last: {last_why}"


def _refused(out: Generation, spec: TaskEntry, sources: Sequence[Source]) -> bool:
    """A task that needs the goal's facts (`TaskEntry.goal_literals`) is refused, and said so in `out`, when a
    problem's goal has a condition that is no literal (`model.GoalCondition`)."""
    for s in sources if spec.goal_literals else ():
        condition = next((g for g in s.problem.goal if isinstance(g, GoalCondition)), None)
        if condition is not None:
            out.gave_up[spec.task] = (f"refused: its question names goal facts, and the goal of {s.problem_file} "
                                      f"has a condition that is no literal ({condition}); leave that problem out "
                                      f"for this task")
            return True
    return False


def _ask(out: Generation, task: Task, analysis, form: Form, yes: bool) -> Draft | None:
    """The analysis's question of `form`, or None (the reason counted in `out.skipped`)."""
    try:
        draft = _draft(analysis, form, yes)
    except Skip as e:
        out.skipped[task, _reason(e)] += 1
        return None
    if draft is None:
        out.skipped[task, f"no {form} question in the state"] += 1
    return draft


def _item(sit: Situation, task: Task, form: Form, draft: Draft, key: str, options: Options, goal: bool) -> Item:
    src = sit.source
    described = sit.walk.states[0] if entry(task).after_sequence else sit.state
    problem = problem_to_pddl(replace(src.problem, init=frozenset(a for a in described if a.predicate != "=")),
                           src.domain.name)
    return Item(item_id(key, form), task, form, context(sit, task, form, goal), draft.question, draft.answer,
                src.domain_text, problem, sit.walk.depth, options.seed, [str(a) for a in sit.walk.actions],
                draft.evidence, draft.choices, draft.query, src.problem_file)


__all__ = ["Options", "Generation", "generate", "load_sources", "context", "ProgressCallback"]
