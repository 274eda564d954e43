"""Log lines below the level the command line shows are dropped before structlog is imported or set up;
the lines it shows are written as before, structlog set up on the first one."""

from __future__ import annotations

import json
import logging
import subprocess
import sys
from collections.abc import Iterator

import pytest

from rollbook.store import logs

DROPPED_UNIMPORTED = """
import logging, sys
from rollbook.store import logs
set_up = []
logs.show_from(logging.WARNING, lambda: set_up.append(1))
logs.Log("rollbook").info("command.applied", command_id="c-1")
print("structlog" in sys.modules, set_up)
"""


def test_a_line_below_the_level_shown_is_dropped_without_structlog() -> None:
    done = subprocess.run([sys.executable, "-c", DROPPED_UNIMPORTED], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["False", "[]"]
    assert done.stderr == ""


@pytest.fixture
def cli_logging() -> Iterator[None]:
    import structlog

    from rollbook.cli import settings

    saved = (settings.log_format, settings.quiet, settings.verbose)
    yield
    settings.log_format, settings.quiet, settings.verbose = saved
    logs.show_from(logging.NOTSET)
    structlog.reset_defaults()


def test_under_quiet_an_error_is_still_written_and_info_is_not(
    cli_logging: None, capsys: pytest.CaptureFixture[str]
) -> None:
    from rollbook.cli import LogFormat, configure_logging, settings

    settings.log_format, settings.quiet, settings.verbose = LogFormat.json, True, False
    configure_logging(writing=True)
    settings.log_format = LogFormat.console  # the format is the one asked for when logging was configured
    log = logs.Log("rollbook")
    log.info("command.applied", command_id="c-1")
    log.error("command.failed", command_id="c-2", reason="the disk is full")
    log.error("command.failed", command_id="c-3", reason="still full")
    lines = [json.loads(line) for line in capsys.readouterr().err.splitlines()]
    assert [(line["event"], line["command_id"], line["level"]) for line in lines] == [
        ("command.failed", "c-2", "error"), ("command.failed", "c-3", "error")]


def test_a_writing_verb_without_quiet_writes_its_info_lines(
    cli_logging: None, capsys: pytest.CaptureFixture[str]
) -> None:
    from rollbook.cli import LogFormat, configure_logging, settings

    settings.log_format, settings.quiet, settings.verbose = LogFormat.json, False, False
    configure_logging(writing=True)
    logs.Log("rollbook").info("command.applied", command_id="c-1", type="gain_money")
    (line,) = [json.loads(line) for line in capsys.readouterr().err.splitlines()]
    assert line["event"] == "command.applied" and line["command_id"] == "c-1" and line["level"] == "info"
    assert line["timestamp"]
