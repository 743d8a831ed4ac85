"""The texts Fast Downward is given: our model and a problem paired into PDDL it reads (`planner_task`).

Learned models are messy: what the problem uses but the model does not declare (predicates, types,
constants) is declared here, so that the planner works on the real problem (docs/solve.md says why we
declare rather than drop them); either types become predicates. external/fast_downward.py runs the planner
on the result.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from .. import logic
from ..model import Domain, GoalCondition, Predicate, Problem, Typed, is_var, type_members
from ..pddl.writer import problem_to_pddl, to_pddl
from .untyped import has_either, types_as_predicates


@dataclass(frozen=True)
class PlannerTask:
    """The PDDL texts given to the planner, and what had to be declared to make them consistent."""

    domain: str
    problem: str
    declared: tuple[str, ...] = field(default=())  # human-readable notes
    source: str = ""  # the user's files the texts were made from, for messages


def _objects(model: Domain, problem: Problem, reference: Domain | None, notes: list[str]
             ) -> tuple[list[Typed], Domain, set[str]]:
    """The problem's objects that are not the model's constants (and the reference's constants the model
    lacks), and the model with the types of those objects that it lacks declared (with `notes`)."""
    model_consts = dict(model.constants)
    objects: list[Typed] = [(o, t) for o, t in problem.objects if o not in model_consts]
    if reference is not None:  # constants of the reference that the model does not have become objects
        extra = [(c, t) for c, t in reference.constants if c not in model_consts and c not in dict(objects)]
        if extra:
            notes.append("reference constants given as objects: " + ", ".join(c for c, _ in extra))
            objects += extra
    known_types = {"object"} | {t for t, _ in model.types}
    new_types: list[Typed] = []
    for _, t in objects:
        for m in type_members(t):  # an either type's members
            if m not in known_types:
                new_types.append((m, "object"))
                known_types.add(m)
    if new_types:
        notes.append("declared types the model lacks: " + ", ".join(t for t, _ in new_types))
    typed = replace(model, types=model.types + tuple(new_types))  # its costs and derived rules kept
    return objects, typed, known_types


def planner_task(model: Domain, problem: Problem, reference: Domain | None = None) -> PlannerTask:
    """Pair `model` with `problem` (parsed against `reference`), declaring what the model lacks.

    Predicates the problem uses but the model lacks are declared (with the reference's
    argument types where the model knows them); a predicate argument whose declared type
    does not fit an object the problem puts there is widened to `object` (predicate types
    constrain nothing in PDDL, but stricter readers reject such atoms). Raises ValueError
    when the two cannot be paired (a predicate used with another arity).
    """
    notes: list[str] = []
    model_consts = dict(model.constants)
    objects, typed, known_types = _objects(model, problem, reference, notes)
    of_type = dict(model_consts)
    of_type.update(objects)
    ref_preds = {p.name: p for p in reference.predicates} if reference is not None else {}
    decl = {p.name: list(p.parameters) for p in model.predicates}
    added: list[str] = []
    goal = [a for g in problem.goal for a in (logic.atoms(g.formula) if isinstance(g, GoalCondition) else [g.atom])]
    for atom in sorted(list(problem.init) + goal, key=str):
        if atom.predicate == "=":
            continue
        params = decl.get(atom.predicate)
        if params is None:
            rp = ref_preds.get(atom.predicate)
            params = [(f"?x{i}", t if rp is not None and t in known_types else "object")
                      for i, (_, t) in enumerate(rp.parameters if rp is not None and rp.arity == len(atom.args)
                                                 else [("", "object")] * len(atom.args))]
            decl[atom.predicate] = params
            added.append(atom.predicate)
        if len(params) != len(atom.args):
            raise ValueError(f"predicate '{atom.predicate}' takes {len(params)} argument(s) in the model, "
                             f"but the problem uses it with {len(atom.args)}")
        for i, (o, (v, t)) in enumerate(zip(atom.args, params)):
            if t != "object" and is_var(o):  # a goal condition's variable: typed by its quantifier
                continue
            if t != "object" and not typed.fits(of_type.get(o, "object"), t):
                params[i] = (v, "object")
    if added:
        notes.append("declared predicates the model lacks: " + ", ".join(added))
    preds = tuple(Predicate(n, tuple(ps)) for n, ps in decl.items())
    # An action without effects never changes a state, so no plan needs it (and some writers give
    # it without :effect, which Fast Downward rejects).
    actions = tuple(a for a in model.actions if a.effects)
    if len(actions) < len(model.actions):
        notes.append("left out actions without effects: " + ", ".join(a.name for a in model.actions if not a.effects))
    full = replace(typed, predicates=preds, actions=actions)  # costs and derived rules kept
    task = replace(problem, objects=tuple(objects))
    if has_either(full, task):
        full, task = types_as_predicates(full, task)
        notes.append("either types given to the planner as predicates (type-T)")
    return PlannerTask(to_pddl(full), problem_to_pddl(task, model.name, task.objects), tuple(notes),
                       f"{model.file or model.name}, {problem.file or problem.name}")
