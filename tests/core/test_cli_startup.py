"""Start-up: a verb that runs imports its own module only (the other verbs' modules and rich are
time that `rollbook sheet --json` and `rollbook post` do not need), and a ruleset's command models
are built when first validated, not all when loaded."""

import json
import subprocess
import sys
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

WATCHED = ("rollbook.cli", "rich", "rollbook.domain.rulesets.pirates.commands", "rollbook.domain.rulesets.heroes.commands",
           "structlog", "cryptography", "rollbook.domain", "typer._adapters", "pydantic.main")

IMPORTED_BY_A_RUN = f"""
import atexit, json, sys
atexit.register(lambda: print(json.dumps(sorted(m for m in sys.modules if m.startswith({WATCHED!r})))))
sys.argv = ["rollbook", *sys.argv[1:]]
from rollbook.cli import main
main()
"""


def imported_by(*args: str) -> list[str]:
    done = subprocess.run([sys.executable, "-c", IMPORTED_BY_A_RUN, *args], capture_output=True, text=True, check=True)
    return json.loads(done.stdout.splitlines()[-1])


def test_a_read_verb_in_json_imports_its_module_and_no_rich() -> None:
    imported = imported_by("campaigns", "--store", "memory://", "--json")
    assert [m for m in imported if not m.startswith("rollbook.domain")] == [
        "rollbook.cli", "rollbook.cli.listing", "rollbook.cli.opening", "rollbook.cli.plain",
        "rollbook.cli.printing"]


def a_pirate_store(tmp_path: Path) -> str:
    url = f"sqlite:///{tmp_path / 'startup.db'}"
    lines = (EXAMPLES / "pirates.jsonl").read_text().splitlines()[:4]  # the campaign, two pirates, a ship
    (tmp_path / "base.jsonl").write_text("\n".join(lines) + "\n")
    subprocess.run([sys.executable, "-m", "rollbook.cli", "-q", "run", str(tmp_path / "base.jsonl"),
                    "--store", url], check=True, capture_output=True)
    return url


def test_a_quiet_post_imports_no_logging_no_rich_and_no_signing(tmp_path: Path) -> None:
    """structlog imports rich; cryptography is for the checkpoints a post signs only when a chapter ends."""
    url = a_pirate_store(tmp_path)
    imported = imported_by("-q", "post", "gain_money", "to=Chaika", "chests=1", "reason=test", "-c", "black-sails",
                           "--store", url)
    assert "rollbook.cli.posting" in imported
    assert [m for m in imported if m.split(".")[0] in ("rich", "structlog", "cryptography")] == []
    assert "typer._adapters" not in imported  # its FIELD=VALUE words are a list of words (cli/plain.py)


#: What a quiet local post of a pirates command has no use for: the other rulesets (their aggregates' event
#: classes and command models), the server and web pages, the odds, the line in words, the audit verbs.
NOT_FOR_A_QUIET_POST = (
    "rollbook.domain.rulesets.heroes", "rollbook.domain.rulesets.implant", "rollbook.domain.rulesets.gladiators",
    "rollbook.commands.odds", "rollbook.domain.odds", "rollbook.domain.rulesets.pirates.odds",
    "rollbook.projections.narration", "rollbook.domain.rulesets.pirates.narration",
    "rollbook.server", "rollbook.web", "rollbook.replay",
    "fastapi", "starlette", "uvicorn", "httpx", "jinja2", "icepool", "scipy", "numpy",
)


def test_a_quiet_post_imports_its_own_ruleset_only_and_no_server_odds_or_narration(tmp_path: Path) -> None:
    """A post pays for the campaign's one ruleset: its rules, aggregates and command models. The listing
    of every ruleset (`all_types`, `available`) is for explaining a mistake or `rollbook schema`."""
    url = a_pirate_store(tmp_path)
    done = subprocess.run(
        [sys.executable, "-c", IMPORTED_BY_A_RUN.replace(repr(WATCHED), repr(("rollbook", *NOT_FOR_A_QUIET_POST))),
         "-q", "post", "gain_money", "to=Chaika", "chests=1", "reason=test", "-c", "black-sails", "--store", url],
        capture_output=True, text=True, check=True,
    )
    imported = json.loads(done.stdout.splitlines()[-1])
    assert {"rollbook.domain.rulesets.pirates.ship", "rollbook.domain.rulesets.pirates.commands"} <= set(imported)
    assert [m for m in imported if m.startswith(NOT_FOR_A_QUIET_POST)] == []


def test_a_post_to_a_server_imports_no_rules_models_or_store() -> None:
    """The server validates and decides: `post --server` only sends the words (here to a port where
    nothing listens, so it fails after the imports, as it says)."""
    done = subprocess.run(
        [sys.executable, "-c", IMPORTED_BY_A_RUN.replace(repr(WATCHED), repr(("rollbook", "eventsourcing", "pydantic"))),
         "-q", "post", "gain_money", "to=Chaika",
         "chests=1", "-c", "black-sails", "--server", "http://127.0.0.1:9", "--token", "t"],
        capture_output=True, text=True,
    )
    assert done.returncode == 1 and "cannot reach http://127.0.0.1:9" in done.stderr
    imported = json.loads(done.stdout.splitlines()[-1])
    assert "rollbook.cli.remote" in imported
    assert [m for m in imported if m.startswith(("eventsourcing", "pydantic.main", "rollbook.store", "rollbook.domain.",
                                                 "rollbook.commands.parse", "rollbook.commands.service"))] == [
        "rollbook.domain.errors", "rollbook.domain.options"]  # a refusal's template; the languages it may be said in


def test_a_current_sheet_imports_no_logging_no_signing_and_no_aggregate(tmp_path: Path) -> None:
    """Views caught up (by `run`), a sheet decodes no event: the aggregates' modules (their event classes)
    are imported by the projector only when there are events to project."""
    imported = imported_by("sheet", "Anna", "-c", "black-sails", "--json", "--store", a_pirate_store(tmp_path))
    assert [m for m in imported if m.split(".")[0] in ("rich", "structlog", "cryptography")] == []
    assert [m for m in imported if m.startswith(("rollbook.domain.campaign", "rollbook.domain.members",
                                                 "rollbook.domain.rulesets"))] == []
    assert "typer._adapters" not in imported and "pydantic.main" not in imported  # see cli/plain.py


def test_plain_coercion_gives_what_typers_own_gives_for_every_verbs_parameters() -> None:
    """`AsGiven` (cli/plain.py) against typer's adapters, on every parameter of every verb and
    of `rollbook` itself: left out, a word, each member of an enum, a number as given on the line."""
    from enum import Enum

    import typer.main
    from typer._coercion import build_runtime_param

    import rollbook.cli as cli
    from rollbook.cli.plain import AsGiven

    group = typer.main.get_group(cli.app)
    ctx = group.make_context("rollbook", ["sheet", "x"], resilient_parsing=True)
    params = [*group.get_params(ctx), *(p for verb in cli.VERB_MODULES for p in group.get_command(ctx, verb).params)]
    assert len(params) > 100
    for param in params:
        descriptor = param.type_descriptor
        annotation = descriptor.annotation
        samples = [None, "Red", "3", *(list(annotation) if isinstance(annotation, type) and issubclass(annotation, Enum)
                                       else [])]
        if param.multiple or param.nargs == -1:  # as click gives them: a tuple of words, or nothing
            samples = [None, (), ("Red",), ("harm=2", "to=Red", "dice=[5,6]")]
        for sample in samples:
            def coerced(runtime: object) -> object:
                try:
                    return runtime.coerce(sample, param=param, ctx=ctx)  # type: ignore[attr-defined]
                except Exception as error:  # noqa: BLE001  the same refusal, in the same words
                    return type(error), str(error)
            param._runtime_param = None
            own = coerced(build_runtime_param(descriptor))
            plain = coerced(AsGiven(parameter_info=descriptor.parameter_info, annotation=annotation))
            assert plain == own and type(plain) is type(own), (param.name, sample)


def test_the_projector_skips_the_claims_topic() -> None:
    from eventsourcing.utils import get_topic

    from rollbook.domain.members import CommandClaim
    from rollbook.projections.projector import SKIPPED_TOPICS

    assert SKIPPED_TOPICS == {get_topic(CommandClaim.Recorded)}



BUILT_WHEN_LOADED = """
from rollbook.commands.catalogue import commands_for
models = [model for model, _ in commands_for("pirates").values()]
print(sum(model.__pydantic_complete__ for model in models), len(models))
"""


def test_loading_a_rulesets_commands_builds_none_of_their_validators() -> None:
    done = subprocess.run([sys.executable, "-c", BUILT_WHEN_LOADED], capture_output=True, text=True, check=True)
    built, models = map(int, done.stdout.split())
    assert models > 10
    assert built == 0


def test_every_verb_is_found_in_the_module_the_table_names() -> None:
    """A verb registered by a module but missing from VERB_MODULES (or named under another module)
    would run only after some other verb had imported its module: never from a new process."""
    import pkgutil
    from importlib import import_module

    import rollbook.cli as cli

    for module in pkgutil.iter_modules(cli.__path__):
        if module.name == "__main__":  # `python -m rollbook.cli`: it runs the CLI
            continue
        import_module(f"{cli.__name__}.{module.name}")
    registered = {(info.name or info.callback.__name__.replace("_", "-")): info.callback.__module__
                  for info in cli.app.registered_commands}
    registered.update({group.name: group.typer_instance.registered_commands[0].callback.__module__
                       for group in cli.app.registered_groups})
    assert {verb: module.rsplit(".", 1)[-1] for verb, module in registered.items()} == cli.VERB_MODULES


def test_on_a_typer_without_its_coercion_internals_the_verbs_run_with_typers_own() -> None:
    """The plain-coercion shortcut leans on typer's private `_coercion`; a typer without it must still run
    every verb (typer is not pinned), only without the shortcut."""
    script = """
import sys, types
import typer._coercion as real
other = types.ModuleType("typer._coercion")  # a typer whose coercion module has other names
other.__dict__.update({k: v for k, v in vars(real).items() if k not in ("RuntimeParam", "build_runtime_param")})
sys.modules["typer._coercion"] = other
from typer.testing import CliRunner
from rollbook.cli import app
from rollbook.cli.plain import RuntimeParam
assert RuntimeParam is None
result = CliRunner().invoke(app, ["campaigns", "--json", "--store", "memory://"])
assert result.exit_code == 0 and result.stdout.strip() == "[]", result.output
result = CliRunner().invoke(app, ["sheet", "X", "-c", "nowhere", "--revision", "two", "--store", "memory://"])
assert result.exit_code == 2 and "Invalid value for '--revision'" in result.output, result.output
"""
    subprocess.run([sys.executable, "-c", script], check=True)
