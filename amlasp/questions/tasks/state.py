"""Questions about one state and one step: app (applicability), prog (progression), val (validation)."""

from __future__ import annotations

from functools import cached_property

from ...model import GroundAction
from ...reasoning.engine import execute_many
from ...reasoning.transitions import changes_many
from ..items import Form, Task
from ..universe import similar_actions, similar_atoms
from .common import Draft, Situation, Skip, TaskSpec, choice, pddl_list, sample, sequence_text, yes_no

ALL = frozenset(Form)


def unmet_of(sit: Situation, actions: list[GroundAction], starts=None) -> dict[GroundAction, list[str]]:
    """Why each action is not applicable in the state (or in its own start state): the failed conjuncts."""
    runs = execute_many(sit.domain, sit.current, [[a] for a in actions], states=False, starts=starts)
    return {a: [str(u) for u in ex.unmet] for a, ex in zip(actions, runs)}


class App:
    """app: which ground actions are applicable in the state."""

    def __init__(self, sit: Situation):
        self.sit = sit
        self.apps = sit.applicable

    @cached_property
    def inapplicable(self) -> list[GroundAction]:
        """Plausible inapplicable actions: an applicable action's schema with one object changed."""
        ok = set(self.apps)
        pool = {b for a in self.apps for b in similar_actions(self.sit.source.universe, a)} - ok
        if not pool:  # nothing applicable: any type-correct action is inapplicable
            pool = set(self.sit.source.universe.ground_actions[:200])
        return sorted(pool, key=str)

    def gen(self) -> Draft:
        return Draft("Generate the list of all ground actions that are applicable in this state.",
                     pddl_list(self.apps), {"applicable": len(self.apps)})

    def boolean(self, yes: bool) -> Draft | None:
        pool = self.apps if yes else self.inapplicable
        if not pool:
            return None
        a = self.sit.rng.choice(pool)
        evidence = {"action": str(a)}
        if not yes:
            evidence["unmet"] = unmet_of(self.sit, [a])[a]
        return Draft(f"Is the following action applicable in the current state: {self.sit.book.action(a)}?",
                     yes_no(yes), evidence)

    def mcq(self) -> Draft | None:
        if not self.apps or len(self.inapplicable) < 3:
            return None
        rng = self.sit.rng
        right = rng.choice(self.apps)
        wrong = sample(rng, self.inapplicable, 3)
        unmet = unmet_of(self.sit, wrong)
        book = self.sit.book
        return choice(rng, "Which of the following actions is applicable in the current state?", book.action(right),
                      [book.action(w) for w in wrong],
                      {"action": str(right), "distractors": {str(w): unmet[w] for w in wrong}})


class Prog:
    """prog: the facts an applicable action makes true and false."""

    def __init__(self, sit: Situation):
        if not sit.applicable:
            raise Skip("no applicable action")
        self.sit = sit
        self.action = sit.rng.choice(sit.applicable)
        change = changes_many(sit.domain, sit.current, [(sit.state, [self.action])])[0][0]
        self.added, self.deleted = change.added, change.deleted
        self.after = change.apply(sit.state)

    def _evidence(self) -> dict:
        return {"action": str(self.action), "pos": pddl_list(self.added), "neg": pddl_list(self.deleted)}

    def gen(self) -> Draft:
        q = (f'Break down the outcomes of performing the action "{self.sit.book.action(self.action)}" into two lists, '
             "positive effects and negative effects. Positive effects are the propositions that are false in the "
             "current state but will become true after performing the action. Negative effects are the propositions "
             "that are true in the current state and will become false after performing the action.")
        return Draft(q, {"pos": pddl_list(self.added), "neg": pddl_list(self.deleted)}, self._evidence())

    def _false_after(self) -> list:
        u = self.sit.source.universe
        fluent = [f for f in self.after if f.predicate in u.fluents]
        pool = set(self.deleted) | {g for f in self.added | set(fluent[:50]) for g in similar_atoms(u, f)}
        return sorted((f for f in pool if f not in self.after), key=str)

    def boolean(self, yes: bool) -> Draft | None:
        rng = self.sit.rng
        if yes:
            kept = sorted((f for f in self.after if f.predicate in self.sit.source.universe.fluents), key=str)
            pool = sorted(self.added, key=str) or kept
        else:
            pool = sorted(self.deleted, key=str) or self._false_after()
        if not pool:
            return None
        f = rng.choice(pool)
        book = self.sit.book
        q = (f"Will the fact \"{book.fact(f)}\" hold after performing the action \"{book.action(self.action)}\" "
             "in the current state?")
        return Draft(q, yes_no(yes), {**self._evidence(), "fact": str(f)})

    def mcq(self) -> Draft | None:
        rng = self.sit.rng
        if not self.added:
            return None
        right = rng.choice(sorted(self.added, key=str))
        wrong = sample(rng, self._false_after(), 3)
        book = self.sit.book
        q = f"Which of the following facts will hold after performing the action \"{book.action(self.action)}\" " \
            "in the current state?"
        return choice(rng, q, book.fact(right), [book.fact(w) for w in wrong], {**self._evidence(), "fact": str(right)})


class Val:
    """val: the index of the first inapplicable action of a sequence (-1 when every one applies)."""

    def __init__(self, sit: Situation):
        self.sit = sit
        rng = sit.rng
        walk = sit.sequel
        if walk is None or walk.depth < 2:
            raise Skip("no sequence of two applicable actions")
        self.clean = list(walk.actions)
        # a corrupted copy: step j replaced by a plausible action that is not applicable there
        options = [(j, b) for j in range(walk.depth)
                   for b in similar_actions(sit.source.universe, walk.actions[j]) if b not in set(walk.applicable[j])]
        self.broken = None
        if options:
            j, b = rng.choice(options)
            self.broken = (j, self.clean[:j] + [b] + self.clean[j + 1:])
        self.checked = execute_many(sit.domain, sit.current, [self.clean] + ([self.broken[1]] if self.broken else []),
                                    states=False)
        if self.checked[0].failed_step is not None or (self.broken and self.checked[1].failed_step != self.broken[0]):
            raise RuntimeError("internal error: a generated sequence does not behave as built")

    def _pick(self, broken: bool):
        if broken:
            j, seq = self.broken
            return seq, j, {"first_inapplicable": j, "unmet": [str(u) for u in self.checked[1].unmet]}
        return self.clean, -1, {"first_inapplicable": -1}

    def gen(self) -> Draft:
        seq, j, evidence = self._pick(self.broken is not None and self.sit.rng.random() < 0.5)
        plan = " ".join(map(str, seq))
        return Draft(f'What is the first inapplicable action in the next sequence of actions: "{plan}"? '
                     "Give its 0-based index, or -1 if every action is applicable.", j, {**evidence, "sequence": plan})

    def boolean(self, yes: bool) -> Draft | None:
        if not yes and self.broken is None:
            return None
        seq, _, evidence = self._pick(not yes)
        q = ("Can the following sequence of actions be executed, in this order, from the current state: "
             f"{sequence_text(self.sit.book, seq)}?")
        return Draft(q, yes_no(yes), {**evidence, "sequence": " ".join(map(str, seq))})

    def mcq(self) -> Draft | None:
        if self.broken is None:
            return None
        seq, j, evidence = self._pick(True)
        book = self.sit.book
        text = lambda k: "every action of the sequence is applicable" if k < 0 else \
            f"step {k + 1}, {book.action(seq[k])}"  # noqa: E731
        q = f"Which is the first action that cannot be executed in the sequence {sequence_text(book, seq)}?"
        return choice(self.sit.rng, q, text(j), [text(k) for k in range(-1, len(seq)) if k != j],
                      {**evidence, "sequence": " ".join(map(str, seq))})


SPECS = [TaskSpec(Task.APP, ALL, False, App), TaskSpec(Task.PROG, ALL, False, Prog),
         TaskSpec(Task.VAL, ALL, False, Val, sequel=(3, 8))]
