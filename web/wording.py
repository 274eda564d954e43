"""The record in the game's words for the pages: identifiers humanised, times to the minute.

The rulesets name their outcomes, limits and purposes with identifiers (`partial_success`,
`luck_roll_bonus`, `move:audacity`) and declare no display names, so a page says them with the
underscores as spaces. A time is shown to the minute; the exact stored time is its title, and the
browser's script turns the minute into the reader's own zone (without it, UTC is said).
"""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any


def humanised(name: Any) -> str:
    """`partial_success` reads "partial success", `move:audacity` "move: audacity"."""
    if name is None:
        return ""
    return str(name).replace("_", " ").replace(":", ": ").replace(":  ", ": ").strip()


def minute(stamp: Any) -> dict[str, str]:
    """A stored time as the page shows it: to the minute in UTC, with the exact time for its title and
    the machine-readable one for `<time datetime>`; a time that does not parse is shown as stored."""
    text = str(stamp or "")
    try:
        when = datetime.fromisoformat(text)
    except ValueError:
        return {"shown": text, "exact": text, "iso": ""}
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    shown = when.astimezone(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    return {"shown": shown, "exact": when.isoformat(), "iso": when.isoformat()}


def install(environment: Any) -> None:
    """The filters the templates use: `words` and `minute`."""
    environment.filters["words"] = humanised
    environment.filters["minute"] = minute
