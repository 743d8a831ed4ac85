"""What eval.lp's answers say, read batch by batch (`Answers`): the counts per slot, the joint instances
per slot and problem, and the mispredictions (`--explain`); the names in them (`answer_decoder`)."""

from __future__ import annotations

from collections import Counter
from typing import Callable, Mapping, Sequence

import clingo

from ...asp.compile.slots import Slot
from ...asp.decode import Decoder
from ...asp.eval_states import Grouped
from ...asp.schema import COUNT, FREE_COUNT, JOINT, OFF_STEP, XAPP, XEFF
from ...model import Domain
from .checks import StepCheck
from .result import Mistake


def answer_decoder(ref: Domain, learned: Domain) -> Decoder:
    """Names in the answers' atoms: predicates and constants of both models (the problems' objects
    are added as the problems are met, `driver._Pass.problem`)."""
    dec = Decoder()
    models = (ref, learned)
    dec.add(*(p.name for d in models for p in d.predicates), *(c for d in models for c, _ in d.constants))
    return dec


class Answers:
    """What the answers of all batches say: eval.lp's counts per slot, the joint instances per
    slot and problem, and the mispredictions (`--explain`), said of every test state."""

    def __init__(self, pair: list[Slot], decoder: Decoder, explain: bool):
        self.pair, self.decoder, self.explain = pair, decoder, explain
        self.counts: Counter = Counter()  # (app|eff, slot, tp|fp|fn|untyped|outside|extra) → count
        self.joint: Counter = Counter()  # (slot, problem number) → instances applicable in both models
        self.mistakes: list[Mistake] = []
        self.free: Counter = Counter()  # (slot, problem number) → instances, free parameters left out

    def read(self, shown: Sequence[clingo.Symbol], grouped: Grouped, offset: int, steps: StepCheck | None,
             free_fp: Mapping[int, Callable[[int], int]]) -> None:
        """The answer of a batch whose states are numbered from `offset` over all test states. `free_fp`:
        the slots of both models whose learned instances were counted with free parameters left out
        (`PairProgram.free_fp`), each with the tuples its free parameters take in a problem: their
        false positives are those instances less the joint ones, of this batch."""
        counts, joint = self.counts, self.joint
        problem = [c.problem_index for c in grouped.contexts]
        members: dict[int, list[int]] = {}  # a written state → the test states it stands for
        if self.explain:
            for s, r in enumerate(grouped.alias):
                members.setdefault(r, []).append(s)
        off: list[int] = []
        for sym in shown:
            if COUNT.matches(sym):
                c = COUNT.read(sym)
                counts[(c.family.name, c.slot.number, c.kind.name)] += c.count.number
            elif JOINT.matches(sym):
                j = JOINT.read(sym)
                joint[(j.slot.number, problem[j.problem.number])] += j.count.number
                if j.slot.number in free_fp:
                    counts[("app", j.slot.number, "fp")] -= j.count.number
            elif FREE_COUNT.matches(sym):
                f = FREE_COUNT.read(sym)
                n, p = f.slot.number, problem[f.problem.number]
                if n in free_fp:
                    counts[("app", n, "fp")] += f.count.number * free_fp[n](p)
                else:
                    self.free[(n, p)] += f.count.number
            elif XAPP.matches(sym) or XEFF.matches(sym):
                state, kind, action, literal = self._mistake(sym)
                for s in members[state]:
                    src = grouped.sources[s]
                    self.mistakes.append(Mistake(offset + s, f"{src[0]}#{src[1]}", kind, action, literal))
            elif OFF_STEP.matches(sym):
                off.append(OFF_STEP.read(sym).state.number)
        if steps:
            steps.off_steps(off)

    def _mistake(self, sym: clingo.Symbol) -> tuple[int, str, str, str | None]:
        """An `xapp/4` or `xeff/6` atom as (its state, the kind of mistake, the action, the literal)."""
        x = XAPP.read(sym) if XAPP.matches(sym) else XEFF.read(sym)
        slot = self.pair[x.slot.number]
        name, targs = self.decoder.call(x.action)
        action = "(" + " ".join((slot.name,) + targs) + ")"
        if XAPP.matches(sym):
            return x.state.number, f"app-{x.kind.name}", action, None
        pname, pargs = self.decoder.call(x.atom)
        atom = "(" + " ".join((pname,) + pargs) + ")"
        return x.state.number, f"eff-{x.kind.name}", action, atom if x.sign.name == "pos" else f"(not {atom})"

    def sorted_mistakes(self) -> tuple[Mistake, ...]:
        return tuple(sorted(self.mistakes, key=lambda m: (m.state, m.kind, m.action, m.literal or "")))


__all__ = ["Answers", "answer_decoder"]
