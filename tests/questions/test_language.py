"""English from PDDL: the shipped templates fit their domains, sentences read back, generic rendering."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from amlasp.errors import InputError
from amlasp.model import Atom, GroundAction
from amlasp.pddl.parse import load_domain, load_problem
from amlasp.questions.language import Phrasebook, action_sentences, generic_action, generic_fact, negate, plural, words
from amlasp.questions.templates import SLOT, load_templates, parse_templates, problems, shipped, templates_for
from amlasp.questions.universe import Universe
from tests.support import acpbench
from tests.support.ipc import DOMAINS, reference, small_problem

ACP_DOMAINS = {}
for _task in ("app", "prog", "reach", "areach", "val", "just", "land", "nexta"):
    for _item in acpbench.items(_task):
        ACP_DOMAINS.setdefault(acpbench.domain_name(_item), _item)
TEMPLATES = Path(__file__).resolve().parents[2] / "amlasp" / "questions" / "templates"


def all_domains():
    out = [(name, load_domain(reference(name))) for name in DOMAINS]
    out += [(f"acpbench-{n}", acpbench.load(item)[0]) for n, item in sorted(ACP_DOMAINS.items())]
    return out


@pytest.mark.parametrize("name,domain", all_domains(), ids=[n for n, _ in all_domains()])
def test_every_shipped_domain_has_a_fitting_template_for_every_name(name, domain):
    t = templates_for(domain)
    assert t is not None, f"no shipped template fits {name}"
    assert set(t.predicates) == {p.name for p in domain.predicates}
    assert set(t.actions) == {a.name for a in domain.actions}


@pytest.mark.parametrize("name,domain", all_domains(), ids=[n for n, _ in all_domains()])
def test_every_template_slot_set_is_exactly_the_parameters(name, domain):
    """The domain's template file loads as a user's `--templates` file would, and each sentence (fact,
    negated fact, action) names every parameter once at least and nothing else: a sentence that drops
    a parameter could not be read back to one ground atom or action."""
    t = templates_for(domain)
    assert t is not None
    loaded = load_templates(TEMPLATES / t.source.split("/", 1)[1], domain)
    assert loaded.predicates == t.predicates and loaded.actions == t.actions
    params = {p.name: {v for v, _ in p.parameters} for p in domain.predicates}
    acts = {a.name: {v for v, _ in a.parameters} for a in domain.actions}
    for section, declared in (("predicates", params), ("negated", params), ("actions", acts)):
        for key, sentence in getattr(t, section).items():
            assert set(SLOT.findall(sentence)) == declared[key], f"{t.source} [{section}] {key}: {sentence}"


def test_every_shipped_template_fits_a_domain():
    domains = [d for _, d in all_domains()]
    for t in shipped():
        assert any(t.domain == d.name and not problems(t, d) for d in domains), t.source


@pytest.mark.parametrize("name", DOMAINS)
def test_sentences_read_back_to_the_same_action_and_fact(name):
    """Every ground action and fact, rendered by the template, is recognised again (grading needs it)."""
    d = load_domain(reference(name))
    p = load_problem(small_problem(name), d)
    book = Phrasebook(d, templates_for(d))
    u = Universe(d, p)
    rng = random.Random(0)
    for a in d.actions:
        for g in rng.sample(u.actions(a.name), min(20, len(u.actions(a.name)))):
            assert book.read_action(book.action(g)) == g, book.action(g)
            assert book.read_action(book.action(g).upper() + ".") == g
    for pred in d.predicates:
        for f in rng.sample(u.atoms(pred.name), min(20, len(u.atoms(pred.name)))):
            assert book.read_fact(book.fact(f)) == f, book.fact(f)


def test_generic_rendering_is_english_not_pddl():
    assert generic_fact("at", [("?c", "car"), ("?l", "location")]) == "car {?c} is at location {?l}"
    assert generic_fact("in-city", [("?l", "location"), ("?c", "city")]) == "location {?l} is in city {?c}"
    assert generic_fact("supports", [("?c", "camera"), ("?m", "mode")]) == "camera {?c} supports mode {?m}"
    assert generic_fact("handempty", []) == "handempty is true"
    assert generic_action("drive-truck", [("?t", "truck"), ("?a", "location"), ("?b", "location")]) == \
        "drive truck {?t}, location {?a} and location {?b}"
    assert negate("car {?c} is at location {?l}") == "car {?c} is not at location {?l}"
    assert plural("box") == "boxes" and plural("city") == "cities" and plural("car") == "cars"
    d = load_domain(reference("rovers"))
    generic = Phrasebook(d)  # no template: generic sentences, the type word dropped before "rover0"
    assert generic.fact(Atom("at", ("rover0", "waypoint1"))) == "rover0 is at waypoint1"
    assert generic.read_fact("rover rover0 is at waypoint waypoint1") == Atom("at", ("rover0", "waypoint1"))
    assert "(" not in generic.domain_text()


def test_context_describes_rules_objects_and_state():
    d = load_domain(reference("ferry"))
    p = load_problem(small_problem("ferry"), d)
    book = Phrasebook(d, templates_for(d))
    assert "To board car X onto the ferry at location Y requires that car X is at location Y" in \
        book.domain_text()
    assert book.objects(p).startswith("There are ")
    state = book.state(p.init, d.static_predicates())
    assert "never change" in state and "Any fact not listed is false." in state
    assert book.action(GroundAction("sail", ("l0", "l1"))) == "sail from location l0 to location l1"


def test_template_errors_name_the_file_and_line(tmp_path):
    d = load_domain(reference("ferry"))
    bad = tmp_path / "t.toml"
    bad.write_text('domain = "ferry"\n[predicates]\nat = "car {?car} is at {?l}"\n')
    with pytest.raises(InputError, match=r"t\.toml:3:11: .*slot \{\?car\} is not a parameter of 'at'"):
        load_templates(bad, d)
    bad.write_text('domain = "ferry"\n[actions]\nfly = "fly"\n')
    with pytest.raises(InputError, match=r"t\.toml:3:1: .*no action 'fly'"):
        load_templates(bad, d)
    bad.write_text('domain = "ferry"\n[actions\n')
    with pytest.raises(InputError, match=r"t\.toml:2:9: not valid TOML: Expected '\]'"):
        load_templates(bad, d)
    with pytest.raises(InputError, match="x.toml:1:1: a template file needs `domain"):
        parse_templates('[actions]\nsail = "x"\n', "x.toml")
    # a name in one section found in its own section, not in an earlier one
    bad.write_text('domain = "ferry"\n[predicates]\non = "car {?c} is on the ferry"\n[negated]\n'
                   'on = "car {?car} is off"\n')
    with pytest.raises(InputError, match=r"t\.toml:5:11: \[negated\] on: slot \{\?car\}"):
        load_templates(bad, d)
    bad.write_text('domain = "ferry"\n[plurals]\nferry = 3\n')
    with pytest.raises(InputError, match=r"t\.toml:3:1: plurals.ferry must be a string"):
        load_templates(bad, d)


def test_the_documented_template_example_loads(tmp_path):
    """docs/questions.md's TOML example is a valid template file for the IPC ferry domain."""
    doc = (Path(__file__).resolve().parents[2] / "docs" / "questions.md").read_text()
    example = doc.split("```toml\n", 1)[1].split("```", 1)[0]
    f = tmp_path / "ferry.toml"
    f.write_text(example)
    t = load_templates(f, load_domain(reference("ferry")))
    assert t.actions["sail"] == "sail from location {?from} to location {?to}" and t.plurals == {"ferry": "ferries"}


@pytest.mark.parametrize("name,domain", all_domains(), ids=[n for n, _ in all_domains()])
def test_no_variable_in_any_rule_sentence(name, domain):
    """The domain's rules (every shipped template, every domain) name an action's parameters by capital
    letters, never `?x`; a template with a subject ("robot {?r} picks up ...") reads "To have robot X
    pick up ...", never "To robot X picks up"."""
    text = Phrasebook(domain, templates_for(domain)).domain_text()
    assert "?" not in text, text
    for sentence in text.split(". "):
        if sentence.startswith("To "):
            head = sentence.split(" requires that ")[0].split(" can always be done")[0]
            assert not any(w.endswith(("picks", "navigates", "walks", "drives")) for w in head.split()), head


def test_number_agreement_and_calibration_targets():
    """"There is 1 ball (ball1) and ...", not "There are 1 ball"; calibration_target is not "calibrated"."""
    from dataclasses import replace
    d = load_domain(reference("grippers"))
    p = load_problem(small_problem("grippers"), d)
    book = Phrasebook(d, templates_for(d))
    first = min(t for _, t in p.objects)
    single = replace(p, objects=((next(o for o, t in p.objects if t == first), first),) +
                     tuple((o, t) for o, t in p.objects if t != first))
    assert book.objects(single).startswith(f"There is 1 {first} (")
    assert book.objects(replace(p, objects=tuple((o, t) for o, t in p.objects if t == "room"))).startswith(
        "There are 3 rooms")
    rovers = load_domain(reference("rovers"))
    said = Phrasebook(rovers, templates_for(rovers)).fact(Atom("calibration_target", ("camera0", "objective1")))
    assert said == "objective1 is the calibration target of camera0"


def _problem_of(name, domain):
    if name.startswith("acpbench-"):
        return acpbench.load(ACP_DOMAINS[name[len("acpbench-"):]])[1]
    return load_problem(small_problem(name), domain)


def _sentences(domain, problem, book, per_name: int = 40):
    """Sampled ground sentences of every predicate (as a fact and negated) and every action, each with
    what it stands for."""
    u = Universe(domain, problem)
    rng = random.Random(0)
    out = []
    for p in domain.predicates:
        for f in rng.sample(u.atoms(p.name), min(per_name, len(u.atoms(p.name)))):
            out += [(book.fact(f), ("fact", f)), (book.not_fact(f), ("not", f))]
    for a in domain.actions:
        for g in rng.sample(u.actions(a.name), min(per_name, len(u.actions(a.name)))):
            out.append((book.action(g), ("action", g)))
    return out


@pytest.mark.parametrize("name,domain", all_domains(), ids=[n for n, _ in all_domains()])
def test_shipped_sentences_have_no_mechanical_defect(name, domain):
    """Every shipped domain, as a new reader meets it: no `?variable` or `{slot}` left in any sentence
    (facts, negated facts, actions, rules, objects, state), no two different facts, negated facts or
    actions said by the same words (a reader could not tell them apart, nor could grading read them back:
    barman's "shaker1 is not shaken" was both `unshaked` and not `shaked`), each predicate's negation
    differs from its fact, and a rule with a subject reads "To have robot X pick up", never "To robot X
    picks up" or "To the positive hand X puts down" (the verbs in -s after a slot of an action sentence
    never follow "To ...")."""
    problem = _problem_of(name, domain)
    book = Phrasebook(domain, templates_for(domain))
    said: dict[str, tuple] = {}
    for text, what in _sentences(domain, problem, book):
        assert not re.search(r"[?{}]", text), f"{name}: {what}: {text!r}"
        key = " ".join(text.lower().split())
        assert said.setdefault(key, what) == what, f"{name}: {what} and {said[key]} both read {text!r}"
    for p in domain.predicates:
        assert book.facts[p.name].text != book.negated[p.name].text, p.name
    rules = book.domain_text()
    context = " ".join([rules, book.objects(problem), book.state(problem.init, domain.static_predicates()),
                        book.goal(problem.goal) if problem.goal else ""])
    assert not re.search(r"[?{}]", context), context
    generic = Phrasebook(domain)  # no template: the generic sentences leak no variable either
    generic_text = " ".join([generic.domain_text(), *(s for s, _ in _sentences(domain, problem, generic, 3))])
    assert not re.search(r"[?{}]", generic_text), generic_text
    verbs = {m for s in book.actions.values() for m in re.findall(r"\}\s+([a-z]+s)\b", s.text)}
    verbs -= {"its", "is", "was", "has"}
    for a in domain.actions:
        head = book.rule(a.name).split(" requires that ")[0].split(" can always be done")[0]
        assert head.split()[1] not in ("the", "a", "an"), head
        assert not verbs & set(head.split()), head


@pytest.mark.parametrize("name,domain", all_domains(), ids=[n for n, _ in all_domains()])
def test_object_counts_agree_in_number(name, domain):
    """"There is 1 ball (ball1) and 3 rooms", never "There are 1 ball", "1 balls" or "3 room"; plurals no
    rule gives are spelled out ("3 children", "2 aircraft", "2 goods", not "childs", "aircrafts", "goodses")."""
    from dataclasses import replace
    problem = _problem_of(name, domain)
    book = Phrasebook(domain, templates_for(domain))
    by_type: dict[str, list[str]] = {}
    for o, t in problem.objects:
        by_type.setdefault(t, []).append(o)
    one_each = replace(problem, objects=tuple((objs[0], t) for t, objs in by_type.items()))
    two_each = replace(problem, objects=tuple((f"{t}_{i}", t) for t in by_type for i in (1, 2)))
    for p, n in ((one_each, 1), (two_each, 2), (problem, None)):
        text = book.objects(p)
        assert not re.search(r"There are 1 |There is (?!1 )\d", text), text
        for t in by_type:
            k = n or len(by_type[t])
            single, many = ("object", "objects") if t == "object" else (words(t), plural(t, book.plurals))
            assert f"{k} {single if k == 1 else many} (" in text, (t, text)
            assert not re.search(r"\b(childs|aircrafts|goodses|persons|mans)\b", text), text


def test_irregular_plurals_and_type_words():
    assert plural("child") == "children" and plural("aircraft") == "aircraft" and plural("goods") == "goods"
    assert plural("man") == "men" and plural("fuel-man") == "fuel men" and plural("box") == "boxes"
    # only a type word goes before an object named after it: "is at attic1" keeps its "at"
    from amlasp.questions.language import Sentence
    s = Sentence("box {?b} is at {?p}", ("?b", "?p"), frozenset({"box", "place"}))
    assert s.fill(("box1", "attic1")) == "box1 is at attic1"
    assert s.match("box1 is at attic1") == ("box1", "attic1")


def test_reviewed_wording_of_shipped_domains():
    """What reading every shipped domain found: orderings said the right way round (tpp's `(next level1
    level0)` is "level1 is the level after level0"), a delete the same action adds again is not said
    ("the channel of lander general is not free, ... is free"), and no rule reads "To have robot X at
    tile Z paints"."""
    tpp = load_domain(reference("tpp"))
    assert Phrasebook(tpp, templates_for(tpp)).fact(Atom("next", ("level1", "level0"))) == \
        "level1 is the level after level0"
    rovers = load_domain(reference("rovers"))
    rule = Phrasebook(rovers, templates_for(rovers)).rule("communicate_soil_data")
    assert "is not free" not in rule and "rover X is not available" not in rule, rule
    assert rule.startswith("To have rover X send the soil data of waypoint Z from waypoint W to lander Y"), rule
    floortile = load_domain(reference("floortile"))
    assert Phrasebook(floortile, templates_for(floortile)).rule("paint_up").startswith(
        "To have robot X paint tile Y with colour W from tile Z just below it requires"), "paint_up"
    barman = load_domain(reference("barman"))
    b = Phrasebook(barman, templates_for(barman))
    assert b.fact(Atom("unshaked", ("shaker1",))) != b.not_fact(Atom("shaked", ("shaker1",)))


def test_action_sentences_are_the_templates_else_generic():
    """What `validate --from-text` reads besides the names: the shipped template when one fits the domain."""
    bw = load_domain(Path(__file__).parents[2] / "examples" / "blocksworld" / "domain.pddl")
    assert action_sentences(bw)["unstack"] == "unstack block {?x} from block {?y}"
    logistics = load_domain(Path(__file__).parents[1] / "data" / "responses" / "logistics" / "domain.pddl")
    assert action_sentences(logistics)["fly-airplane"] == generic_action(
        "fly-airplane", list(logistics.action("fly-airplane").parameters))

