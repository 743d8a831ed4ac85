"""What several test files share, so that each is written once.

- `paths`: ROOT, IPC, EXAMPLES, DATA.
- `examples`: the registry of small domains and problems with their known answers
  (applicable actions, a valid plan, the optimal length, landmarks), and pairs of models.
- `ipc`: the shipped IPC domains and the smallest problem of each.
- `notation`: actions and atoms written as PDDL text, read back.
- `acpbench`: ACPBench items (tests/data/acpbench) and their models.
- `up`: unified-planning as an oracle: conversions between its objects and ours.
- `cli`: the command line, in-process or as `python -m amlasp`.
"""
