"""Text2World's evaluator definition (text2world/utils/evaluator.py: predicate_f1, action_f1) run on
Tarski, the parser it uses: the published code path, reimplemented, for the differential test of
`--as-written` (tests/metrics/test_compare_components.py). Run by a Python that has tarski:
`python t2w_tarski.py REFERENCE GENERATED` prints [predicate, params, preconds, effect]."""

import json
import sys


def f1(pred, ref):
    if len(pred) == 0 and len(ref) == 0:
        return 1
    tp, fp, fn = len(set(pred) & set(ref)), len(set(pred) - set(ref)), len(set(ref) - set(pred))
    p = tp / (tp + fp) if tp + fp else 0
    r = tp / (tp + fn) if tp + fn else 0
    return 2 * p * r / (p + r) if p + r else 0


def preprocess(items):
    items = sorted(map(str, items))
    for i in range(len(items)):
        if items[i][0] == "(" and " or " in items[i]:  # an empty string fails here, as in the evaluator
            items[i] = "(" + " or ".join(sorted(p.strip() for p in items[i][1:-1].strip().split(" or "))) + ")"
    return sorted(items)


def read(text):
    from tarski.io import PDDLReader
    reader = PDDLReader(raise_on_error=True)
    reader.parse_domain_string(text.strip())
    return reader.problem


def predicates(text):
    return [f"{p.symbol}_{p.arity}" for p in read(text).language.predicates if str(p.symbol) not in ("=", "!=")]


def actions(text):
    return {k: {"params": preprocess([str(p.symbol) for p in v.parameters]),
                "preconds": preprocess([x.strip() for x in str(v.precondition)[1:-1].split("and")]),
                "effect": preprocess([str(x) for x in v.effects])} for k, v in read(text).actions.items()}


def main(reference: str, generated: str) -> list:
    gt, pd = open(reference).read(), open(generated).read()
    try:
        pf = f1(predicates(pd), predicates(gt))
    except Exception:
        pf = 0
    scores: dict = {"params": [], "preconds": [], "effect": []}
    try:
        g, p = actions(gt), actions(pd)
        for k, a in g.items():
            b = p[k]
            for key in scores:
                scores[key].append(f1(b[key], a[key]))
        means = {k: sum(v) / len(v) for k, v in scores.items()}
    except Exception:
        means = {k: 0 for k in scores}
    return [pf, means["params"], means["preconds"], means["effect"]]


if __name__ == "__main__":
    print(json.dumps(main(sys.argv[1], sys.argv[2])))
