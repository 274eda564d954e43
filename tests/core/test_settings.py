"""Settings are one model (issue 47, item 5): every variable Rollbook reads is a field of
`settings.model.Settings`, read when used, listed in README's "Settings" table."""

from __future__ import annotations

import re
from pathlib import Path
from types import NoneType, UnionType
from typing import Any, get_args

import pytest

from rollbook.domain.errors import CommandRejected
from rollbook.settings import current, text, variable
from rollbook.settings.model import Settings, variable_of

README = Path(__file__).resolve().parents[2] / "README.md"
#: The fields the CLI's start-up path reads through `settings.text`, without the model.
TEXT = ("store", "lang", "state", "secrets", "public_host")
#: How the README's table names a field's type.
KINDS = {str: "text", Path: "path", bool: "switch", float: "seconds"}


def kind_of(annotation: Any) -> str:
    args = [a for a in get_args(annotation) if a is not NoneType] if isinstance(annotation, UnionType) else []
    return KINDS.get(args[0] if args else annotation, "switch")


def default_of(default: Any) -> str:
    if default is None:
        return "unset"
    return {True: "on", False: "off"}.get(default, f"`{default}`") if isinstance(default, bool) else f"`{default}`"


def readme_rows() -> dict[str, list[str]]:
    section = README.read_text(encoding="utf-8").split("\n## Settings\n", 1)[1].split("\n## ", 1)[0]
    rows = [line.split(" | ") for line in section.splitlines() if line.startswith("| `")]
    return {row[0].strip("| `"): [cell.strip(" |") for cell in row[1:]] for row in rows}


def test_the_readme_table_lists_every_setting_with_its_type_default_and_description() -> None:
    rows = readme_rows()
    assert set(rows) == {variable_of(name) for name in Settings.model_fields}
    for name, field in Settings.model_fields.items():
        assert rows[variable_of(name)] == [kind_of(field.annotation), default_of(field.default), field.description]


def test_settings_are_read_when_used_not_frozen_at_import(monkeypatch: pytest.MonkeyPatch) -> None:
    assert current().require_salt is False and current().mirror is True
    monkeypatch.setenv("ROLLBOOK_REQUIRE_SALT", "1")
    monkeypatch.setenv("ROLLBOOK_MIRROR", "0")
    monkeypatch.setenv("ROLLBOOK_MIRROR_LEASE", "0.5")
    assert (current().require_salt, current().mirror, current().mirror_lease) == (True, False, 0.5)


@pytest.mark.parametrize(("value", "on"), [("1", True), ("yes", True), ("true", True), ("0", False),
                                           ("false", False), ("no", False), ("", False)])
def test_a_switch_is_off_for_0_false_no_and_empty_and_on_for_anything_else(monkeypatch, value, on) -> None:
    monkeypatch.setenv("ROLLBOOK_REQUIRE_SALT", value)
    assert current().require_salt is on


@pytest.mark.parametrize("value", [None, "", "/srv/rollbook data"])
def test_the_start_up_paths_reading_agrees_with_the_model(monkeypatch, value) -> None:
    for name in TEXT:
        if value is None:
            monkeypatch.delenv(variable(name), raising=False)
        else:
            monkeypatch.setenv(variable(name), value)
        read = getattr(current(), name)
        assert text(name) == (str(read) if read is not None else None), name


def test_a_value_of_the_wrong_type_is_one_line_naming_the_variable(monkeypatch) -> None:
    monkeypatch.setenv("ROLLBOOK_MIRROR_BACKOFF", "soon")
    with pytest.raises(CommandRejected) as refused:
        current()
    assert str(refused.value).startswith("settings: ROLLBOOK_MIRROR_BACKOFF 'soon': ")
    assert "\n" not in str(refused.value)


def test_the_locale_is_read_by_its_posix_names(monkeypatch) -> None:
    monkeypatch.setenv("LC_ALL", "ru_RU.UTF-8")
    assert current().lc_all == "ru_RU.UTF-8" and variable_of("lc_all") == "LC_ALL"
