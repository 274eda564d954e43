"""A game declares all of itself in its package (issue 31): outside its own package, its tests, the
examples and the benchmarks, no file of Rollbook names a built-in game, so what the interfaces and the
layers do for one they do for a plugin's. The entry points (pyproject.toml) and the prose (README, docs/)
name them, as they should."""

from __future__ import annotations

import re
from pathlib import Path

import rollbook

ROOT = Path(rollbook.__file__).parent
BUILT_IN = ("pirates", "heroes", "implant", "gladiators")
#: What a game may be named in besides its own package.
OUTSIDE = {"tests", "examples", "bench", "docs", ".venv", "build", ".git"}
SUFFIXES = {".py", ".html", ".js", ".css", ".jsonl", ".json"}


def naming(name: str) -> list[str]:
    word = re.compile(name, re.IGNORECASE)
    own = ROOT / "domain" / "rulesets" / name
    found = []
    for path in sorted(ROOT.rglob("*")):
        parts = path.relative_to(ROOT).parts
        if path.suffix not in SUFFIXES or parts[0] in OUTSIDE or parts[0].endswith(".egg-info") or own in path.parents:
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if word.search(line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()[:100]}")
    return found


def test_no_built_in_game_is_named_outside_its_own_package():
    assert {name: naming(name) for name in BUILT_IN} == {name: [] for name in BUILT_IN}


def test_the_check_finds_a_game_named_elsewhere(tmp_path, monkeypatch):
    elsewhere = tmp_path / "web"
    elsewhere.mkdir()
    (elsewhere / "page.py").write_text('KIND = "Pirates"\n', encoding="utf-8")
    monkeypatch.setattr(__import__(__name__, fromlist=["ROOT"]), "ROOT", tmp_path)
    assert naming("pirates") == ['web/page.py:1: KIND = "Pirates"']
