"""Applying a command file: line by line, each command all-or-nothing, stopping at the first refusal."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import structlog

from ..domain.errors import CommandRejected
from ..store.failures import RERUN_HINT, describe, is_store_failure
from .base import Command
from .parse import CommandError, derived_id, parse_command, read_lines, rejected
from .service import Applied, Rollbook

log = structlog.get_logger("rollbook")


@dataclass
class RunReport:
    applied: list[Applied] = field(default_factory=list)
    skipped: list[Applied] = field(default_factory=list)
    error: CommandError | None = None
    #: The error is the store's (unreachable, read-only, full), not the command's.
    store_failed: bool = False

    @property
    def ok(self) -> bool:
        return self.error is None


def run_file(
    service: Rollbook,
    raw: bytes,
    *,
    default_campaign: str | None = None,
    on_command: Callable[[int, Command, Applied], None] | None = None,
) -> RunReport:
    """Apply every command of a JSON Lines file in order; report what was applied and skipped.

    A command without an `id` gets one derived from the file's lines so far, so rerunning a
    file after an interruption skips what was already applied. `on_command` is shown each
    command as it is applied or skipped (its line number, the command, what happened).
    """
    report = RunReport()
    previous = ""
    number, command, logged = 0, None, False
    try:
        for line in read_lines(raw):
            number, command, logged = line.number, None, True
            try:
                command = parse_command(
                    line.data, line=line.number, default_campaign=default_campaign, ruleset_of=service.ruleset_of
                )
            except CommandError as error:
                _log_refusal(error, error.command_id or derived_id(previous, line.text))
                raise
            previous = command.id or derived_id(previous, line.text)
            if command.id is None:
                command = command.model_copy(update={"id": previous})
            try:
                outcome = service.execute(command)  # logs what it applies, skips and refuses
            except CommandRejected as error:
                raise rejected(error, line.number, command) from None
            (report.applied if outcome.status == "applied" else report.skipped).append(outcome)
            if on_command is not None:
                on_command(line.number, command, outcome)
            logged = False
    except CommandError as error:
        if not logged:  # a line that cannot be read: its id is the one derived from its text
            text = raw.split(b"\n")[(error.line or 1) - 1].decode("utf-8", "replace")
            _log_refusal(error, derived_id(previous, text))
        report.error = error
    except Exception as error:
        if not is_store_failure(error):
            raise
        report.store_failed = True
        report.error = CommandError(
            f"{describe(error)}; {RERUN_HINT}", line=number or None,
            command_type=command.type if command else None, command_id=command.id if command else None,
            field="store",
        )
        log.error("command.failed", command_id=report.error.command_id, line=report.error.line,
                  type=report.error.command_type, reason=report.error.message)
    return report


def _log_refusal(error: CommandError, command_id: str | None) -> None:
    log.info("command.refused", command_id=command_id, line=error.line, type=error.command_type,
             field=error.field, reason=error.message)
