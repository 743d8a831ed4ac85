"""Predictive power: does a learned model predict which actions are applicable, and what they change?

`evaluate(learned, reference, states)` compares both models on test states, streamed: read a file
at a time and evaluated a batch at a time, in ONE clingo program per batch: the states of all
problems are facts (`asp/eval_states.py`, with what `states.py` counts of them), each action schema
of each model is compiled to a rule (`asp/compile/pair.py`), and `encodings/eval.lp` counts true/false
positives/negatives with aggregates, so that Python reads a handful of numbers per action and adds
them up over the batches (`result.py`). docs/eval.md defines the metrics exactly.

What makes it fast (benchmarks/bench_eval.py; docs/eval.md lists it): the state term `s(P,S)`,
negative typing and static predicates read once per problem (`asp/compile/action.py` options), equal states
written once with a weight, effects derived only for jointly applicable actions, as changes
directly, once for an effect both models share, and counted without atoms where no two rules make
one; the learned model's own instances counted, not made atoms; true negatives completed
arithmetically from universe sizes, never enumerated.
"""

from __future__ import annotations

import time
import warnings
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Callable, Iterable, Sequence

from ...asp import size
from ...asp.compile.pair import compile_pair
from ...asp.compile.slots import slots, static_predicates
from ...asp.eval_states import Grouped, group
from ...asp.facts import domain_facts
from ...asp.names import EVAL_LEARNED, EVAL_REF, asp_name
from ...asp.run import encoding, solve_once
from ...asp.schema import EXPLAIN, RECORDED
from ...asp.size import free_parameters
from ...asp.worker import WORKER_MB, Solver
from ...cluster import in_process
from ...errors import InputError, Unreadable, warn_input
from ...jobs import Jobs, run_chunks
from ...limits import MAX_GROUNDING
from ...model import Broken, Domain, Problem, canonical_name
from ...pddl.check import spelling_differences
from ...pddl.inputs import input_files
from ...pddl.parse import load_domain, load_lenient
from ...pddl.states import StateSet
from ...workers import ProgressCallback
from .answers import Answers, answer_decoder
from .checks import StepCheck
from .chunks import EvalChunk, Mirror, Tally, bundle, error_fields, mirror, plan, rebuilt
from .costs import CostAgreement
from .reading import StateReading, state_chunks
from .result import ActionScore, Evaluation, LearnedOnly, applicability_counts, effect_counts
from .states import StateWriter

# States per clingo program: the memory of one program (and of the clingo symbols it leaves, which
# live as long as its process: the worker's, asp/worker.py) stays in hundreds of MB (bench_eval.py, parts 5-6).
BATCH_STATES = 10000


# long: half of it is its docstring, the API's own documentation of each argument
def evaluate(learned: Domain | str | Path, reference: Domain | str | Path,
             states: str | Path | Iterable[str | Path] | Iterable[StateSet],
             problems: str | Path | Sequence[str | Path] | None = None,
             explain: bool = False, progress: ProgressCallback | None = None,
             batch_states: int = BATCH_STATES, check_trajectories: bool = True,
             keep_going: bool = False, lenient_reference: bool = False, jobs: Jobs = Jobs()) -> Evaluation:
    """Predictive power of `learned` against `reference` on test states.

    `states`: a trajectory file, JSON state file, problem file or directory of them, or a list of
    these (read with the reference's vocabulary; objects from the problems), or StateSets: a list,
    or any iterable (a generator), read as it is consumed.
    `problems`: the directory (or directories) where the trajectories' problem files are.
    `progress(stage, done, total)` is called as state files are read and batches solved.
    The states are streamed: read (files one at a time), evaluated and let go a batch of about
    `batch_states` states at a time (whole files or StateSets; one clingo program each), the counts
    summed; the results do not depend on the batches.
    `check_trajectories`: warn (`InputWarning`) of a trajectory whose first state is not its problem's
    initial state, or whose recorded action is not applicable in the reference where it was taken
    (decided in the same clingo program: `checks.StepCheck`).
    `keep_going`: a state file that cannot be read (its problem included) is recorded in
    `Evaluation.unreadable` and the others are scored; else its error is raised. With no state read
    at all, the first file's error is raised either way (docs/input.md, "Many inputs: partial runs").
    The learned model is read with recovery: a broken action is left out (a warning each), so never
    applicable: its reference counterpart's applicable instances are false negatives (`ActionScore.broken`).
    `lenient_reference`: the reference is read so too (its broken actions left out of the scoring).
    `jobs`: where the work is done (amlasp/jobs.py): with more than one process or on Dask, the state files
    (not StateSets, which are evaluated here) are cut into chunks of whole files (`chunks.py`), each
    evaluated by a worker; the result is the same, bit for bit."""
    t0 = time.perf_counter()
    ref = reference if isinstance(reference, Domain) else \
        load_lenient(reference) if lenient_reference else load_domain(reference)
    lrn = learned if isinstance(learned, Domain) else load_domain(learned, undeclared_predicates=True, recover=True)
    for message in spelling_differences(lrn, ref):
        warn_input(message)
    run = _Pass(ref, lrn, explain, check_trajectories)
    reading = StateReading(states, ref, problems, progress, keep_going)
    solver: Solver | _Workers
    if jobs.parallel and reading.files_only():
        solver = _parallel(run, reading, batch_states, jobs)
    else:
        with Solver() as solver:
            for chunk in state_chunks(reading, batch_states):
                # one batch: solved here; more: in a worker process, whose clingo symbols do not stay
                run.solver = solver if run.batches or not reading.done else None
                run.batch(chunk)
                if progress:
                    progress("solve", run.batches, run.batches + (not reading.done))
    if run.total == 0:
        if reading.errors:  # nothing was read: there is nothing to score, the first file's error says why
            raise reading.errors[0]
        raise InputError("no test states", reading.first)
    for message in run.steps.warnings() if run.steps else ():
        warn_input(message)
    scores, learned_only = _scores(run)
    ref_preds = {(asp_name(p.name), p.arity) for p in ref.predicates}
    return Evaluation(
        scores, learned_only, run.total, len(run.problems), sum(run.writer.ignored.values()),
        tuple(sorted(run.writer.ignored)), tuple(sorted(p.name for p in lrn.predicates
                                                        if (asp_name(p.name), p.arity) not in ref_preds)),
        run.answers.sorted_mistakes(),
        {"load": reading.seconds, "facts": run.t_facts, **run.timings, "total": time.perf_counter() - t0,
         "batches": run.batches, "workers": solver.started, "worker_mb": solver.peak_mb},
        cost_agreement=run.costs.to_dict(),
        unreadable=tuple(Unreadable.of(f, e) for f, e in zip(reading.erred, reading.errors)),
        state_files=reading.files, broken=lrn.broken)


# --------------------------------------------------------------------------- on many processes (chunks.py)

class _Workers:
    """What `evaluate`'s figures say of the workers of a parallel run (`Solver`'s `started` and `peak_mb`)."""

    def __init__(self) -> None:
        self.started = 0
        self.peak_mb = 0.0


def _parallel(run: _Pass, reading: StateReading, batch_states: int, jobs: Jobs) -> _Workers:
    """The state files in chunks over `jobs`' workers, their tallies merged into `run` and `reading` in
    chunk order (each as soon as those before it are in: the progress bar's states are merged ones)."""
    files = input_files(reading.items)
    reading.first = str(reading.items[0]) if reading.items else None
    dirs = tuple(None if d is None else str(d) for d in reading.dirs)

    def make(paths: tuple[str, ...]) -> EvalChunk:
        return EvalChunk(run.lrn, run.ref, paths, dirs, run.explain, run.steps is not None, reading.keep_going,
                         batch_states, fresh=not jobs.dask, texts=bundle(paths, dirs) if jobs.dask else ())

    chunks = plan(files, jobs.jobs, make)
    progress, done_files = reading.progress, 0
    workers = _Workers()
    workers.started = jobs.jobs
    seen: set[tuple[type, str]] = set()  # warnings said by an earlier chunk (a problem read by several)
    waiting: dict[int, Tally] = {}
    states = [0]

    def count(n: int) -> None:
        states[0] += n
        if progress:
            progress("states", states[0], states[0])

    if progress:
        progress("read", 0, len(files))
    for index, tally in run_chunks(_evaluate_chunk, chunks, jobs, count, limit_mb=WORKER_MB):
        if jobs.dask:
            count(tally.total)
        waiting[index] = tally
        while done_files < len(chunks) and done_files in waiting:
            t = waiting.pop(done_files)
            _merge(run, reading, t, seen)
            workers.peak_mb = max(workers.peak_mb, t.peak_mb)
            done_files += 1
            if progress:
                progress("read", sum(len(c.files) for c in chunks[:done_files]), len(files))
    reading.done = True
    return workers


def _evaluate_chunk(chunk: EvalChunk, report) -> Tally:
    """A worker's part: the chunk's files evaluated as the serial run does, its counts in a `Tally`
    (its warnings and the error that stopped it too; every path in them as given, `Mirror.fix`)."""
    from ...asp.worker import resident_mb
    tally = Tally()
    with mirror(chunk) as m, warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        run = _Pass(chunk.reference, chunk.learned, chunk.explain, chunk.check_trajectories)
        reading = StateReading([m.local(f) for f in chunk.files], chunk.reference,
                           [m.local(d) for d in chunk.problems], None, chunk.keep_going)
        run.solver = None if chunk.fresh or in_process() else _dask_solver()
        try:
            for sets in state_chunks(reading, chunk.batch_states):
                before = run.total
                run.batch(sets)
                if report:
                    report(run.total - before)
        except InputError as e:
            tally.error = error_fields(e)
        _tally(tally, run, reading, m)
        tally.warnings = [(type(w.message), m.fix(str(w.message))) for w in caught]
    tally.peak_mb = run.solver.peak_mb if run.solver else resident_mb("VmHWM")
    return tally


_SOLVER: list[Solver] = []


def _dask_solver() -> Solver:
    """A Dask worker's clingo process when the worker has no nanny to restart it (`cluster.in_process`), kept
    from chunk to chunk (the Dask worker itself lives on: its clingo symbols would not be freed), replaced
    as its memory grows (`Solver`)."""
    if not _SOLVER:
        _SOLVER.append(Solver())
    return _SOLVER[0]


def _tally(t: Tally, run: _Pass, reading: StateReading, m: Mirror) -> None:
    fix = m.fix
    t.problems = [(fix(p.file or p.name), p) for p in run.problems]
    t.counts, t.joint, t.free = run.answers.counts, run.answers.joint, run.answers.free
    t.mistakes = [replace(x, source=fix(x.source)) for x in run.answers.mistakes]
    if run.steps:
        t.first = [fix(x) for x in run.steps.first]
        t.unknown = {fix(k): v for k, v in run.steps.unknown.items()}
        t.off = {fix(k): v for k, v in run.steps.off.items()}
    t.states, t.total, t.batches, t.t_facts, t.timings = run.states, run.total, run.batches, run.t_facts, run.timings
    t.costs, t.ignored, t.joint_changes = run.costs, run.writer.ignored, run.joint_changes
    t.erred = [fix(str(f)) for f in reading.erred]
    t.errors = [error_fields(e) for e in reading.errors]
    t.files, t.seconds = reading.files, reading.seconds
    if t.error is not None:
        t.error = t.error[:1] + (fix(t.error[1]), fix(t.error[2]) if t.error[2] else None) + t.error[3:]
    t.errors = [e[:1] + (fix(e[1]), fix(e[2]) if e[2] else None) + e[3:] for e in t.errors]


def _merge(run: _Pass, reading: StateReading, t: Tally, seen: set[tuple[type, str]]) -> None:
    """A chunk's tally added to `run` and `reading`, as if its files had been read and evaluated here next."""
    said = set()
    for category, text in t.warnings:
        if (category, text) not in seen:
            warnings.warn(category(text), stacklevel=2)
            said.add((category, text))
    seen |= said
    reading.erred += [Path(f) for f in t.erred]
    reading.errors += [rebuilt(e) for e in t.errors]  # type: ignore[misc]
    reading.files += t.files
    reading.seconds += t.seconds
    if t.error is not None:
        raise rebuilt(t.error)
    number = [run.problem(reading.cache.setdefault(k, p)) for k, p in t.problems]
    answers = run.answers
    answers.counts.update(t.counts)
    for (slot, p), n in t.joint.items():
        answers.joint[(slot, number[p])] += n
    for (slot, p), n in t.free.items():
        answers.free[(slot, number[p])] += n
    answers.mistakes += [replace(x, state=x.state + run.total) for x in t.mistakes]
    if run.steps:
        run.steps.first += t.first
        for source, step in t.unknown.items():
            run.steps.unknown.setdefault(source, step)
        for source, where in t.off.items():
            run.steps.off.setdefault(source, []).extend(where)
    for p, n in t.states.items():
        run.states[number[p]] += n
        run.writer.vocabulary_of(number[p])
    run.writer.ignored.update(t.ignored)
    run.total += t.total
    run.batches += t.batches
    run.t_facts += t.t_facts
    run.timings.update(t.timings)
    if t.batches:
        run.joint_changes = t.joint_changes
    run.costs.steps += t.costs.steps
    run.costs.agree += t.costs.agree
    for action, (n, k) in t.costs.by_action.items():
        counts = run.costs.by_action.setdefault(action, [0, 0])
        counts[0] += n
        counts[1] += k


class _Pass:
    """One pass over the test states, batch by batch: the program of each batch solved, its
    answers added up. What it keeps is per problem, per action or per distinct atom (and the
    mispredictions asked for), never per state."""

    def __init__(self, ref: Domain, lrn: Domain, explain: bool, check_trajectories: bool):
        self.ref, self.lrn, self.explain = ref, lrn, explain
        self.static = static_predicates(ref)
        self.pair = slots(ref, lrn)
        learned_preds = {(asp_name(p.name), p.arity) for p in lrn.predicates}
        ignored = {p.name for p in ref.predicates if (asp_name(p.name), p.arity) not in learned_preds}
        self.problems: list[Problem] = []
        self.number: dict[int, int] = {}  # id(problem) → its number
        self.decoder = answer_decoder(ref, lrn)
        self.writer = StateWriter(ref, self.problems, ignored)
        self.answers = Answers(self.pair, self.decoder, explain)
        self.steps = StepCheck(self.pair) if check_trajectories else None
        self.head = [encoding("types"), encoding("semantics"), encoding("eval"), domain_facts(ref, EVAL_REF),
                     domain_facts(lrn, EVAL_LEARNED), EXPLAIN.fact() if explain else ""]
        # (the object types of a batch's problems, its atoms all well-typed) → the pair's rules, and its
        # slots whose FPs are counted with free parameters left out (`PairProgram.free_fp`)
        self.rules: dict[tuple[frozenset[str], bool], tuple[str, frozenset[int]]] = {}
        self.joint_changes: Counter = Counter()  # (slot, tp|fp|fn) → changes per joint instance (compile_pair)
        self.states: Counter = Counter()  # problem number → its test states
        self.total = self.batches = 0
        self.t_facts = 0.0
        self.timings: Counter = Counter()
        self.costs = CostAgreement()
        self._sizes: dict[tuple[bool, int], size.Sizes] = {}  # (reference?, id(problem)) → its sizes
        self.solver: Solver | None = None  # the worker process that solves the batches, if not this one

    def problem(self, p: Problem) -> int:
        n = self.number.get(id(p))
        if n is None:
            n = self.number[id(p)] = len(self.problems)
            self.problems.append(p)
            self.decoder.add(*(o for o, _ in p.objects))
        return n

    def batch(self, sets: list[StateSet]) -> None:
        if len(sets) > 1 and self.too_large(sets):  # smaller programs, a file at least each
            self.batch(sets[:len(sets) // 2])
            self.batch(sets[len(sets) // 2:])
            return
        tf = time.perf_counter()
        grouped = group(sets, self.static, self.problem)
        self.guard(grouped)
        kinds = frozenset(t for c in grouped.contexts for _, t in self.problems[c.problem_index].objects)
        given = self.writer.batch(grouped)  # the states' facts, as rows of terms (asp/run.py `Program.given`)
        # every atom of the batch's problems so far well-typed in the reference: its rules type less
        typed = not any(c.problem_index in self.writer.ill_typed for c in grouped.contexts)
        compiled = self.rules.get((kinds, typed))
        if compiled is None:
            program = compile_pair(self.ref, self.lrn, self.pair, self.static, set(kinds), self.explain, typed)
            compiled = self.rules[(kinds, typed)] = (program.text, program.free_fp)
            self.joint_changes = program.joint_changes  # the same for any object types
        rules, free_fp = compiled
        parts = [*self.head, rules]
        if self.steps:
            given[RECORDED] = self.steps.batch(sets, grouped)
        for c in grouped.contexts:
            self.states[c.problem_index] += sum(grouped.weight[s] for s in c.states)
        self.t_facts += time.perf_counter() - tf
        shown = (self.solver.solve(parts, self.timings, given) if self.solver
                 else solve_once(parts, timings=self.timings, given=given))
        self.answers.read(shown, grouped, self.total, self.steps, {n: self.free_tuples(n) for n in free_fp})
        self.costs.add(self.ref, self.lrn, sets)
        self.total += grouped.states()
        self.batches += 1


    def free_tuples(self, n: int) -> Callable[[int], int]:
        """Problem number → the tuples of objects that the free parameters of slot `n`'s learned action take."""
        action = self.pair[n].learned
        assert action is not None
        return lambda p: size.free_tuples(self.lrn, action, self.problems[p])

    def estimates(self, states: dict[int, int]) -> list[tuple[Domain, dict[str, float]]]:
        """The size guard's estimates (asp/size.py) of a program over `states`, problem number →
        states: both models' actions (a learned-only action's free parameters counted, not
        enumerated: `PairCompiler.learned_only_count`; the learned model's effects only on joint
        instances, counted with the reference's)."""
        factored = {} if self.explain else {s.learned.name: free_parameters(s.learned) for s in self.pair
                                            if s.ref is None and s.learned is not None}
        return [(d, size.estimate(d, [(self.sizes(d, self.problems[p]), n) for p, n in states.items()],
                                  factored if d is self.lrn else None, effects=d is self.ref))
                for d in (self.ref, self.lrn)]

    def too_large(self, sets: list[StateSet]) -> bool:
        """Would the program of `sets` pass the size guard's limit? (Split then, `batch`.)"""
        states: dict[int, int] = Counter()
        for ss in sets:
            states[self.problem(ss.problem)] += len(ss.states)
        total = sum(x for _, per in self.estimates(states) for x in per.values())
        return total > MAX_GROUNDING.value()

    def guard(self, grouped: Grouped) -> None:
        """Refuse a batch's program above the size guard's limit, by its written states."""
        states: dict[int, int] = Counter()
        for c in grouped.contexts:
            states[c.problem_index] += len(c.states)
        size.check("eval", *self.estimates(states))

    def sizes(self, d: Domain, p: Problem) -> size.Sizes:
        key = (d is self.ref, id(p))
        if key not in self._sizes:
            self._sizes[key] = size.sizes(d, p)
        return self._sizes[key]


def _broken_namesake(lrn: Domain, action: str) -> Broken | None:
    """The learned model's broken action of that name (`canonical_name`), if it has one."""
    return next((b for b in lrn.broken if b.kind == "action" and b.name is not None
                 and canonical_name(b.name) == canonical_name(action)), None)


def _scores(run: _Pass) -> tuple[tuple[ActionScore, ...], tuple[LearnedOnly, ...]]:
    """The scores of each reference action and the false positives of learned-only actions; true
    negatives are completed arithmetically: instances (universe atoms) minus the other counts."""
    counts, joint = run.answers.counts, run.answers.joint
    vocabulary = run.writer.vocabulary
    scores, extra_only = [], []
    for slot in run.pair:
        nj = sum(joint[(slot.index, p)] for p in run.states)
        a = lambda what, i=slot.index: counts[("app", i, what)]  # noqa: E731
        e = lambda what, i=slot.index, nj=nj: (counts[("eff", i, what)] + counts[("effc", i, what)]  # noqa: E731
                                               + run.joint_changes[(i, what)] * nj)
        if slot.ref is None:
            assert slot.learned is not None  # a slot has one model's action at least
            free = sum(n * size.free_tuples(run.lrn, slot.learned, run.problems[p])
                       for (i, p), n in run.answers.free.items() if i == slot.index)
            extra_only.append(LearnedOnly(slot.learned.name, slot.learned.arity, a("fp") + free))
            continue
        types = [asp_name(t) for _, t in slot.ref.parameters]
        grounded = sum(vocabulary[p].count(types) * n for p, n in run.states.items())
        tp, fp, fn = nj, a("fp"), a("fn")
        tn = grounded - tp - fn - (fp - a("untyped"))
        universe = sum(joint[(slot.index, p)] * vocabulary[p].universe for p in run.states)
        inside_changes = e("tp") + e("fp") + e("fn") - e("outside")
        etn = universe + e("extra") - inside_changes
        scores.append(ActionScore(slot.ref.name, slot.ref.arity, applicability_counts(tp, fp, tn, fn),
                                  effect_counts(e("tp"), e("fp"), etn, e("fn"), nj), nj,
                                  slot.learned is not None, a("untyped"),
                                  _broken_namesake(run.lrn, slot.ref.name) if slot.learned is None else None))
    return tuple(scores), tuple(extra_only)


__all__ = ["evaluate"]
