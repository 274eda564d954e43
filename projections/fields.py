"""An event's fields straight from its stored JSON, for the logs a projection writes.

The roll log, the timeline and the command log need a campaign event's fields, not an
event object: they are documents made of the very values that were stored. Decoding
through the library's mapper runs the transcoder's object hook on every JSON object
(each roll, each command and its writes) and builds the event; for a rebuild that is a
good part of the work. So when a stored event is plain JSON whose only custom-typed value
is its timestamp, the fields are `json.loads` of it and the timestamp is decoded alone,
with the transcoder's own transcoding. Anything else — another custom type anywhere in
the state, a class version to upcast, or a store whose port gives no transcodings (an
encrypted or compressed store, a transcoder of another kind) — goes through the mapper,
so the fields are always what the event holds.
"""

from __future__ import annotations

import json
import json.scanner
from typing import Any

from eventsourcing.utils import resolve_topic

TYPE_MARK = b'"_type_"'


class FieldDecoder:
    def __init__(self, transcodings: dict[str, Any] | None) -> None:
        """`transcodings`: the store port's `timestamp_transcodings()` (None: always the mapper)."""
        self.names: dict[str, Any] = transcodings or {}
        self.direct = transcodings is not None
        self.event_names: dict[str, str] = {}
        self.scan = json.scanner.make_scanner(json.JSONDecoder())
        #: The last timestamp decoded: as stored, as decoded, in ISO format.
        self.last_stamp: dict[str, Any] | None = None
        self.last_timestamp: Any = None
        self.last_when = ""

    def name(self, topic: str) -> str:
        """The event class's name (as `type(event).__name__`) for a stored topic."""
        found = self.event_names.get(topic)
        if found is None:
            found = self.event_names[topic] = resolve_topic(topic).__name__
        return found

    def decode(self, state: bytes) -> tuple[dict[str, Any], str] | None:
        """A stored event's fields, and its timestamp in ISO format; None if only the mapper
        can say (then decode the event with it and take `vars(event)`)."""
        if self.direct and state.count(TYPE_MARK) == 1:
            text = bytes(state).decode("utf-8")
            # The C scanner itself, as `json.loads` ends up calling it: the transcoder
            # writes no whitespace around the object, and anything after it is caught.
            try:
                fields, end = self.scan(text, 0)
            except StopIteration:  # not JSON after all: the mapper says what is wrong
                end = -1
            if end == len(text) and type(fields) is dict and "class_version" not in fields:
                stamp = fields.get("timestamp")
                if stamp == self.last_stamp:  # the events of one command share their time
                    fields["timestamp"] = self.last_timestamp
                    return fields, self.last_when
                if type(stamp) is dict and len(stamp) == 2 and "_data_" in stamp and stamp.get("_type_") in self.names:
                    timestamp = self.names[stamp["_type_"]].decode(stamp["_data_"])
                    self.last_stamp, self.last_timestamp, self.last_when = stamp, timestamp, timestamp.isoformat()
                    fields["timestamp"] = timestamp
                    return fields, self.last_when
        return None
