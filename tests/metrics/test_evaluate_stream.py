"""amlasp/metrics/evaluate, streamed: 10,000 states read from JSON lines files (asp/../pddl/jsonl.py) and
evaluated in batches by a clingo worker process (asp/worker.py) give the evaluation of the same states
held in memory and evaluated in one program in this process."""

from __future__ import annotations

import json
import random

from amlasp.experiments.perturb import perturb
from amlasp.metrics.evaluate import evaluate
from amlasp.model import Atom
from amlasp.pddl.parse import load_domain, load_problem
from amlasp.pddl.states import StateSet
from tests.support.paths import IPC

PROBLEMS = IPC / "problems" / "learning" / "blocksworld"


def towers(blocks: list[str], rng: random.Random) -> frozenset[Atom]:
    """A random blocksworld state: towers, maybe a block in the hand."""
    order = blocks[:]
    rng.shuffle(order)
    held = order.pop() if rng.random() < 0.3 else None
    out = {Atom("holding", (held,))} if held else {Atom("handempty", ())}
    stacks: list[list[str]] = []
    for b in order:
        if stacks and rng.random() < 0.6:
            rng.choice(stacks).append(b)
        else:
            stacks.append([b])
    for t in stacks:
        out |= {Atom("ontable", (t[0],)), Atom("clear", (t[-1],))}
        out |= {Atom("on", (up, low)) for low, up in zip(t, t[1:])}
    return frozenset(out)


def text(atoms) -> list[str]:
    return sorted(f"({a.predicate} {' '.join(a.args)})".replace(" )", ")") for a in atoms)


def test_streamed_eval_equals_in_memory_eval(tmp_path):
    ref = load_domain(IPC / "domains" / "blocksworld.pddl")
    learned = perturb(ref, seed=3, drop=2, add=2).domain
    rng = random.Random(7)
    sets = []
    for k, pf in enumerate(sorted(PROBLEMS.glob("*_prob.pddl"))):
        prob = load_problem(pf, ref)
        blocks = [o for o, _ in prob.objects]
        states = [towers(blocks, rng) for _ in range(1000)]
        states[500:510] = states[:10]  # equal states, written once
        sets.append(StateSet(prob, states, f"s{k}"))
        with open(tmp_path / f"{k:02d}.jsonl", "w") as f:  # in full every 7th line, else changes
            for i, st in enumerate(states):
                line = ({"problem": pf.name, "state": text(st)} if i % 7 == 0 else
                        {"del": text(states[i - 1] - st), "add": text(st - states[i - 1])})
                f.write(json.dumps(line) + "\n")
    assert sum(len(s.states) for s in sets) == 10000
    memory = evaluate(learned, ref, sets, batch_states=20000)
    streamed = evaluate(learned, ref, tmp_path, problems=PROBLEMS, batch_states=2500)  # 2 parts of 1,000 a batch
    assert memory.timings["batches"] == 1 and memory.timings["workers"] == 0
    assert streamed.timings["batches"] == 5 and streamed.timings["workers"] == 1
    assert streamed == memory
    assert streamed.states == 10000 and memory.applicability.actions > 0


def test_streamed_mistakes_name_the_line_of_a_jsonl_file(tmp_path):
    """With --explain, a mistake's source is the file and the state's position in it, across its parts."""
    ref = load_domain(IPC / "domains" / "blocksworld.pddl")
    learned = perturb(ref, seed=3, drop=2, add=2).domain
    pf = sorted(PROBLEMS.glob("*_prob.pddl"))[0]
    blocks = [o for o, _ in load_problem(pf, ref).objects]
    rng = random.Random(1)
    states = [towers(blocks, rng) for _ in range(2100)]
    f = tmp_path / "s.jsonl"
    f.write_text("".join(json.dumps({"problem": pf.name, "state": text(st)}) + "\n" for st in states))
    prob = load_problem(pf, ref)
    whole = evaluate(learned, ref, [StateSet(prob, states, str(f))], explain=True, batch_states=5000)
    parts = evaluate(learned, ref, f, problems=PROBLEMS, explain=True, batch_states=700)
    assert parts.timings["batches"] == 3
    assert parts.mistakes == whole.mistakes and any(m.state >= 2000 for m in parts.mistakes)


def test_an_empty_last_batch_and_a_state_with_no_atoms_in_the_worker():
    """The states' facts are given to the worker as rows: a batch of no states (the last StateSet is
    empty) gives none, and a state with no dynamic atoms (blocksworld has no static predicate: the
    empty state) gives no keyframe; the batches add up to the one program in this process."""
    ref = load_domain(IPC / "domains" / "blocksworld.pddl")
    learned = perturb(ref, seed=3, drop=2, add=2).domain
    prob = load_problem(sorted(PROBLEMS.glob("*_prob.pddl"))[0], ref)
    blocks = [o for o, _ in prob.objects]
    rng = random.Random(5)
    states = [towers(blocks, rng) for _ in range(30)] + [frozenset()]
    sets = [StateSet(prob, states[:20], "a"), StateSet(prob, states[20:], "b"), StateSet(prob, [], "c")]
    one = evaluate(learned, ref, sets, batch_states=100)
    parts = evaluate(learned, ref, sets, batch_states=10)  # [a], [b], then [c]: no states
    assert one.timings["batches"] == 1 and parts.timings["batches"] == 3 and parts.timings["workers"] == 1
    assert parts == one and one.states == 31 and one.applicability.actions > 0


def test_a_jsonl_file_refused_after_a_part_keeps_that_part_with_keep_going(tmp_path):
    """A partial run (docs/input.md, "Many inputs: partial runs"): a JSON lines file is read a part of
    1,000 states at a time, so the part read before a bad line stays scored; the file is an error row
    at the bad line, and without `keep_going` the error is raised."""
    import pytest

    from amlasp.errors import InputError
    ref = load_domain(IPC / "domains" / "blocksworld.pddl")
    pf = sorted(PROBLEMS.glob("*_prob.pddl"))[0]
    prob = load_problem(pf, ref)
    blocks = [o for o, _ in prob.objects]
    rng = random.Random(2)
    states = [towers(blocks, rng) for _ in range(1001)]
    lines = [json.dumps({"problem": pf.name, "state": text(st)}) + "\n" for st in states]
    lines.append(json.dumps({"problem": pf.name, "state": ["(on zzz b1)"]}) + "\n")
    f = tmp_path / "s.jsonl"
    f.write_text("".join(lines))
    ev = evaluate(ref, ref, f, problems=PROBLEMS, keep_going=True)
    assert ev.states == 1000 == evaluate(ref, ref, [StateSet(prob, states[:1000], "x")]).states
    (row,) = ev.unreadable
    assert row.input == str(f) and row.message.startswith(f"{f}:1002:") and "zzz" in row.message
    with pytest.raises(InputError, match="zzz"):
        evaluate(ref, ref, f, problems=PROBLEMS)
