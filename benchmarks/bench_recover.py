"""What recovering a domain with broken actions costs (issue 31): a domain of N blocksworld-like actions,
K of them broken (an undeclared variable in an effect), read with `parse_domain(recover=True)`, beside
the strict read of the same domain with no action broken, measured in the same run.

    python benchmarks/bench_recover.py [--sizes 500,2000] [--broken 0,1,10,100,all] [--repeat 3]

Prints one line per (N, K): CPU seconds (best of --repeat) of the strict read of the clean domain, of the
recovering read, their ratio, and the load. Recovery reads each action with the declarations alone once
the whole file fails, so its cost grows with N, not with N x K.
"""

from __future__ import annotations

import argparse
import os
import time
import warnings

from amlasp.pddl.parse import parse_domain


def domain(n: int, k: int) -> str:
    actions = [f"(:action a{i} :parameters (?x ?y) :precondition (and (clear ?x) (on ?x ?y))\n"
               f" :effect (and (clear {'?z' if i < k else '?y'}) (not (on ?x ?y))))" for i in range(n)]
    return ("(define (domain bw) (:requirements :strips) (:predicates (clear ?x) (on ?x ?y))\n"
            + "\n".join(actions) + ")\n")


def best(repeat: int, read) -> float:
    times = []
    for _ in range(repeat):
        t = time.process_time()
        read()
        times.append(time.process_time() - t)
    return min(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="500,2000")
    ap.add_argument("--broken", default="0,1,10,100,all")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    warnings.simplefilter("ignore")
    print(f"load {os.getloadavg()[0]:.2f}")
    print(f"{'actions':>7} {'broken':>6} {'strict clean':>12} {'recover':>8} {'ratio':>6}")
    for n in map(int, args.sizes.split(",")):
        clean = domain(n, 0)
        strict = best(args.repeat, lambda clean=clean: parse_domain(clean, "d.pddl"))
        for k in (n if b == "all" else int(b) for b in args.broken.split(",")):
            text = domain(n, k)
            got = parse_domain(text, "d.pddl", recover=True)
            assert len(got.broken) == k and len(got.actions) == n - k
            rec = best(args.repeat, lambda text=text: parse_domain(text, "d.pddl", recover=True))
            print(f"{n:>7} {k:>6} {strict:>11.3f}s {rec:>7.3f}s {rec / strict:>5.1f}x")
    print(f"load {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
