"""Every invariant of the digest's §17, over random sequences of valid and invalid commands.

Each example builds a small crew, then applies a random list of commands — most of them
plausible, many of them against the rules — through the testing kit. After every command:

- a refused command wrote nothing and changed no sheet;
- the invariants of §17 hold on every sheet, and on the events the command produced.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rollbook.domain.rulesets.pirates import RULESET, rules
from rollbook.testing import new_campaign

PIRATES = {"Anna": "anna", "Bo": "bo", "Cid": None}
SHIPS = ("Chaika", "Brig")
NAMES = (*PIRATES, "Nobody")
SECRETS = ("X1", "X2", "X3", "X4", "X5")
ENEMIES = ("Governor", "Kraken", None)
LIMIT_COUNTS = {limit.name: limit.count for limit in RULESET.limits}

#: Three good faces, cut to what the command rolls (`Witness.resolve`); or faces that do not fit.
faces = st.builds(lambda f: ["@fit", *f], st.lists(st.integers(1, 6), min_size=3, max_size=3))
bad_faces = st.lists(st.integers(0, 7), min_size=0, max_size=4)
#: ... or none at all: the campaign's own seeded dice (a verify at the end recomputes them).
dice = st.one_of(*[faces] * 8, bad_faces, st.none(), st.none())
# Mostly valid names and actors, so that sequences go deep; sometimes not, so refusals are exercised.
pirate = st.sampled_from((*tuple(PIRATES) * 6, "Nobody"))
ship = st.sampled_from((*SHIPS * 6, "Ghost"))
actor = st.sampled_from(("gm",) * 10 + ("player:anna", "player:bo"))
amount = st.fixed_dictionaries({}, optional={"chests": st.integers(0, 7), "doubloons": st.integers(0, 12),
                                             "piastres": st.integers(0, 9)})


def cmd(kind: str, **fields: Any) -> st.SearchStrategy[dict[str, Any]]:
    return st.fixed_dictionaries({"type": st.just(kind), "actor": actor, **fields})


COMMANDS = st.one_of(
    cmd("roll_move", character=pirate, stat=st.sampled_from(rules.STATS), dice=dice,
        luck_bonus=st.booleans(), advantage=st.booleans(), disadvantage=st.booleans(),
        move=st.sampled_from(("cross_anchors", "dont_go_under", "wild_carousing", "patch_the_breach", "bogus")),
        ship=st.sampled_from(SHIPS)),
    cmd("spend_luck", character=pirate, purpose=st.sampled_from(("roll_bonus", "help", "hinder", "reputation")),
        roll=st.just("@last")),
    cmd("trade_success_for_luck", character=pirate, roll=st.just("@last")),
    cmd("take_damage", character=pirate, harm=st.integers(1, 4), absorb_with_luck=st.one_of(st.integers(0, 3), st.booleans()),
        level=st.sampled_from(rules.WOUND_LEVELS)),
    cmd("treat_wound", character=pirate, level=st.sampled_from(rules.WOUND_LEVELS), count=st.integers(1, 2),
        heal=st.booleans()),
    cmd("meet_fate", character=pirate, dice=dice),
    cmd("choose_fate", character=pirate, option=st.sampled_from([*rules.FATE_OPTIONS, rules.FATE_NARRATED])),
    cmd("pirate_code", character=pirate, kept=st.booleans()),
    cmd("lower_reputation", character=pirate, points=st.integers(1, 3)),
    cmd("gain_ambush_token", character=pirate, enemy=st.sampled_from(ENEMIES[:2])),
    cmd("spend_ambush_token", character=pirate, enemy=st.sampled_from(ENEMIES[:2])),
    cmd("start_carousal"), cmd("end_carousal"), cmd("tell_tall_tale", character=pirate),
    cmd("gain_money", to=st.sampled_from((*NAMES, *SHIPS)), **{k: st.integers(0, 8) for k in ("chests", "piastres")}),
    st.builds(lambda base, source: {**base, "from": source}, cmd("spend_money", chests=st.integers(0, 3),
              piastres=st.integers(0, 60)), st.sampled_from((*NAMES, *SHIPS))),
    st.builds(lambda base, source: {**base, "from": source}, cmd("transfer_money", to=st.sampled_from((*NAMES, *SHIPS)),
              chests=st.integers(0, 3)), st.sampled_from((*NAMES, *SHIPS))),
    cmd("take_hole", ship=ship),
    cmd("take_breakdown", ship=ship, breakdown=st.sampled_from(tuple(rules.BREAKDOWNS))),
    cmd("repair_ship", ship=ship, what=st.sampled_from(("hull", "breakdown"))),
    cmd("enter_port", ship=ship), cmd("put_to_sea", ship=ship),
    cmd("meet_condition", ship=ship, condition=st.sampled_from(rules.CONDITIONS)),
    cmd("upgrade_ship", ship=ship, option=st.sampled_from(tuple(rules.UPGRADES)),
        pick=st.sampled_from(("black_flag", "ghost_ship", "strong_sails", "signal_lanterns"))),
    cmd("gain_secret", ship=st.sampled_from(SHIPS), secret=st.sampled_from(SECRETS),
        strike=st.sampled_from((None,) * 4 + SECRETS)),
    cmd("scheme", ship=st.sampled_from(SHIPS), leader=pirate, goal=st.sampled_from(("loot", "escape")),
        secrets=st.lists(st.sampled_from(SECRETS[:3]), min_size=0, max_size=2, unique=True),
        council=st.lists(st.sampled_from(NAMES), max_size=4), luck_bonus=st.booleans(), dice=dice),
    cmd("end_plan", ship=st.sampled_from(SHIPS)),
    cmd("start_negotiation", negotiator=pirate, opponent=st.sampled_from(("Governor", "Bo", "Cid")),
        opponent_kind=st.sampled_from(("threat", "character", "pirate")), ship=st.sampled_from(SHIPS)),
    st.builds(
        lambda base, bets, tie_dice: {**base, "pirate_bet": bets[0], "opponent_bet": bets[1],
                                      **({"dice": tie_dice} if bets[0] == bets[1] else {})},
        cmd("negotiation_round", secret=st.sampled_from((None, *SECRETS)),
            opponent_secret=st.sampled_from((None, "Anna's debts"))),
        st.tuples(st.sampled_from(("purse", "life", "glory")), st.sampled_from(("purse", "life", "glory"))),
        st.lists(st.integers(1, 6), min_size=2, max_size=2),
    ),
    cmd("concede_negotiation"),
    cmd("create_character", name=st.sampled_from(("Dee", "Eve", "Anna")), player=st.sampled_from((None, "anna")),
        luck=st.integers(-1, 3), stats=st.fixed_dictionaries({stat: st.integers(-3, 3) for stat in rules.STATS})),
    cmd("start_scene", enemy=st.sampled_from(ENEMIES)), cmd("end_scene"),
    cmd("start_battle"), cmd("end_battle"), cmd("start_chapter"), cmd("end_chapter"),
)


#: Short plausible sequences, so that deep states (fate, plans, negotiations, developments) are reached.
def chunk(*steps: st.SearchStrategy[dict[str, Any]]) -> st.SearchStrategy[list[dict[str, Any]]]:
    return st.tuples(*steps).map(list)


one_pirate = st.sampled_from(tuple(PIRATES))
one_ship = st.sampled_from(SHIPS)
CHUNKS = st.one_of(
    COMMANDS.map(lambda c: [c]),
    # a roll, then the roller's own +1 or the Cartographer's trade, or a crewmate's help or hindrance
    st.tuples(one_pirate, one_pirate).flatmap(lambda pair: chunk(
        cmd("roll_move", character=st.just(pair[0]), stat=st.sampled_from(rules.STATS), dice=faces),
        st.one_of(st.just({"type": "spend_luck", "character": pair[0], "purpose": "roll_bonus"}),
                  st.just({"type": "trade_success_for_luck", "character": pair[0], "roll": "@last"}),
                  cmd("spend_luck", character=st.just(pair[1]), purpose=st.sampled_from(("help", "hinder")),
                      roll=st.just("@last"))),
    )),
    # terrible wounds with little luck: fate is called, met and chosen
    one_pirate.flatmap(lambda p: chunk(
        *[st.just({"type": "take_damage", "character": p, "harm": 1, "level": "terrible"})] * 3,
        st.just({"type": "take_damage", "character": p, "harm": 4}),
        cmd("meet_fate", character=st.just(p), dice=faces),
        cmd("choose_fate", character=st.just(p), option=st.sampled_from(tuple(rules.FATE_OPTIONS))),
        cmd("treat_wound", character=st.just(p), level=st.just("terrible"), count=st.integers(1, 3),
            heal=st.booleans()),
    )),
    # a scheme on a secret just learned, a roll of the plan with a chance, the plan's end
    st.tuples(one_ship, st.sampled_from(SECRETS)).flatmap(lambda pair: chunk(
        st.just({"type": "gain_secret", "ship": pair[0], "secret": pair[1]}),
        cmd("scheme", ship=st.just(pair[0]), leader=one_pirate, goal=st.just("loot"), secrets=st.just([pair[1]]),
            council=st.lists(one_pirate, max_size=3, unique=True), dice=faces),
        cmd("roll_move", character=one_pirate, stat=st.just("guile"), dice=faces, advantage=st.booleans(),
            disadvantage=st.booleans(), ship=st.just(pair[0])),
        cmd("end_plan", ship=st.just(pair[0])),
    )),
    # a whole negotiation
    chunk(cmd("start_negotiation", negotiator=one_pirate, opponent=st.sampled_from(("Governor", "Bo", "Cid")),
              opponent_kind=st.sampled_from(("threat", "character", "pirate")), ship=one_ship),
          *[st.builds(lambda bets, d: {"type": "negotiation_round", "pirate_bet": bets[0], "opponent_bet": bets[1],
                                       **({"dice": d} if bets[0] == bets[1] else {})},
                      st.tuples(st.sampled_from(("purse", "life", "glory")), st.sampled_from(("purse", "life", "glory"))),
                      st.lists(st.integers(1, 6), min_size=2, max_size=2))] * 2,
          st.one_of(cmd("concede_negotiation"), st.builds(
              lambda bets: {"type": "negotiation_round", "pirate_bet": bets[0], "opponent_bet": bets[1],
                            **({"dice": [3, 4]} if bets[0] == bets[1] else {})},
              st.tuples(st.sampled_from(("purse", "life")), st.sampled_from(("purse", "glory")))))),
    # port: money, two conditions, a development and repairs
    st.tuples(one_ship, st.sampled_from(tuple(rules.UPGRADES))).flatmap(lambda pair: chunk(
        st.just({"type": "enter_port", "ship": pair[0]}), st.just({"type": "gain_money", "to": pair[0], "chests": 8}),
        st.lists(st.sampled_from(rules.CONDITIONS), min_size=2, max_size=2, unique=True).map(
            lambda conditions: {"type": "meet_condition", "ship": pair[0], "condition": conditions[0]}),
        st.sampled_from(rules.CONDITIONS).map(lambda c: {"type": "meet_condition", "ship": pair[0], "condition": c}),
        st.just({"type": "upgrade_ship", "ship": pair[0], "option": pair[1],
                 **({"pick": {"additional_ship": "black_flag", "rigging": "strong_sails"}[rules.UPGRADES[pair[1]]["pick"]]}
                    if "pick" in rules.UPGRADES[pair[1]] else {})}),
        cmd("repair_ship", ship=st.just(pair[0]), what=st.sampled_from(("hull", "breakdown"))),
    )),
    # a carousal with tales
    chunk(st.just({"type": "start_carousal", "ship": "Brig"}), cmd("tell_tall_tale", character=one_pirate),
          cmd("tell_tall_tale", character=one_pirate), st.just({"type": "end_carousal"})),
)


def _setup(options: dict[str, Any]) -> Any:
    campaign = new_campaign("pirates", **options)
    for name, player in PIRATES.items():
        command = {"type": "create_character", "name": name, "luck": 2, "purse_piastres": 120,
                   "stats": {"audacity": 2, "guile": 0, "foresight": 1, "reputation": -1}}
        if player:
            command["player"] = player
        campaign.given(command)
    campaign.given(
        {"type": "create_ship", "name": "Chaika", "navigation": 2, "firepower": 3, "displacement": 1, "hull": 2,
         "secrets": ["X1", "X2"], "treasury_piastres": 400},
        {"type": "create_ship", "name": "Brig", "navigation": 3, "firepower": 1, "displacement": 0, "hull": 5,
         "in_port": True, "treasury_piastres": 100},
        {"type": "start_chapter"}, {"type": "start_scene", "enemy": "Governor"}, {"type": "start_battle"},
    )
    return campaign


def _sheets(campaign: Any) -> dict[str, dict[str, Any]]:
    campaign.reader.catch_up()
    return {sheet["name"]: sheet for _, sheet in campaign.reader.sheets(campaign.name)}


def _position(campaign: Any) -> int:
    return campaign.store.app.recorder.max_notification_id() or 0


class Witness:
    """What the invariants need to remember across commands."""

    def __init__(self) -> None:
        self.last_roll: str | None = None
        self.limit_uses: Counter[tuple[str, str, str]] = Counter()
        self.struck: dict[str, set[str]] = {}
        self.rounds = 0

    def resolve(self, command: dict[str, Any]) -> dict[str, Any]:
        if command.get("roll") == "@last":
            command = {**command, "roll": self.last_roll or "no-roll"}
        if (command.get("dice") or [None])[:1] == ["@fit"]:
            three = command.get("advantage", False) != command.get("disadvantage", False)
            command = {**command, "dice": command["dice"][1:4 if three else 3]}
        return {k: v for k, v in command.items() if v is not None}


def _check_state(sheets: dict[str, dict[str, Any]]) -> None:
    for sheet in sheets.values():
        if "stats" in sheet:
            assert all(rules.STAT_MIN <= v <= rules.STAT_MAX for v in sheet["stats"].values()), sheet  # 1, 24
            assert sheet["luck"] >= 0  # 2
            assert len(sheet["slots"]) == rules.WOUND_SLOTS  # 3
            assert all(s in (None, *rules.WOUND_LEVELS) for s in sheet["slots"])
            assert sum(sheet["wounds"].values()) <= rules.WOUND_SLOTS
            serious, terrible = sheet["wounds"]["serious"] > 0, sheet["wounds"]["terrible"] > 0
            assert sheet["modifier"] == -sheet["pending_light"] - serious - 2 * terrible  # 6
            assert sheet["modifier"] >= -3 - sheet["pending_light"]
            move = sheet["move"]
            if move is not None:  # 9
                assert move["outcome"] == (rules.MISS if move["traded"] else rules.band(move["total"]))
            assert len(set(sheet["fate_struck"])) == len(sheet["fate_struck"]) <= len(rules.FATE_OPTIONS)  # 12
            assert sheet["purse_piastres"] >= 0  # 21
        else:
            assert len(sheet["secrets"]) <= rules.SECRETS_MAX  # 13
            assert sheet["chances"] >= 0 and sheet["gm_chances"] >= 0  # 15
            assert all(sheet[s] <= rules.SHIP_STAT_MAX for s in rules.SHIP_STATS)  # 16
            assert 0 <= sheet["hull"] <= rules.HULL_MAX
            assert sheet["treasury_piastres"] >= 0  # 21
            assert len(set(sheet["developments"])) == len(sheet["developments"])  # 20


def _check_command(
    command: dict[str, Any], events: list[dict[str, Any]], before: dict[str, dict[str, Any]],
    after: dict[str, dict[str, Any]], witness: Witness, rolls: dict[str, dict[str, Any]],
) -> None:
    kind = command["type"]
    of = Counter(e["type"] for e in events)
    for event in events:
        if event["type"] == "LimitUsed":  # 8, 18, 20, 23 and every other counted limit
            key = (event["limit"], event["instance"], event["holder"])
            witness.limit_uses[key] += 1
            assert witness.limit_uses[key] <= LIMIT_COUNTS[event["limit"]], key
        if event["type"] == "MoveRolled":
            witness.last_roll = event["roll"]
            assert after[event["character"]]["pending_light"] == 0  # 7
        if event["type"] == "DiceRolled":  # 10, 11
            roll = event["roll"]
            kept = [d["faces"][0] for d in roll["dice"] if d["kept"]]
            dropped = [d["faces"][0] for d in roll["dice"] if not d["kept"]]
            assert len(kept) == 2
            if roll["notation"] == "3d6kh2":
                assert all(x >= y for x in kept for y in dropped)
            elif roll["notation"] == "3d6kl2":
                assert all(x <= y for x in kept for y in dropped)
            else:
                assert roll["notation"] == "2d6" and not dropped
            if roll["purpose"] == "meet_fate":
                assert roll["modifiers"] == [] and roll["total"] == sum(kept)
                assert (roll["total"] == 12) == any(e["type"] == "LuckGained" for e in events)
        if event["type"] == "FateChosen" and event["option"] != rules.FATE_NARRATED:  # 12
            player = after[event["character"]]["player"] or event["character"]
            assert event["option"] not in witness.struck.setdefault(player, set())
            witness.struck[player].add(event["option"])
        if event["type"] == "Holed":  # 17
            assert event["hull"] == before[event["ship"]]["hull"] - 1
        if event["type"] == "Sinking":
            assert before[event["ship"]]["hull"] == 0 == after[event["ship"]]["hull"]
        if event["type"] == "BrokeDown":  # 18
            stat = rules.BREAKDOWNS[event["breakdown"]]
            assert after[event["ship"]][stat] == before[event["ship"]][stat] - 1
            assert before[event["ship"]]["breakdown"] is None
        if event["type"] == "BreakdownRemoved":  # 18, 19
            ship_before = before[event["ship"]]
            assert ship_before["in_port"]
            raised = ship_before[event["stat"]] + 1
            assert (event["value"], event["hull"] - ship_before["hull"]) in ((raised, 0), (rules.SHIP_STAT_MAX, 1), (rules.SHIP_STAT_MAX, 0))
        if event["type"] == "HullRepaired":  # 19
            assert event["hull"] == before[event["ship"]]["hull"] + 1
            assert (event["at"] == "port") == before[event["ship"]]["in_port"]
        if event["type"] == "Developed":  # 20
            ship_before = before[event["ship"]]
            assert ship_before["in_port"] and len(ship_before["conditions"]) >= rules.DEVELOPMENT_CONDITIONS_NEEDED
            assert ship_before["treasury_piastres"] >= rules.piastres(chests=rules.DEVELOPMENT_CHESTS)
            assert event["hull"] == min(rules.HULL_MAX, ship_before["hull"] + 1 + (
                1 if event["stat"] and ship_before[event["stat"]] == rules.SHIP_STAT_MAX else 0))
        if event["type"] == "Schemed":  # 14
            marked = command["secrets"]
            assert not set(marked) & set(after[event["ship"]]["secrets"])
            outcome = rolls[event["roll"]]["outcome"]
            expected = {rules.FULL_SUCCESS: (len(marked) + 2, 0), rules.PARTIAL_SUCCESS: (len(marked), 0)}
            assert (event["chances"], event["gm_chances"]) == expected.get(outcome, (0, len(marked)))
            council = [m for m in rolls[event["roll"]]["modifiers"] if m["source"].startswith("council")]
            assert sum(m["value"] for m in council) <= rules.COUNCIL_BONUS_MAX
        if event["type"] == "NegotiationRoundPlayed":  # 22
            assert event["number"] <= rules.NEGOTIATION_ROUNDS
            assert 0 <= event["trumps"] <= 2 and (event["winner"] is None) == (event["trumps"] == 0)
        if event["type"] == "NegotiationEnded":
            assert all(t >= 0 for t in event["trumps"].values())
            if event["loser"] is not None:
                loser = event["loser"]
                lost = sum(e["amount"] for e in events if e["type"] == "LuckLost" and e.get("character") == loser)
                assert lost == min(event["margin"], before[loser]["luck"])
                called = any(e["type"] == "FateCalledAtOnce" and e.get("character") == loser for e in events)
                assert called == (event["margin"] > before[loser]["luck"])
                assert after[loser]["wounds"] == before[loser]["wounds"]
    if kind == "take_damage":  # 4: each point handled exactly one way
        handled = of["Wounded"] + of["FateCalled"] + sum(
            1 for e in events if e["type"] in ("LuckSpent", "LuckLost")
            and e.get("purpose", e.get("reason")) in ("avoid_wound", "no_free_wound_slot")
        )
        assert handled == command["harm"]
        assert of["FateCalled"] == 0 or after[command["character"]]["luck"] == 0  # 2
    if kind == "end_chapter":  # 5
        assert all(sheet["wounds"]["light"] == 0 for sheet in after.values() if "stats" in sheet)
    if kind == "create_character":  # 1: at creation every stat is within −2…+2
        assert all(rules.STAT_MIN <= v <= rules.STAT_MAX_AT_CREATION for v in after[command["name"]]["stats"].values())
        player = command.get("player")
        assert set(after[command["name"]]["fate_struck"]) == (witness.struck.get(player, set()) if player else set())
    if kind == "tell_tall_tale":  # 23
        assert of["LuckGained"] == 1


@pytest.mark.slow  # hypothesis: many generated campaigns, each played command by command
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(
    commands=st.lists(CHUNKS, min_size=3, max_size=14).map(lambda chunks: [c for part in chunks for c in part]),
    options=st.fixed_dictionaries({}, optional={
        name: st.sampled_from(option.allowed) for name, option in rules.OPTIONS.items()
    }),
)
def test_the_invariants_hold_after_every_command(commands: list[dict[str, Any]], options: dict[str, Any]) -> None:
    campaign = _setup(options)
    witness = Witness()
    try:
        before = _sheets(campaign)
        _check_state(before)
        for index, raw in enumerate(commands):
            command = witness.resolve({**raw, "id": f"c{index}"})
            position = _position(campaign)
            campaign.when(command)
            after = _sheets(campaign)
            if campaign.error is not None:
                assert _position(campaign) == position, f"{command} was refused but wrote events"
                assert after == before, f"{command} was refused but changed a sheet"
                continue
            rolls = {r["id"]: r for r in campaign.rolls()}
            _check_state(after)
            _check_command(command, campaign.last_events, before, after, witness, rolls)
            before = after
        # With the campaign's own dice among them: revealed, every seeded roll must verify.
        assert campaign.verifies() == []
    finally:
        campaign.close()
