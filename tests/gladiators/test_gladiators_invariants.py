"""The digest's §10 invariants as hypothesis properties over random command sequences.

Each example opens a battle with a valid gladiator and a squad, then runs random commands,
valid and invalid, drawn with what the sheets hold so that most turns can be fought. After every command the invariants are checked on what the projections
show; a refused command must have written nothing at all.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from tests.invariants import many_campaigns, playing, when_checked

from .gladiator_builders import gladiator

NAMES = ["Marcus", "Livia"]
ENEMIES = ["Squad", "Champion"]
MOVES = ["Lunge", "Parry", "Sweep", "Block", "Kick"]
ATTRIBUTES = ["Strength", "Agility", "Endurance", "Wits"]
SKILLS = ["Wrestling", "Riding", "Swimming", "Archery", "Boxing"]
SIDES = ["attack", "defence"]
TACTIC_SPLIT = {"total_defence": (0, 3), "strong_defence": (1, 2), "strong_attack": (2, 1), "total_attack": (3, 0)}
SKILL_PACKAGES = [{"expert": 2}, {"specialist": 4}, {"expert": 1, "specialist": 2}]


@st.composite
def valid_character(draw: Any) -> dict[str, Any]:
    raised = draw(st.permutations(ATTRIBUTES))
    if draw(st.booleans()):
        attributes = {raised[0]: "great"}
    else:
        attributes = {raised[0]: "very_good", raised[1]: "very_good"}
    package = draw(st.sampled_from(SKILL_PACKAGES))
    levels = [level for level, count in package.items() for _ in range(count)]
    skills = dict(zip(draw(st.permutations(SKILLS)), levels, strict=False))
    moves = dict(zip(draw(st.permutations(MOVES)), draw(st.lists(st.sampled_from(SIDES), min_size=4, max_size=4)),
                     strict=False))
    return gladiator(
        draw(st.sampled_from(NAMES)), attributes=attributes, skills=skills, signature_moves=moves,
        style=draw(st.sampled_from(["offensive", "defensive"])), motivation=draw(st.integers(2, 6)),
        class_skill={"name": "Shield", "applies_to": draw(st.sampled_from(SIDES))},
    )


def any_character() -> st.SearchStrategy[dict[str, Any]]:
    levels = st.sampled_from(["good", "very_good", "great"])
    return st.builds(
        lambda name, attributes, moves, skills, motivation, main: gladiator(
            name, attributes=attributes, signature_moves=moves, skills=skills, motivation=motivation, main_skill=main
        ),
        st.sampled_from(NAMES),
        st.dictionaries(st.sampled_from(ATTRIBUTES), levels, max_size=4),
        st.dictionaries(st.sampled_from(MOVES), st.sampled_from(SIDES), min_size=3, max_size=5),
        st.dictionaries(st.sampled_from(SKILLS), st.sampled_from(["expert", "specialist"]), max_size=5),
        st.integers(0, 8),
        st.sampled_from(["Fencing", "Wrestling"]),
    )


def combat_turn() -> st.SearchStrategy[dict[str, Any]]:
    related = st.lists(st.sampled_from(ATTRIBUTES + SKILLS), max_size=2)
    return st.fixed_dictionaries(
        {
            "type": st.just("combat_turn"),
            "character": st.sampled_from(NAMES),
            "enemy": st.sampled_from(ENEMIES),
            "tactic": st.sampled_from(list(TACTIC_SPLIT)),
            "attack_related": related,
            "defence_related": related,
            "gm_attack": st.integers(0, 40),
            "gm_defence": st.integers(0, 40),
            # Typed faces, or none at all: the campaign's own seeded dice (verified at the end).
            "dice": st.one_of(st.lists(st.integers(1, 6), min_size=3, max_size=3), st.none()),
        },
        optional={
            "attack_move": st.sampled_from(MOVES),
            "defence_move": st.sampled_from(MOVES),
            "use_motivation": st.booleans(),
            "spend_tokens": st.integers(0, 2),
            "standing": st.integers(0, 4),
            "skill": st.sampled_from(["Fencing", *SKILLS]),
        },
    )


def create_enemy() -> st.SearchStrategy[dict[str, Any]]:
    """A foe or a squad of fighters alike (`health` each), or a squad whose fighters differ (L23)."""
    return st.one_of(
        st.builds(lambda n, h, m: {"type": "create_enemy", "name": n, "health": h, "members": m},
                  st.sampled_from(ENEMIES), st.integers(1, 12), st.integers(1, 4)),
        st.builds(lambda n, hs: {"type": "create_enemy", "name": n, "member_health": hs},
                  st.sampled_from(ENEMIES), st.lists(st.integers(1, 12), min_size=2, max_size=4)),
    )


COMMANDS = st.one_of(
    combat_turn(), combat_turn(), combat_turn(), combat_turn(),
    valid_character(), any_character(),
    create_enemy(),
    st.just({"type": "start_battle"}), st.just({"type": "end_battle"}),
    st.builds(lambda c, a, e: {"type": "award_roleplay", "character": c, "amount": a, **e},
              st.sampled_from(NAMES), st.integers(1, 4), st.sampled_from([{}, {"enemy": "Squad"}, {"enemy": "Champion"}])),
    st.builds(lambda c: {"type": "grant_motivation", "character": c}, st.sampled_from(NAMES)),
    st.builds(lambda e, s: {"type": "report_standing", "enemy": e, "standing": s},
              st.sampled_from(ENEMIES), st.integers(0, 4)),
)
OPTIONS = st.fixed_dictionaries({
    "first_strike": st.sampled_from(["first_turn", "simultaneous", "per_foe"]),
    "one_time_modifiers": st.sampled_from(["after_roll", "before_roll"]),
    "motivation_refresh": st.sampled_from(["never", "battle"]),
})


def expected_max_health(sheet: dict[str, Any]) -> int:
    """§2.4 recomputed independently: raised attributes (Endurance 6/12), 6 + skills, motivation, + 1."""
    attribute = sum(
        {"good": 0, "very_good": 6, "great": 12}[level] if name == "Endurance" else {"good": 0, "very_good": 3, "great": 6}[level]
        for name, level in sheet["attributes"].items()
    )
    skills = sum({"expert": 4, "specialist": 2}[level] for level in sheet["skills"].values())
    return attribute + 6 + skills + sheet["motivation"] + 1


class Invariants:
    """What must hold after every command; remembers what it needs from one step to the next."""

    def __init__(self, campaign: Any, options: dict[str, str]) -> None:
        self.campaign = campaign
        self.options = options
        self.sheets: dict[str, dict[str, Any]] = {}
        self.motivation_spent: dict[str, bool] = {}
        #: Whether a turn was fought in the open battle: the players' first blow is its first turn's (L17).
        self.fought_in_battle = False
        #: The foes whose fall in the open battle has been awarded (L26, L30: once).
        self.awarded: set[str] = set()

    def read(self) -> dict[str, dict[str, Any]]:
        members = self.campaign.campaign_sheet()["members"]
        return {name: self.campaign.sheet(name) | {"kind": entry["kind"]} for name, entry in members.items()}

    def check(self, command: dict[str, Any], new_events: list[dict[str, Any]]) -> None:
        before, after = self.sheets, self.read()
        for name, sheet in after.items():
            if sheet["kind"] == "character":
                self.check_gladiator(sheet)
            else:
                self.check_enemy(sheet, before.get(name), between_battles=command["type"] == "end_battle")
        self.check_one_time_modifiers(new_events, before)
        if command["type"] == "combat_turn":
            self.check_turn(command, new_events, before, after)
            self.fought_in_battle = True
        if command["type"] == "award_roleplay" and "enemy" in command:  # L26, L30: one fall, one award
            assert command["enemy"] not in self.awarded
            self.awarded.add(command["enemy"])
        if command["type"] == "end_battle":  # L24: everyone's lost health comes back, a squad's standing too
            assert all(s["health"] == s["max_health"] and not s["beaten"] for s in after.values())
            assert all(s["standing"] == s["members"] for s in after.values() if s["kind"] == "enemy")
            self.fought_in_battle = False
            self.awarded = set()
        if command["type"] == "start_battle":  # 9: every gladiator at full health when a battle starts
            assert all(s["health"] == s["max_health"] and not s["beaten"] for s in after.values() if s["kind"] == "character")
        if command["type"] == "create_enemy":  # 11: a squad's health is the sum of its members' (L23)
            squad = after[command["name"]]
            fighters = command.get("member_health") or [command["health"]] * command.get("members", 1)
            assert squad["health"] == squad["max_health"] == sum(fighters)
            assert squad["standing"] == squad["members"] == len(fighters) and squad["member_health"] == fighters
        self.sheets = after

    @staticmethod
    def check_gladiator(sheet: dict[str, Any]) -> None:
        raised = Counter(sheet["attributes"].values())
        assert (raised["great"], raised["very_good"]) in ((1, 0), (0, 2))  # 1
        assert len(sheet["signature_moves"]) == 4 and set(sheet["signature_moves"].values()) <= set(SIDES)  # 2
        assert sheet["style"] in ("offensive", "defensive") and sheet["main_skill"]
        skills = Counter(sheet["skills"].values())
        assert dict(skills) in SKILL_PACKAGES  # 3
        assert 4 * skills["expert"] + 2 * skills["specialist"] == 8
        assert 2 <= sheet["motivation"] <= 6  # 4
        assert sheet["max_health"] == expected_max_health(sheet) and 23 <= sheet["max_health"] <= 33  # 5
        assert sheet["roleplay_tokens"] >= 0  # 10

    @staticmethod
    def check_enemy(sheet: dict[str, Any], before: dict[str, Any] | None, between_battles: bool) -> None:
        assert 0 <= sheet["standing"] <= sheet["members"]
        assert sheet["beaten"] == (sheet["health"] <= 0) and (sheet["standing"] == 0) == sheet["beaten"]
        if before is not None and not between_battles:  # 11 (Note): the standing count never increases in a battle
            assert sheet["standing"] <= before["standing"]
        fighters = sheet["member_health"]
        if len(set(fighters)) > 1 and not sheet["beaten"]:  # L23: the fallen lost theirs, the standing hold the rest
            down = sheet["members"] - sheet["standing"]
            assert sum(sorted(fighters)[:down]) <= sheet["max_health"] - sheet["health"]
            assert sheet["health"] <= sum(sorted(fighters, reverse=True)[:sheet["standing"]])

    def check_one_time_modifiers(self, new_events: list[dict[str, Any]], before: dict[str, Any]) -> None:
        """10: motivation at most once until granted again; tokens never spent beyond those held."""
        for event in new_events:
            name = event.get("character")
            if event["type"] == "MotivationUsed":
                assert not self.motivation_spent.get(name, False)
                self.motivation_spent[name] = True
            elif event["type"] == "MotivationRestored":
                self.motivation_spent[name] = False
            elif event["type"] == "TokensSpent":
                assert 0 < event["amount"] <= before[name]["roleplay_tokens"] and event["left"] >= 0

    def check_turn(self, command: dict[str, Any], new_events: list[dict[str, Any]],
                   before: dict[str, Any], after: dict[str, Any]) -> None:
        rolls = {r["id"]: r for r in self.campaign.rolls()}
        attack, defence = rolls[command["id"]], rolls[f"{command['id']}#2"]
        # 6: the tactic splits exactly three dice.
        assert (len(attack["faces"]), len(defence["faces"])) == TACTIC_SPLIT[command["tactic"]]
        for roll in (attack, defence):
            # 12: a side's total is its dice plus its modifiers (just the modifiers with 0 dice).
            assert roll["total"] == sum(roll["faces"]) + sum(m["value"] for m in roll["modifiers"])
            # 7: one signature move per side and turn.
            assert sum(m["source"].startswith("signature move") for m in roll["modifiers"]) <= 1
            # L4, L5: the Master's +6 and the style's +3 only in a turn fought with the main skill.
            with_main = command.get("skill", before[command["character"]]["main_skill"]) == (
                before[command["character"]]["main_skill"])
            assert any(m["source"].startswith("main skill") for m in roll["modifiers"]) == with_main
            assert with_main or not any(m["source"].endswith(" style") for m in roll["modifiers"])
        assert all(row["used"] <= 1 for row in self.campaign.limits())
        # 8: each side loses the positive margin of the opposing attack over its defence.
        lost = {(e.get("character") or e.get("enemy")): e["amount"] for e in new_events if e["type"] == "HealthLost"}
        dealt = max(0, attack["total"] - command["gm_defence"])
        taken = max(0, command["gm_attack"] - defence["total"])
        assert lost.get(command["enemy"], 0) == dealt
        assert after[command["enemy"]]["health"] == before[command["enemy"]]["health"] - dealt
        first_blow = after[command["enemy"]]["beaten"] and (
            (self.options["first_strike"] == "first_turn" and not self.fought_in_battle)
            or (self.options["first_strike"] == "per_foe" and any(e["type"] == "Engaged" for e in new_events))
        )
        assert lost.get(command["character"], 0) == (0 if first_blow else taken)
        gladiator_after = after[command["character"]]
        assert gladiator_after["health"] == before[command["character"]]["health"] - lost.get(command["character"], 0)


@st.composite
def sensible_turn(draw: Any, sheets: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """A turn the current sheets allow, mostly: the moves, raised attributes and skills the gladiator has."""
    gladiators = [s for s in sheets.values() if s["kind"] == "character"]
    foes = [s["name"] for s in sheets.values() if s["kind"] == "enemy" and not s["beaten"]]
    sheet = draw(st.sampled_from(gladiators))
    moves = {side: [m for m, kind in sheet["signature_moves"].items() if kind == side] for side in SIDES}
    modifiers = [a for a, level in sheet["attributes"].items() if level != "good" and a != "Endurance"]
    modifiers += list(sheet["skills"])
    related = st.lists(st.sampled_from(modifiers), unique=True, max_size=3)
    foe = draw(st.sampled_from(foes or ENEMIES))
    command = draw(combat_turn()) | {
        "character": sheet["name"],
        "enemy": foe,
        "attack_related": draw(related),
        "defence_related": draw(related),
        # Now and then one more than allowed: a second motivation, a token not held.
        "use_motivation": draw(st.integers(0, 3)) == 0,
        "spend_tokens": draw(st.integers(0, sheet["roleplay_tokens"] + (draw(st.integers(0, 4)) == 0))),
    }
    command.pop("skill", None)
    if draw(st.integers(0, 3)) == 0:
        command["skill"] = draw(st.sampled_from([sheet["main_skill"], *sheet["skills"], *SKILLS]))
    command.pop("standing", None)
    if foe in sheets and sheets[foe]["squad"] and draw(st.booleans()):
        command["standing"] = draw(st.integers(1, sheets[foe]["standing"]))
    for side, field in (("attack", "attack_move"), ("defence", "defence_move")):
        command.pop(field, None)
        if moves[side] and draw(st.booleans()):
            command[field] = draw(st.sampled_from(moves[side]))
    return command


@st.composite
def next_command(draw: Any, sheets: dict[str, dict[str, Any]], battle_open: bool, step: int) -> dict[str, Any]:
    """Mostly what can be played next (a battle to fight in, a foe still standing, a turn), sometimes anything."""
    if draw(st.integers(0, 9)) < 2:
        return draw(COMMANDS)
    if not battle_open:
        return {"type": "start_battle"}
    roll = draw(st.integers(0, 9))
    if roll == 0 or any(s["beaten"] for s in sheets.values() if s["kind"] == "character"):
        return {"type": "end_battle"}
    if roll == 1:
        names = [s["name"] for s in sheets.values() if s["kind"] == "character"]
        return {"type": "award_roleplay", "character": draw(st.sampled_from(names)), "amount": draw(st.integers(1, 3))}
    if roll == 2:
        beaten = [s["name"] for s in sheets.values() if s["kind"] == "enemy" and s["beaten"]]
        if beaten:  # a slaughter's award, now and then a second time
            names = [s["name"] for s in sheets.values() if s["kind"] == "character"]
            foe = sheets[draw(st.sampled_from(beaten))]
            return {"type": "award_roleplay", "character": draw(st.sampled_from(names)),
                    "amount": foe["members"], "enemy": foe["name"]}
    if all(s["beaten"] for s in sheets.values() if s["kind"] == "enemy"):
        return draw(create_enemy()) | {"name": f"Foe {step}"}
    return draw(sensible_turn(sheets))


@many_campaigns
@given(options=OPTIONS, data=st.data())
def test_the_invariants_hold_after_every_command(options: dict[str, str], data: st.DataObject) -> None:
    with playing("gladiators", options) as campaign:
        invariants = Invariants(campaign, options)
        setup = [gladiator(), {"type": "create_enemy", "name": "Squad", "health": 8, "members": 3},
                 {"type": "start_battle"}]
        for command in setup:
            campaign.given(command)
        invariants.sheets = invariants.read()
        for step in range(data.draw(st.integers(1, 24), label="steps")):
            battle_open = campaign.campaign_sheet()["clock"]["battle"]["open"]
            command = data.draw(next_command(invariants.sheets, battle_open, step)) | {"id": f"p{step}"}
            when_checked(campaign, command, lambda: invariants.check(command, campaign.last_events))
