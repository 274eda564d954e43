"""cli/plain.py gives typer's coercion a plainer path through typer's internals (`typer._coercion`):
pyproject caps typer below the next minor release, and this test says at once when a typer release
(the newest, in .ci/run's step) no longer has what plain.py relies on."""

import dataclasses
import inspect

from typer.testing import CliRunner

from rollbook.cli import app, plain


def test_the_typer_internals_plain_py_relies_on_are_there():
    if plain.RuntimeParam is None:  # a typer before `_coercion`: plain.py changes nothing, typer coerces
        return
    from typer._coercion import build_runtime_param

    fields = {field.name for field in dataclasses.fields(plain.RuntimeParam)}
    assert {"annotation", "parameter_info"} <= fields
    assert list(inspect.signature(plain.RuntimeParam._coerce_value).parameters)[:4] == ["self", "value", "param", "ctx"]
    assert "descriptor" in inspect.signature(build_runtime_param).parameters


def test_words_options_and_enums_come_through_the_plain_coercion_as_typer_would_give_them(tmp_path):
    url = f"sqlite:///{tmp_path / 'plain.db'}"
    made = CliRunner().invoke(app, ["--log-format", "json", "post", "create_campaign", "campaign=bs", "ruleset=pirates",
                                    "title=Black Sails", "--store", url, "--json"])
    assert made.exit_code == 0, made.output
    shown = CliRunner().invoke(app, ["timeline", "-c", "bs", "--store", url, "--json", "--revision", "1"])
    assert shown.exit_code == 0 and '"title": "Black Sails"' in shown.stdout
