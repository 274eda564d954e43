"""Rollbook's structured log lines, through structlog, imported only when a line is to be written.

`import structlog` brings `structlog.dev` and with it rich (its tracebacks and pretty printer): a
third of a one-command `rollbook -q post`, which writes no line. The command line says which
level it shows (`show_from`); a line below it is dropped here, before structlog is imported,
bound or configured. Until told, every line goes to structlog, configured or not, as it always
did for a program that uses Rollbook as a library. It lives in the store layer so that the
commands and the projections, which both log, share it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

#: Lines below this level are dropped unwritten; `show_from` sets it.
_shown_from = logging.NOTSET
#: Configures structlog before the first line written (the CLI's renderer and level), then is cleared.
_set_up: Callable[[], None] | None = None


#: Set while a history is re-executed (a dispute, its dry run): its commands are not news, and log nothing.
_silenced: ContextVar[bool] = ContextVar("rollbook_logs_silenced", default=False)


@contextmanager
def silenced() -> Iterator[None]:
    """No INFO line from this thread (or task) until the block ends: the server's dispute re-executes
    a whole campaign, and each command would log `command.applied` again. Errors are still written."""
    token = _silenced.set(True)
    try:
        yield
    finally:
        _silenced.reset(token)


def show_from(level: int, set_up: Callable[[], None] | None = None) -> None:
    """Write lines of `level` and above, structlog configured by `set_up` before the first one is written."""
    global _shown_from, _set_up
    _shown_from, _set_up = level, set_up


class Log:
    """A logger by name, with structlog's `info(event, **fields)` and `error(...)`."""

    def __init__(self, name: str) -> None:
        self.name = name

    def info(self, event: str, **fields: Any) -> None:
        if logging.INFO >= _shown_from and not _silenced.get():
            self._write("info", event, fields)

    def error(self, event: str, **fields: Any) -> None:
        if logging.ERROR >= _shown_from:
            self._write("error", event, fields)

    def _write(self, method: str, event: str, fields: dict[str, Any]) -> None:
        global _set_up
        if _set_up is not None:
            set_up, _set_up = _set_up, None
            set_up()
        import structlog

        getattr(structlog.get_logger(self.name), method)(event, **fields)
