"""A long «Implant» campaign: runners in a cyberpunk city, day after day of scenes and fights.

Each day has scenes; most bring a fight against gangers and now and then a wild-card boss:
rounds of turns (Shaken characters trying to recover, bennies spent to unshake), melee and
ranged attacks, damage with aces, soaks; after the fight the wounded are treated, checks
are made around town, the GM hands out bennies, and the day ends with natural healing. A new
runner joins when the crew is down. The rules referee every command (see `rollbook.testing.oracle`).
"""

from __future__ import annotations

from typing import Any

from ....testing.generated import Campaign
from ....testing.oracle import OracleWriter
from .character import Character

REQUIRES = {
    "create_campaign", "create_character", "start_scene", "end_scene", "start_battle", "end_battle",
    "start_turn", "attack", "roll_damage", "soak", "next_round", "spend_benny", "heal", "end_day",
    "trait_check", "award_benny",
}
RUNNER_SKILLS = {"fighting": "d4", "shooting": "d4", "driving": "d4", "healing": "d4", "research": "d4",
                 "notice": "d6", "hacking": "d6", "cybernetics": "d6"}
PISTOL = {"kind": "ranged", "damage": "2d6", "rate_of_fire": 1}
KNIFE = {"kind": "melee", "damage": "d4"}
CREW = 2


class Writer(OracleWriter):
    def runner(self) -> None:
        """A new runner; the one longest in the crew moves to another city."""
        number = self.numbered("Runner")
        self.enlist(f"Runner{number}", player=f"player{number % 3 + 1}",
                    skills=dict(RUNNER_SKILLS), weapons={"pistol": dict(PISTOL), "knife": dict(KNIFE)})

    def enemies(self) -> list[str]:
        names = []
        for _ in range(self.rng.randint(1, 3)):
            name = f"Ganger{self.numbered('foe')}"
            if self.game.offer("create_character", name=name, wild_card=False,
                               attributes={"strength": "d6", "vigor": "d6"}, skills={"fighting": "d6"},
                               weapons={"knife": dict(KNIFE)}):
                names.append(name)
        if self.rng.random() < 0.25:
            name = f"Boss{self.numbered('foe')}"
            if self.game.offer("create_character", name=name, max_wounds=3,
                               attributes={"strength": "d6", "agility": "d6", "intellect": "d6", "vigor": "d6",
                                           "spirit": "d4"},
                               skills={"fighting": "d6", "taunt": "d6"}, weapons={"knife": dict(KNIFE)}):
                names.append(name)
        return names

    def turn(self, name: str, foes: list[str]) -> None:
        if not self.game.offer("start_turn", character=name, actor=self.actor(name)):
            return
        me = self.who(name)
        if me.shaken and me.bennies and self.rng.random() < 0.5:
            self.game.offer("spend_benny", character=name, purpose="unshake", actor=self.actor(name))
        targets = [t for t in foes if not self.who(t).out]
        if not targets or self.who(name).shaken:
            return
        target = self.rng.choice(targets)
        kinds = ["ranged", "melee"] if "pistol" in me.weapons and self.rng.random() < 0.7 else ["melee"]
        if self.game.first(*(("attack", {"attacker": name, "target": target, "kind": k, "actor": self.actor(name)})
                             for k in kinds)):
            self.game.offer("roll_damage", actor=self.actor(name))
            victim = self.who(target)
            if victim.wild_card and victim.bennies and self.rng.random() < 0.5:
                self.game.offer("soak", character=target, actor=self.actor(target))

    def fight(self) -> None:
        foes = self.enemies()
        if not foes or not self.game.offer("start_battle", title="Trouble", enemies=foes):
            return
        for _ in range(self.rng.randint(2, 8)):
            order = [n for n in self.cast + foes if not self.who(n).out]
            self.rng.shuffle(order)
            for name in order:
                self.turn(name, foes if name in self.cast else self.cast)
            if all(self.who(n).out for n in foes) or all(self.who(n).out for n in self.cast):
                break
            self.game.offer("next_round")
        self.game.offer("end_battle")

    def day(self) -> None:
        for _ in range(self.rng.randint(1, 4)):
            self.game.offer("start_scene", title="Neon alley")
            if self.rng.random() < 0.7:
                self.fight()
            for patient in [n for n in self.cast if self.who(n).wounds]:
                healer = self.rng.choice(self.cast)
                self.game.offer("heal", healer=healer, patient=patient, actor=self.actor(healer))
            for name in self.cast:
                if self.rng.random() < 0.4:
                    self.game.offer("trait_check", character=name, trait=self.rng.choice(["notice", "hacking", "research"]),
                                    actor=self.actor(name))
            if self.cast and self.rng.random() < 0.3:
                self.game.offer("award_benny", character=self.rng.choice(self.cast))
            self.game.offer("end_scene")
        self.game.offer("end_day")
        if not self.cast or all(self.who(n).out or self.who(n).wounds >= 3 for n in self.cast):
            self.runner()

    def write(self) -> list[dict[str, Any]]:
        self.game.offer("create_campaign", ruleset="implant", title="Implant: the long night")
        return self.play_with_cast(self.runner, lambda number: self.day(), "implant")


def generate(size: int, seed: int = 7) -> Campaign:
    return Writer("implant", size, seed, Character, cast=CREW).campaign(sheet="Runner1", rolled_by="attack")
