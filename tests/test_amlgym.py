"""amlasp.amlgym against AMLGym itself: the same calls on the same inputs give the same dictionaries.

The oracle is AMLGym 1.0.13 run on the shipped NOLAM models and reference domains
(tests/data/amlgym/amlgym-1.0.13.json, recorded by tests/data/amlgym/record.py, which says how
to rerun it); amlasp computes every figure with its own engines and never imports AMLGym.
"""

from __future__ import annotations

import inspect
import json
import math
import re
from pathlib import Path

import pytest

from amlasp import amlgym
from amlasp.experiments.suite import installed_suite
from tests.support.paths import DATA, IPC, ROOT

ORACLE = json.loads((DATA / "amlgym" / "amlgym-1.0.13.json").read_text())
STATES = installed_suite() / "states"


def learned(d: str) -> str:
    return str(IPC / "learned" / "nolam" / f"{d}.pddl")


def reference(d: str) -> str:
    return str(IPC / "domains" / f"{d}.pddl")


def test_same_names_and_signatures_as_amlgym_metrics():
    assert sorted(n for n in amlgym.__all__ if n != "UPEnv") == ORACLE["metrics"]
    for name, params in ORACLE["signatures"].items():
        ours = [f"{p.name}={p.default!r}" if p.default is not p.empty else p.name
                for p in inspect.signature(getattr(amlgym, name)).parameters.values()]
        assert ours == params, name
    assert list(inspect.signature(amlgym.UPEnv).parameters) == ["domain_path", "problem_path"]


SYNTACTIC = [d for d in ORACLE["syntactic"] if d != "childsnack"]  # childsnack: a documented disagreement, below


@pytest.mark.parametrize("domain", SYNTACTIC)
def test_syntactic_precision_and_recall_equal_amlgyms(domain):
    expected = ORACLE["syntactic"][domain]
    p = amlgym.syntactic_precision(learned(domain), reference(domain))
    r = amlgym.syntactic_recall(learned(domain), reference(domain))
    assert list(p) == list(expected["precision"]) == ["precs_pos", "precs_neg", "eff_pos", "eff_neg", "mean"]
    assert all(type(v) is float for v in p.values())
    assert (p, r) == (expected["precision"], expected["recall"])


def as_amlgym_reads(text: str) -> str:
    """The domain as AMLGym 1.0.13's reader sees it: it finds an action's body with the regular
    expression `:action NAME(.*?)` over the whole file, so an action whose name another, earlier
    action's name starts with (make_sandwich after make_sandwich_no_gluten) gets that one's body."""
    head, *actions = re.split(r"(?=\(:action )", text)
    names = [a.split()[1] for a in actions]
    body = [a[a.index(":parameters"):] for a in actions]
    read = [a[:a.index(":parameters")] + next(b for b, m in zip(body, names) if m.startswith(n))
            for a, n in zip(actions, names)]
    return head + "".join(read)


def test_childsnack_differs_from_amlgym_only_by_its_readers_prefix_matching(tmp_path):
    """The NOLAM childsnack model is scored (its undeclared predicate `xist` read as learned-only),
    and its figures differ from AMLGym's. The whole difference is AMLGym's reader: on copies of
    both files rewritten as that reader reads them, amlasp gives AMLGym's dictionaries exactly."""
    expected = ORACLE["syntactic"]["childsnack"]
    with pytest.warns(UserWarning, match="xist"):
        ours = (amlgym.syntactic_precision(learned("childsnack"), reference("childsnack")),
                amlgym.syntactic_recall(learned("childsnack"), reference("childsnack")))
    assert ours != (expected["precision"], expected["recall"])
    for name, path in (("learned", learned("childsnack")), ("reference", reference("childsnack"))):
        text = Path(path).read_text()
        assert as_amlgym_reads(text) != text
        (tmp_path / f"{name}.pddl").write_text(as_amlgym_reads(text))
    with pytest.warns(UserWarning, match="xist"):
        assert amlgym.syntactic_precision(str(tmp_path / "learned.pddl"), str(tmp_path / "reference.pddl")) \
            == expected["precision"]
        assert amlgym.syntactic_recall(str(tmp_path / "learned.pddl"), str(tmp_path / "reference.pddl")) \
            == expected["recall"]


def _close(ours: dict, theirs: dict) -> bool:
    """Equal up to float summation order (AMLGym averages over a set, so its own last digit varies)."""
    return list(ours) == list(theirs) and all(
        _close(ours[k], theirs[k]) if isinstance(theirs[k], dict) else math.isclose(ours[k], theirs[k], abs_tol=1e-12)
        for k in theirs)


@pytest.mark.parametrize("domain", list(ORACLE["predictive"]))
def test_predictive_power_equals_amlgyms(domain):
    states = json.loads((DATA / "amlgym" / "states" / f"{domain}.json").read_text())
    problems = [str(STATES / domain / "problems" / name) for name in states]
    result = amlgym.predictive_power([amlgym.UPEnv(learned(domain), p) for p in problems],
                                     [amlgym.UPEnv(reference(domain), p) for p in problems], list(states.values()))
    assert _close(result, ORACLE["predictive"][domain]), result
    assert _close({"applicability": amlgym.applicability([amlgym.UPEnv(learned(domain), p) for p in problems],
                                                         [amlgym.UPEnv(reference(domain), p) for p in problems],
                                                         list(states.values()))},
                  {"applicability": ORACLE["predictive"][domain]["applicability"]})


@pytest.mark.parametrize("domain", list(ORACLE["predictive_single"]))
def test_predictive_power_of_one_simulator_pair(domain):
    expected = dict(ORACLE["predictive_single"][domain])
    problem = str(STATES / domain / "problems" / expected.pop("problem"))
    states = json.loads((DATA / "amlgym" / "states" / f"{domain}.json").read_text())
    result = amlgym.predictive_power(amlgym.UPEnv(learned(domain), problem), amlgym.UPEnv(reference(domain), problem),
                                     next(iter(states.values())))
    assert _close(result, expected), result
    effects = amlgym.predicted_effects(amlgym.UPEnv(learned(domain), problem), amlgym.UPEnv(reference(domain), problem),
                                       next(iter(states.values())))
    assert _close(effects, expected["predicted_effects"])


@pytest.mark.parametrize("domain", list(ORACLE["predictive_single"]))
def test_copies_of_a_problem_are_read_once_and_the_figures_stay_amlgyms(domain, tmp_path):
    """The paper's workload has 10 trajectories per problem, each with its own copy of the problem file:
    the copies are read once and shared; AMLGym's figures of the states all in one pair come out."""
    expected = dict(ORACLE["predictive_single"][domain])
    problem = STATES / domain / "problems" / expected.pop("problem")
    states = next(iter(json.loads((DATA / "amlgym" / "states" / f"{domain}.json").read_text()).values()))
    copies = [tmp_path / "a.pddl", tmp_path / "b.pddl"]
    for c in copies:
        c.write_bytes(problem.read_bytes())
    half = len(states) // 2
    noisy = [[f"  ( {a[1:-1].upper()} ) " for a in s] + ["(not (dummy x))"] for s in states[half:]]  # read alike
    result = amlgym.predictive_power([amlgym.UPEnv(learned(domain), c) for c in copies],
                                     [amlgym.UPEnv(reference(domain), c) for c in copies], [states[:half], noisy])
    assert _close(result, expected), result


def test_a_bad_atom_of_a_test_state_is_refused_by_name():
    from amlasp.errors import InputError
    problem = str(STATES / "tpp" / "problems" / "0_tpp_prob.pddl")
    for atom, message in (("(at truck1 nowhere)", "nowhere"), ("(flies truck1)", "undefined predicate 'flies'"),
                          ("(at truck1)", "takes 2 argument")):
        with pytest.raises(InputError, match=message) as e:
            amlgym.predictive_power(amlgym.UPEnv(learned("tpp"), problem), amlgym.UPEnv(reference("tpp"), problem),
                                    [["(at truck1 depot2)"], ["(at truck1 depot2)", atom]])
        assert "test_states[0][1]" in str(e.value)


def test_amlgyms_own_simulator_objects_are_accepted():
    """AMLGym's UPEnv holds a unified-planning problem (`.problem`): a script that builds those still runs."""
    from unified_planning.io import PDDLReader

    class AMLGymLikeEnv:  # what amlgym.modeling.UPEnv keeps, without AMLGym
        def __init__(self, domain_path, problem_path):
            self.problem = PDDLReader().parse_problem(domain_path, problem_path)

    domain = "tpp"
    states = json.loads((DATA / "amlgym" / "states" / f"{domain}.json").read_text())
    problems = [str(STATES / domain / "problems" / name) for name in states]
    result = amlgym.predictive_power([AMLGymLikeEnv(learned(domain), p) for p in problems],
                                     [AMLGymLikeEnv(reference(domain), p) for p in problems], list(states.values()))
    assert _close(result, ORACLE["predictive"][domain]), result


@pytest.mark.parametrize("domain", list(ORACLE["solving"]))
def test_problem_solving_equals_amlgyms(domain):
    problems = [str(IPC / "problems" / "solving" / domain / f"{k}_{domain}_prob.pddl") for k in range(3)]
    result = amlgym.problem_solving(learned(domain), reference(domain), problems, timeout=60)
    assert result == ORACLE["solving"][domain]
    assert list(result) == ["solving_ratio", "false_plans_ratio", "unsolvable_ratio", "timed_out", "syntax_errors"]


def test_the_readme_example_prints_what_the_readme_says():
    import ast
    import re
    readme = (ROOT / "README.md").read_text()
    section = readme[readme.index("## For AMLGym users"):]
    claimed = ast.literal_eval(re.search(r"syntactic_precision\(f\"\{I\}/learned/nolam/ferry.pddl\", "
                                         r"f\"\{I\}/domains/ferry.pddl\"\)\n# (\{.*\})", section).group(1))
    assert amlgym.syntactic_precision(learned("ferry"), reference("ferry")) == claimed == ORACLE["syntactic"]["ferry"][
        "precision"]


def test_print_metrics_lists_what_amlgym_lists(capsys):
    amlgym.print_metrics()
    listed = [ln[3:] for ln in capsys.readouterr().out.splitlines()[1:]]
    assert sorted(listed) == sorted(n for n in ORACLE["metrics"] if n not in ("print_metrics", "predictive_power"))
