"""Why the group's use cases say no, in no interface's terms: each interface says it its own way.

A `Refusal` names its kind, the field at fault and why; the server answers each kind with its HTTP status
(server/errors.py, the one place statuses are chosen), the pages with their words for it, the chats in theirs.
A command the rules refuse, or that is malformed, is a `CommandRefused`: the command line's error for it,
with the rules' own refusal, which a reader is told in his language (`language.refusal`).
"""

from __future__ import annotations

from typing import Literal

from ..commands.lines import CommandError
from ..domain.errors import CommandRejected

#: What went wrong, as the interfaces tell it apart:
#: signed_out: no sign-in, or a token unknown, replaced or revoked; forbidden: signed in, but not allowed;
#: not_found: no such campaign, user or thing; conflict: at odds with what is stored (a ruling made, its answer
#: lost; a checkpoint of another history); moved_on: the campaign moved on since the version the poster named;
#: too_large: more than is taken; not_json: not declared JSON; malformed: not JSON at all; invalid: malformed in
#: the field named; too_fast: over the rate limit; busy: others went first every time, post again.
Kind = Literal["signed_out", "forbidden", "not_found", "conflict", "moved_on", "too_large", "not_json",
               "malformed", "invalid", "too_fast", "busy"]


class Refusal(Exception):
    """A use case said no: of what `kind`, the `field` at fault (a header, a parameter, a part of the body) and
    why; `retry_after`: seconds after which the same request may be taken (too fast)."""

    def __init__(self, kind: Kind, field: str | None, reason: str, *, retry_after: int | None = None) -> None:
        super().__init__(reason)
        self.kind, self.field, self.reason, self.retry_after = kind, field, reason, retry_after


class CommandRefused(Exception):
    """A posted command refused: `error` is the command line's error for it (its type, id, field and reason),
    `rejection` the rules' refusal it says, if one, and `forbidden` whether it is the poster's lack of right."""

    def __init__(self, error: CommandError, rejection: CommandRejected | None = None, *,
                 forbidden: bool = False) -> None:
        super().__init__(error.message)
        self.error, self.rejection, self.forbidden = error, rejection, forbidden

