"""unified-planning as an independent oracle (tests, benchmarks): its simulator, with one fix.

UP 1.3's grounder crashes (`list.remove(x): x not in list`) when a parameter occurs in two
static preconditions (elevators, nomystery, rovers, learned barman/floortile): it removes a
pruned object once per condition. Pruning keeps, for each parameter, the objects that satisfy
every static precondition at that position; `simulator` does that, once per object.
"""

from __future__ import annotations


def simulator(problem):
    """UP's SequentialSimulator for a UP problem, with the grounder's static pruning fixed."""
    from unified_planning.engines.compilers.grounder import GrounderHelper
    from unified_planning.shortcuts import SequentialSimulator

    class Grounder(GrounderHelper):
        def _purge_items_list(self, items_list, params, conds):
            em = self._problem.environment.expression_manager
            out = []
            for param, objects in zip(params, items_list):
                keep = list(objects)
                for cond in conds:
                    pos = next((i for i, a in enumerate(cond.args) if a == em.ParameterExp(param)), -1)
                    if pos != -1:
                        valid = self._bool_static_fluent_valid_parameters(cond, pos)
                        keep = [o for o in keep if o in valid]
                out.append(keep)
            return out

    sim = SequentialSimulator(problem=problem)
    sim._grounder = Grounder(problem)
    return sim
