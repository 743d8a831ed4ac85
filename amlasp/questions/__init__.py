"""Reasoning-about-action questions with proven answers, and grading answers to them (`amlasp questions`).

In flow order: `registry` (the tasks' names), `catalog` (each task's entry, found in its module),
`items` (forms, one item), `case` and `graded` (one item made concrete, one grade),
`universe` (what a question may mention), `walks` (seeded random walks and breadth-first search by
the encodings), `decide` (reachability and landmark proofs), `templates` and `language` (English
from PDDL), `generate` (the driver), and for grading `answers` (reading free answers), `gold`
(re-deriving an item's answer from its PDDL) and `grade`. `tasks/` holds one module per task, whose
entry owns its generation, gold derivation and grading (gold, grade and generate dispatch to it).
"""
