"""The layers import one way (README, "How it is built"): every import of Rollbook's own
modules, at the top of a module or inside a function, goes inwards.

domain ← store ← commands, projections ← replay ← the interfaces: the CLI (`cli/`), the server,
the web UI and the testing kit, which may import everything.
"""

from __future__ import annotations

import ast
from pathlib import Path

import rollbook

ROOT = Path(rollbook.__file__).parent

#: What each inner layer may import of Rollbook besides itself.
ALLOWED = {
    "domain": set(),
    "store": {"domain"},
    "commands": {"domain", "store"},
    "projections": {"domain", "store"},
    "replay": {"domain", "store", "commands", "projections"},
}


def layer(parts: list[str]) -> str | None:
    """The layer of a dotted name inside the package: its top-level package."""
    return parts[0] if parts else None


def imported(path: Path) -> list[tuple[int, list[str]]]:
    """The Rollbook modules `path` imports, as names relative to the package root, with their lines."""
    module = list(path.relative_to(ROOT).with_suffix("").parts)
    package = module[:-1]
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                target = package[: len(package) - node.level + 1] + (node.module.split(".") if node.module else [])
            elif (node.module or "").split(".")[0] == "rollbook":
                target = node.module.split(".")[1:]  # type: ignore[union-attr]
            else:
                continue
            if node.module is None:  # `from . import x`: each name is a module or a package's attribute
                found += [(node.lineno, [*target, alias.name]) for alias in node.names]
            else:
                found.append((node.lineno, target))
        elif isinstance(node, ast.Import):
            found += [(node.lineno, alias.name.split(".")[1:]) for alias in node.names
                      if alias.name.split(".")[0] == "rollbook"]
    return found


def crossings() -> list[str]:
    wrong = []
    for name, allowed in ALLOWED.items():
        for path in sorted((ROOT / name).rglob("*.py")):
            source = layer(list(path.relative_to(ROOT).parts))
            for line, target in imported(path):
                reached = layer(target)
                if reached not in (source, None) and reached not in allowed:
                    wrong.append(f"{path.relative_to(ROOT)}:{line} imports {'.'.join(target)} ({source} → {reached})")
    return wrong


def test_every_inner_layer_imports_only_inwards():
    assert crossings() == []



#: The interfaces side by side: none of the server, the pages and the integrations imports the command line.
BESIDE_THE_CLI = ("server", "web", "integrations")


def test_no_other_interface_imports_the_command_line():
    wrong = [f"{path.relative_to(ROOT)}:{line} imports {'.'.join(target)}"
             for name in BESIDE_THE_CLI for path in sorted((ROOT / name).rglob("*.py"))
             for line, target in imported(path) if layer(target) == "cli"]
    assert wrong == []


def test_each_game_declares_how_its_sheets_read_in_its_own_package():
    from rollbook.domain.rulesets import ruleset

    for name in ("pirates", "heroes", "implant", "gladiators"):
        declared = ruleset(name).sheets
        assert declared == f"rollbook.domain.rulesets.{name}.sheet", name
