"""The digest's §11 invariants as hypothesis properties over random command sequences.

Each example creates two heroes, a villain and a minion group under random rule options, opens a
story, an issue, a scene, a battle and its first page, then runs random commands, valid and
invalid (the dice come from the campaign's seeded source). After every applied command each
invariant is checked on the whole event stream and the projected sheets; a refused command must
have written nothing at all.
"""

from __future__ import annotations

from collections import Counter
from math import ceil
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from rollbook.domain.rulesets.heroes import rules
from tests.invariants import many_campaigns, playing, when_checked

from .heroes_builders import STUN, hero, minions

HEROES = ["Ann", "Bea"]
NAMES = [*HEROES, "Boss", "Goons"]
TRAITS = ["strength", "agility", "will", "Blast", "Stun", "Charisma"]
ABILITY = st.sampled_from(list(rules.ABILITIES))

OPTIONS = st.fixed_dictionaries({
    "trait_limit": st.integers(5, 9),
    **{name: st.sampled_from(option.allowed) for name, option in rules.OPTIONS.items() if name != "trait_limit"},
})


def someone() -> st.SearchStrategy[str]:
    return st.sampled_from(NAMES)


def command(kind: str, **fields: Any) -> st.SearchStrategy[dict[str, Any]]:
    return st.fixed_dictionaries({"type": st.just(kind), **fields})


COMMANDS = st.one_of(
    command("next_page"),
    command("pass", character=someone()),
    command("attack", attacker=someone(), target=someone(), trait=st.sampled_from(TRAITS),
            resolve=st.integers(0, 2), charge=st.booleans(), all_out=st.booleans(), redirect=st.booleans()),
    command("roll_check", character=someone(), trait=st.sampled_from(TRAITS), difficulty=st.integers(0, 5),
            resolve=st.integers(0, 1)),
    command("spend_resolve", character=someone(), purpose=st.sampled_from(["dice", "reroll"]),
            amount=st.integers(1, 2)),
    command("spend_resolve", character=someone(),
            purpose=st.sampled_from(["back_in_the_fight", "act_first", "knockback", "redirect", "shake_off"]),
            effect=st.just("stun")),
    command("spend_resolve", character=someone(), purpose=st.just("transfer"), to=someone(),
            indirect=st.booleans(), narration=st.just("helps")),
    command("take_damage", character=someone(), amount=st.integers(0, 6)),
    command("declare_defining_moment", character=someone(), effort=st.sampled_from(["physical", "mental"]),
            lasting=st.booleans()),
    command("end_defining_moment", character=someone()),
    command("lower_ability", character=someone(), ability=ABILITY),
    command("gain_resolve", character=someone(), reason=st.sampled_from(["defeat", "flaw", "desperation"])),
    command("spend_adversity", purpose=st.sampled_from(["problem", "villainous_act"]), villain=st.just("Boss")),
    command("gain_adversity", reason=st.just("gm")),
    command("help", helper=someone(), character=someone(), trait=st.sampled_from(TRAITS)),
    command("team_attack", target=someone(), members=st.lists(
        st.fixed_dictionaries({"attacker": someone(), "trait": st.sampled_from(TRAITS), "explode": st.booleans()}),
        min_size=2, max_size=2)),
    command("area_attack", attacker=someone(), targets=st.lists(someone(), min_size=1, max_size=2, unique=True),
            trait=st.sampled_from(TRAITS)),
    command("apply_effect", character=someone(), effect=st.just("stun"), pages=st.integers(1, 4)),
    command("declare_actions", character=someone(), count=st.integers(2, 3)),
    command("protect", character=someone(), ward=someone()),
    command("all_out_defence", character=someone()),
    command("recover", character=someone()),
    st.sampled_from([{"type": t} for t in (
        "end_battle", "start_battle", "end_scene", "start_scene", "end_issue", "start_issue", "end_story",
        "start_story")]),
)


OWN_TRAITS = {"Ann": ["Blast", "agility", "strength"], "Bea": ["Stun", "Charisma", "will"],
              "Boss": ["strength", "agility"], "Goons": ["strength"]}


@st.composite
def sensible(draw: Any, campaign: Any) -> dict[str, Any]:
    """Mostly what can be played next, read off the sheets and the clock."""
    doc = campaign.campaign_sheet()
    clock = {scope: entry["open"] for scope, entry in doc["clock"].items()}
    for scope in ("story", "issue", "scene"):
        if not clock.get(scope):
            return {"type": f"start_{scope}"}
    sheets = {name: campaign.sheet(name) for name in NAMES}
    standing = [n for n in NAMES if not sheets[n]["defeated"]]
    owing = [n for n in NAMES if sheets[n]["must_lower_ability"]]
    if owing and draw(st.integers(0, 3)):
        name = owing[0]
        ability = draw(st.sampled_from(rules.EFFORT_ABILITIES[sheets[name]["must_lower_ability"]]))
        return {"type": "lower_ability", "character": name, "ability": ability}
    if not clock.get("battle"):
        return draw(st.sampled_from([
            {"type": "start_battle"}, {"type": "end_scene"}, {"type": "recover", "character": "Ann"},
            {"type": "end_issue"}, {"type": "end_story"}, {"type": "start_battle"}]))
    if doc["battle_page"] is not None and doc["page"] < doc["battle_page"]:
        return {"type": "next_page"}
    roll = draw(st.integers(0, 19))
    exchange = doc["exchange"]
    if roll <= 5 and len(standing) >= 2:
        attacker = draw(st.sampled_from(standing))
        target = draw(st.sampled_from([n for n in NAMES if n != attacker and sheets[n]["health"] > 0] or NAMES))
        return {"type": "attack", "attacker": attacker, "target": target,
                "trait": draw(st.sampled_from(OWN_TRAITS[attacker])), "resolve": draw(st.integers(0, 1)),
                "charge": draw(st.booleans()), "redirect": draw(st.booleans())}
    if roll <= 7 and exchange is not None:
        entry = draw(st.sampled_from(exchange["rolls"]))
        purpose = draw(st.sampled_from(["dice", "dice", "reroll", "knockback", "redirect"]))
        return {"type": "spend_resolve", "character": entry["character"], "purpose": purpose, "roll": entry["id"]}
    if roll == 8:
        return {"type": "next_page"}
    if roll == 9:
        return {"type": "declare_defining_moment", "character": draw(st.sampled_from(HEROES)),
                "effort": draw(st.sampled_from(["physical", "mental"])), "lasting": draw(st.booleans())}
    if roll == 10:
        return {"type": "team_attack", "target": draw(st.sampled_from(["Boss", "Goons"])), "members": [
            {"attacker": "Ann", "trait": "Blast", "explode": draw(st.booleans())},
            {"attacker": "Bea", "trait": "Stun", "explode": draw(st.booleans())}]}
    if roll == 11:
        fallen = [n for n in NAMES if sheets[n]["defeated"]] or NAMES
        return {"type": "spend_resolve", "character": draw(st.sampled_from(fallen)),
                "purpose": draw(st.sampled_from(["back_in_the_fight", "shake_off"])), "effect": "stun"}
    if roll == 12:
        return {"type": "gain_resolve", "character": draw(st.sampled_from(HEROES)), "reason": "desperation"}
    if roll == 13:
        return {"type": "end_battle"}
    if roll == 14:
        return {"type": "declare_actions", "character": draw(st.sampled_from(NAMES)), "count": 2}
    if roll == 15:
        return {"type": "end_defining_moment", "character": draw(st.sampled_from(HEROES))}
    if roll in (16, 17) and standing:  # the faster let the slower act (L126)
        return {"type": "pass", "character": draw(st.sampled_from(standing))}
    return draw(st.sampled_from([
        {"type": "end_scene"}, {"type": "end_issue"}, {"type": "spend_resolve", "character": "Ann",
                                                       "purpose": "act_first"},
        {"type": "help", "helper": "Bea", "character": "Ann", "trait": "will"}]))


class Invariants:
    def __init__(self, campaign: Any, options: dict[str, Any]) -> None:
        self.campaign = campaign
        self.options = options

    def check(self, applied: dict[str, Any]) -> None:
        events = self.campaign.events()
        self.dice(events)
        self.resources_and_sheets()
        self.limits(events, applied)
        self.exchange()
        if applied["type"] == "start_issue":
            self.issue_start(events)

    def dice(self, events: list[dict[str, Any]]) -> None:
        """1: successes per face; 3: explosions only in a Defining Moment or a team attack bought with Resolve."""
        moment_rolls = {e["roll"] for e in events if e["type"] == "DefiningMomentRolled"}
        rolls = {e["roll"]["id"]: e["roll"] for e in events if e["type"] == "DiceRolled"}
        # Every seeded roll takes its own nonce, in order: both sides of an opposed roll too (issue 15).
        nonces = [r["nonce"] for r in rolls.values() if r["source"] == "hmac"]
        assert nonces == list(range(len(nonces))), nonces
        for roll in rolls.values():
            assert roll["total"] == sum(rules.SUCCESSES[f] for f in roll["faces"]), roll
            if any(len(d["faces"]) > 1 for d in roll["dice"]):
                origin = rolls.get(roll.get("adds_to") or roll.get("rerolls") or roll["id"], roll)
                team = origin["purpose"] == "attack:attack" and origin["explode"] and not origin["dm"]
                assert origin["id"] in moment_rolls or team, roll

    def resources_and_sheets(self) -> None:
        """4, 6, 7, 8: Resolve and Adversity ≥ 0; Edge, MaxHealth and Health by their formulas."""
        doc = self.campaign.campaign_sheet()
        assert doc["adversity"] >= 0 and (doc["scene_adversity"] or 0) >= 0
        for name in NAMES:
            sheet = self.campaign.sheet(name)
            a = sheet["abilities"]
            assert sheet["resolve"] >= 0
            edge = a["perception"] + max(a["agility"], a["intellect"])
            assert sheet["edge"] in (edge, 2 * edge)
            if sheet["edge"] != edge:
                assert self.options["act_first"] == "double_edge"
            if sheet["role"] != "minion":
                assert sheet["max_health"] == ceil((a["stamina"] + max(a["strength"], a["will"])) / 2)
            assert 0 <= sheet["health"] <= sheet["max_health"]
            if sheet["health"] == 0:
                assert sheet["defeated"]
            for effect in sheet["effects"].values():
                # 8: a Power's effect lasting as many pages as the Health left defeats (L195), checked
                # whenever Health falls; a manoeuvre's is a penalty (L224-L231).
                if effect["until"] == "pages" and effect.get("defeats", True):
                    assert effect["pages"] < sheet["health"], (name, effect)

    def limits(self, events: list[dict[str, Any]], applied: dict[str, Any]) -> None:
        """10-14, 17, 18: the once-only rules over the whole stream, by the scopes they count in."""
        now = Counter()
        moments_story: Counter = Counter()
        moments_scene: Counter = Counter()
        efforts: dict[str, list[str]] = {}
        lowered: Counter = Counter()
        comebacks: Counter = Counter()
        team: Counter = Counter()
        atrocities: Counter = Counter()
        acted: Counter = Counter()
        declared: dict[tuple[str, int], int] = {}
        acts_first: set[str] = set()
        resolve: dict[str, int] = {}
        desperate: set[str] = set()
        passed_out: set[str] = set()
        for e in events:
            if "resolve" in e and "character" in e and e["type"] != "DesperateEffort":
                resolve[e["character"]] = e["resolve"]
            if e["type"] == "Ticked" and e["scope"] == "move":
                assert not desperate, f"17: desperate Resolve of {desperate} outlived its page"
            if e["type"] == "ScopeEnded" and e["scope"] == "scene":
                passed_out = set()
            if e["type"] in ("ScopeStarted", "Ticked"):
                now[e["scope"]] = e["number"]
                if e["scope"] == "battle":
                    acts_first = set()
            elif e["type"] == "DefiningMomentDeclared":
                moments_story[(e["character"], now["story"])] += 1
                moments_scene[now["scene"]] += 1
                efforts.setdefault(e["character"], []).append(e["effort"])
            elif e["type"] == "AbilityLowered":
                lowered[e["character"]] += 1
                assert e["ability"] in {a for eff in efforts[e["character"]] for a in rules.EFFORT_ABILITIES[eff]}
            elif e["type"] == "ResolveSpent" and e["purpose"] in ("back_in_the_fight", "shake_off"):
                comebacks[(e["character"], now["scene"])] += 1
            elif e["type"] == "LimitUsed" and e["limit"] == "team_attack":
                team[(e["holder"], now["battle"])] += 1
            elif e["type"] == "AdversitySpent" and e["purpose"] == "villainous_act":
                atrocities[now["chapter"]] += 1
            elif e["type"] == "Acted":
                acted[(e["character"], e["page"])] += 1
            elif e["type"] == "ActionsDeclared":
                declared[(e["character"], e["page"])] = e["count"]
            elif e["type"] == "ActsFirst" and not e["double_edge"]:
                acts_first.add(e["character"])
            elif e["type"] == "InitiativeSet" and acts_first:
                order = [n for group in e["order"] for n in group]
                buyers = [order.index(n) for n in order if n in acts_first]
                others = [order.index(n) for n in order if n not in acts_first]
                assert not buyers or not others or max(buyers) < min(others), e
            elif e["type"] == "DesperateEffort":
                assert resolve.get(e["character"]) == 0 and e["resolve"] == 1, "17: only at 0 Resolve"
                resolve[e["character"]] = 1
                desperate.add(e["character"])
            elif e["type"] == "PassedOut":
                desperate.discard(e["character"])
                passed_out.add(e["character"])
        assert all(n <= 1 for n in moments_story.values()), moments_story
        assert all(n <= 1 for n in moments_scene.values()), moments_scene
        assert all(lowered[c] <= len(efforts.get(c, [])) for c in lowered)
        assert all(n <= 1 for n in comebacks.values()), comebacks
        assert all(n <= 1 for n in team.values()), team
        assert all(n <= 1 for n in atrocities.values()), atrocities
        assert all(n <= declared.get(key, 1) for key, n in acted.items()), acted
        for name in NAMES:
            sheet = self.campaign.sheet(name)
            assert sheet["defining_moment_used"] in (None, *range(1, now["story"] + 1))
            if name in passed_out:
                assert sheet["unconscious"] and sheet["defeated"], "17: unconscious until the scene ends"

    def exchange(self) -> None:
        """2, 9, 14, 15, 16: the open rolls' net successes, outcomes, damage, help and effect pages."""
        exchange = self.campaign.campaign_sheet()["exchange"]
        if exchange is None:
            return
        table = self.options["outcome_table"]
        rolls = {e["id"]: e for e in exchange["rolls"]}
        for entry in exchange["rolls"]:
            assert entry["successes"] == sum(rules.SUCCESSES[f] for die in entry["faces"] for f in die)
            per = rules.DEFINING_MOMENT_RESOLVE_DICE if entry["dm"] else rules.RESOLVE_DICE
            bought = sum(p[1] for p in entry["pool"] if p[0] in ("resolve", "resolve after the roll"))
            assert bought == per * entry["resolve"], entry
            for source, dice in entry["pool"]:
                if source.endswith(" actions"):
                    assert dice == rules.EXTRA_ACTION_PENALTY * (int(source.split()[0]) - 1)
            if exchange["kind"] in ("check", "help", "recovery") and "net" in entry:
                assert entry["outcome"] == rules.OUTCOME_TABLES[table][rules.band(entry["net"])]
        if exchange["kind"] == "check" and len(exchange["rolls"]) == 1:
            entry = exchange["rolls"][0]
            assert entry["net"] == entry["successes"] - exchange["difficulty"]
        if exchange["kind"] == "help":
            assert exchange["bonus"] == (ceil(exchange["rolls"][0]["net"] / 2) if exchange["rolls"][0]["net"] > 0
                                         else 0)
        if exchange["kind"] == "attack":
            for hit in exchange["hits"]:
                if hit["type"] == "plain":
                    a, d = rolls[hit["attack"]]["successes"], rolls[hit["defence"]]["successes"]
                    assert hit["damage"] == {hit["target"]: max(0, a - d)}
            for name, total in exchange["totals"].items():
                for effect, pages in total["effects"].items():
                    assert pages == sum(ceil(h["damage"][name] / 2) for h in exchange["hits"]
                                        if h.get("effect") == effect and h["type"] != "backlash"
                                        and h["damage"].get(name, 0) > 0 and h["target"] == name)

    def issue_start(self, events: list[dict[str, Any]]) -> None:
        """5: at the start of every issue Resolve = StartingResolve, Adversity = the heroes."""
        assert self.campaign.campaign_sheet()["adversity"] == len(HEROES)
        limit = self.options["trait_limit"]
        for name in NAMES:
            sheet = self.campaign.sheet(name)
            if sheet["role"] == "minion":
                continue
            interacting = [p["rank"] for p in sheet["power_uses"].values()
                           if p["rank"] and {"attack", "defence", "affect"} & set(p["uses"])]
            starting = 2 * max(0, limit - max([*sheet["abilities"].values(), *interacting]))
            assert starting % 2 == 0 and starting >= 0
            renewed = [e for e in events if e["type"] == "ResolveRenewed" and e.get("character") == name][-1]
            assert renewed["starting"] == starting
            if self.options["resolve_renewal"] == "reset":
                assert sheet["resolve"] == starting


def setup(limit: int) -> list[dict[str, Any]]:
    rank = min(limit, 5)
    return [
        hero("Ann", player="ann", agility=rank, powers={"Blast": {"rank": rank, "uses": ["attack"]}}),
        hero("Bea", player="bea", talents={"Charisma": 4}, powers={"Stun": {**STUN, "rank": rank}}),
        hero("Boss", role="villain", strength=rank, stamina=rank),
        minions("Goons", 2, 3),
        {"type": "start_story"}, {"type": "start_issue"}, {"type": "start_scene"}, {"type": "start_battle"},
        {"type": "next_page"},
    ]


@many_campaigns
@given(options=OPTIONS, data=st.data())
def test_the_invariants_hold_after_every_command(options: dict[str, Any], data: st.DataObject) -> None:
    with playing("heroes", options) as campaign:
        invariants = Invariants(campaign, options)
        campaign.given(*setup(options["trait_limit"]))
        for step in range(data.draw(st.integers(1, 30), label="steps")):
            strategy = COMMANDS if data.draw(st.integers(0, 4), label="raw") == 0 else sensible(campaign)
            command = data.draw(strategy, label=f"command {step}") | {"id": f"p{step}"}
            when_checked(campaign, command, lambda: invariants.check(command))
