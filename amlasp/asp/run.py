"""The one place that owns clingo: encodings are loaded, programs grounded and solved here.

As in clingo's multi-shot examples, one object (`Program`) holds the `clingo.Control`;
everything else hands it program text and reads symbols back:

- `solve_once(parts, given=...)`: ground and take the first answer set (our programs are stratified,
  so it is the only one) — applicable, step, validate, eval, diff, relaxation;
- `optimise(program, time_limit)`: the best answer set and whether it is proven optimal
  (compare's edit distance);
- `Program`: multi-shot use — parts grounded step by step, externals assigned, several
  solves on one grounding (planning, justify, mutexes, landmarks).

Text that recurs across calls in one process (`Reused`: the encodings, a model's compiled rules, a
problem's facts) is parsed by clingo into statements once it is seen a second time, and the
statements are replayed into each new `Control`: 4-5x cheaper than parsing the text again (a
floortile plan's validation, benchmarks/bench_validate.py). A text seen once is parsed as text, so
a one-call process (the CLI) pays nothing for the cache.
"""

from __future__ import annotations

import atexit
import time
from collections import Counter, OrderedDict
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterable, Iterator, Mapping, Sequence, TypeVar, cast

import clingo

from .text import Reused

if TYPE_CHECKING:
    from .schema import Pred

OPTIONS = ("--warn=none",)
#: A predicate by name and arity, for a program's own predicates that the schema does not declare.
Signature = tuple[str, int]
T = TypeVar("T")


@lru_cache(maxsize=None)
def encodings_folder() -> Path | None:
    """Where the encodings are: the repository's top-level `encodings/` beside the package in a checkout
    (an editable install too), or the package data `amlasp/encodings/` that setup.py maps it to in a
    wheel; None for a package installed as a zip (`encoding` reads it through importlib.resources).
    Read directly, not by `importlib.resources`: its imports cost 3-4 ms, a sixtieth of `amlasp validate`."""
    package = Path(__file__).resolve().parent.parent
    for folder in (package / "encodings", package.parent / "encodings"):
        if (folder / "semantics.lp").is_file():
            return folder
    return None


@lru_cache(maxsize=None)
def encoding(name: str) -> Reused:
    """The text of the encoding `<name>.lp` (`encodings_folder`): every encoding is loaded here."""
    folder = encodings_folder()
    if folder is not None:
        return Reused((folder / f"{name}.lp").read_text(encoding="utf-8"))
    from importlib import resources  # installed as a zip: only importlib.resources reads it

    return Reused((resources.files("amlasp") / "encodings" / f"{name}.lp").read_text(encoding="utf-8"))


class _Parses:
    """The clingo statements of recently reused texts, keyed by (text, part, parameters): None for a
    text seen once (it is parsed as text), its statements from the second time on. Bounded: the
    least recently used are dropped."""

    SIZE = 128
    #: Longer texts are always parsed as text: their statements would hold ten times their size.
    LONGEST = 1_000_000

    def __init__(self) -> None:
        self._seen: OrderedDict[tuple[str, str, tuple[str, ...]], list | None] = OrderedDict()

    def clear(self) -> None:
        self._seen.clear()

    def get(self, text: str, name: str, params: tuple[str, ...]) -> list | None:
        """The statements of `text` in part `name(params)`, or None if it is to be parsed as text now."""
        if len(text) > self.LONGEST:
            return None
        key = (text, name, params)
        if key not in self._seen:
            self._seen[key] = None
            if len(self._seen) > self.SIZE:
                self._seen.popitem(last=False)
            return None
        self._seen.move_to_end(key)
        statements = self._seen[key]
        if statements is None:
            from clingo import ast  # 2.5 ms to import: only once a text recurs

            statements = []
            header = f"#program {name}({','.join(params)})." if params else f"#program {name}."
            comment = ast.ASTType.Comment  # comments are statements too: a third of an encoding's, kept for nothing

            def keep(statement: ast.AST) -> None:
                if statement.ast_type is not comment:
                    statements.append(statement)

            ast.parse_string(f"{header}\n{text}", keep)
            self._seen[key] = statements
        return statements


_PARSES = _Parses()
# Kept statements are clingo objects: let them go while clingo is still there, not in the interpreter's
# last teardown, where each printed an AttributeError from clingo's ast.__del__ (harmless, but noise).
atexit.register(_PARSES.clear)


def rows_of(arity: int, rows: Sequence[str]) -> list[clingo.Symbol]:
    """The terms of `Program.given`'s rows (tuples, for an arity other than 1), read at once."""
    if arity == 1:
        return clingo.parse_term(f"({','.join(rows)},)").arguments
    return clingo.parse_term(f"(({'),('.join(rows)}),)").arguments  # one join: each row in parentheses


class _Given:
    """The grounder's context: `@given(name)`, the terms of `Program.given`'s facts."""

    def __init__(self, terms: dict[str, list[clingo.Symbol]]):
        self._terms = terms

    def given(self, name: clingo.Symbol) -> list[clingo.Symbol]:
        return self._terms[name.string]


class NoAnswer(RuntimeError):
    """A program that must have an answer set has none: a bug of ours, never the user's input."""


class Program:
    """A clingo program: added text, grounded parts, externals, solves. The only `clingo.Control`."""

    def __init__(self, parts: Iterable[str] = (), options: Sequence[str] = (), timings: Counter | None = None):
        self.control = clingo.Control([*OPTIONS, *options])
        self.timings = timings
        self._given: dict[str, list[clingo.Symbol]] = {}
        t = time.perf_counter()
        for text in parts:
            self.add(text)
        self._time("parse", t)

    def _time(self, stage: str, since: float) -> None:
        if self.timings is not None:
            # seconds: a Counter adds floats as well, though typeshed types its counts as int
            self.timings[stage] += time.perf_counter() - since  # type: ignore[assignment]

    def add(self, text: str, name: str = "base", params: Sequence[str] = ()) -> "Program":
        """Add `text` to part `name(params)`; a `Reused` text from its kept statements, if any."""
        statements = _PARSES.get(text, name, tuple(params)) if isinstance(text, Reused) else None
        if statements is None:
            self.control.add(name, list(params), text)
        else:
            from clingo import ast

            with ast.ProgramBuilder(self.control) as builder:
                for statement in statements:
                    builder.add(statement)
        return self

    def given(self, pred: Pred | Signature, rows: Sequence[str] | Sequence[clingo.Symbol]) -> Program:
        """Add the facts `name(row)` of a declaration of asp/schema.py (or a `(name, arity)`) to part
        `base`, each row `arity` terms separated by commas (`EDGE.row(...)`) or the terms of
        `rows_of`. Facts are cheaper so than as text: all the rows are read as one term
        (`clingo.parse_term`) and handed to the grounder by one rule, `name(X1,...) :- (X1,...) =
        @given("name")`, where clingo's statement parser takes 5 us a fact (a 60-step plan's steps:
        2.5 of the 4.3 million instructions it took, measured with callgrind). Given again, a name
        has more rows. `rows` are ground terms from our own writers, never a user's."""
        name, arity = pred if isinstance(pred, tuple) else pred.signature
        if not rows:
            return self
        if isinstance(rows[0], str):  # the rows are all text or all terms: the first one tells
            t = time.perf_counter()
            terms = rows_of(arity, cast("Sequence[str]", rows))
            self._time("parse", t)
        else:
            terms = list(cast("Sequence[clingo.Symbol]", rows))
        if name in self._given:
            self._given[name] = self._given[name] + terms
            return self
        self._given[name] = terms
        variables = ",".join(f"X{i}" for i in range(arity))
        return self.add(Reused(f'{name}({variables}) :- ({variables}) = @given("{name}").' if arity != 1
                               else f'{name}(X0) :- X0 = @given("{name}").'))

    def ground(self, *parts: tuple[str, Sequence[int]]) -> "Program":
        """Ground program parts, each `(name, integer arguments)`; default: `base`."""
        t = time.perf_counter()
        self.control.ground([(name, [clingo.Number(x) for x in args]) for name, args in parts or [("base", ())]],
                            _Given(self._given) if self._given else None)
        self._time("ground", t)
        return self

    def assign(self, atom: str | clingo.Symbol, value: bool | None) -> None:
        """Set an `#external` atom true or false (None: release it for good)."""
        sym = clingo.parse_term(atom) if isinstance(atom, str) else atom
        if value is None:
            self.control.release_external(sym)
        else:
            self.control.assign_external(sym, value)

    def count(self, pred: Pred | Signature) -> int:
        """Ground atoms of a declaration (or of a `(name, arity)`) so far (a fixpoint test between
        grounding steps)."""
        name, arity = pred if isinstance(pred, tuple) else pred.signature
        return sum(1 for _ in self.control.symbolic_atoms.by_signature(name, arity))

    def first(self, shown: bool = True) -> Sequence[clingo.Symbol] | None:
        """The shown (else all) atoms of the first answer set, None when there is none."""
        return self._first(lambda model: model.symbols(shown=True) if shown else model.symbols(atoms=True))

    def answer(self, shown: bool = True) -> Sequence[clingo.Symbol]:
        """`first`, for a program that must have an answer set (ours are stratified: it is unique)."""
        symbols = self.first(shown)
        if symbols is None:
            raise NoAnswer("internal error: the encoding has no answer set")
        return symbols

    def contains(self, atom: str | clingo.Symbol) -> bool | None:
        """Whether the first answer set has `atom`, None when there is none: one look-up, where
        reading every atom would cost more than the solve (a landmark test per candidate)."""
        sym = clingo.parse_term(atom) if isinstance(atom, str) else atom
        return self._first(lambda model: model.contains(sym))

    def _first(self, read: Callable[[clingo.Model], T]) -> T | None:
        t = time.perf_counter()
        out = None
        with self.control.solve(yield_=True) as handle:
            for model in handle:
                out = read(model)
                break
        self._time("solve", t)
        return out

    def models(self, limit: int = 0, deadline: float | None = None) -> Iterator[Sequence[clingo.Symbol]]:
        """The shown atoms of up to `limit` answer sets (0: all), stopping at `deadline`
        (`time.monotonic()`); `self.exhausted` then says whether the search space was."""
        solve = self.control.configuration.solve
        assert isinstance(solve, clingo.Configuration)  # a group of options, never a value
        solve.models = str(max(limit, 0))
        solve.opt_mode = "ignore"  # any answer sets (a program's #minimize is for `best`)
        self.exhausted = False
        with self.control.solve(yield_=True, async_=True) as handle:
            while True:
                handle.resume()
                if deadline is not None and not handle.wait(max(0.0, deadline - time.monotonic())):
                    handle.cancel()
                    return
                model = handle.model()
                if model is None:
                    self.exhausted = handle.get().exhausted
                    return
                yield model.symbols(shown=True)


    def best(self, deadline: float | None = None) -> tuple[Sequence[clingo.Symbol], list[int], bool] | None:
        """The best answer set under the program's `#minimize` statements (clingo's branch and bound):
        its shown atoms, its costs (highest priority first) and whether it is proven optimal (the
        search space was exhausted before `deadline`); None when there is no answer set in time."""
        solve = self.control.configuration.solve
        assert isinstance(solve, clingo.Configuration)
        solve.opt_mode, solve.models = "opt", "0"
        best: tuple[Sequence[clingo.Symbol], list[int]] | None = None
        t = time.perf_counter()
        with self.control.solve(yield_=True, async_=True) as handle:
            while True:
                handle.resume()
                if deadline is not None and not handle.wait(max(0.0, deadline - time.monotonic())):
                    handle.cancel()
                    self._time("solve", t)
                    return None if best is None else (best[0], best[1], False)
                model = handle.model()
                if model is None:
                    exhausted = handle.get().exhausted
                    break
                best = (model.symbols(shown=True), list(model.cost))
        self._time("solve", t)
        return None if best is None else (best[0], best[1], exhausted)


def solve_once(parts: Iterable[str], options: Sequence[str] = (), shown: bool = True,
               timings: Counter | None = None,
               given: Mapping[Pred, Sequence[str]] | Mapping[Signature, Sequence[str]] | None = None,
               ) -> Sequence[clingo.Symbol]:
    """Ground and solve once; the programs here are stratified, so the answer is unique. `given`:
    facts as rows by declaration (or by `(name, arity)`), added with `Program.given`."""
    program = Program(parts, ["--models=1", *options], timings)
    for pred, rows in (given or {}).items():
        program.given(pred, rows)
    return program.ground().answer(shown)


@dataclass
class Optimum:
    """The best answer set found: its shown atoms, cost, and whether the cost is proven optimal
    (else `bound` is the solver's proven lower bound, if any)."""

    symbols: list[clingo.Symbol]
    cost: int
    optimal: bool
    bound: int | None
    seconds: float


class OutOfTime(Exception):
    """No answer set was found within the time limit."""


def optimise(program: str, time_limit: float, since: float | None = None,
             grounded: Callable[[float], None] | None = None) -> Optimum:
    """Minimise. Core-guided optimisation (usc) proves small optima fast but finds its first model
    only at the optimum; if it runs out of time without one, branch-and-bound gets the rest of the
    time for a best-found answer, reported as not optimal with usc's lower bound. The `time_limit`
    counts from `since` (`time.monotonic()`: grounding and what came before count too), else from
    the end of grounding; `grounded(seconds left)` is told when grounding is done."""
    p = Program([program], ["--opt-strategy=usc", "--opt-mode=opt"]).ground()
    if since is not None:
        time_limit = max(time_limit - (time.monotonic() - since), 0.0)
    if grounded is not None:
        grounded(time_limit)
    ctl = p.control
    best: dict = {}

    def on_model(m: clingo.Model) -> None:
        best["symbols"] = m.symbols(shown=True)
        best["cost"] = m.cost[0] if m.cost else 0

    t0 = time.perf_counter()
    with ctl.solve(on_model=on_model, async_=True) as handle:
        finished = handle.wait(0.8 * time_limit)
        if not finished:
            handle.cancel()
        result = handle.get()
    optimal = bool(finished and result.exhausted and "symbols" in best)
    bound = None
    if optimal:
        bound = best["cost"]
    else:
        try:
            lower = ctl.statistics["summary"]["lower"]
            bound = int(lower[0]) if lower else None
        except (KeyError, TypeError, IndexError):
            bound = None
        if result.unsatisfiable:
            raise NoAnswer("internal error: the optimisation program has no answer")
        if "symbols" not in best:
            solver = ctl.configuration.solver
            assert isinstance(solver, clingo.Configuration)  # a group of options, never a value
            solver.opt_strategy = "bb"
            with ctl.solve(on_model=on_model, async_=True) as handle:
                finished = handle.wait(max(time_limit - (time.perf_counter() - t0), 1.0))  # at least 1 s for an answer
                if not finished:
                    handle.cancel()
                result = handle.get()
            optimal = bool(finished and result.exhausted and "symbols" in best)
            if optimal:
                bound = best["cost"]
    seconds = time.perf_counter() - t0
    if "symbols" not in best:
        raise OutOfTime(time_limit)
    return Optimum(best["symbols"], best["cost"], optimal, bound, seconds)


__all__ = ["encoding", "Reused", "Program", "rows_of", "solve_once", "optimise", "Optimum", "OutOfTime", "NoAnswer"]
