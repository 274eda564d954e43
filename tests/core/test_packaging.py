"""Every package of the source tree is installed: a wheel without one fails only after install."""

import tomllib
from pathlib import Path

ROOT = Path(__file__).parents[2]
NOT_INSTALLED = {"tests", "bench", "build", ".venv", "docs", "examples"}


def test_every_package_of_the_source_tree_is_listed_for_installing() -> None:
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = {
        ".".join(["rollbook", *init.parent.relative_to(ROOT).parts])
        for init in ROOT.rglob("__init__.py")
        if not NOT_INSTALLED & set(init.relative_to(ROOT).parts)
    }
    assert found - listed == set()
