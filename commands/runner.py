"""Applying a command file: line by line, each command all-or-nothing, stopping at the first refusal."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from ..domain.errors import CommandRejected
from .parse import CommandError, derived_id, parse_command, read_lines, rejected
from .service import Applied, Rollbook


@dataclass
class RunReport:
    applied: list[Applied] = field(default_factory=list)
    skipped: list[Applied] = field(default_factory=list)
    error: CommandError | None = None

    @property
    def ok(self) -> bool:
        return self.error is None


def run_file(
    service: Rollbook,
    raw: bytes,
    *,
    default_campaign: str | None = None,
    on_command: Callable[[int, Applied], None] | None = None,
) -> RunReport:
    """Apply every command of a JSON Lines file in order; report what was applied and skipped.

    A command without an `id` gets one derived from the file's lines so far, so rerunning a
    file after an interruption skips what was already applied.
    """
    report = RunReport()
    previous = ""
    try:
        for line in read_lines(raw):
            command = parse_command(
                line.data, line=line.number, default_campaign=default_campaign, ruleset_of=service.ruleset_of
            )
            previous = command.id or derived_id(previous, line.text)
            if command.id is None:
                command = command.model_copy(update={"id": previous})
            try:
                outcome = service.execute(command)
            except CommandRejected as error:
                raise rejected(error, line.number, command) from None
            (report.applied if outcome.status == "applied" else report.skipped).append(outcome)
            if on_command is not None:
                on_command(line.number, outcome)
    except CommandError as error:
        report.error = error
    return report
