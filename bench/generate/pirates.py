"""A long pirate campaign: a crew of pirates and their ship, chapter after chapter.

Each chapter has a few scenes against an enemy, about half of them with a sea battle.
In a scene the crew rolls moves (most dice typed in from the forum's roller, some from
the campaign's seed), spends luck on their own rolls or to help and hinder each other,
takes harm (absorbed with luck, or wounds), and in battle the ship takes holes and, once,
a breakdown. Now and then a new hand signs on or a new ship is taken, as in a campaign
that runs for years; pirates who have spent all their luck stay on the roster.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from . import Campaign

REQUIRES = {
    "create_campaign", "create_character", "create_ship", "start_chapter", "end_chapter",
    "start_scene", "end_scene", "start_battle", "end_battle", "roll_move", "spend_luck",
    "take_damage", "take_hole", "take_breakdown",
}
STATS = ("audacity", "guile", "foresight", "reputation")
MOVES = ("cross_anchors", None, None)
ENEMIES = ("Man-o'-war", "the Spanish", "Blackbeard", "the Governor", "a kraken", "mutineers")
CREW = 5


@dataclass
class Pirate:
    name: str
    player: str
    luck: int
    slots: list[str | None] = field(default_factory=lambda: [None, None, None])
    move: str | None = None
    bonus_used: bool = False
    helpers: set[str] = field(default_factory=set)


@dataclass
class Ship:
    name: str
    broken: bool = False


class Writer:
    def __init__(self, size: int, seed: int) -> None:
        self.size = size
        self.rng = random.Random(seed)
        self.campaign = "bench-pirates"
        self.commands: list[dict[str, Any]] = []
        self.clock = datetime(2019, 1, 1, 20, 0, tzinfo=UTC)
        self.crew: list[Pirate] = []
        self.hands = 0
        self.ship: Ship | None = None
        self.ships = 0
        self.rolls = 0
        self.battle = False
        self.breakdown_this_battle = False

    @property
    def full(self) -> bool:
        return len(self.commands) >= self.size

    def add(self, type_: str, **fields: Any) -> None:
        if self.full:
            return
        self.clock += timedelta(minutes=self.rng.randint(3, 600))
        number = len(self.commands) + 1
        self.commands.append(
            {"type": type_, "campaign": self.campaign, "id": f"post-{number}", **fields,
             "at": self.clock.isoformat()}
        )

    # --- people and ships ---------------------------------------------------------

    def sign_on(self) -> None:
        self.hands += 1
        name, player = f"Pirate{self.hands}", f"player{(self.hands - 1) % 9 + 1}"
        stats = dict(zip(STATS, self.rng.sample([2, 1, 0, -1], 4), strict=True))
        luck = self.rng.randint(2, 6)
        self.add("create_character", name=name, player=player, stats=stats, luck=luck,
                 background=self.rng.choice(["navy deserter", "smuggler", "noble's son", None]))
        self.crew.append(Pirate(name, player, luck))
        if len(self.crew) > CREW:
            self.crew.pop(0)  # retired: stays on the roster, no longer plays

    def take_ship(self) -> None:
        self.ships += 1
        name = f"Ship{self.ships}"
        self.add("create_ship", name=name, navigation=self.rng.randint(0, 2),
                 firepower=self.rng.randint(0, 2), displacement=self.rng.randint(0, 2),
                 hull=self.rng.randint(3, 6), secrets=["hidden hold"][: self.rng.randint(0, 1)])
        self.ship = Ship(name)

    # --- play ---------------------------------------------------------------------

    def roll_move(self) -> None:
        pirate = self.rng.choice(self.crew)
        fields: dict[str, Any] = {"character": pirate.name, "stat": self.rng.choice(STATS)}
        move = self.rng.choice(MOVES)
        if move:
            fields["move"] = move
        faces = 2
        if self.rng.random() < 0.1:
            fields[self.rng.choice(["advantage", "disadvantage"])] = True
            faces = 3
        bonus = pirate.luck > 0 and self.rng.random() < 0.05
        if bonus:
            fields["luck_bonus"] = True
            pirate.luck -= 1
        if self.rng.random() < 0.75:  # typed in from the forum's roller; the rest from the seed
            fields["dice"] = [self.rng.randint(1, 6) for _ in range(faces)]
        actor = f"player:{pirate.player}" if self.rng.random() < 0.8 else "gm"
        self.add("roll_move", actor=actor, **fields)
        self.rolls += 1
        pirate.move = self.commands[-1]["id"]
        pirate.bonus_used, pirate.helpers = bonus, set()

    def spend_luck(self) -> None:
        rolled = [p for p in self.crew if p.move is not None]
        if not rolled:
            return
        target = self.rng.choice(rolled)
        helpers = [p for p in self.crew if p is not target and p.luck > 0 and p.name not in target.helpers]
        if helpers and self.rng.random() < 0.6:
            helper = self.rng.choice(helpers)
            purpose = "help" if self.rng.random() < 0.8 else "hinder"
            self.add("spend_luck", actor=f"player:{helper.player}", character=helper.name,
                     purpose=purpose, roll=target.move)
            helper.luck -= 1
            target.helpers.add(helper.name)
        elif target.luck > 0 and not target.bonus_used:
            self.add("spend_luck", actor=f"player:{target.player}", character=target.name,
                     purpose="roll_bonus", roll=target.move)
            target.luck -= 1
            target.bonus_used = True

    def take_damage(self) -> None:
        pirate = self.rng.choice(self.crew)
        harm = self.rng.choice([1, 1, 1, 2, 3])
        absorb = min(pirate.luck, harm) if self.rng.random() < 0.3 else 0
        level = "light" if self.rng.random() < 0.85 else "serious"
        fields: dict[str, Any] = {"character": pirate.name, "harm": harm}
        if absorb:
            fields["absorb_with_luck"] = absorb
        if level != "light":
            fields["level"] = level
        self.add("take_damage", **fields)
        for point in range(harm):  # the §5 table, as the engine applies it
            if point < absorb:
                pirate.luck -= 1
            elif None in pirate.slots:
                pirate.slots[pirate.slots.index(None)] = level
            elif all(s == "light" for s in pirate.slots):
                pirate.slots[0] = "serious"
            elif all(s == "serious" for s in pirate.slots):
                pirate.slots[0] = "terrible"
            elif pirate.luck > 0:
                pirate.luck -= 1

    def ship_hit(self) -> None:
        assert self.ship is not None
        if self.battle and not self.ship.broken and not self.breakdown_this_battle and self.rng.random() < 0.3:
            self.add("take_breakdown", ship=self.ship.name,
                     breakdown=self.rng.choice(["torn_sails", "wrecked_deck", "wet_powder"]))
            self.ship.broken = self.breakdown_this_battle = True
        else:
            self.add("take_hole", ship=self.ship.name)

    def action(self) -> None:
        roll = self.rng.random()
        if roll < 0.62:
            self.roll_move()
        elif roll < 0.77:
            self.spend_luck()
        elif roll < 0.92:
            self.take_damage()
        else:
            self.ship_hit()

    # --- the story ------------------------------------------------------------------

    def scene(self) -> None:
        self.add("start_scene", title=f"Scene {len(self.commands)}", enemy=self.rng.choice(ENEMIES))
        for _ in range(self.rng.randint(3, 10)):
            self.action()
        if self.rng.random() < 0.5:
            self.add("start_battle", title="Broadsides")
            self.battle, self.breakdown_this_battle = True, False
            for _ in range(self.rng.randint(4, 16)):
                self.action()
            if self.rng.random() < 0.8:
                self.add("end_battle")
            self.battle = False
        self.add("end_scene")

    def chapter(self, number: int) -> None:
        self.add("start_chapter", title=f"Chapter {number}")
        for _ in range(self.rng.randint(2, 6)):
            self.scene()
        self.add("end_chapter")
        for pirate in self.crew:  # light wounds heal at the chapter's end
            pirate.slots = [None if s == "light" else s for s in pirate.slots]
        if self.rng.random() < 0.2 or all(p.luck == 0 for p in self.crew):
            self.sign_on()
        if self.ship is not None and self.ship.broken and self.rng.random() < 0.3:
            self.take_ship()

    def write(self) -> list[dict[str, Any]]:
        self.add("create_campaign", ruleset="pirates", title="Benchmark of the Seven Seas")
        for _ in range(CREW):
            self.sign_on()
        self.take_ship()
        number = 0
        while not self.full:
            number += 1
            self.chapter(number)
        return self.commands


def generate(size: int, seed: int = 7) -> Campaign:
    commands = Writer(size, seed).write()
    early = [c["id"] for c in commands if c["type"] == "roll_move"][:5]
    return Campaign("pirates", "bench-pirates", commands, sheet="Pirate1", early_rolls=early)
