"""compare's type differences when a type has several parents (issue 31): the parents are compared
as sets, so the same parents in another order are no difference, and a parent one side lacks is."""

from __future__ import annotations

from amlasp.metrics.compare import compare
from amlasp.pddl.parse import load_domain, parse_domain
from tests.support.paths import DATA

DIAMOND = DATA / "diamond" / "domain.pddl"


def test_the_same_parents_in_another_order_are_no_type_difference():
    ref = load_domain(DIAMOND)
    text = DIAMOND.read_text().replace("amphibian - vehicle\n          amphibian - cargo",
                                       "amphibian - cargo\n          amphibian - vehicle")
    learned = parse_domain(text, "learned.pddl")
    assert learned.types != ref.types
    assert compare(learned, ref).type_differences == ()


def test_a_parent_only_one_model_gives_is_a_type_difference():
    ref = load_domain(DIAMOND)
    learned = parse_domain(DIAMOND.read_text().replace("\n          amphibian - cargo)", ")"), "learned.pddl")
    assert compare(learned, ref).type_differences == (
        "type amphibian: parent vehicle in the learned model, cargo in the reference",)
    other = parse_domain(DIAMOND.read_text().replace("amphibian - cargo)", "amphibian - place)"), "other.pddl")
    assert compare(other, ref).type_differences == (
        "type amphibian: parent place in the learned model, cargo in the reference",)
