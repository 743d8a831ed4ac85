"""What several test files share, so that each is written once.

The folders next to this one mirror amlasp's (tests/pddl, tests/asp, tests/reasoning, and
tests/test_logic.py for amlasp/logic.py): small tests of one module each, on the registry's
examples. The files at the top level test whole features against oracles and the CLI.

- `paths`: ROOT, IPC, EXAMPLES, DATA.
- `examples`: the registry (`REGISTRY`, by name) of small domains and problems with their known
  answers (applicable actions, successors, a valid plan, the optimal length, landmarks), and
  pairs of models with their known distance (`HIKING`).
- `ipc`: the shipped IPC domains and the smallest problem of each.
- `notation`: actions and atoms written as PDDL text, read back.
- `acpbench`: ACPBench items (tests/data/acpbench) and their models.
- `up`: unified-planning as an oracle: conversions between its objects and ours.
- `questions`: generated questions' simulated answers recomputed by UP's simulator (tests, benchmark).
- `cli`: the command line, in-process or as `python -m amlasp`.
"""
