"""A long «We Can Be Heroes» campaign: a team of heroes, story after story, issue after issue.

Each issue has scenes against a villain with his minions; most scenes have a battle of
pages in which everyone attacks with powers or abilities, spends resolve for dice, now and
then declares a Defining Moment (and lowers an ability after it); after the battle the
heroes recover, gain resolve for their flaws, and the villain spends adversity. New heroes
join between stories. The rules referee every command (see `rollbook.testing.oracle`).
"""

from __future__ import annotations

from typing import Any

from ....testing.generated import Campaign
from ....testing.oracle import OracleWriter
from .hero import Hero

REQUIRES = {
    "create_campaign", "create_character", "start_story", "end_story", "start_issue", "end_issue",
    "start_scene", "end_scene", "start_battle", "end_battle", "next_page", "attack", "spend_resolve",
    "declare_defining_moment", "lower_ability", "recover", "gain_resolve", "spend_adversity", "pass",
}
HEROES = (
    {"role": "hero", "abilities": {"strength": 4, "agility": 5, "stamina": 5, "intellect": 3, "perception": 4, "will": 3},
     "powers": {"Energy Blast": {"rank": 7, "uses": ["attack"], "lethal": True}}, "perks": ["Lab access"],
     "flaws": ["Hot-headed"], "motivation": "Protect the city that raised him"},
    {"role": "hero", "abilities": {"strength": 3, "agility": 4, "stamina": 4, "intellect": 4, "perception": 5, "will": 5},
     "powers": {"Wind Gust": {"rank": 6, "uses": ["attack", "affect"], "lethal": False, "effect": "stunned"},
                "Flight": {"rank": 6, "uses": ["movement"]}},
     "talents": {"Leadership": 4}, "flaws": ["Reckless with others' secrets"]},
)
VILLAIN = {"role": "villain", "abilities": {"strength": 4, "agility": 3, "stamina": 6, "intellect": 7, "perception": 4,
                                            "will": 6},
           "powers": {"Null Ray": {"rank": 6, "uses": ["attack"]},
                      "Force Field": {"rank": 5, "uses": ["defence"], "passive": True}},
           "flaws": ["Monologues"]}
TEAM = 3


class Writer(OracleWriter):
    def recruit(self) -> None:
        """A new hero; the one longest in the team retires from it."""
        number = self.numbered("Hero")
        self.enlist(f"Hero{number}", player=f"player{number % 5 + 1}", **self.rng.choice(HEROES))

    def foes(self) -> tuple[str, list[str]]:
        number = self.numbered("Villain")
        villain, drones = f"Villain{number}", f"Drones{number}"
        self.game.offer("create_character", name=villain, **VILLAIN)
        self.game.offer("create_character", name=drones, role="minion", danger_rank=3, count=self.rng.randint(2, 5))
        return villain, [villain, drones]

    def standing(self, names: list[str]) -> list[str]:
        return [n for n in names if (h := self.who(n)) is not None and not h.unconscious and h.health > 0]

    def act(self, name: str, targets: list[str]) -> None:
        me = self.who(name)
        if me.must_lower:
            ability = self.rng.choice([a for a, v in me.abilities.items() if v > 1])
            self.game.offer("lower_ability", character=name, ability=ability, actor=self.actor(name))
        if not targets:
            return
        if me.player and me.defining_moment_used is None and self.rng.random() < 0.03:
            self.game.offer("declare_defining_moment", character=name, effort="physical", actor=self.actor(name))
        traits = [p for p, power in me.powers.items() if "attack" in power.get("uses", [])] + ["strength"]
        attack = {"attacker": name, "target": self.rng.choice(targets), "trait": self.rng.choice(traits),
                  "actor": self.actor(name)}
        if self.game.first(("attack", attack), ("attack", {**attack, "trait": "strength"})) and me.player:
            if self.who(name).resolve and self.rng.random() < 0.2:
                self.game.offer("spend_resolve", character=name, purpose="dice", actor=self.actor(name))

    def battle(self, side: list[str]) -> None:
        # Only the team and the issue's foes fight: the rest of the roster is not in the order (L126, L130).
        self.game.offer("start_battle", title="Rooftop brawl", characters=self.standing(self.cast) + side)
        for _ in range(self.rng.randint(2, 6)):
            if not self.game.offer("next_page"):
                break
            initiative = self.game.campaign_state().initiative or {"order": []}
            for group in initiative["order"]:
                for name in self.rng.sample(group, len(group)):  # a simultaneous group in any order (L132)
                    if name in self.standing(group):
                        self.act(name, self.standing(side if name in self.cast else self.cast))
                    page = self.game.campaign_state().page
                    if not self.who(name).had_turn(page):
                        self.game.offer("pass", character=name, actor=self.actor(name))
            if not self.standing(side) or not self.standing(self.cast):
                break
        self.game.offer("end_battle")

    def scene(self, villain: str, side: list[str]) -> None:
        self.game.offer("start_scene", title="Downtown", enemy=villain)
        if self.rng.random() < 0.7:
            self.battle(side)
            for name in self.cast:
                if self.who(name).health < 10 or self.who(name).unconscious:
                    self.game.offer("recover", character=name, rest="battle", actor=self.actor(name))
        if self.cast and self.rng.random() < 0.3:
            self.game.offer("gain_resolve", character=self.rng.choice(self.cast), reason="flaw")
        if self.rng.random() < 0.2:
            self.game.offer("spend_adversity", purpose="villainous_act", villain=villain)
        self.game.offer("end_scene")

    def write(self) -> list[dict[str, Any]]:
        # Retired heroes and earlier villains stay on the roster, standing; each battle names who fights.
        self.game.offer("create_campaign", ruleset="heroes", title="Heroes of the benchmark", trait_limit=8)
        return self.play_with_cast(self.recruit, self.story, "heroes")

    def story(self, number: int) -> None:
        self.game.offer("start_story", title=f"Volume {number}")
        for issue in range(self.rng.randint(2, 4)):
            villain, side = self.foes()
            self.game.offer("start_issue", title=f"#{issue + 1}", characters=self.cast + side)
            for _ in range(self.rng.randint(2, 5)):
                self.scene(villain, side)
            self.game.offer("end_issue")
        self.game.offer("end_story")
        if self.rng.random() < 0.2:
            self.recruit()


def generate(size: int, seed: int = 7) -> Campaign:
    return Writer("heroes", size, seed, Hero, cast=TEAM).campaign(sheet="Hero1", rolled_by="attack")
