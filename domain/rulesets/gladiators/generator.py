"""A long gladiator campaign: a troupe of gladiators, story after story of arena battles.

Each story has scenes; most scenes bring a foe or a squad to the sand and a battle of combat
turns (tactics, signature moves, related attributes and skills, the GM's declared totals,
squads reported thinning), now and then a motivation spent and granted again, role-play
tokens awarded and spent; health comes back between battles. New gladiators join the
troupe over the years. The rules referee every command (see `rollbook.testing.oracle`).
"""

from __future__ import annotations

from typing import Any

from ....testing.generated import Campaign
from ....testing.oracle import OracleWriter
from .enemy import Enemy
from .gladiator import Gladiator

REQUIRES = {
    "create_campaign", "create_character", "create_enemy", "start_story", "end_story", "start_scene",
    "end_scene", "start_battle", "end_battle", "combat_turn", "report_standing", "award_roleplay",
    "grant_motivation",
}
TACTICS = ("total_defence", "strong_defence", "strong_attack", "total_attack")
SCHOOLS = (
    ("Fencing", {"Lunge": "attack", "Parry": "defence", "Pommel strike": "attack", "Sidestep": "defence"}),
    ("Spear", {"Thrust": "attack", "Shield wall": "defence", "Sweep": "attack", "Brace": "defence"}),
    ("Net and trident", {"Cast": "attack", "Entangle": "defence", "Jab": "attack", "Roll away": "defence"}),
)
RAISES = ({"Strength": "very_good", "Agility": "very_good"}, {"Endurance": "great"}, {"Agility": "great"})
SKILLS = (
    {"Wrestling": "expert", "Riding": "expert"},
    {"Archery": "expert", "Riding": "specialist", "Swimming": "specialist"},
    {"Riding": "specialist", "Swimming": "specialist", "Climbing": "specialist", "Oratory": "specialist"},
)
FOES = ("Gauls", "Thracians", "Lion", "Retiarius", "Murmillo", "Numidians", "Bear")
TROUPE = 4


class Writer(OracleWriter):
    def join(self) -> None:
        number = self.numbered("Gladiator")
        school, moves = self.rng.choice(SCHOOLS)
        self.enlist(
            f"Gladiator{number}", player=f"player{(number - 1) % 7 + 1}",
            attributes=dict(self.rng.choice(RAISES)), main_skill=school,
            style=self.rng.choice(["offensive", "defensive"]), signature_moves=dict(moves),
            skills=dict(self.rng.choice(SKILLS)),
            class_skill={"name": self.rng.choice(["Shield", "Formation drill", "Chariot"]),
                         "applies_to": self.rng.choice(["attack", "defence"])},
            motivation=self.rng.randint(2, 6),
        )  # the one longest in the troupe retires to teach at the ludus

    def turn(self, foe: str, members: int) -> None:
        fighters = [n for n in self.cast if not self.who(n).beaten]
        if not fighters:
            return
        name = self.rng.choice(fighters)
        me = self.who(name)
        attack = [m for m, side in me.signature_moves.items() if side == "attack"]
        defence = [m for m, side in me.signature_moves.items() if side == "defence"]
        raised = [a for a, level in me.attributes.items() if level != "good"]
        base: dict[str, Any] = {
            "actor": f"player:{me.player}", "character": name, "enemy": foe, "tactic": self.rng.choice(TACTICS),
            "gm_attack": self.rng.randint(12, 22), "gm_defence": self.rng.randint(10, 18),
        }
        extra: dict[str, Any] = {}
        if self.rng.random() < 0.5:
            extra["attack_move"] = self.rng.choice(attack)
        if self.rng.random() < 0.4:
            extra["defence_move"] = self.rng.choice(defence)
        if raised and self.rng.random() < 0.4:
            extra["attack_related"] = [self.rng.choice(raised)]
        if self.rng.random() < 0.05:
            extra["use_motivation"] = True
        if me.roleplay_tokens and self.rng.random() < 0.6:
            extra["spend_tokens"] = 1
        if members > 1 and self.rng.random() < 0.3:
            extra["standing"] = self.rng.randint(1, members)
        self.game.first(("combat_turn", {**base, **extra}), ("combat_turn", base))

    def battle(self) -> None:
        day = self.numbered("foe")
        members = self.rng.choice([1, 1, 2, 3, 4])
        foe = f"{self.rng.choice(FOES)} {day}"
        self.game.offer("create_enemy", name=foe, health=self.rng.randint(8, 16), members=members)
        self.game.offer("start_battle", title=f"Games of day {day}")
        for _ in range(self.rng.randint(4, 14)):
            enemy = self.game.get(Enemy, foe)
            if enemy is None or enemy.beaten:
                break
            if members > 1 and enemy.standing > 1 and self.rng.random() < 0.1:
                self.game.offer("report_standing", enemy=foe, standing=enemy.standing - 1)
            self.turn(foe, enemy.standing)
        enemy = self.game.get(Enemy, foe)
        if enemy is not None and enemy.beaten and self.cast:
            self.game.offer("award_roleplay", character=self.rng.choice(self.cast), amount=enemy.members, enemy=foe)
        self.game.offer("end_battle")

    def scene(self) -> None:
        self.game.offer("start_scene", title="The arena", enemy=None)
        if self.rng.random() < 0.85:
            self.battle()
        if self.cast and self.rng.random() < 0.3:
            self.game.offer("award_roleplay", character=self.rng.choice(self.cast), amount=1,
                            reason="a speech to the crowd")
        for name in self.cast:
            if self.who(name).motivation_used and self.rng.random() < 0.2:
                self.game.offer("grant_motivation", character=name)
        self.game.offer("end_scene")

    def write(self) -> list[dict[str, Any]]:
        self.game.offer("create_campaign", ruleset="gladiators", title="Ludus of the benchmark")
        return self.play_with_cast(self.join, self.season, "gladiator")

    def season(self, number: int) -> None:
        self.game.offer("start_story", title=f"Season {number}")
        for _ in range(self.rng.randint(3, 8)):
            self.scene()
        self.game.offer("end_story")
        if self.rng.random() < 0.15:
            self.join()


def generate(size: int, seed: int = 7) -> Campaign:
    return Writer("gladiators", size, seed, Gladiator, cast=TROUPE).campaign(sheet="Gladiator1", rolled_by="combat_turn")
