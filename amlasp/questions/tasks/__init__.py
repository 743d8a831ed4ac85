"""The tasks, one module each (`registry.py` orders them; each module's `TASK` is its entry), and what
families of them share: `common` (all), `reachability` (reach, areach), `sequence` (verify, count, value)."""
