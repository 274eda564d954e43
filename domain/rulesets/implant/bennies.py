"""Bennies (фишки, L63-L69): who holds them, how they are paid, how they come back."""

from __future__ import annotations

from ...errors import RuleViolation
from ...table import Table
from . import rules
from .campaign import ImplantCampaign
from .character import Character


def pay_benny(table: Table, character: Character, purpose: str) -> None:
    """One benny: the player's own, or the GM's pool for his characters (L63; I-25)."""
    if character.own_bennies:
        if character.bennies < 1:
            # Terms: фишки L63; шок L65, L110; при смерти L113; обычные и важные НПС L112; скорострельность L88;
            # прицельная атака, обезоружить L94-L95; выход из боя L79; поглощение урона L114.
            raise RuleViolation(
                "{name} has no bennies left to spend ({purpose}; L63)",
                field="character", name=character.name, purpose=purpose,
            )
        character.spend_benny(purpose=purpose)
        return
    campaign = table.campaign
    assert isinstance(campaign, ImplantCampaign)
    if not table.campaign.option("gm_bennies_spendable"):
        raise RuleViolation(
            "this campaign's GM bennies are not spent on his characters (option gm_bennies_spendable; I-25)",
            field="character",
        )
    if campaign.gm_bennies < 1:
        raise RuleViolation("the GM has no bennies left to spend for {name} ({purpose}; L63)",
                            field="character", name=character.name, purpose=purpose)
    campaign.gm_benny_spent(character=character.name, purpose=purpose)


def renew_bennies(table: Table) -> None:
    """At the start of every scene the player's character has three bennies again (L63; I-8: set to 3)."""
    # The roster says whose the character is (as his own `player`): the GM's are not loaded for nothing.
    players = [name for name, entry in table.campaign.roster.items() if entry["player"] is not None]
    for character in table.named(Character, players):
        character.renew_bennies(bennies=rules.SCENE_BENNIES)


def award_benny(table: Table, name: str, count: int) -> None:
    """The GM may give the character bennies whenever he sees fit (L63)."""
    character = table.get(Character, name)
    if not character.own_bennies:
        raise RuleViolation("{name} is the GM's character and draws on the GM's bennies (L63; I-25)",
                            field="character", name=name)
    character.award_benny(count=count)
