"""Applying a command file: line by line, each command all-or-nothing, stopping at the first refusal."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from ..domain.errors import CommandRejected, Word
from ..store.failures import RERUN_HINT, describe, is_store_failure
from ..store.logs import Log
from .base import Command
from .clock import refuse_future
from .lines import CommandError, derived_id, numbered, read_line
from .parse import parse_command, rejected
from .service import Applied, Rollbook
from .transactions import Alone, Groups, Pipelined

log = Log("rollbook")


@dataclass
class Skip:
    """A line whose command is recorded already: said, never silent."""

    line: int
    command_type: str
    command_id: str
    #: Where the recorded command is (none where the unit of work cannot read it).
    seq: int | None = None
    position: int | None = None
    at: object = None

    @classmethod
    def of(cls, line: int, command_type: str, outcome: Applied) -> Skip:
        """Only what a skip says of the command it repeats, not the recorded command itself."""
        recorded = outcome.repeats
        if recorded is None:
            return cls(line, command_type, outcome.command_id)
        return cls(line, command_type, outcome.command_id, recorded.seq, recorded.position, recorded.command.get("at"))

    def describe(self) -> str:
        where = "" if self.seq is None else (
            f" as command {self.seq}"
            + (f", position {self.position}" if self.position is not None else "")
            + f", at {self.at}"
        )
        return f"line {self.line}: {self.command_type} (id {self.command_id}) skipped: already recorded{where}"

    def as_dict(self) -> dict[str, object]:
        return {
            "line": self.line, "id": self.command_id, "type": self.command_type,
            "seq": self.seq, "position": self.position, "at": self.at,
        }


@dataclass
class RunReport:
    """What a run's summary says: counts, skips and checkpoints, never a record per command applied.

    With `kept` (a JSON summary lists them) its size grows with what is said (skips,
    checkpoints); without, it is counts only, so a rerun of a million-line file that skips
    every line, or a campaign signing thousands of checkpoints, costs no memory.
    """

    applied: int = 0
    skipped: list[Skip] = field(default_factory=list)
    #: Signed as a chapter, issue or story ended, in order.
    checkpoints: list[str] = field(default_factory=list)
    error: CommandError | None = None
    #: The error is the store's (unreachable, read-only, full), not the command's.
    store_failed: bool = False
    #: Whether skips and checkpoints are kept in the lists above, or only counted.
    kept: bool = True
    skips: int = 0
    signed: int = 0

    def count(self, line: int, command_type: str, outcome: Applied) -> None:
        if outcome.status == "applied":
            self.applied += 1
        else:
            self.skips += 1
            if self.kept:
                self.skipped.append(Skip.of(line, command_type, outcome))
        if outcome.checkpoint is not None:
            self.signed += 1
            if self.kept:
                self.checkpoints.append(outcome.checkpoint)


def run_file(
    service: Rollbook,
    source_lines: bytes | Iterable[bytes],
    *,
    source: str | None = "",
    default_campaign: str | None = None,
    on_command: Callable[[int, Command, Applied], None] | None = None,
    kept: bool = True,
    group_commit: int = 1,
    pipelined: bool = True,
    allow_future: bool = False,
) -> RunReport:
    """Apply every command of a JSON Lines file in order; report what was applied and skipped.

    `source_lines` is the file's bytes, or the file open in binary mode (read a line at a time).
    A command without an `id` gets one derived from `source` and the file's lines so far,
    so rerunning a file after an interruption skips what was already applied, while the
    same line in another file (another `source`: a file's path) is a new command. Standard
    input (`source` None) derives nothing: each line without an `id` is a new command,
    however often the same text is piped (a game master posting turn after turn).
    `on_command` is shown each command as it is applied or skipped (its line number, the
    command, what happened). Without `kept`, the report counts skips and checkpoints
    instead of keeping them (`on_command` has said them already).
    `group_commit` commands share a transaction (`Groups`); 1, the default, gives each its own,
    and with `pipelined` (a file, not standard input, on SQLite) each is decided
    while the one before is committed (`Pipelined`), storing and telling the same as one after
    the other (`Alone`).
    A line dated more than a day past the clock is refused (commands/clock.py) unless `allow_future`.
    """
    report = RunReport(kept=kept)

    def told(line: int, command: Command, outcome: Applied) -> None:
        report.count(line, command.type, outcome)
        if on_command is not None:
            on_command(line, command, outcome)

    applying: Alone | Groups | Pipelined
    if group_commit > 1:
        applying = Groups(service, group_commit, told)
    elif pipelined and source is not None and Pipelined.serves(service):
        applying = Pipelined(service, told)
    else:
        applying = Alone(service, told)
    previous = source or ""
    number, command, logged, chunk = 0, None, False, b""
    try:
        with applying:
            for number, chunk in numbered(source_lines):
                line = read_line(number, chunk)
                if line is None:
                    continue
                command, logged = None, True
                try:
                    command = parse_command(
                        line.data, line=line.number, default_campaign=default_campaign,
                        ruleset_of=applying.ruleset_of, text=line.text,
                    )
                except CommandError as error:
                    _log_refusal(error, error.command_id or _derived(source, previous, line.text))
                    raise
                if source is not None:
                    previous = command.id or derived_id(previous, line.text)
                    if command.id is None:
                        command = command.model_copy(update={"id": previous})
                if not allow_future:
                    _in_time(command, line.number)
                applying.execute(line.number, command)  # the service logs what it applies, skips and refuses
                logged = False
            logged = True  # what the last group's commit refuses, the service has logged
    except CommandError as error:
        if not logged:  # a line that cannot be read: its id is the one derived from its text
            _log_refusal(error, _derived(source, previous, chunk.decode("utf-8", "replace")))
        report.error = error
    except Exception as error:
        if not is_store_failure(error):
            raise
        report.store_failed = True
        number, command = applying.in_hand or (number, command)
        report.error = CommandError(
            "{failure}; {hint}", line=number or None, failure=describe(error), hint=Word(RERUN_HINT),
            command_type=command.type if command else None, command_id=command.id if command else None,
            field="store",
        )
        log.error("command.failed", command_id=report.error.command_id, line=report.error.line,
                  type=report.error.command_type, reason=report.error.message)
    return report


def _in_time(command: Command, line: int) -> None:
    """Refuse, before anything of it is decided, a line dated far past the clock."""
    try:
        refuse_future(command)
    except CommandRejected as error:
        refusal = rejected(error, line, command)
        _log_refusal(refusal, command.id)
        raise refusal from None


def _derived(source: str | None, previous: str, text: str) -> str | None:
    """The id a refused line would have been given (standard input gives none)."""
    return None if source is None else derived_id(previous, text)


def _log_refusal(error: CommandError, command_id: str | None) -> None:
    log.info("command.refused", command_id=command_id, line=error.line, type=error.command_type,
             field=error.field, reason=error.message)
