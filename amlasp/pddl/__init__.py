"""PDDL text ⇄ model, every error located at `file:line`.

Reading, in the order a domain flows through it (`parse` is the driver):
  source        a file as text (missing, binary, not UTF-8: refused)
  sexpr         the line-aware s-expression reader
  declarations  what a domain or problem declares, each name with its line
  check         our checks: structure, unsupported features, names, types
  repair        the leniencies applied before the `pddl` package reads a domain
  convert       `pddl`'s objects (a domain) or our s-expression (a problem) → model
  parse         the driver: parse_domain, parse_problem, load_domain, load_problem
  states        state files (trajectories, JSON), literals and states typed by a user
  plans         ground actions and plan files
Writing: `writer.to_pddl`, the inverse of `parse_domain` on the model.
"""
