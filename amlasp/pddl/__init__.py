"""PDDL text ⇄ model, every error located at `file:line:col`.

Reading, in the order a domain flows through it (`parse` is the driver):
  inputs        the files given as paths: directories listed in natural order, missing paths refused
  source        a file as normalised text (missing, too large, binary, not UTF-8: refused)
  sexpr         the position-aware s-expression reader (iterative, with a nesting limit)
  declarations  what a domain or problem declares, each name with its position
  check         our checks: structure, unsupported features, names, types
  repair        the leniencies applied before the `pddl` package reads a domain
  formulas      every atom, variable and operator of the actions, checked on our tree
  convert       `pddl`'s objects (a domain) or our s-expression (a problem) → model
  parse         the driver: parse_domain, parse_problem, load_domain, load_problem
  ground        ground atoms and actions checked against a domain: names, arities, objects, types
  jsonpos       a JSON reader that keeps positions (state files)
  states        state files (trajectories, JSON), literals and states typed by a user
  plans         ground actions and plan files
  response      the plan in a language model's answer (`validate --from-text`), with
  sentences     an English clause read as ground actions (the domain's names, its actions' sentences)
Writing: `writer.to_pddl` and `writer.problem_to_pddl`, the inverses of `parse_domain` and
`parse_problem` on the model.
"""
