"""The words of the record a page shows, in the page's language: the commands' and their fields' names, the
members' roles, the roll badges' states. The record and the forms keep their identifiers (`luck_bonus`,
`roll_move`); a page says them as words (`said`), translated where the catalog has them.

The identifiers are data, so the words a page says of them are marked for extraction (N_): the common ones
here, a game's own in its narration module (its fields, commands and once-only limits, in the originals'
terms); an identifier the catalog lacks is said in English words, as before.
"""

from __future__ import annotations

from typing import Any

from ..language import N_, gettext

#: The members' roles and what a sheet is of.
ROLES = (N_("gm"), N_("player"), N_("auditor"), N_("character"), N_("ship"))



def said(name: Any) -> str:
    """An identifier (`luck_bonus`) or a text of the record in words of the page's language ("luck bonus"
    in English); nothing stays nothing (gettext's "" is the catalog's header)."""
    text = str(name or "").replace("_", " ").strip()
    return gettext(text) if text else ""
