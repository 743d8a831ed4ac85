"""The tasks, one module each (`registry.py` names and orders them; each module's `TASK` is its entry,
`catalog.entry`), and what families of them share: `common` (all), `reachability` (reach, areach),
`sequence` (verify, count, value)."""
