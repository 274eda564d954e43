"""Reading command files: JSON Lines, one command object per line, and the refusal every reader uses.

A line that is not a JSON object by these rules (bad bytes, broken JSON, NaN, a key given twice)
is refused with its line number; `parse.py` then holds the object to its command's model.
Nothing here imports pydantic or a ruleset: `run --server` reads a file without them.
"""

from __future__ import annotations

import codecs
import hashlib
import json
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from ..domain.errors import Word
from ..language import N_


class CommandError(Exception):
    """A refused command: where it was, what it was, which field, and why.

    Like a `CommandRejected`, its reason is a template and its values (`CommandError("broken JSON: {name} is
    not a JSON number", name=name)`): `message` is the English, the reason of `as_dict` and of every log; the
    line a person reads (`str`) is said in the language spoken where it is shown (language/__init__.py)."""

    def __init__(
        self, message: str, *, line: int | None = None, command_type: str | None = None,
        command_id: str | None = None, field: str | None = None, values: dict[str, Any] | None = None,
        **named: Any,
    ) -> None:
        self.template = message
        self.values = {**(values or {}), **named}
        self.message = message.format(**self.values) if self.values else message
        super().__init__(self.message)
        self.line = line
        self.command_type = command_type
        self.command_id = command_id
        self.field = field

    #: The words of the line around its reason.
    WHERE, NOWHERE, WHICH = N_("line {line}"), N_("command"), N_("(id {id})")

    def __str__(self) -> str:
        """The line a person reads, in the language spoken now."""
        from ..language import gettext, refusal

        return self._line(gettext, refusal(self))  # type: ignore[arg-type]

    def english(self) -> str:
        """The line in English, whatever the language spoken: the words of a record and of a log."""
        return self._line(str, self.message)

    def _line(self, say: Callable[[str], str], reason: str) -> str:
        where = say(self.WHERE).format(line=self.line) if self.line is not None else say(self.NOWHERE)
        what = " ".join(
            part for part in (self.command_type, say(self.WHICH).format(id=self.command_id)
                              if self.command_id else None) if part
        )
        field = f"{self.field}: " if self.field else ""
        return f"{where}{' ' + what if what else ''}: {field}{reason}"

    def as_dict(self) -> dict[str, Any]:
        return {
            "line": self.line, "type": self.command_type, "id": self.command_id,
            "field": self.field, "reason": self.message,
        }


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


def _no_constant(name: str) -> Any:
    raise CommandError("broken JSON: {name} is not a JSON number", name=name)


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    data = dict(pairs)
    if len(data) < len(pairs):  # a key given twice: name the first one repeated
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise CommandError("given twice in one object (the value would be ambiguous)", field=key)
            seen.add(key)
    return data


#: Made once: `json.loads` with a hook builds a decoder (and its scanner) on every call, which
#: cost more than decoding a command's line. It keeps no state between calls.
_DECODER = json.JSONDecoder(parse_constant=_no_constant, object_pairs_hook=_object)


#: What Python's JSON decoder says is wrong, marked so the reader reads it in their language.
JSON_PROBLEMS = (N_("Expecting value"), N_("Expecting property name enclosed in double quotes"),
                 N_("Expecting ',' delimiter"), N_("Expecting ':' delimiter"), N_("Extra data"),
                 N_("Unterminated string starting at"), N_("Invalid control character at"), N_("Invalid \\escape"),
                 N_("Unexpected UTF-8 BOM (decode using utf-8-sig)"))


def _goes_past_its_line(text: str, error: json.JSONDecodeError) -> bool:
    """An object broken off at the end of its line is one spread over several lines."""
    return text.lstrip().startswith("{") and error.pos >= len(text.rstrip())


def decode_json(text: str | bytes) -> Any:
    """One line's JSON by the rules every reader of files applies (`run`, `import`).

    NaN and Infinity, keys given twice, nesting deeper than Python parses and integers longer
    than it converts are refused with a `CommandError` saying which (the caller adds the line).
    """
    try:
        # What `json.loads` does before decoding, with the decoder made once.
        decoded = text if isinstance(text, str) else text.decode(json.detect_encoding(text), "surrogatepass")
        if decoded.startswith("\ufeff"):
            raise json.JSONDecodeError("Unexpected UTF-8 BOM (decode using utf-8-sig)", decoded, 0)
        return _DECODER.decode(decoded)
    except json.JSONDecodeError as error:
        if isinstance(text, str) and _goes_past_its_line(text, error):
            raise CommandError(
                "broken JSON: {problem} at column {column}; each command must be on one line (JSON Lines): this "
                "object goes on past the end of its line, so join its lines into one (or use `rollbook post`)",
                problem=Word(error.msg), column=error.colno) from None
        raise _undecodable(error) from None
    except (RecursionError, ValueError) as error:
        raise _undecodable(error) from None


def _undecodable(error: BaseException) -> CommandError:
    template, values = why_undecodable(error) or ("{error}", {"error": str(error)})
    return CommandError(template, values=values)


def why_undecodable(error: BaseException) -> tuple[str, dict[str, Any]] | None:
    """Why JSON did not decode, in the words every reader of files uses, as a template and its values;
    None for another error."""
    if isinstance(error, json.JSONDecodeError):
        return N_("broken JSON: {problem} at column {column}"), {"problem": Word(error.msg), "column": error.colno}
    if isinstance(error, RecursionError):
        return N_("broken JSON: nested too deeply"), {}
    if isinstance(error, UnicodeDecodeError):
        return N_("not UTF-8 text (byte {byte})"), {"byte": error.start + 1}
    if isinstance(error, ValueError):  # an integer of more digits than Python converts (sys.get_int_max_str_digits)
        return N_("broken JSON: a number too long to read (thousands of digits)"), {}
    return None


def undecodable(error: BaseException) -> str | None:
    """Why JSON did not decode, in English (the words of the record); None for another error."""
    why = why_undecodable(error)
    return None if why is None else why[0].format(**why[1])


def read_lines(source: bytes | Iterable[bytes]) -> Iterator[Line]:
    """Decode a command file into JSON objects, refusing bad bytes and bad JSON by line."""
    for number, chunk in numbered(source):
        line = read_line(number, chunk)
        if line is not None:
            yield line


def numbered(source: bytes | Iterable[bytes]) -> Iterator[tuple[int, bytes]]:
    """A file's lines, numbered from 1, without their newline: all of it in memory, or one line at a time.

    An open binary file is read a line at a time, so its length costs no memory. A UTF-8 byte
    order mark (some Windows editors write one) is not part of the first line.
    """
    chunks = source.split(b"\n") if isinstance(source, bytes) else (c.removesuffix(b"\n") for c in source)
    for number, chunk in enumerate(chunks, start=1):
        yield number, chunk.removeprefix(codecs.BOM_UTF8) if number == 1 else chunk


def read_line(number: int, chunk: bytes) -> Line | None:
    """One line's command object; None for a blank line or a `//` comment."""
    try:
        text = chunk.decode("utf-8")
    except UnicodeDecodeError as error:
        raise CommandError("not UTF-8 text (byte {byte})", line=number, byte=error.start + 1) from None
    if not text.strip() or text.lstrip().startswith("//"):
        return None
    try:
        data = decode_json(text)
    except CommandError as error:
        error.line = number
        raise
    return Line(number, text, data)
