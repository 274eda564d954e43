"""A page's movement apart from its action (L141, L143, L257, L262-L263) and simultaneous action (L132), issue 35."""

from __future__ import annotations

from rollbook.testing import ANY, events

from .heroes_builders import BLAST, hero, in_battle


def attack(attacker: str, target: str, trait: str = "Blast", **fields) -> dict:
    return {"type": "attack", "attacker": attacker, "target": target, "trait": trait, **fields}


def move(character: str, other: str, to: str) -> dict:
    return {"type": "move", "character": character, "other": other, "to": to}


FAR = {"type": "set_distance", "character": "Ann", "other": "Bob", "distance": "far"}


# --- all-out defence keeps movement (L262-L263) ------------------------------------------------


def test_a_move_after_all_out_defence_begins_and_the_stance_stays(campaign) -> None:
    campaign.of("heroes")
    campaign.given(*in_battle(hero("Ann"), hero("Bob", role="villain")), FAR,
                   {"type": "all_out_defence", "character": "Ann"})
    campaign.when(move("Ann", "Bob", "close"))
    campaign.then(events.LimitUsed(limit="movement", holder="Ann"),
                  events.MovementBegun(between="Ann|Bob", mover="Ann", to="close", page=1))
    campaign.when({"type": "declare_actions", "character": "Ann", "count": 2})
    campaign.then_rejected(match=r"all-out defence this page: no attacks or other actions \(L262\)")


def test_a_move_before_all_out_defence_is_accepted_as_one_after_it(campaign) -> None:
    """The verdict no longer depends on the order (L263)."""
    campaign.of("heroes")
    campaign.given(*in_battle(hero("Ann"), hero("Bob", role="villain")), FAR, move("Ann", "Bob", "close"))
    campaign.when({"type": "all_out_defence", "character": "Ann"})
    campaign.then(events.StanceTaken(character="Ann", page=1, stance="all_out_defence"))


# --- a protector keeps his movement (L257, L141) ------------------------------------------------


def test_protecting_gives_up_the_next_pages_action_which_is_forgotten_after_it(campaign) -> None:
    campaign.of("heroes")
    campaign.given(*in_battle(hero("Ann"), hero("Bob", role="villain"), hero("Cid")), FAR)
    campaign.when({"type": "protect", "character": "Ann", "ward": "Cid"})
    campaign.then(events.ProtectionDeclared(ward="Cid", protector="Ann", page=2),
                  events.ActionGivenUp(character="Ann", page=2, reason="he protects Cid instead of acting (L257)"))
    campaign.given({"type": "next_page"})
    campaign.when({"type": "pass", "character": "Ann"})
    campaign.then_rejected(match=r"gave up his action of page 2: he protects Cid instead of acting \(L257\)")
    campaign.when(move("Ann", "Bob", "close"))
    campaign.then(events.LimitUsed(limit="movement"), events.MovementBegun(mover="Ann", page=2))
    campaign.given({"type": "next_page"})
    assert campaign.sheet("Ann")["actions_given_up"] == []
    campaign.dice(*[1] * 6).given(attack("Ann", "Bob", "strength"))  # his action is back


# --- simultaneous action (L132) ------------------------------------------------------------------


def test_one_felled_by_a_faster_character_makes_no_attack_l186(campaign) -> None:
    """L132 is about one moment: Fast (Edge 9) acts before Ann (Edge 6), and Health 0 ends her fight (L186)."""
    campaign.of("heroes")
    campaign.given(*in_battle(hero("Fast", agility=6, powers={"Blast": BLAST}), hero("Ann", powers={"Blast": BLAST})))
    campaign.dice(6, 6, 6, 2, 1, 1, 1, 1, 1).when(attack("Fast", "Ann"))
    campaign.then(events.LimitUsed(), events.LimitUsed(), events.Acted(), events.DiceRolled(), events.DiceRolled(),
                  events.Damaged(character="Ann", health=0), events.ExchangeOpened(exchange=ANY))
    campaign.when(attack("Ann", "Fast"))
    campaign.then_rejected(match=r"Ann is defeated and cannot continue the fight \(L186, L195\)")


def test_one_felled_by_his_own_group_still_attacks_but_neither_moves_nor_delays(campaign) -> None:
    campaign.of("heroes")
    campaign.given(*in_battle(hero("Ann", powers={"Blast": BLAST}), hero("Bea", powers={"Blast": BLAST}),
                              hero("Boss", role="villain")),
                   {"type": "set_distance", "character": "Bea", "other": "Boss", "distance": "far"})
    campaign.dice(6, 6, 6, 2, 1, 1, 1, 1, 1).when(attack("Ann", "Bea"))
    campaign.then(events.LimitUsed(), events.LimitUsed(), events.Acted(), events.DiceRolled(), events.DiceRolled(),
                  events.Damaged(character="Bea", health=0),
                  events.FelledInHisGroup(character="Bea", page=1, by="Ann"), events.ExchangeOpened(exchange=ANY))
    campaign.when(move("Bea", "Boss", "close"))
    campaign.then_rejected(match=r"Bea is defeated and cannot continue the fight")
    campaign.when({"type": "delay_action", "character": "Bea", "moment": "later"})
    campaign.then_rejected(match=r"his attack comes at the same moment as theirs \(L132\) or not at all")
    campaign.dice(6, 2, 1, 1, 1, 1, 1, 1, 1).when(attack("Bea", "Ann"))
    campaign.then(events.LimitUsed(), events.LimitUsed(), events.Acted(character="Bea"), events.DiceRolled(),
                  events.DiceRolled(), events.Damaged(character="Ann", damage=3, health=0),
                  events.ExchangeOpened())  # Ann had had her turn: nothing of hers is still to come


def test_one_felled_by_his_group_may_pass_and_then_the_slower_act(campaign) -> None:
    campaign.of("heroes")
    campaign.given(*in_battle(hero("Ann", powers={"Blast": BLAST}), hero("Bea"), hero("Boss", role="villain")))
    campaign.dice(6, 6, 6, 2, 1, 1, 1, 1, 1).given(attack("Ann", "Bea"))
    campaign.when(attack("Boss", "Ann", "strength"))
    campaign.then_rejected(match=r"Bea \(Edge 6\) acts before Boss in page 1")
    campaign.when({"type": "pass", "character": "Bea"})
    campaign.then(events.TurnPassed(character="Bea", page=1))
    campaign.dice(*[1] * 6).given(attack("Boss", "Ann", "strength"))
