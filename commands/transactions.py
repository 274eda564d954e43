"""How a run's commands reach the store: one transaction each (`Alone`), each decided while the one
before commits (`Pipelined`), or several to a transaction (`Groups`).

All three store and tell the same commands in the same order; `commands/runner.py` reads the
file and chooses one of them.
"""

from __future__ import annotations

import contextlib
import copy
from collections.abc import Callable
from contextlib import ExitStack
from types import TracebackType

from ..domain.errors import CommandRejected
from ..store.failures import IntegrityError
from ..store.logs import Log
from ..store.unit_of_work import Overtaken, PipelinedUnit, StoreUnit
from ..store.writer import Write
from .base import Command
from .lines import CommandError
from .parse import rejected
from .service import Applied, Rollbook

log = Log("rollbook")


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
        return type(service.unit) is StoreUnit and PipelinedUnit.serves(service.store)

    def __init__(self, service: Rollbook, told: Told) -> None:
        self.service, self.told = service, told
        self.ruleset_of = service.ruleset_of
        self.unit = PipelinedUnit.writing_to(service.store)
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
