"""The environment read without the model, for the CLI's start-up path, which imports no pydantic
(tests/core/test_cli_startup.py): `text` reads a text setting as `model.Settings` does (unset and empty
alike are None). The one module that reads os.environ.
"""

from __future__ import annotations

import os

#: Every Rollbook variable begins so; the POSIX locale's (LC_ALL, LC_MESSAGES, LANG) and CI are named whole.
PREFIX = "ROLLBOOK_"


def variable(field: str) -> str:
    """The environment variable of a setting: `store` is ROLLBOOK_STORE."""
    return PREFIX + field.upper()


def text(field: str) -> str | None:
    """A text setting (`store`, `lang`, `state`, `secrets`), as `current()` would give it, for the start-up path."""
    return os.environ.get(variable(field)) or None


def snapshot(names: tuple[str, ...]) -> tuple[str | None, ...]:
    """The values of these variables now (None for unset)."""
    return tuple(os.environ.get(name) for name in names)


def locale() -> str | None:
    """The POSIX locale's language: the first of LC_ALL, LC_MESSAGES, LANG set (as `ru_RU.UTF-8`)."""
    return next((os.environ[name] for name in ("LC_ALL", "LC_MESSAGES", "LANG") if os.environ.get(name)), None)


def environment_with(extra: dict[str, str] | None = None) -> dict[str, str]:
    """The environment for a child process: this one's, with `extra` over it."""
    return {**os.environ, **(extra or {})}


def prefer_timedelta_retries() -> None:
    """python-telegram-bot's RetryAfter.retry_after as a timedelta, the form its release 23 will give (the int
    form warns in 22): it reads PTB_TIMEDELTA, which is left alone when already set."""
    os.environ.setdefault("PTB_TIMEDELTA", "1")
