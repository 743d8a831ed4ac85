"""The fuzz corpus: generate mutated inputs with a seed, run every command that reads them, count outcomes.

`python -m tests.fuzz.corpus --inputs 1000 --seed 13` prints the number of runs per outcome
class (overall, per family of mutation, and per fault class) and the failures, and exits 1
if there is any. `--quick` uses the five small domains of the quick slice.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Iterator

from . import faults, mutations
from .inputs import ALL, QUICK, ROLES, task
from .mutations import Case
from .runner import originals, run_case

FAMILIES = {"valid": mutations.VALID, "fault": faults.FAULTS, "random": mutations.RANDOM}
FAILURES = {"internal_error", "traceback", "hang", "bad_exit", "different", "rejected", "mislocated", "accepted!",
            "refused_unlocated"}


def family_of(case: Case) -> str:
    return {"same": "valid", "fault": "fault", "any": "random"}[case.expect.kind]


def cases(n: int, seed: int, domains: tuple[str, ...]) -> Iterator[Case]:
    """`n` mutated inputs: every (operator, role) pair in turn, on domains and with choices drawn from `seed`."""
    rng = random.Random(seed)
    pairs = [(op, role) for ops in FAMILIES.values() for op in ops for role in ROLES]
    rng.shuffle(pairs)
    made = tries = 0
    while made < n and tries < 50 * n:
        op, role = pairs[tries % len(pairs)]
        tries += 1
        if tries % len(pairs) == 0:
            rng.shuffle(pairs)
        c = op(task(rng.choice(domains)), role, rng)
        if c is not None:
            made += 1
            yield c


@dataclass
class Tally:
    runs: Counter = field(default_factory=Counter)
    by_family: dict = field(default_factory=lambda: defaultdict(Counter))
    by_mutation: dict = field(default_factory=lambda: defaultdict(Counter))
    inputs: int = 0
    failures: list = field(default_factory=list)
    seconds: float = 0.0

    def add(self, case: Case, results) -> None:
        self.inputs += 1
        fam = family_of(case)
        for command, run, cls in results:
            cls = "accepted!" if fam == "fault" and cls == "accepted" else cls
            self.runs[cls] += 1
            self.by_family[fam][cls] += 1
            self.by_mutation[f"{fam}:{case.mutation}/{case.role}"][cls] += 1
            if cls in FAILURES:
                self.failures.append((case, command, run, cls))

    def report(self, out=sys.stdout) -> None:
        total = sum(self.runs.values())
        print(f"{self.inputs} mutated inputs, {total} command runs, {self.seconds:.0f} s", file=out)
        print("outcome classes (runs):", file=out)
        for cls, n in sorted(self.runs.items(), key=lambda x: -x[1]):
            print(f"  {cls:<18} {n:>6}{'   <-- failure' if cls in FAILURES else ''}", file=out)
        for fam in ("valid", "fault", "random"):
            print(f"{fam}: " + ", ".join(f"{c} {n}" for c, n in sorted(self.by_family[fam].items())), file=out)
        print("per mutation/role:", file=out)
        for key in sorted(self.by_mutation):
            print(f"  {key:<40} " + ", ".join(f"{c} {n}" for c, n in sorted(self.by_mutation[key].items())), file=out)
        for case, command, run, cls in self.failures[:30]:
            print(f"FAILURE {cls}: {case.mutation}/{case.role} on {case.task.name}: {command[0]} -> exit {run.exit}"
                  f" {run.exception} {run.stderr.strip()[:300]!r} expected {case.expect}", file=out)


def run_corpus(n: int, seed: int, domains: tuple[str, ...], limit: float = 60.0, subprocess_every: int = 0,
               progress: bool = False, slow: bool = False) -> Tally:
    tally = Tally()
    start = time.perf_counter()
    cache: dict = {}
    for i, case in enumerate(cases(n, seed, domains)):
        key = (case.task.name, case.role)
        if case.expect.kind == "same" and key not in cache:
            cache[key] = originals(task(case.task.name), case.role, limit, slow)
        sub = bool(subprocess_every) and i % subprocess_every == 0
        tally.add(case, run_case(case, cache.get(key), limit, subprocess_run=sub, slow=slow))
        if progress and (i + 1) % 50 == 0:
            print(f"  {i + 1} inputs, {time.perf_counter() - start:.0f} s, failures so far {len(tally.failures)}",
                  file=sys.stderr)
    tally.seconds = time.perf_counter() - start
    return tally


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--inputs", type=int, default=1000, help="mutated inputs (each is read by 2-4 commands)")
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--quick", action="store_true", help="the five small domains only")
    ap.add_argument("--limit", type=float, default=60.0, help="seconds per command run before it counts as a hang")
    ap.add_argument("--subprocess-every", type=int, default=20, help="every Nth input through `python -m amlasp`")
    ap.add_argument("--no-solve", action="store_true", help="leave out `solve` (Fast Downward: the slowest command)")
    args = ap.parse_args(argv)
    tally = run_corpus(args.inputs, args.seed, QUICK if args.quick else ALL, args.limit, args.subprocess_every,
                       progress=True, slow=not args.no_solve)
    tally.report()
    return 1 if tally.failures else 0


if __name__ == "__main__":
    sys.exit(main())
