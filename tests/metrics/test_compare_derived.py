"""compare with derived predicates (issue 21): each :derived rule is compared as an action
`<predicate>-derived` (its body the precondition, its head the effect), so a rule that differs costs
edits and a renamed copy costs none."""

from __future__ import annotations

from amlasp.metrics.compare import compare
from amlasp.metrics.compare.driver import rules_as_actions
from amlasp.model import Effect, Literal
from amlasp.pddl.parse import load_domain, parse_domain
from tests.support.paths import DATA

ROADS, SHORT, GUARDS = (DATA / "derived" / f"{n}.pddl" for n in ("roads", "roads-short", "guards"))


def test_rules_become_actions_with_their_head_as_effect():
    d = rules_as_actions(load_domain(GUARDS))
    assert [a.name for a in d.actions] == ["walk", "guard", "chase", "threatened-derived", "safe-derived",
                                           "alarm-derived"]
    safe = d.action("safe-derived")
    head = load_domain(GUARDS).derived[1].head
    assert safe.parameters == (("?r", "room"),) and safe.effects == (Effect(Literal(head)),)
    assert d.derived == ()


def test_a_changed_rule_costs_edits_and_a_renamed_copy_none():
    assert compare(ROADS, ROADS).edit_distance == 0
    short = compare(SHORT, ROADS)
    assert short.edit_distance == 2  # connected's body, one complex condition: removed, and the other added
    assert all(e.startswith("connected-derived: ") for e in short.edits)
    text = ROADS.read_text()
    for old, new in (("connected", "linked"), ("isolated", "cut-off"), ("drive", "go"), ("road", "way")):
        text = text.replace(old, new)
    renamed = parse_domain(text, "renamed.pddl")
    result = compare(renamed, load_domain(ROADS), rename=True)
    assert result.edit_distance == 0 and result.optimal
