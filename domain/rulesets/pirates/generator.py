"""A long pirate campaign: a crew and their ship, chapter after chapter, at sea and in port.

Each chapter has a few scenes against an enemy, about half with a sea battle. In a scene
the crew rolls moves (most dice typed in from the forum's roller, some from the
campaign's seed), spends luck on their own rolls or to help and hinder each other,
takes harm (absorbed with luck, or wounds), sets ambushes, keeps or breaks the Code;
in battle the ship takes holes and, once, a breakdown. A pirate with a fate to meet
meets it. Between chapters the ship puts into port: a carousal with one tall tale, the
loot, repairs, wounds treated, then to sea again. Now and then a new hand signs on.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from ....testing.generated import Campaign

REQUIRES = {
    "create_campaign", "create_character", "create_ship", "start_chapter", "end_chapter",
    "start_scene", "end_scene", "start_battle", "end_battle", "roll_move", "spend_luck",
    "take_damage", "take_hole", "take_breakdown", "treat_wound", "meet_fate", "pirate_code",
    "gain_ambush_token", "spend_ambush_token", "start_carousal", "end_carousal", "tell_tall_tale",
    "gain_money", "repair_ship", "enter_port", "put_to_sea",
}
STATS = ("audacity", "guile", "foresight", "reputation")
ENEMIES = ("Man-o'-war", "the Spanish", "Blackbeard", "the Governor", "a kraken", "mutineers")
CREW = 5
HULL_MAX = 6
CHEST = 50  # piastres


@dataclass
class Pirate:
    name: str
    player: str
    luck: int
    slots: list[str | None] = field(default_factory=lambda: [None, None, None])
    move: str | None = None
    bonus_used: bool = False
    helpers: set[str] = field(default_factory=set)
    fate: int = 0  # Meet Fate rolls owed
    ambush: int = 0  # tokens gained in this scene, against its enemy


@dataclass
class Ship:
    name: str
    hull: int
    broken: bool = False
    patched_at_sea: bool = False
    treasury: int = 0
    sinking: bool = False  # a hole at Hull 0: Don't Go Under is the next move (L138)


class Writer:
    def __init__(self, size: int, seed: int) -> None:
        self.size = size
        self.rng = random.Random(seed)
        self.campaign = "bench-pirates"
        self.commands: list[dict[str, Any]] = []
        self.clock = datetime(2019, 1, 1, 20, 0, tzinfo=UTC)
        self.crew: list[Pirate] = []
        self.hands = 0
        self.ship = Ship("Chaika", hull=5)
        self.enemy = ""
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

    def player(self, pirate: Pirate) -> str:
        return f"player:{pirate.player}" if self.rng.random() < 0.8 else "gm"

    def faces(self, count: int) -> dict[str, Any]:
        """Typed-in faces three times in four (the forum's roller); otherwise the campaign's seed rolls."""
        if self.rng.random() < 0.75:
            return {"dice": [self.rng.randint(1, 6) for _ in range(count)]}
        return {}

    # --- people -------------------------------------------------------------------

    def sign_on(self) -> None:
        self.hands += 1
        name, player = f"Pirate{self.hands}", f"player{(self.hands - 1) % 9 + 1}"
        stats = dict(zip(STATS, self.rng.sample([2, 1, 0, -1], 4), strict=True))
        luck = self.rng.randint(2, 5)
        self.add("create_character", name=name, player=player, stats=stats, luck=luck,
                 background=self.rng.choice(["navy deserter", "smuggler", "noble's son", "cabin boy"]))
        self.crew.append(Pirate(name, player, luck))
        if len(self.crew) > CREW:
            self.crew.pop(0)  # retired: stays on the roster, no longer plays

    # --- play ---------------------------------------------------------------------

    def roll_move(self) -> None:
        pirate = self.rng.choice(self.crew)
        fields: dict[str, Any] = {"character": pirate.name, "stat": self.rng.choice(STATS)}
        bonus = pirate.luck > 0 and self.rng.random() < 0.05
        if bonus:
            fields["luck_bonus"] = True
            pirate.luck -= 1
        self.add("roll_move", actor=self.player(pirate), **fields, **self.faces(2))
        pirate.move = self.commands[-1]["id"]
        pirate.bonus_used, pirate.helpers = bonus, set()

    def spend_luck(self) -> None:
        rolled = [p for p in self.crew if p.move is not None]
        if not rolled:
            return self.roll_move()
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
        else:
            self.roll_move()

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
        for point in range(harm):  # the §5 table as the engine applies it (P-2 (a), the default)
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
            else:
                pirate.fate += 1

    def meet_fate(self, pirate: Pirate) -> None:
        """Typed faces of 10 or more: he escapes at the last moment (12: and regains 1 luck)."""
        faces = self.rng.choice([[4, 6], [5, 5], [6, 4], [5, 6], [6, 6]])
        self.add("meet_fate", actor=f"player:{pirate.player}", character=pirate.name, dice=faces)
        pirate.fate -= 1
        if sum(faces) == 12:
            pirate.luck += 1

    def ambush(self) -> None:
        pirate = self.rng.choice(self.crew)
        if pirate.ambush and self.rng.random() < 0.5:
            self.add("spend_ambush_token", actor=f"player:{pirate.player}", character=pirate.name, enemy=self.enemy)
            pirate.ambush -= 1
        else:
            self.add("gain_ambush_token", character=pirate.name, enemy=self.enemy)
            pirate.ambush += 1

    def ship_hit(self) -> None:
        ship = self.ship
        if self.battle and not ship.broken and not self.breakdown_this_battle and self.rng.random() < 0.3:
            self.add("take_breakdown", ship=ship.name,
                     breakdown=self.rng.choice(["torn_sails", "wrecked_deck", "wet_powder"]))
            ship.broken = self.breakdown_this_battle = True
        elif ship.hull < HULL_MAX and not ship.patched_at_sea and self.rng.random() < 0.15:
            self.add("repair_ship", ship=ship.name, what="hull")  # Patch the Breach, once at sea
            ship.hull += 1
            ship.patched_at_sea = True
        else:
            self.add("take_hole", ship=ship.name)
            ship.sinking = ship.sinking or ship.hull == 0
            ship.hull = max(ship.hull - 1, 0)

    def dont_go_under(self) -> None:
        """The sinking ship's move comes before any other (L138): a pirate of the crew plays it."""
        pirate = self.rng.choice(self.crew)
        self.add("roll_move", actor=self.player(pirate), character=pirate.name, stat=self.rng.choice(STATS),
                 move="dont_go_under", **self.faces(2))
        pirate.move = self.commands[-1]["id"]
        pirate.bonus_used, pirate.helpers = False, set()
        self.ship.sinking = False

    def action(self) -> None:
        if self.ship.sinking:
            return self.dont_go_under()
        owing = [p for p in self.crew if p.fate]
        if owing:
            return self.meet_fate(owing[0])
        roll = self.rng.random()
        if roll < 0.58:
            self.roll_move()
        elif roll < 0.70:
            self.spend_luck()
        elif roll < 0.82:
            self.take_damage()
        elif roll < 0.88:
            self.ambush()
        elif roll < 0.91:
            pirate = self.rng.choice(self.crew)
            self.add("pirate_code", character=pirate.name, kept=self.rng.random() < 0.7,
                     precept=self.rng.choice(["share the loot", "no quarter to traitors", "the captain's word"]))
        else:
            self.ship_hit()

    # --- the story ------------------------------------------------------------------

    def scene(self) -> None:
        self.enemy = self.rng.choice(ENEMIES)
        self.add("start_scene", title=f"Scene {len(self.commands)}", enemy=self.enemy)
        for pirate in self.crew:
            pirate.ambush = 0  # tokens of an earlier scene are never spent: they may have burned
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

    def in_port(self) -> None:
        """Between chapters: into port, a carousal, the loot, repairs, wounds treated, back to sea."""
        ship = self.ship
        self.add("enter_port", ship=ship.name)
        self.add("start_carousal", title="At the Rusty Anchor")
        teller = self.rng.choice(self.crew)
        self.add("tell_tall_tale", actor=f"player:{teller.player}", character=teller.name)
        teller.luck += 1
        self.add("end_carousal")
        chests = self.rng.randint(1, 4)
        self.add("gain_money", to=ship.name, chests=chests, reason="the prize's cargo")
        ship.treasury += chests * CHEST
        if ship.broken and ship.treasury >= CHEST:
            self.add("repair_ship", ship=ship.name, what="breakdown")
            ship.broken, ship.treasury = False, ship.treasury - CHEST
        while ship.hull < HULL_MAX and ship.treasury >= CHEST and self.rng.random() < 0.7:
            self.add("repair_ship", ship=ship.name, what="hull")
            ship.hull, ship.treasury = ship.hull + 1, ship.treasury - CHEST
        for pirate in self.crew:
            for level in ("terrible", "serious"):
                count = pirate.slots.count(level)
                if count:
                    self.add("treat_wound", character=pirate.name, level=level, count=count)
                    pirate.slots = [None if s == level else s for s in pirate.slots]
        self.add("put_to_sea", ship=ship.name)
        ship.patched_at_sea = False

    def chapter(self, number: int) -> None:
        self.add("start_chapter", title=f"Chapter {number}")
        for _ in range(self.rng.randint(2, 6)):
            self.scene()
        self.add("end_chapter")
        for pirate in self.crew:  # light wounds heal; an untreated terrible one calls fate
            pirate.slots = [None if s == "light" else s for s in pirate.slots]
            if "terrible" in pirate.slots:
                pirate.fate += 1
        for pirate in [p for p in self.crew if p.fate]:
            while pirate.fate:
                self.meet_fate(pirate)
        self.in_port()
        if self.rng.random() < 0.1 or all(p.luck == 0 for p in self.crew):
            self.sign_on()

    def write(self) -> list[dict[str, Any]]:
        self.add("create_campaign", ruleset="pirates", title="Benchmark of the Seven Seas")
        for _ in range(CREW):
            self.sign_on()
        self.add("create_ship", name=self.ship.name, navigation=2, firepower=1, displacement=1,
                 hull=self.ship.hull, secrets=["hidden hold"])
        number = 0
        while not self.full:
            number += 1
            self.chapter(number)
        return self.commands


def generate(size: int, seed: int = 7) -> Campaign:
    return Campaign.played("pirates", Writer(size, seed).write(), sheet="Pirate1", rolled_by="roll_move")
