"""The lines of a version-2 export: a command line naming its events, then each event's stored bytes.

How they are written (`command_lines`) and read back (`read_entries`, `parse_line`,
`command_fields`) beside the checks that rely on their shape; `replay/copy.py` checks and copies
what they carry.
"""

from __future__ import annotations

import codecs
import json
import re
from collections.abc import Iterable, Iterator
from functools import lru_cache
from typing import Any
from uuid import UUID

from ..domain.errors import CommandRejected
from ..store.reads import StoredEvent

#: An aggregate id as exported: a UUID's 32 lowercase hex digits.
HEX_ID = re.compile(r"[0-9a-f]{32}")

def command_lines(command: dict[str, Any], stored: list[StoredEvent]) -> Iterator[str]:
    """A command line naming its events, then each event's stored bytes on a line of its own."""
    named = []
    for event in stored:
        if b"\n" in event.state:
            raise CommandRejected("event {topic} v{version} is stored on more than one line; this export format "
                                  "cannot carry it", field="campaign", topic=event.topic,
                                  version=event.originator_version)
        named.append([uuid_of(event.originator_id).hex, event.originator_version, event.topic])
    yield json.dumps({**command, "events": named}, ensure_ascii=False)
    for event in stored:
        # The JSON transcoder writes UTF-8; a store with a cipher or compressor would not.
        yield event.state.decode("utf-8")


def read_entries(lines: Iterable[bytes]) -> Iterator[tuple[int, str, dict[str, Any]]]:
    """(line number, kind, entry) of every entry after the header line, up to the trailer, which must end it.

    A command line's events are completed with their bytes from the lines after it: each
    becomes [originator hex, version, topic, state bytes], and `first_event_line` says where
    they start, so a refusal can name the line of the event at fault.
    """
    numbered = enumerate(lines, start=1)
    header_seen, trailer_seen = False, False
    for number, line in numbered:
        if not line.strip():
            continue
        if not header_seen:
            header_seen = True
            continue
        entry = parse_line(number, line)
        kind = entry.pop("kind", None)
        if kind not in ("command", "dispute", "secret", "trailer"):
            raise refused(f"line {number}", f"unknown entry kind {kind!r}")
        if trailer_seen:
            raise refused(f"line {number}", "follows the trailer, which ends an export")
        trailer_seen = kind == "trailer"
        named = entry.get("events")
        if kind == "command" and named is not None:
            if not isinstance(named, list) or not all(isinstance(n, list) and len(n) == 3 for n in named):
                raise refused(f"line {number}", "events must name [aggregate, version, topic] of each event")
            entry["first_event_line"] = number + 1
            for event in named:
                following = next(numbered, None)
                if following is None:
                    raise refused(f"line {number}", f"names {len(named)} events, but the file ends before "
                                                     "their lines")
                event.append(following[1].rstrip(b"\r\n"))
        yield number, kind, entry
    if not trailer_seen:
        raise CommandRejected("the file ends without its trailer: it was cut short (or exported before "
                              "format 3: export it again); nothing was imported", field="file")


def stored_event(entry: list[Any]) -> StoredEvent:
    originator, version, topic, state = entry
    return StoredEvent(originator_id=_uuid(originator), originator_version=version, topic=topic, state=state)


@lru_cache(maxsize=8192)
def _uuid(hex_id: str) -> UUID:
    # Cached: a campaign's own events are a good half of its history, all on one id.
    return UUID(hex_id)


def command_fields(where: str, entry: dict[str, Any]) -> tuple[int, dict[str, Any], str, list[Any], list[Any]]:
    """A command line's fields, each of the shape the checks rely on, or a refusal naming the line."""
    seq, command, chain = entry.get("seq"), entry.get("command"), entry.get("chain")
    writes, events = entry.get("writes"), entry.get("events")
    if not isinstance(seq, int) or not isinstance(command, dict) or not isinstance(chain, str):
        raise refused(where, "a command line needs seq, command and chain")
    if not isinstance(writes, list) or not all(
        isinstance(w, list) and len(w) == 3 and isinstance(w[0], str) and isinstance(w[1], int)
        and isinstance(w[2], str) for w in writes
    ):
        raise refused(where, "writes must list [aggregate, version, digest] entries")
    if not isinstance(events, list) or not all(
        isinstance(e, list) and len(e) == 4 and isinstance(e[0], str) and _is_hex_id(e[0])
        and isinstance(e[1], int) and isinstance(e[2], str) and isinstance(e[3], bytes) for e in events
    ):
        raise refused(where, "a version-2 command line names its events as [aggregate, version, topic]")
    return seq, command, chain, writes, events


def _is_hex_id(text: str) -> bool:
    return HEX_ID.fullmatch(text) is not None


def refused(where: str, problem: str) -> CommandRejected:
    """A file refused for what is wrong `where` (a line): its `problem` is said as the file's checks word it."""
    return CommandRejected("{where}: {problem}; nothing was imported", field="file", where=where, problem=problem)


def uuid_of(originator: Any) -> UUID:
    return originator if isinstance(originator, UUID) else UUID(str(originator))


def parse_line(number: int, line: str | bytes) -> dict[str, Any]:
    """One entry of an export, decoded by the rules `rollbook run` reads command files with."""
    from ..commands.lines import CommandError, decode_json

    if number == 1:  # a UTF-8 byte order mark is not part of the header
        line = line.removeprefix(codecs.BOM_UTF8) if isinstance(line, bytes) else line.removeprefix("\ufeff")
    try:
        entry = decode_json(line)
    except CommandError as error:
        raise refused(f"line {number}", f"is not JSON ({error.message.removeprefix('broken JSON: ')})") from None
    if not isinstance(entry, dict):
        raise refused(f"line {number}", "is not a JSON object")
    return entry
