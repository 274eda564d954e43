"""Chests, doubloons and piastres (§4.7, §13): purses and the crew treasury, never below 0.

1 chest = 10 doubloons = 50 piastres (L95); amounts are stored as integer piastres. The
source does not say who holds the loot (P-26), so each pirate has a purse and each ship a
crew treasury; every payment names its payer.
"""

from __future__ import annotations

from ...campaign import Campaign
from ...errors import RuleViolation, UnknownName, Word
from ...table import Table
from .pirate import Pirate
from .ship import Ship


def purse_owner(campaign: Campaign, payer: str) -> str | None:
    """Who may spend from a payer: a pirate's purse is his player's; a ship's treasury the whole crew's (P-26)."""
    entry = campaign.roster.get(payer)
    return payer if entry is not None and entry["kind"] == Pirate.kind else None


def holder(table: Table, name: str, field: str) -> Pirate | Ship:
    """The purse of a pirate, or the treasury of a ship (the crew's), by name."""
    entry = table.campaign.roster.get(name)
    if entry is None or entry["kind"] not in (Pirate.kind, Ship.kind):
        known = sorted(n for n, e in table.campaign.roster.items() if e["kind"] in (Pirate.kind, Ship.kind))
        raise UnknownName(
            "no pirate or ship named {name!r} holds money (known: {known})",
            field=field, name=name, known=", ".join(known) or Word("none"),
        )
    if entry["kind"] == Ship.kind:
        return table.get(Ship, name, field=field)
    return table.get(Pirate, name, field=field)


def _amount(piastres: int) -> None:
    if piastres <= 0:
        raise RuleViolation("give an amount: chests, doubloons and/or piastres, more than 0 in all", field="piastres")


def pay(table: Table, payer: str, piastres: int, reason: str, *, field: str) -> None:
    """A payer's money spent (whose purse a player may pay from: `purse_owner`)."""
    holder(table, payer, field).pay(piastres, reason, field=field)


def gain_money(table: Table, to: str, piastres: int, reason: str) -> None:
    _amount(piastres)
    holder(table, to, "to").receive(piastres=piastres, reason=reason)


def spend_money(table: Table, payer: str, piastres: int, reason: str) -> None:
    _amount(piastres)
    pay(table, payer, piastres, reason, field="from")


def transfer_money(table: Table, payer: str, to: str, piastres: int, reason: str | None) -> None:
    _amount(piastres)
    if payer == to:
        raise RuleViolation("{payer} cannot pay himself", field="to", payer=payer)
    receiver = holder(table, to, "to")
    pay(table, payer, piastres, reason or f"to {to}", field="from")
    receiver.receive(piastres=piastres, reason=reason or f"from {payer}")
