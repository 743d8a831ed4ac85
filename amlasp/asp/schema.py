"""The ASP vocabulary: every predicate that crosses the Python/clingo boundary, declared once.

A declaration is a `Pred`: its name, the meaning of each argument (its fields) and a line of
documentation. Python writes facts and compiled rules through the declarations (`HOLDS.fact(s,
f)`, `APP(M, S, A)` for an atom of a rule) and reads answers by field name (`APP.read(sym).action`,
or `APP.at("action")` once for a loop over thousands of atoms), never by spelling a predicate or
counting argument positions itself. `tests/asp/test_schema.py` checks that every predicate an
encoding reads from outside its file, shows or declares `#external` is declared here with the arity
it uses, so that changing a predicate means changing its declaration and the encodings, and the
tests say where else.

In the manner of clorm's `Predicate`, but plain strings out and named tuples in: bulk state facts
are written by the hundred thousand, and a class instance per fact would cost more than the text
(docs/validate.md says how carefully that path is tuned).
"""

from __future__ import annotations

from collections import namedtuple
from typing import Any, Iterable, Sequence

import clingo

#: Every declaration by (name, arity).
SCHEMA: dict[tuple[str, int], "Pred"] = {}


class Pred:
    """A predicate of the schema: `name(field1,...,fieldN)`."""

    __slots__ = ("name", "fields", "doc", "arity", "_row", "_head")

    def __init__(self, name: str, fields: str, doc: str):
        self.name = name
        self.fields: tuple[str, ...] = tuple(fields.split())
        self.doc = doc
        self.arity = len(self.fields)
        self._row: Any = None  # the named tuple of a read, made on first use (`_rows`)
        self._head = f"{name}(" if self.fields else name
        key = (name, self.arity)
        if key in SCHEMA:
            raise ValueError(f"{name}/{self.arity} is declared twice")
        SCHEMA[key] = self

    def __repr__(self) -> str:
        return f"{self.name}({','.join(self.fields)})"

    @property
    def signature(self) -> tuple[str, int]:
        return self.name, self.arity

    # ------------------------------------------------------------------ writing
    def __call__(self, *args: Any) -> str:
        """The atom (no period) with these arguments, for a rule's head or body: `app(m,S,A)`."""
        self._check(args)
        return f"{self._head}{','.join(map(str, args))})" if self.arity else self.name

    def fact(self, *args: Any) -> str:
        """The fact `name(args).`."""
        self._check(args)
        return f"{self._head}{','.join(map(str, args))})." if self.arity else f"{self.name}."

    def fixed(self, *first: Any) -> "Facts":
        """Facts whose first arguments are `first`: `HOLDS.fixed(3).text(atoms)` is `holds(3,F).` for
        each F. The fast writer of bulk facts (a state's atoms)."""
        if len(first) >= self.arity:
            raise ValueError(f"{self!r} has {self.arity} arguments")
        return Facts(self.name, self.arity, first)

    def row(self, *args: Any) -> str:
        """The arguments as one row of `Program.given` (`a,b`)."""
        self._check(args)
        return ",".join(map(str, args))

    def _check(self, args: tuple) -> None:
        if len(args) != self.arity:
            raise TypeError(f"{self!r} takes {self.arity} arguments, got {len(args)}")

    # ------------------------------------------------------------------ reading
    def _rows(self) -> type:
        """The named tuple of this predicate's arguments. Made on first use: making one costs 60 us,
        and the schema's 150 all at import would cost every command 9 ms (`amlasp validate`: 5%)."""
        if self._row is None:
            self._row = namedtuple(f"{self.name.capitalize()}Row", self.fields)  # type: ignore[misc]
        return self._row

    def at(self, field: str) -> int:
        """The position of `field` (0-based), for a loop that reads many atoms by position."""
        return self.fields.index(field)

    def matches(self, sym: clingo.Symbol) -> bool:
        """Whether `sym` is an atom of this predicate (name and arity)."""
        return sym.name == self.name and len(sym.arguments) == self.arity

    def read(self, sym: clingo.Symbol) -> Any:
        """The arguments of an atom of this predicate, by field name: `APP.read(s).action`."""
        if not self.matches(sym):
            raise ValueError(f"{sym} is not an atom of {self!r}")
        return self._rows()(*sym.arguments)

    def split(self, text: str) -> Any:
        """The argument texts of a shown atom's text, by field name (arguments nested one level
        at most, never strings: asp/decode.py `arguments`)."""
        from .decode import arguments

        return self._rows()(*arguments(text))

    def select(self, symbols: Iterable[clingo.Symbol]) -> list[Any]:
        """The arguments, by field name, of those `symbols` that are atoms of this predicate."""
        name, arity, row = self.name, self.arity, self._rows()
        return [row(*s.arguments) for s in symbols if s.name == name and len(s.arguments) == arity]

    def show(self, **fixed: Any) -> str:
        """`#show name/arity.`; with `fixed` fields, only the atoms that have them
        (`PM.show(mapping="best")`: `#show pm(best,X2,X3) : pm(best,X2,X3).`)."""
        if not fixed:
            return f"#show {self.name}/{self.arity}."
        atom = self(*(fixed.pop(f) if f in fixed else f"X{i}" for i, f in enumerate(self.fields, 1)))
        if fixed:
            raise ValueError(f"{self!r} has no field {', '.join(fixed)}")
        return f"#show {atom} : {atom}."


class Facts:
    """Facts of one predicate whose first arguments are fixed (`Pred.fixed`)."""

    __slots__ = ("_open", "_join")

    def __init__(self, name: str, arity: int, first: tuple):
        lead = ",".join(map(str, first))
        self._open = f"{name}({lead}," if first else f"{name}("
        self._join = f").\n{self._open}"

    def text(self, rest: Sequence[str]) -> str:
        """`name(first,r).` for each `r` in `rest` (each the remaining arguments as text), a line each."""
        return f"{self._open}{self._join.join(rest)})." if rest else ""


# ============================================================================ the schema
# Fields: model M (a tag: m, ref, learned, r, l, b), problem P, state S, ground action A, ground
# atom F, lifted literal L (`on(v(1),c(table))`), sign pos|neg, K an index.

# ---------------------------------------------------------------- domain facts (asp/facts.py, docs/facts.md)
MODEL = Pred("model", "model", "a model (its tag)")
DOMAIN_NAME = Pred("domain_name", "model name", "the model's PDDL name, a string")
TYPE = Pred("type", "model type", "a declared type")
SUBTYPE = Pred("subtype", "model type parent", "a type's declared parent (roots: object)")
TYPE_MEMBER = Pred("type_member", "either member",
                   "a type of an `either` type (its term `either(a,b)`; types.lp): any model's, problem's")
CONSTANT = Pred("constant", "model constant type", "a domain constant and its type")
PREDICATE = Pred("predicate", "model predicate arity", "a predicate and its arity")
PRED_PARAM = Pred("pred_param", "model predicate index type", "the type of a predicate's index-th argument (1-based)")
ACTION = Pred("action", "model action arity", "an action schema and its arity")
PARAM = Pred("param", "model action index type", "the type of an action's index-th parameter (1-based)")
PRE = Pred("pre", "model action sign literal",
           "a precondition literal (lifted; the top-level ones of a complex precondition)")
EFF = Pred("eff", "model action sign literal", "an unconditional effect literal")
CEFF = Pred("ceff", "model action effect sign literal", "the literal of a conditional and/or universal effect")
ECND = Pred("ecnd", "model action effect sign literal", "a literal of a conditional effect's when-condition")
EFF_VAR = Pred("eff_var", "model action effect index type",
               "a forall variable v(index) of an effect, numbered after the parameters")
COMPLEX_PRE = Pred("complex_pre", "model action", "the precondition is not a conjunction of literals")
COMPLEX_COND = Pred("complex_cond", "model action effect", "the effect's condition is not a conjunction of literals")

# ---------------------------------------------------------------- problems, states, plans
PROBLEM = Pred("problem", "problem", "a problem (a number)")
PROBLEM_NAME = Pred("problem_name", "problem name", "the problem's PDDL name, a string")
OBJECT = Pred("object", "problem object type", "an object of the problem and its declared type")
INIT = Pred("init", "problem atom", "an atom of the problem's initial state")
GOAL = Pred("goal", "problem sign atom", "a goal literal (or one asked about: reach, landmarks)")
STATE = Pred("state", "state problem", "state S belongs to problem P")
HOLDS = Pred("holds", "state atom",
             "atom F is true in state S (closed world); also an output of frame.lp, relaxed.lp, validate.lp")
FIXED = Pred("fixed", "problem atom", "an atom of a static predicate, given once per problem instead of in every state")
SPAN = Pred("span", "problem low high", "the states low..high are of group P (asp/states.py: many states at once)")
HELD = Pred("held", "low high atom", "F holds in each of the states low..high (asp/states.py: many states at once)")
HOLD = Pred("hold", "problem low high atom",
            "F holds in each of the states low..high of group P, a run of them (compile.py's run_applicability)")
OCCURS = Pred("occurs", "step action", "the plan's action at step T (0-based); plan.lp's output")
PLAN_LENGTH = Pred("plan_length", "length", "the plan's number of steps")

# ---------------------------------------------------------------- action costs (:action-costs, docs/facts.md)
COST_FUNCTION = Pred("cost_function", "model function arity", "a cost function (total_cost included) and its arity")
COST = Pred("cost", "model action cost", "what A adds to total-cost: a number, or a lifted cost function term f(v(1))")
COST_VALUE = Pred("cost_value", "problem term value", "the value :init gives a cost function's ground term")
METRIC = Pred("metric", "problem", "the problem minimises total-cost (without it, every step costs 1)")
ACTION_COST = Pred("action_cost", "model state action cost", "the cost of A, applicable in S (compiled rules)")

# ---------------------------------------------------------------- compiled action rules and semantics.lp
IS_A = Pred("is_a", "model problem object type", "an object's type and each of its supertypes (semantics.lp)")
NOT_A = Pred("not_a", "model problem object type", "an object is not of a type asked by check_type (semantics.lp)")
CHECK_TYPE = Pred("check_type", "model type", "types whose complement not_a/4 the compiled rules read")
APP = Pred("app", "model state action", "ground action A is applicable in state S under model M")
DERIVED = Pred("derived", "model state atom",
               "atom F of a derived predicate holds in state S under model M (the compiled :derived rules)")
ADD = Pred("add", "model state action atom", "applying A in S adds F (conditions evaluated in S)")
DEL = Pred("del", "model state action atom", "applying A in S deletes F")
ADDED = Pred("added", "model state action atom", "A really adds F in S (change.lp: delete before add)")
DELETED = Pred("deleted", "model state action atom", "A really deletes F in S (change.lp)")
QUERY = Pred("query", "model state action", "asks whether (and, with unmet/4, why not) A is applicable in S")
UNMET = Pred("unmet", "model state action why",
             "why A is not applicable in S: pos(F), neg(F), eq(X,Y), neq(X,Y), type(X,T), cond(K)")
TRANSITION = Pred("transition", "layer model state action next", "frame.lp's input: applying A in S gives state next")
CHECK = Pred("check", "model", "the model whose compiled check rules are asked (validate.lp)")
APP_RUN = Pred("app_run", "model low high action", "A is applicable in each of the states low..high, a run of "
               "neighbouring states (compile.py's run_applicability; applicable reads it)")

# ---------------------------------------------------------------- validate.lp
ROOT = Pred("root", "node problem start", "node N of the tree of states is start state I of problem P")
EDGE = Pred("edge", "node action child", "applying A in node N gives node child")
RUN = Pred("run", "run problem end length", "run K: L steps on problem P, ending in node E")
START = Pred("start", "start atom", "an atom of a fluent of start state I")
UNKNOWN = Pred("unknown", "node action", "the step's action is not a well-typed action of the model")
SHOW_STATES = Pred("show_states", "", "show the states reached (holds/2)")
SHOW_ENDS = Pred("show_ends", "", "show the state each run ends in (holds/2): a long plan's parts")
PREFIX_GOALS = Pred("prefix_goals", "", "check the goal before a failed run's failing step too (goal_unmet/2)")
ASK = Pred("ask", "model node action", "a failed step's action, asked why (part why)")
FAILED = Pred("failed", "run step action", "run K's first inapplicable step T, action A")
WHY = Pred("why", "run step reason", "why step T of run K fails: an unmet/4 reason or unknown")
GOAL_UNMET = Pred("goal_unmet", "run literal", "a goal literal pos(F)|neg(F) that the state run K's "
                                                            "executed prefix ends in misses")
VALID = Pred("valid", "run", "run K is executable and reaches its goal")
EXECUTABLE = Pred("executable", "run", "every step of run K is applicable")

# ---------------------------------------------------------------- plan.lp
PLAN_MODEL = Pred("plan_model", "model", "the model plan.lp plans with")
TARGET_ACTION = Pred("target_action", "action", "plan to a state where A is applicable (action reachability)")
HORIZON_QUERY = Pred("query", "horizon", "#external: the goal at this horizon is asked")
BUSY = Pred("busy", "step", "cheapest.lp: step T takes an action (the steps after a plan's last are idle)")

# ---------------------------------------------------------------- relaxed.lp
RELAXED_MODEL = Pred("relaxed_model", "model", "the model relaxed.lp relaxes")
ACHIEVER = Pred("achiever", "atom action", "A has the unconditional add effect F (landmark tests)")
FORBID = Pred("forbid", "atom", "#external: F is forbidden (a candidate landmark)")
GOAL_MISSING = Pred("goal_missing", "atom", "a positive goal atom the relaxation does not reach")
GOAL_REACHABLE = Pred("goal_reachable", "", "every positive goal atom is reached in the relaxation")

# ---------------------------------------------------------------- mutex.lp
H2_INIT = Pred("h2_init", "atom", "an atom of the initial state (fluents only)")
H2_ASK = Pred("h2_ask", "atom", "an atom asked about")
H2_ACT = Pred("h2_act", "action", "a reachable ground action of the relaxation")
H2_PRE = Pred("h2_pre", "action atom", "a positive precondition atom of A")
H2_ADD = Pred("h2_add", "action atom", "an add effect of A")
H2_DEL = Pred("h2_del", "action atom", "a delete effect of A")
R2 = Pred("r2", "atom other", "the pair may hold together (h^2 reachable so far; its count tells the fixpoint)")
MUTEX = Pred("mutex", "atom other", "two asked atoms that never hold together")

# ---------------------------------------------------------------- diff.lp
DIFF_MODELS = Pred("diff_models", "reference learned", "the two models' tags")
DISAGREE = Pred("disagree", "state action kind", "A is applicable under one model only, or changes differently")
EFFECT_DIFF = Pred("effect_diff", "state action kind atom",
                   "a change of A in S that one model makes and the other does not")
NEXT_ADD = Pred("next_add", "state action atom", "the reference's real add effect of A in S (to expand the frontier)")
NEXT_DEL = Pred("next_del", "state action atom", "the reference's real delete effect of A in S")
REF_APP = Pred("ref_app", "state action", "A is applicable in S under the reference")

# ---------------------------------------------------------------- eval.lp (metrics/evaluate)
# A state is the term s(P,S) in the compiled rules; N the index of an action name (a slot); T a rule's
# model r or l, or b for a change rule both models share.
OF = Pred("of", "state keyframe", "state S is its keyframe K, less gone/2, plus plus/2")
KF = Pred("kf", "keyframe atom", "an atom of keyframe K (a state given in full)")
GONE = Pred("gone", "state atom", "an atom of S's keyframe that S lacks")
PLUS = Pred("plus", "state atom", "an atom of S that its keyframe lacks")
W = Pred("w", "state weight", "state S stands for W equal test states (given when W > 1)")
WEIGHT = Pred("weight", "state weight", "how many test states the state term S counts for (eval.lp)")
EXTRA = Pred("extra", "state count", "true atoms of S outside the literal universe, times S's weight")
EVAL_ACTION = Pred("action", "slot", "an action name (slot N) whose counts are read")
EVAL_APP = Pred("app", "model state slot action", "A (of action name N) is applicable in S under model M")
BOTH = Pred("both", "state slot action", "A is applicable in S under both models: its effects are compared")
CH = Pred("ch", "rule state slot action atom", "applying A in S changes F by a rule of r, l or both (b)")
EVAL_ADD = Pred("add", "model state slot action atom", "a conditional effect's add, the generic route of eval.lp")
EVAL_DEL = Pred("del", "model state slot action atom", "a conditional effect's delete, the generic route of eval.lp")
MAYBE_OUT = Pred("maybe_out", "rule slot", "a change rule that may make an atom outside the reference's vocabulary")
CAND = Pred("cand", "problem atom", "a changed atom that may lie outside the literal universe of P")
IN_U = Pred("in_u", "problem atom", "a candidate F is a well-typed atom of the reference over P's objects")
UNTYPED = Pred("untyped", "state slot action",
               "a learned-applicable A that is no well-typed ground action of the reference")
COUNTED = Pred("counted", "slot", "the compiled rules count N's learned instances themselves")
FREE_COUNT = Pred("free_count", "slot problem count", "applicable instances of a learned-only action in P's "
                  "states (weighted), its free parameters left out: Python multiplies by their object tuples")
COUNT = Pred("count", "family slot kind count", "a count: family app|eff|effc, kind tp|fp|fn|untyped|outside|extra|...")
EXPLAIN = Pred("explain", "", "show the per-state detail (xapp/4, xeff/6)")
RECORDED = Pred("recorded", "state written slot action", "the action a trajectory took in state S, written as state R")
JOINT = Pred("joint", "slot problem count", "jointly applicable pairs of N in problem P, weighted")
OFF_STEP = Pred("off_step", "state", "a recorded step the reference does not allow")
XAPP = Pred("xapp", "state slot action kind", "mispredicted applicability: fp or fn")
XEFF = Pred("xeff", "state slot action atom kind sign",
            "a mispredicted change (fp or fn) and the literal predicted after it")
# ---------------------------------------------------------------- compare.lp, edit.lp (metrics/compare)
# X a mapping (best: edit.lp's renaming, metric: the one the metrics use, or one given); A a learned
# action, B a reference action; C a category (pre, eff, ceff, pref) with sign S; U, W units.
ATOM_PRED = Pred("atom_pred", "literal predicate arity", "the predicate and arity of a lifted atom L")
ATOM_KEY = Pred("atom_key", "literal constants",
               "a lifted atom's constants and their positions, as a text: atoms match only when theirs agree")
ATOM_ARG = Pred("atom_arg", "literal index term", "the index-th argument of a lifted atom: v(I) or c(C)")
FORMULA = Pred("formula", "model action formula skeleton",
               "a non-literal conjunct p(J), when-condition w(K) or numeric unit: its tree's root shape (node 0)")
FNODE = Pred("fnode", "model action formula node shape", "a node of a formula's tree and its shape (names left out)")
FKID = Pred("fkid", "model action formula node index child",
            "the index-th child of a node (index 0: an operand of and/or, matched as a set)")
FLEAF = Pred("fleaf", "model action formula node literal", "a leaf of a formula's tree: a lifted atom or function term")
FVAR = Pred("fvar", "model action formula node index type", "the type of the index-th variable a quantifier node binds")
CCOND = Pred("ccond", "model action effect text", "the condition of conditional effect K, as a canonical text")
PRED_SIG = Pred("pred_sig", "model signature arity count",
                "a signature: the argument types that count predicates of the model share (sig_param/4)")
SIG_PARAM = Pred("sig_param", "model signature index type", "the type of a signature's index-th argument")
NFUNCTION = Pred("nfunction", "model function arity", "a numeric function of a model (:functions) and its arity")
NFUNCTION_PARAM = Pred("nfunction_param", "model function index type", "the type of a numeric function's I-th argument")
NUMERIC = Pred("numeric", "model action formula category",
               "a numeric condition np(J) or effect ne(K) (formula/fnode...: its tree, function terms as leaves) of "
               "category pre, eff or ceff")
RENAME = Pred("rename", "", "names that agree are not fixed to each other")
PHASE = Pred("phase", "phase", "optimise (choose the renaming) or metrics (count under it)")
METRIC_MODE = Pred("metric_mode", "mode", "how the metric mapping is made: position, align or best")
MAPPING = Pred("mapping", "mapping", "a correspondence of predicates, actions and parameters")
PM = Pred("pm", "mapping learned reference", "learned predicate P plays reference predicate Q")
GIVEN = Pred("given", "", "the best renaming is given from outside the search (metrics/compare/decompose.py): checked")
UNFIT = Pred("unfit", "pair",
             "a pair of the given renaming that the search could not choose: pm(P,Q), am(A,B), vm(A,B,I,J)")
RESTRICT_A = Pred("restrict_a", "", "the free actions are matched only in the pairs given (akeep/2)")
AKEEP = Pred("akeep", "learned reference", "free learned action A may play free reference action B (restrict_a)")
RESTRICT_P = Pred("restrict_p", "", "the free predicates are matched only in the pairs given (pkeep/2)")
PKEEP = Pred("pkeep", "learned reference", "free learned predicate P may play free reference predicate Q (restrict_p)")
PCAND = Pred("pcand", "learned reference", "learned predicate (or function) P may be renamed to reference Q")
AM = Pred("am", "mapping learned reference", "learned action A plays reference action B")
VM = Pred("vm", "mapping learned reference index other", "parameter I of learned A plays parameter J of reference B")
N_REF = Pred("n_ref", "mapping action category sign count", "units of reference action B in a category")
TP = Pred("tp", "mapping action category sign count", "matched units of B in a category")
FP = Pred("fp", "mapping action category sign count", "units of B's learned counterpart without a match")
FP_EXTRA = Pred("fp_extra", "mapping learned category sign count", "units of a learned action without a counterpart")
TN = Pred("tn", "mapping action category sign count", "literals of B's universe in neither model")
COND_N = Pred("cond_n", "mapping action group count", "conditional effects of B in a condition group")
COND_TP = Pred("cond_tp", "mapping action group count", "matched conditional effects of B in a group")
COND_FP = Pred("cond_fp", "mapping action group count", "unmatched learned conditional effects under a group of B")
COND_FP_LEARNED = Pred("cond_fp_learned", "mapping action group count",
                       "learned conditional effects in a group B lacks")
TYPE_ONLY = Pred("type_only", "model type", "a type only one model declares")
PARENT_DIFF = Pred("parent_diff", "type learned reference", "a type's parent in each model, where they differ")
CONSTANT_ONLY = Pred("constant_only", "model constant", "a constant only one model declares")
CONSTANT_TYPE_DIFF = Pred("constant_type_diff", "constant learned reference",
                          "a constant's type in each model, where they differ")
PTYPE_DIFF = Pred("ptype_diff", "mapping learned reference index other learned_type reference_type",
                  "the types of matched parameters, where they differ")
PREDTYPE_DIFF = Pred("predtype_diff", "learned reference index learned_type reference_type",
                     "the argument types of matched predicates, where they differ")
COST_FN = Pred("cost_fn", "model action function arity", "A's cost is a function term: its function and arity")
COST_ARG = Pred("cost_arg", "model action index term", "the index-th argument of A's cost function term: v(I) or c(C)")
EDIT = Pred("edit", "edit", "one edit of the best renaming: remove_action(A), add(B,W), ...")
EDIT_DISTANCE = Pred("edit_distance", "distance", "the number of edits under the best renaming")
D_PARAM = Pred("d_param", "action distance", "parameter edits of reference action B")
D_PRE = Pred("d_pre", "action distance", "precondition edits of B")
D_EFF = Pred("d_eff", "action distance", "effect edits of B")
EQUIVALENT = Pred("equivalent", "action", "B and its counterpart are equal up to renaming")

# ---------------------------------------------------------------- problem_compare.lp (metrics/compare/problems.py)
# Problem 0 is the generated problem, 1 the reference; object/3, init/2, goal/3 and constant/3 as above.
FATOM = Pred("fatom", "atom predicate arity", "a ground atom of either problem: its predicate and arity")
FARG = Pred("farg", "atom index object", "the index-th argument (1-based) of a ground atom")
IMPLIED = Pred("implied", "problem sign atom",
               "a goal literal that every reachable state satisfying problem P's goal satisfies")
NOTION = Pred("notion", "notion", "which edits are minimised: syntactic or semantic (implied goals waived)")
OM = Pred("om", "generated reference", "a generated problem's object plays a reference object")
PEDIT = Pred("pedit", "edit", "an edit of the renaming: remove_object(X), add(init,F), remove(pos,F), ...")
PSEDIT = Pred("psedit", "edit", "an edit that the semantic notion counts (its goal is not implied by the other)")

class Term:
    """A function term nested in an answer's atom (`why(K,T,R)`'s reason R, a literal `pos(F)`): each of
    its names with the shape of its arguments, read by field name as `Pred.read` reads an atom
    (`TYPED.read(r).object`). Not a predicate: not in `SCHEMA`."""

    __slots__ = ("names", "fields", "doc", "_row")

    def __init__(self, names: str, fields: str, doc: str):
        self.names: frozenset[str] = frozenset(names.split())
        self.fields: tuple[str, ...] = tuple(fields.split())
        self.doc = doc
        self._row: Any = None

    def __repr__(self) -> str:
        return f"{'|'.join(sorted(self.names))}({','.join(self.fields)})"

    def matches(self, sym: clingo.Symbol) -> bool:
        """Whether `sym` is a term of this shape (one of its names, its number of arguments)."""
        return sym.type is clingo.SymbolType.Function and sym.name in self.names \
            and len(sym.arguments) == len(self.fields)

    def read(self, sym: clingo.Symbol) -> Any:
        """The term's arguments by field name; its name is `sym.name`."""
        if not self.matches(sym):
            raise ValueError(f"{sym} is not a term {self!r}")
        if self._row is None:
            self._row = namedtuple("TermRow", self.fields)  # type: ignore[misc]
        return self._row(*sym.arguments)


# ---------------------------------------------------------------- terms nested in answers
SIGNED = Term("pos neg", "atom", "a literal: pos(F), F true; neg(F), F false (goal_unmet/2, unmet/4's reasons)")
EQUALITY = Term("eq neq", "left right", "an (in)equality conjunct unmet: eq(X,Y), neq(X,Y) (unmet/4)")
TYPED = Term("type", "object type", "a parameter whose object has another type (unmet/4)")
CONDITION = Term("cond", "number", "a precondition conjunct that is no literal, by its number (unmet/4)")
OBJECT_EDIT = Term("remove_object add_object", "object", "an object a problem lacks or has over (pedit/1)")
FACT_EDIT = Term("remove add", "part atom", "a fact of init or of the goal (part init, pos, neg) (pedit/1)")
LITERAL = Term("lit", "part sign atom", "a literal of an action: its part, sign and atom (compare.lp)")
VARIABLE = Term("v", "index", "an action's parameter, by its position (compare.lp's literals)")
NAMED_CONSTANT = Term("c", "name", "a constant (compare.lp's literals)")


def shown(texts: Iterable[str], *preds: Pred) -> dict[Pred, list[Any]]:
    """The texts of shown atoms of `preds` (differently named, of arity 1 or more), read by field
    name (`Pred.split`: a named tuple made at run time, its fields unknown to a type checker), per
    declaration; other atoms are left out."""
    by_name = {p.name: p for p in preds}
    out: dict[Pred, list[Any]] = {p: [] for p in preds}
    for t in texts:
        p = by_name.get(t[:t.find("(")])
        if p is not None:
            out[p].append(p.split(t))
    return out


__all__ = ["Pred", "Facts", "SCHEMA", "Term", "shown",
           *[k for k, v in dict(globals()).items() if isinstance(v, (Pred, Term))]]
