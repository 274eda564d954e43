"""Rollbook's benchmark harness: `python -m bench --help`.

Generates deterministic campaigns of each ruleset (bench/generate/, with each game's own generator), measures Rollbook's
verbs side by side with bare-library and raw-SQLite baselines on the same machine in the
same run (bench/measures.py, bench/baselines.py), judges each row by its issue's target
(bench/targets.py), and writes bench/RESULTS.md.
"""
