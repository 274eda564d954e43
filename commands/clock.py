"""How far past the clock a command may say it happened.

A command dated before the campaign's last one is refused (`Campaign.check_in_order`): the
record is in the order things happened. So one dated in the year 9999 would leave every later
command refused, the GM's too, until it was undone. Where commands come in (a command file,
`rollbook post`) an `at` more than `AHEAD` past the clock is refused, unless the one who runs
them says it is meant (`--allow-future`); over HTTP the server dates a player's command itself
(hosting/posting.py). A recorded history re-executed (replay, import, a ruling) is not held to
it: its times were taken when it was recorded.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from eventsourcing.domain import datetime_now_with_tzinfo

from ..domain.errors import CommandRejected, Word
from ..language import N_
from .base import Command

#: A forum post's time in another time zone, or a clock a few hours off, is well within it.
AHEAD = timedelta(days=1)


def refuse_future(command: Command, *, now: datetime | None = None, how: str = N_("give --allow-future")) -> None:
    """Refuse a command dated more than `AHEAD` past the clock (`now`), naming its `at`.

    `how`: what the refusal tells the user to do if the time is meant (marked with `N_`: it is said in the
    reader's language)."""
    if command.at is None:
        return
    now = now or datetime_now_with_tzinfo()
    if command.at > now + AHEAD:
        raise CommandRejected(
            "{at} is more than a day past the clock ({now}): a command dated so would make every later command "
            "earlier than it, and so refused; if the time is meant, {how}", field="at",
            at=command.at.isoformat(), now=now.isoformat(timespec="seconds"), how=Word(how),
        )
