"""Every module is at most 400 lines, or its docstring says why it is over 400 lines (issue 47)."""

from __future__ import annotations

import ast
from pathlib import Path

from .test_layers import ROOT, package_files

MOST_LINES = 400


def long_and_unexplained(paths: list[Path]) -> list[str]:
    """The modules over MOST_LINES lines whose docstring does not say they are over 400 lines, and why."""
    found = []
    for path in paths:
        text = path.read_text(encoding="utf-8")
        if text.count("\n") > MOST_LINES and "over 400 lines" not in (ast.get_docstring(ast.parse(text)) or ""):
            found.append(path.name)
    return found


def test_every_module_over_400_lines_says_why():
    assert long_and_unexplained([p for p in package_files() if p.relative_to(ROOT).parts[0] != "examples"]) == []


def test_a_long_module_that_says_nothing_is_found(tmp_path: Path):
    body = "x = 1\n" * (MOST_LINES + 1)
    (tmp_path / "silent.py").write_text('"""A module."""\n' + body)
    (tmp_path / "told.py").write_text('"""A module over 400 lines on purpose: one table."""\n' + body)
    (tmp_path / "short.py").write_text('"""A module."""\nx = 1\n')
    assert long_and_unexplained(sorted(tmp_path.glob("*.py"))) == ["silent.py"]
