"""Reading command files: JSON Lines, one command object per line.

A line that cannot be a command is refused with its line number, its type and id where
they can be read, the field at fault and why; nothing of it reaches the store.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from ..domain.errors import CommandRejected
from ..domain.rulesets import available
from .base import Command
from .catalogue import adapter_for, all_types


@dataclass
class CommandError(Exception):
    """A refused command: where it was, what it was, which field, and why."""

    message: str
    line: int | None = None
    command_type: str | None = None
    command_id: str | None = None
    field: str | None = None

    def __str__(self) -> str:
        where = f"line {self.line}" if self.line is not None else "command"
        what = " ".join(
            part for part in (self.command_type, f"(id {self.command_id})" if self.command_id else None) if part
        )
        field = f"{self.field}: " if self.field else ""
        return f"{where}{' ' + what if what else ''}: {field}{self.message}"

    def as_dict(self) -> dict[str, Any]:
        return {
            "line": self.line, "type": self.command_type, "id": self.command_id,
            "field": self.field, "reason": self.message,
        }


def _field_path(location: tuple[Any, ...]) -> str:
    # Drop the discriminator tag pydantic puts first in a union's error location.
    parts = [str(p) for p in location]
    if len(parts) > 1 and parts[0] in all_types():
        parts = parts[1:]
    return ".".join(parts)


def parse_command(
    data: Any,
    *,
    line: int | None = None,
    default_campaign: str | None = None,
    ruleset_of: Callable[[str], str | None],
) -> Command:
    """Validate one decoded command object against its campaign's ruleset."""
    if not isinstance(data, dict):
        raise CommandError(f"expected a JSON object, got {type(data).__name__}", line=line)
    command_type = data.get("type")
    command_id = data.get("id") if isinstance(data.get("id"), str) else None
    if not isinstance(command_type, str):
        raise CommandError("every command needs a string `type`", line=line, command_id=command_id, field="type")
    known = all_types()
    if command_type not in known:
        raise CommandError(
            f"unknown command type {command_type!r} (see `rollbook schema`)",
            line=line, command_id=command_id, field="type",
        )
    if data.get("campaign") is None and default_campaign is not None:
        data = {**data, "campaign": default_campaign}
    campaign = data.get("campaign")
    if not isinstance(campaign, str) or not campaign:
        raise CommandError(
            "no campaign: give `campaign` in the command or --campaign",
            line=line, command_type=command_type, command_id=command_id, field="campaign",
        )
    if command_type == "create_campaign":
        ruleset = data.get("ruleset")
        if ruleset not in available():
            raise CommandError(
                f"unknown ruleset {ruleset!r} (available: {', '.join(available())})",
                line=line, command_type=command_type, command_id=command_id, field="ruleset",
            )
    else:
        ruleset = ruleset_of(campaign)
        if ruleset is None:
            raise CommandError(
                f"no campaign {campaign!r} in this store; create it first with create_campaign",
                line=line, command_type=command_type, command_id=command_id, field="campaign",
            )
        if ruleset not in known[command_type]:
            raise CommandError(
                f"{command_type} is not a command of the {ruleset} rules "
                f"(it belongs to {', '.join(known[command_type])})",
                line=line, command_type=command_type, command_id=command_id, field="type",
            )
    try:
        return adapter_for(ruleset).validate_python(data)
    except ValidationError as error:
        first = error.errors()[0]
        raise CommandError(
            first["msg"] + (f" (got {first['input']!r})" if "input" in first and len(repr(first["input"])) < 80 else ""),
            line=line, command_type=command_type, command_id=command_id,
            field=_field_path(first["loc"]) or None,
        ) from None


def derived_id(previous: str, text: str) -> str:
    """The id of a command given without one: a hash chained over the file's lines so far.

    Rerunning the same file (or one that extends it) derives the same ids, so commands
    already applied are skipped instead of applied twice.
    """
    digest = hashlib.sha256(f"{previous}\n{text.strip()}".encode()).hexdigest()
    return f"auto-{digest[:16]}"


@dataclass
class Line:
    number: int
    text: str
    data: Any


def read_lines(raw: bytes) -> Iterator[Line]:
    """Decode a command file into JSON objects, refusing bad bytes and bad JSON by line."""
    for number, chunk in enumerate(raw.split(b"\n"), start=1):
        try:
            text = chunk.decode("utf-8")
        except UnicodeDecodeError as error:
            raise CommandError(f"not UTF-8 text (byte {error.start + 1})", line=number) from None
        if not text.strip() or text.lstrip().startswith("//"):
            continue
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise CommandError(f"broken JSON: {error.msg} at column {error.colno}", line=number) from None
        yield Line(number, text, data)


def rejected(error: CommandRejected, line: int | None, command: Command) -> CommandError:
    return CommandError(
        error.message, line=line, command_type=command.type, command_id=command.id, field=error.field
    )
