"""The layers import one way (README, "How it is built"): every import of Rollbook's own
modules, at the top of a module or inside a function, goes inwards.

domain ← store ← commands, projections ← replay ← hosting (the group's use cases) ← the interfaces: the CLI (`cli/`), the server,
the web UI, the integrations and the testing kit, each with what it may import (`INTERFACES`); the composition root
(`bootstrap/`) puts the server, the pages and the integrations together, and the CLI starts them through it.
The settings (`settings/`, what the environment says) and the language (`language/`, the message
catalogs a text is said from) sit just outside the domain: every other layer reads them (the domain does
no I/O; it marks its words and raises its refusals as templates, and is said in a language elsewhere).
Every top-level package has its place, and no modules (the tests' own helpers included) import
each other round in a circle.

A game's package (domain/rulesets/<game>/) spans the layers as a plugin does: the modules its
`Ruleset` names in `commands` sit in the commands layer and the one it names in `narration` in the
projections layer; the rest of the package is domain, and imports neither.

One module over 400 lines on purpose: the layers' rules read the same import graph through the same helpers
(`imported`, `layer`, `modules`), and are read together as the README's picture of the layers.
"""

from __future__ import annotations

import ast
import re
import sys
from collections.abc import Callable
from functools import cache
from pathlib import Path

import rollbook

ROOT = Path(rollbook.__file__).parent

#: What each inner layer may import of Rollbook besides itself.
ALLOWED = {
    "domain": set(),
    "settings": {"domain"},
    "language": {"domain"},
    "store": {"domain", "settings", "language"},
    "commands": {"domain", "store", "settings", "language"},
    "projections": {"domain", "store", "settings", "language"},
    "replay": {"domain", "store", "commands", "projections", "settings", "language"},
    "hosting": {"domain", "store", "commands", "projections", "replay", "settings", "language"},
}


#: Where the games' own packages are.
GAMES = ROOT / "domain" / "rulesets"


@cache
def games() -> dict[str, tuple[tuple[str, ...], str | None]]:
    """Each game package's name, with the modules its `Ruleset` names in `commands` and in
    `narration`, as names relative to the package root."""
    from rollbook.domain.rulesets import ruleset

    found = {}
    for init in sorted(GAMES.glob("*/__init__.py")):
        declared = ruleset(init.parent.name)
        found[init.parent.name] = (tuple(m.removeprefix("rollbook.") for m in declared.commands),
                                   declared.narration.removeprefix("rollbook.") if declared.narration else None)
    return found


@cache
def spanning() -> dict[str, str]:
    """The modules of the games' packages that sit outside the domain layer, with their layer: its commands,
    its narration, its builders for the testing kit's `given` (`Ruleset.given`) and its campaign generator."""
    from rollbook.domain.rulesets import ruleset

    found = {}
    for name, (commands, narration) in games().items():
        found |= dict.fromkeys(commands, "commands")
        if narration is not None:
            found[narration] = "projections"
        for testing_kit in (ruleset(name).given, ruleset(name).generator):
            if testing_kit is not None:
                found[testing_kit.removeprefix("rollbook.")] = "testing"
    return found


def layer(parts: list[str]) -> str | None:
    """The layer of a dotted name inside the package: its top-level package, unless it is (or is inside)
    a module a game's `Ruleset` names for its commands or its narration."""
    dotted = ".".join(parts)
    for module, its_layer in spanning().items():
        if dotted == module or dotted.startswith(f"{module}."):
            return its_layer
    return parts[0] if parts else None


def module_of_path(path: Path) -> list[str]:
    """A file's module as a name relative to the package root (a package's `__init__` kept)."""
    return list(path.relative_to(ROOT).with_suffix("").parts)


def imported(path: Path, *, typing: bool = True) -> list[tuple[int, list[str]]]:
    """The Rollbook modules `path` imports, as names relative to the package root, with their lines;
    with `typing=False`, less what an `if TYPE_CHECKING:` block imports (named in annotations only, never
    imported when the module runs)."""
    return imports_in(module_of_path(path), path.read_text(encoding="utf-8"), typing=typing)


def imports_in(module: list[str], source: str, *, typing: bool = True) -> list[tuple[int, list[str]]]:
    """What `imported` reads, from the source of `module`. `from x import name` counts as importing
    `x.name`, which is a module itself when `name` is one (`from rollbook.domain.rulesets.pirates import
    commands`)."""
    package = module[:-1]
    found = []
    tree = ast.parse(source)
    for node in ast.walk(tree if typing else _without_type_checking(tree)):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                target = package[: len(package) - node.level + 1] + (node.module.split(".") if node.module else [])
            elif (node.module or "").split(".")[0] == "rollbook":
                target = node.module.split(".")[1:]  # type: ignore[union-attr]
            else:
                continue
            found += [(node.lineno, [*target, alias.name]) for alias in node.names]
        elif isinstance(node, ast.Import):
            found += [(node.lineno, alias.name.split(".")[1:]) for alias in node.names
                      if alias.name.split(".")[0] == "rollbook"]
    return found


def _without_type_checking(tree: ast.Module) -> ast.Module:
    """The module less its `if TYPE_CHECKING:` blocks: what they import is named in annotations and never
    imported when the module runs."""
    for node in ast.walk(tree):
        for name in ("body", "orelse"):
            block = getattr(node, name, None)
            if isinstance(block, list):
                kept = [child for child in block if not (isinstance(child, ast.If) and _is_type_checking(child.test))]
                setattr(node, name, kept)
    return tree


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def crossing(module: list[str], target: list[str]) -> str | None:
    """`source → reached` when `module`, of an inner layer (or a game's module of an outer one), may not
    import `target`; else None."""
    source, reached = layer(module), layer(target)
    if reached in (source, None) or reached in {**ALLOWED, **INTERFACES}[source]:  # type: ignore[index]
        return None
    return f"{source} → {reached}"


def crossings() -> list[str]:
    return [f"{path.relative_to(ROOT)}:{line} imports {'.'.join(target)} ({crossed})"
            for name in ALLOWED for path in sorted((ROOT / name).rglob("*.py"))
            for line, target in imported(path) if (crossed := crossing(module_of_path(path), target))]


def test_every_inner_layer_imports_only_inwards():
    assert crossings() == []


def test_each_game_declares_its_commands_and_narration_in_its_own_package():
    assert set(games()) == {"pirates", "heroes", "implant", "gladiators"}
    for name, (commands, narration) in games().items():
        package = f"domain.rulesets.{name}."
        assert commands and all(module.startswith(package) for module in commands), name
        assert narration is not None and narration.startswith(package), name


def test_a_games_commands_sit_in_the_commands_layer_and_its_narration_in_the_projections_layer():
    for name, (commands, narration) in games().items():
        assert {layer(module.split(".")) for module in commands} == {"commands"}, name
        assert layer(narration.split(".")) == "projections", name  # type: ignore[union-attr]
        assert layer(["domain", "rulesets", name, "rules"]) == "domain", name
    assert layer(["domain", "rulesets", "pirates", "given"]) == "testing"


def test_a_games_rules_that_import_its_commands_or_narration_cross_the_layers():
    """Put into any other module of a game's package, each of these imports is reported."""
    for name, (commands, narration) in games().items():
        rules = ["domain", "rulesets", name, "rules"]
        planted = ["from ....commands.base import Command", "from rollbook import commands",
                   "from rollbook.projections.narration import Voice", "import rollbook.projections"]
        for dotted in (*commands, narration):
            inside = dotted.split(".")[-1]  # type: ignore[union-attr]
            planted += [f"from . import {inside}", f"from .{inside} import VOICE",
                        f"from rollbook.domain.rulesets.{name} import {inside}", f"import rollbook.{dotted}"]
        for statement in planted:
            targets = [target for _, target in imports_in(rules, statement)]
            assert any(crossing(rules, target) for target in targets), (name, statement)



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


#: The interfaces, on top: what each may import of Rollbook besides itself. Side by side, each over the group's
#: use cases (hosting/): the server's API, the pages and the integrations, which the composition root
#: (bootstrap/) mounts on one app; the integrations' routes sign in through the server's dependencies and the
#: roll page's session (web/); the command line starts what it serves through the root, and the testing kit
#: drives the command line.
INTERFACES = {
    "cli": {"settings", "language", "domain", "store", "commands", "projections", "replay", "hosting", "integrations",
            "bootstrap"},
    "server": {"settings", "language", "domain", "store", "commands", "projections", "replay", "hosting"},
    "web": {"settings", "language", "domain", "store", "commands", "projections", "replay", "hosting", "server"},
    "integrations": {"settings", "language", "domain", "store", "commands", "projections", "replay", "hosting", "server", "web"},
    "testing": {"settings", "language", "domain", "store", "commands", "projections", "replay", "hosting", "cli",
                "bootstrap"},
    "bootstrap": {"settings", "language", "domain", "store", "commands", "projections", "replay", "hosting", "server",
                  "web", "integrations"},
}
#: What another interface may take of the server's: the FastAPI dependencies a route mounted beside the API signs
#: in with (auth.py) and its JSON body reader (body.py), so that every route answers alike. The use cases, the
#: host and the refusals are hosting/'s; the application is built by the composition root (bootstrap/).
SERVER_FOR_A_ROUTE = {("server", "auth"), ("server", "body")}


def reaches_past_the_server(module: list[str], target: list[str]) -> bool:
    """Whether `module` may not import `target`: the server importing another interface, or another interface
    importing more of the server than a route needs."""
    if layer(module) == "server":
        return layer(target) in ("web", "integrations", "cli", "bootstrap")
    return layer(target) == "server" and tuple(target[:2]) not in SERVER_FOR_A_ROUTE


def test_the_server_mounts_no_other_interface_and_the_others_take_only_its_route_dependencies():
    wrong = [f"{path.relative_to(ROOT)}:{line} imports {'.'.join(target)}"
             for name in ("server", "web", "integrations", "cli", "testing") for path in sorted((ROOT / name).rglob("*.py"))
             for line, target in imported(path) if reaches_past_the_server(module_of_path(path), target)]
    assert wrong == []


#: What only the composition root assembles: a store opened, a service built (a replay's scratch copies are the
#: replay's own business, in replay/).
ASSEMBLING = re.compile(r"\bStore\.open(_to_read)?\(|\bRollbook\(")


def assembled_outside_the_root(folders: tuple[str, ...]) -> list[str]:
    return [f"{path.relative_to(ROOT)}:{number}" for name in folders for path in sorted((ROOT / name).rglob("*.py"))
            for number, line in enumerate(path.read_text().splitlines(), 1)
            if ASSEMBLING.search(line.split("#", 1)[0])]


def test_the_command_line_and_the_testing_kit_open_stores_and_build_services_through_the_root():
    assert assembled_outside_the_root(("cli", "testing")) == []
    assert assembled_outside_the_root(("bootstrap",)) != []  # the check finds what it looks for


def test_each_way_past_the_server_is_found():
    """Each of these, planted in a module of the pages (or, for the last two, of the server), is reported; the
    server's sign-in dependencies and body reader, and the use cases in hosting/, are not."""
    planted = [(["web", "planted"], "from ..server.posting import post_command"),
               (["web", "planted"], "from ..server.state import CurrentState"),
               (["integrations", "planted"], "from ..server.errors import status_of"),
               (["cli", "planted"], "from rollbook.server.app import create_api"),
               (["web", "planted"], "import rollbook.server.audit"),
               (["server", "planted"], "from ..web import install"),
               (["server", "planted"], "from rollbook.integrations import install")]
    allowed = [(["integrations", "planted"], "from ..server.auth import in_role"),
               (["integrations", "planted"], "from ..server.body import json_object"),
               (["web", "planted"], "from ..hosting.posting import post_command"),
               (["server", "planted"], "from ..hosting.rulings import rule")]
    for module, statement in planted:
        assert any(reaches_past_the_server(module, t) for _, t in imports_in(module, statement)), statement
    for module, statement in allowed:
        assert not any(reaches_past_the_server(module, t) for _, t in imports_in(module, statement)), statement


#: Folders of the repository that are not part of the installed package's layers.
OUTSIDE = {"tests", "bench", "examples", "docs"}
#: What a build or an install leaves in the repository (git-ignored): copies of the package, not its modules.
BUILT = {"build", "dist", "rollbook.egg-info"}


def package_files(root: Path = ROOT) -> list[Path]:
    """The package's own Python files, the tests' and the benchmarks' among them: never a hidden folder's
    (the venv) nor a build's copy."""
    return sorted(path for path in root.rglob("*.py")
                  if not ((top := path.relative_to(root).parts[0]).startswith(".") or top in BUILT))


def test_a_build_folder_is_no_part_of_the_package(tmp_path: Path) -> None:
    """`python -m build` leaves build/lib/rollbook/… (a copy of every module) in the git-ignored build/."""
    built = ("build/lib/rollbook/store/__init__.py", "dist/x.py", ".venv/lib/y.py")
    for name in (*built, "store/__init__.py", "setup.py"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("")
    assert package_files(tmp_path) == [tmp_path / "setup.py", tmp_path / "store" / "__init__.py"]


def packages() -> set[str]:
    inside = [path.relative_to(ROOT).parts for path in package_files()]
    return {parts[0] for parts in inside if len(parts) > 1} - OUTSIDE


def test_every_package_has_its_place_among_the_layers():
    assert packages() == set(ALLOWED) | set(INTERFACES), "a new top-level package: give it a place in ALLOWED or INTERFACES"


def test_every_interface_imports_only_what_it_may():
    wrong = [f"{path.relative_to(ROOT)}:{line} imports {'.'.join(target)}"
             for name, allowed in INTERFACES.items() for path in sorted((ROOT / name).rglob("*.py"))
             for line, target in imported(path) if layer(target) not in (name, None, *allowed)]
    assert wrong == []


def modules() -> dict[str, Path]:
    """Every module of the package and of the tests (their helpers included), by dotted name."""
    found = {}
    for path in package_files():
        parts = path.relative_to(ROOT).with_suffix("").parts
        if parts[0] in {"examples", "docs"}:
            continue
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def circles(*, typing: bool = False) -> set[frozenset[str]]:
    """The groups of modules that import each other round in a circle (the graph's strongly connected
    components of more than one module) when they run: at the top of a module or inside a function;
    with `typing=True`, counting what an `if TYPE_CHECKING:` block imports too (a circle closed only
    for the type checker is still one the reader has to walk round)."""
    found = modules()

    def module_of(target: list[str]) -> str | None:  # `from .pkg import name`: the longest module it names
        return next((".".join(target[:n]) for n in range(len(target), 0, -1) if ".".join(target[:n]) in found), None)

    edges = {name: {m for _, t in imported(path, typing=typing) if (m := module_of(t)) not in (None, name)}
             for name, path in found.items()}
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups = set()

    def visit(module: str) -> None:  # Tarjan's algorithm
        order[module] = low[module] = len(order)
        stack.append(module)
        for reached in edges[module]:
            if reached not in order:
                visit(reached)
                low[module] = min(low[module], low[reached])
            elif reached in stack:
                low[module] = min(low[module], order[reached])
        if low[module] == order[module]:
            group = {stack.pop()}
            while module not in group:
                group.add(stack.pop())
            if len(group) > 1:
                groups.add(frozenset(group))

    for module in edges:
        if module not in order:
            visit(module)
    return groups


def test_no_modules_import_each_other_round_in_a_circle():
    assert circles() == set()


def test_no_modules_import_each_other_round_in_a_circle_even_for_the_type_checker():
    assert circles(typing=True) == set()


def test_a_circle_closed_only_under_type_checking_is_found(monkeypatch):
    sources = {
        "a": "from rollbook import b\n",
        "b": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from rollbook import a\n",
    }
    monkeypatch.setattr(sys.modules[__name__], "modules", lambda: {name: Path(name) for name in sources})
    monkeypatch.setattr(sys.modules[__name__], "imported",
                        lambda path, *, typing=True: imports_in([path.name], sources[path.name], typing=typing))
    assert circles() == set()
    assert circles(typing=True) == {frozenset({"a", "b"})}


# --- storage behind one port (issue 31, item 1) ------------------------------------------

#: The library's persistence, which only `store/` imports.
PERSISTENCE_MODULES = ("eventsourcing.persistence", "eventsourcing.application")
#: What an application holds of the library's persistence: reached only inside `store/`.
PERSISTENCE_ATTRIBUTES = {"recorder", "mapper", "datastore", "events_table_name"}
#: The tables of the event store's database: the library's, and Rollbook's own beside them.
STORE_TABLES = re.compile(
    r"\b(stored_events|notification_tracking|\w+_snapshots"
    r"|rollbook_(views|tracking|outbox|tlog|cosignatures)\w*)\b"
)
#: Folders that are not Rollbook's layers: its tests, and the benchmarks, whose baselines are
#: the bare library itself (README, "Benchmarks").
OUTSIDE_THE_LAYERS = {"tests", "bench"}


def persistence_uses(path: Path) -> list[str]:
    """Where `path` imports the library's persistence, reaches an application's recorder, mapper or
    datastore, or names a table of the event store (docstrings aside)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {
        id(node.body[0].value) for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)
    }
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [f"{node.lineno}: imports {alias.name}" for alias in node.names
                      if alias.name.startswith(PERSISTENCE_MODULES)]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names = [f"{node.module}.{alias.name}" for alias in node.names]
            if node.module.startswith(PERSISTENCE_MODULES) or any(n.startswith(PERSISTENCE_MODULES) for n in names):
                found.append(f"{node.lineno}: imports from {node.module}")
        elif isinstance(node, ast.Attribute) and node.attr in PERSISTENCE_ATTRIBUTES:
            found.append(f"{node.lineno}: reaches .{node.attr}")
        elif (isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings
              and STORE_TABLES.search(node.value)):
            found.append(f"{node.lineno}: names the table {STORE_TABLES.search(node.value).group(0)}")  # type: ignore[union-attr]
    return found


def outside_the_store(uses: Callable[[Path], list[str]]) -> dict[str, list[str]]:
    """Every file of Rollbook outside `store/` (the tests and the benchmarks aside) where `uses` finds something, with where."""
    found = {}
    for path in package_files():
        relative = path.relative_to(ROOT)
        if relative.parts[0] in {"store", *OUTSIDE_THE_LAYERS}:
            continue
        if found_here := uses(path):
            found[relative.as_posix()] = found_here
    return found


def leaks() -> dict[str, list[str]]:
    """Every file of Rollbook outside `store/` that reaches the library's persistence, with where."""
    return outside_the_store(persistence_uses)


def test_only_the_store_reaches_the_librarys_persistence():
    assert leaks() == {}, "move these reads or writes into store/ (its port, units of work, views or reads)"


# --- storage only through store/ (issue 47, item 4) ----------------------------------------

#: The web framework's requests, whose `.app` is the HTTP application, not the event store's.
FRAMEWORK_RECEIVERS = {"request", "websocket"}
#: What the event store's application holds, reached only inside `store/`: the layers above hold a `Store`
#: and ask it (`get`, `save`, `stored`), its reads (`store/reads.py`), its units and its tables.
APPLICATION_ATTRIBUTES = {"repository", "recorder", "snapshots_recorder"}
#: What only the application stores: asked of a `Store` instead.
APPLICATION_WRITES = {"save", "record", "insert_events"}


def application_uses(module: list[str], source: str) -> list[str]:
    """Where a module outside `store/` reaches the event store's application: takes a store's `.app`, reads
    its repository or recorder, saves or records through something named `app`, or imports `store.app`."""
    found = [f"{line}: imports {'.'.join(target)}" for line, target in imports_in(module, source)
             if target[:2] == ["store", "app"]]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and node.attr == "app" and not (
                isinstance(node.value, ast.Name) and node.value.id in FRAMEWORK_RECEIVERS):
            found.append(f"{node.lineno}: takes {ast.unparse(node)}")
        elif isinstance(node, ast.Attribute) and node.attr in APPLICATION_ATTRIBUTES:
            found.append(f"{node.lineno}: reaches {ast.unparse(node)}")
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in APPLICATION_WRITES
              and isinstance(node.func.value, ast.Name) and node.func.value.id == "app"):
            found.append(f"{node.lineno}: writes through {ast.unparse(node.func)}")
    return sorted(found, key=lambda said: int(said.split(":")[0]))


def application_reaches() -> dict[str, list[str]]:
    """Every file of Rollbook outside `store/` that reaches the event store's application, with where."""
    return outside_the_store(lambda path: application_uses(module_of_path(path), path.read_text(encoding="utf-8")))


def test_only_the_store_reaches_its_application():
    assert application_reaches() == {}, "ask the Store (get, save, stored), store/reads.py or a unit of work instead"


def test_each_way_round_the_store_is_found():
    """Each of these, planted in a module of the replay layer, is reported; what the web framework calls its
    app, and what the store offers, are not."""
    module = ["replay", "planted"]
    planted = ["store.app.save(record)", "app = state.store.app", "opened.app", "campaign = app.repository.get(key)",
               "reader.store.app.recorder.max_notification_id()", "app.save(user)", "app.record(events, rows, [])",
               "from ..store.app import RollbookApplication", "from rollbook.store.app import SNAPSHOT_INTERVAL"]
    for statement in planted:
        assert application_uses(module, statement), statement
    allowed = ["request.app.state.rollbook", "store.save(record)", "store.get(key, 3)", "logged(store, page=10)",
               "keeper.save(settings)", "from ..store import Store, SNAPSHOT_INTERVAL"]
    for statement in allowed:
        assert application_uses(module, statement) == [], statement
