"""A battle's end visits only the gladiators written since the last one (the roster index, issue 22):
one who lost nothing and used nothing since has nothing to get back, so a long troupe costs no more."""

from __future__ import annotations

import pytest

from rollbook.domain.campaign import Campaign
from rollbook.testing import events
from tests.loads import counted_loads

from .gladiator_builders import END, START, enemy, gladiator, turn

TROUPE = ("Marcus", "Lucius", "Titus")


@pytest.fixture
def loads(campaign) -> list[str]:
    """The gladiators a command loads from the store (those not already at its table)."""
    return counted_loads(campaign, "gladiators", TROUPE)


def test_a_battle_end_visits_only_the_gladiators_written_since_the_last(campaign, loads) -> None:
    campaign.given(*(gladiator(name, player=name.lower()) for name in TROUPE), enemy("Barbarians", 8, 3))
    campaign.given(START, END, START)
    # Marcus's defence fails against the GM's 30: he loses health, the others are untouched.
    campaign.given(turn([1, 1, 1], gm_attack=30, gm_defence=10))
    loads.clear()
    campaign.when(END)
    campaign.then(events.HealthRestored(character="Marcus"), events.HealthRestored(enemy="Barbarians"),
                  events.ScopeEnded(scope="battle"))
    assert loads == ["Marcus"]
    campaign.given(START)
    loads.clear()
    campaign.when(END)
    campaign.then(events.ScopeEnded(scope="battle"))
    assert loads == ["Marcus"]  # written by the last battle's end, visited once more, then no longer
    campaign.given(START)
    loads.clear()
    campaign.when(END)
    assert loads == []


def test_a_snapshot_from_before_the_battle_end_was_indexed_counts_everyone_as_stirred(campaign) -> None:
    campaign.of("gladiators").given(*(gladiator(name, player=name.lower()) for name in TROUPE), START, END)
    aggregate = campaign.service.campaign(campaign.name)
    folded = dict(vars(aggregate))
    kept = {**folded, "stirred": {}}  # the index of version 2: no gladiators' rule visited the stirred
    type(aggregate).upcast_v2_v3(kept)
    assert list(kept["stirred"]["end:battle"]) == list(TROUPE)
    assert Campaign.snapshot_agrees(kept, folded)


def test_a_snapshot_from_before_the_awards_were_read_agrees_and_a_wrong_one_does_not(campaign) -> None:
    """The foes whose fall was awarded (L26, L30) are read from the recorded commands: a snapshot taken
    before they were lacks them (it knows of none), which is no disagreement; naming another foe is one."""
    campaign.of("gladiators").given(gladiator(), enemy("Barbarians", 4, 2), START,
                                    turn([6, 6, 6], "total_attack", gm_attack=0, gm_defence=0),
                                    {"type": "award_roleplay", "character": "Marcus", "amount": 2, "enemy": "Barbarians"})
    aggregate = campaign.service.campaign(campaign.name)
    folded = dict(vars(aggregate))
    assert folded["awarded"] == ("Barbarians",)
    older = {k: v for k, v in folded.items() if k not in ("awarded", "awarded_battle")}
    assert type(aggregate).snapshot_agrees(older, folded)
    assert not type(aggregate).snapshot_agrees({**folded, "awarded": ("Gauls",)}, folded)
