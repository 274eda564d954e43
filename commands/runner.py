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
class Skip:
    """A line whose command is recorded already: said, never silent."""

    line: int
    command_type: str
    outcome: Applied

    @property
    def command_id(self) -> str:
        return self.outcome.command_id

    def describe(self) -> str:
        recorded = self.outcome.repeats
        where = "" if recorded is None else (
            f" as command {recorded.seq}"
            + (f", position {recorded.position}" if recorded.position is not None else "")
            + f", at {recorded.command.get('at')}"
        )
        return f"line {self.line}: {self.command_type} (id {self.command_id}) skipped: already recorded{where}"

    def as_dict(self) -> dict[str, object]:
        recorded = self.outcome.repeats
        return {
            "line": self.line, "id": self.command_id, "type": self.command_type,
            "seq": recorded.seq if recorded else None, "position": recorded.position if recorded else None,
            "at": recorded.command.get("at") if recorded else None,
        }


@dataclass
class RunReport:
    applied: list[Applied] = field(default_factory=list)
    skipped: list[Skip] = field(default_factory=list)
    error: CommandError | None = None
    #: The error is the store's (unreachable, read-only, full), not the command's.
    store_failed: bool = False


def run_file(
    service: Rollbook,
    raw: bytes,
    *,
    source: str | None = "",
    default_campaign: str | None = None,
    on_command: Callable[[int, Command, Applied], None] | None = None,
) -> RunReport:
    """Apply every command of a JSON Lines file in order; report what was applied and skipped.

    A command without an `id` gets one derived from `source` and the file's lines so far,
    so rerunning a file after an interruption skips what was already applied, while the
    same line in another file (another `source`: a file's path) is a new command. Standard
    input (`source` None) derives nothing: each line without an `id` is a new command,
    however often the same text is piped (a game master posting turn after turn).
    `on_command` is shown each command as it is applied or skipped (its line number, the
    command, what happened).
    """
    report = RunReport()
    previous = source or ""
    number, command, logged = 0, None, False
    try:
        for line in read_lines(raw):
            number, command, logged = line.number, None, True
            try:
                command = parse_command(
                    line.data, line=line.number, default_campaign=default_campaign, ruleset_of=service.ruleset_of,
                    text=line.text,
                )
            except CommandError as error:
                _log_refusal(error, error.command_id or _derived(source, previous, line.text))
                raise
            if source is not None:
                previous = command.id or derived_id(previous, line.text)
                if command.id is None:
                    command = command.model_copy(update={"id": previous})
            try:
                outcome = service.execute(command)  # logs what it applies, skips and refuses
            except CommandRejected as error:
                raise rejected(error, line.number, command) from None
            if outcome.status == "applied":
                report.applied.append(outcome)
            else:
                report.skipped.append(Skip(line.number, command.type, outcome))
            if on_command is not None:
                on_command(line.number, command, outcome)
            logged = False
    except CommandError as error:
        if not logged:  # a line that cannot be read: its id is the one derived from its text
            text = raw.split(b"\n")[(error.line or 1) - 1].decode("utf-8", "replace")
            _log_refusal(error, _derived(source, previous, text))
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


def _derived(source: str | None, previous: str, text: str) -> str | None:
    """The id a refused line would have been given (standard input gives none)."""
    return None if source is None else derived_id(previous, text)


def _log_refusal(error: CommandError, command_id: str | None) -> None:
    log.info("command.refused", command_id=command_id, line=error.line, type=error.command_type,
             field=error.field, reason=error.message)
