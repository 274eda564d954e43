"""Applying a command file: line by line, each command all-or-nothing, stopping at the first refusal."""

from __future__ import annotations

import contextlib
import copy
from collections.abc import Callable, Iterable
from contextlib import ExitStack
from dataclasses import dataclass, field
from types import TracebackType

from ..domain.errors import CommandRejected
from ..store.failures import RERUN_HINT, IntegrityError, describe, is_store_failure
from ..store.logs import Log
from ..store.unit_of_work import Overtaken, PipelinedUnit, StoreUnit
from ..store.writer import Write
from .base import Command
from .clock import refuse_future
from .lines import CommandError, derived_id, numbered, read_line
from .parse import parse_command, rejected
from .service import Applied, Rollbook

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
            f"{describe(error)}; {RERUN_HINT}", line=number or None,
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


def _applied(service: Rollbook, line: int, command: Command) -> Applied:
    try:
        return service.execute(command)
    except CommandRejected as error:
        raise rejected(error, line, command) from None


Told = Callable[[int, Command, Applied], None]


class Alone:
    """One transaction per command (the default): each is told as soon as it is stored."""

    #: The line being stored when the store fails, where it is not the line read last.
    in_hand: tuple[int, Command] | None = None

    def __init__(self, service: Rollbook, told: Told) -> None:
        self.service, self.told = service, told
        self.ruleset_of = service.ruleset_of

    def __enter__(self) -> Alone:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None) -> None:
        return None

    def execute(self, line: int, command: Command) -> None:
        self.told(line, command, _applied(self.service, line, command))


class Pipelined:
    """One transaction per command, each command decided while the one before is committed.

    What it stores, in what order and in how many transactions, is what `Alone` stores: each
    command's events in a transaction of their own, committed before the next one's rows go
    in. Only the time differs: the disk's wait for one COMMIT is spent deciding the next command,
    on the state the last one left (`PipelinedUnit`, `store/writer.py`). A command's rows are
    inserted before the next one is decided, so a taken version or claim is refused at once,
    retried or skipped as by `Alone`; a command is told once committed, so what a run says it
    applied survives the process, and a crash loses at most the command being committed, which
    a rerun applies.

    If a COMMIT fails (the store stopped taking writes), what its command changed is forgotten and
    it is applied again alone, as `Alone` would (the store's error, or stored after all); the
    command decided on it is decided again. Standard input is not pipelined: a command typed at
    a prompt is told at once, not when the next one comes.
    """

    @staticmethod
    def serves(service: Rollbook) -> bool:
        """A service writing to a store whose recorder leaves a transaction open to commit (SQLite)."""
        return type(service.unit) is StoreUnit and PipelinedUnit.serves(service.app)

    def __init__(self, service: Rollbook, told: Told) -> None:
        self.service, self.told = service, told
        self.ruleset_of = service.ruleset_of
        self.unit = PipelinedUnit.writing_to(service.app)
        self.piped = copy.copy(service)
        self.piped.unit = self.unit
        #: The last command decided, whose COMMIT is in flight: told once committed.
        self._waiting: tuple[int, Command, Applied, Write] | None = None
        #: The command applied again alone, while it is (see `Alone.in_hand`).
        self.in_hand: tuple[int, Command] | None = None

    def __enter__(self) -> Pipelined:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None) -> None:
        """The last command is told once committed; after a refusal, one that failed is applied again alone."""
        try:
            self._tell_waiting(again=kind is None or issubclass(kind, CommandError))
        finally:
            self.unit.writer.close()

    def execute(self, line: int, command: Command) -> None:
        while True:
            try:
                outcome = _applied(self.piped, line, command)
            except Overtaken:
                self._tell_waiting(again=True)
                continue
            except CommandError:
                if self._tell_waiting(again=True):
                    continue  # refused on what a failed commit left: decided again
                raise
            except BaseException:
                self._tell_waiting(again=False)  # the commit of this very command, if begun, ends as the writer closes
                raise
            write = self.unit.take_write()
            if self._tell_waiting(again=True):
                continue  # skipped while the commit before failed: decided again
            break
        if write is None:
            self.told(line, command, outcome)  # skipped, or stored at once (a snapshot followed it)
        else:
            self._waiting = (line, command, outcome, write)

    def _tell_waiting(self, *, again: bool) -> bool:
        """Tell the command in flight once committed. True if its COMMIT failed and it was applied
        again alone (`again`; otherwise it is only forgotten, the run ending on another error)."""
        if self._waiting is None:
            return False
        (line, command, outcome, write), self._waiting = self._waiting, None
        with contextlib.suppress(Overtaken):
            self.unit.settle(write)  # unless the next command's `keep` did
        if write.error is None:
            self.told(line, command, outcome)
            return False
        if again:
            log.info("command.overtaken", command_id=outcome.command_id, type=command.type, campaign=command.campaign,
                     line=line, reason=f"its commit failed ({write.error}): applied again alone")
            self.in_hand = (line, command)  # a store that fails now fails this line, not the one read last
            self.told(line, command, _applied(self.service, line, command))
            self.in_hand = None
        return True


class Groups:
    """`size` commands per transaction (`run --group-commit`), each command still all-or-nothing.

    A group is a `BatchUnit`: its commands decide one by one on the state the earlier ones
    left, and a refused command's own transaction rolls back in memory only what it changed,
    before anything reaches the store. So a group needs no SQL savepoints: the run stops at
    the refusal as it does without grouping, and the group's earlier commands are committed.
    A command is told (counted, printed, its line in words read from the store) only once its
    group is stored: what a run says it applied survives the process. A crash loses at most
    the open group, which a rerun of the same file applies, skipping the recorded ids.

    A command repeating an id of the open group starts the next group, once the open one is
    stored, so its skip (or refusal, as a different command) names the recorded command's
    position as without grouping. A group the store refuses at its commit (another writer changed one
    of its campaigns first, or a command repeats a stored id) is applied again one command per
    transaction, where each retries or is skipped as without grouping. `command.applied` is
    logged as a command is decided, `group.committed` (its first and last line) once its group
    is stored.

    While the file repeats stored commands (a rerun), each command's id is looked for before it
    is decided. After a group of only new commands, nobody looks (a quarter of a command's CPU
    on SQLite): a repeat the rules accept again makes the commit fail on the claim's unique key,
    and that group is applied again one by one, which looks from then on.
    """

    in_hand: tuple[int, Command] | None = None

    def __init__(self, service: Rollbook, size: int, told: Told) -> None:
        self.service, self.size, self.told = service, size, told
        self._open: ExitStack | None = None
        self._batched: Rollbook | None = None
        #: The open group's commands as decided, and their ids by campaign key.
        self._pending: list[tuple[int, Command, Applied]] = []
        self._ids: set[tuple[str, str | None]] = set()
        #: Whether the next group looks for each id before deciding (see the class).
        self._looking = True

    def ruleset_of(self, name: str) -> str | None:
        """As the open group leaves it: a campaign created in the group has its rules already."""
        return (self._batched or self.service).ruleset_of(name)

    def __enter__(self) -> Groups:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None) -> None:
        """The last group is stored, also when a refusal ends the run; any other error drops it."""
        if kind is None or issubclass(kind, CommandError):
            self.commit()
        elif self._open is not None:
            opened, self._open, self._batched = self._open, None, None
            opened.__exit__(kind, error, trace)

    def execute(self, line: int, command: Command) -> None:
        assert command.campaign is not None, "the parser fills the campaign"
        if self._batched is not None and (self._batched.key_for(command.campaign), command.id) in self._ids:
            self.commit()
        if self._batched is None:
            self._open = ExitStack()
            self._batched = self._open.enter_context(self.service.batch(claims_enforced=not self._looking))
        batched = self._batched
        try:
            outcome = _applied(batched, line, command)
        except CommandError:
            if not self.commit():
                raise
            outcome = _applied(self.service, line, command)  # decided again on what the other writer left
            self.told(line, command, outcome)
            return
        self._pending.append((line, command, outcome))
        self._ids.add((batched.key_for(command.campaign), command.id))
        if len(self._pending) >= self.size:
            self.commit()

    def commit(self) -> bool:
        """Store the open group and tell its commands; True if it had to be applied one by one."""
        opened, pending = self._open, self._pending
        self._open, self._batched, self._pending, self._ids = None, None, [], set()
        if opened is None:
            return False
        try:
            opened.close()
        except IntegrityError:
            self._looking = True
            for line, command, _ in pending:
                self.told(line, command, _applied(self.service, line, command))
            return True
        self._looking = any(outcome.status == "skipped" for _, _, outcome in pending)
        # `command.applied` is logged as each is decided; this says they are stored.
        if pending:
            log.info("group.committed", commands=len(pending), first_line=pending[0][0], last_line=pending[-1][0])
        for line, command, outcome in pending:
            self.told(line, command, outcome)
        return False


def _derived(source: str | None, previous: str, text: str) -> str | None:
    """The id a refused line would have been given (standard input gives none)."""
    return None if source is None else derived_id(previous, text)


def _log_refusal(error: CommandError, command_id: str | None) -> None:
    log.info("command.refused", command_id=command_id, line=error.line, type=error.command_type,
             field=error.field, reason=error.message)
