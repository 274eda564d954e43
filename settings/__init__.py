"""Rollbook's settings: every environment variable it reads, in one place (README, "Settings").

`model.Settings` is the one model (pydantic-settings): each field its variable, type, default and what it does.
Settings are read when used, never frozen at import: `current()` reads the environment as it is now (a test's
`monkeypatch.setenv` is seen). A command option wins over its setting where there is one (`--store`, `--lang`,
`-c`: typer's `envvar=` names come from `variable`).

The CLI's start-up path (`campaigns --json`, a sheet, `post --server`) imports no pydantic: it reads through
`environment.py`'s `text`, as the model reads.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from .environment import PREFIX, environment_with, locale, prefer_timedelta_retries, snapshot, text, variable

if TYPE_CHECKING:
    from .model import Settings

__all__ = ["PREFIX", "current", "environment_with", "locale", "prefer_timedelta_retries", "text", "variable"]


def current() -> Settings:
    """The settings as the environment has them now; a value that is not of its setting's type is refused in one
    line that names the variable."""
    from .model import VARIABLES

    return _settings_for(snapshot(VARIABLES))


@lru_cache(maxsize=8)
def _settings_for(values: tuple[str | None, ...]) -> Settings:
    """The model built once for each state of its variables (it takes a millisecond to read; a command reads it)."""
    from pydantic import ValidationError

    from ..domain.errors import CommandRejected
    from .model import Settings, variable_of

    try:
        return Settings()
    except ValidationError as error:
        first = error.errors()[0]
        raise CommandRejected("{variable} {value!r}: {problem}", field="settings",
                              variable=variable_of(str(first["loc"][0])), value=first["input"],
                              problem=first["msg"]) from None
