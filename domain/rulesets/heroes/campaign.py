"""The table-wide state of a superhero campaign: the GM's Adversity, the open exchange of dice,
help offered, the page's initiative, contests, chases, distances, grapples and protections.

Each is decided in the play modules and only recorded here (the `@event` bodies mutate).
"""

from __future__ import annotations

from typing import Any

from eventsourcing.domain import event

from ...campaign import Campaign
from ...timeline import Scope


#: The members written since a page last ended, under the key of the tick that follows its end (`stirred`):
#: those of them present are the only ones the page's end can find an effect or a desperate Resolve on
#: (page.end_of_page). A page of a battle with a cast ends for its fighters alone, so only they are cleared;
#: a scene's end clears them all, for pages are a scene's (L11) and its end leaves nobody a page effect or a
#: desperate Resolve (page.end_of_scene: L195, L103).
PAGE = "tick:move"


def pair(a: str, b: str) -> str:
    """The key of a distance between two characters, whichever is named first."""
    return "|".join(sorted((a, b)))


class HeroesCampaign(Campaign):
    scope_labels = {Scope.MOVE: "page", Scope.CHAPTER: "issue"}
    #: A scene's end ends its effects, wakes the unconscious, ends moments (page.end_of_scene).
    roster_visits = ("end:scene", PAGE)
    #: Who takes part in the open battle, when the GM named them (`start_battle characters`, `join_battle`):
    #: initiative, pages and the battle's end cover them alone (L126). None: everyone standing, as before
    #: battles had a cast. A class default, so campaigns restored from older snapshots have it too.
    fighters: list[str] | None = None

    def __init__(self, campaign: str, ruleset: str, title: str | None, options: dict[str, Any]) -> None:
        super().__init__(campaign, ruleset, title, options)
        #: The GM's Adversity for the issue (L85, L118) and a hard scene's own pool (L119).
        self.adversity = 0
        self.scene_adversity: int | None = None
        #: The last rolls made, which Resolve may still change (L108): see exchange.py.
        self.exchange: dict[str, Any] | None = None
        #: character -> helper -> dice; only the best helper counts (L66-L67).
        self.help: dict[str, dict[str, int]] = {}
        self.initiative: dict[str, Any] | None = None
        #: The first page of the open battle (ambush and initiative count from it).
        self.battle_page: int | None = None
        self.contests: dict[str, dict[str, Any]] = {}
        self.chases: dict[str, dict[str, Any]] = {}
        self.distances: dict[str, str] = {}
        self.journeys: dict[str, dict[str, Any]] = {}
        self.grapples: dict[str, dict[str, Any]] = {}
        self.protections: dict[str, dict[str, Any]] = {}
        self.day = 0

    def visited(self, key: str) -> None:
        if key == PAGE and self.fighters is not None and self.is_open(Scope.BATTLE):
            # The page ended for the fighters (page.present): the others keep what they were written.
            for name in self.fighters:
                self.stirred[PAGE].pop(name, None)
            return
        super().visited(key)
        if key == "end:scene":
            super().visited(PAGE)

    @property
    def trait_limit(self) -> int:
        return int(self.option("trait_limit"))

    @property
    def page(self) -> int:
        return self.number(Scope.MOVE)

    # --- Adversity (§4.2) ------------------------------------------------------------------

    @event("AdversityRenewed")
    def renew_adversity(self, adversity: int, heroes: int) -> None:
        self.adversity = adversity

    @event("AdversityGained")
    def gain_adversity(self, amount: int, reason: str, pool: str, adversity: int) -> None:
        if pool == "scene":
            self.scene_adversity = adversity
        else:
            self.adversity = adversity

    @event("AdversitySpent")
    def spend_adversity(self, amount: int, purpose: str, pool: str, adversity: int, villain: str | None) -> None:
        if pool == "scene":
            self.scene_adversity = adversity
        else:
            self.adversity = adversity

    @event("ScenePoolOpened")
    def open_scene_pool(self, amount: int) -> None:
        self.scene_adversity = amount

    @event("ScenePoolClosed")
    def close_scene_pool(self, left: int) -> None:
        self.scene_adversity = None

    # --- dice that Resolve may still change -------------------------------------------------

    @event("ExchangeOpened")
    def open_exchange(self, exchange: dict[str, Any]) -> None:
        self.exchange = exchange

    @event("ExchangeRevised")
    def revise_exchange(self, exchange: dict[str, Any], reason: str) -> None:
        self.exchange = exchange

    @event("HelpOffered")
    def offer_help(self, character: str, helper: str, dice: int) -> None:
        self.help.setdefault(character, {})[helper] = dice

    @event("HelpUsed")
    def use_help(self, character: str, dice: int, roll: str) -> None:
        self.help.pop(character, None)

    # --- the page (§7.1) ------------------------------------------------------------------

    @event("BattleJoined")
    def battle_begins(self, first_page: int) -> None:
        self.battle_page = first_page

    @event("BattleCast")
    def cast_battle(self, characters: list[str]) -> None:
        self.fighters = list(characters)

    @event("CharacterJoinedBattle")
    def join_battle(self, character: str) -> None:
        assert self.fighters is not None
        self.fighters.append(character)

    @event("CharacterLeftBattle")
    def leave_battle(self, character: str) -> None:
        assert self.fighters is not None
        self.fighters.remove(character)

    @event("BattleLeft")
    def battle_ends(self) -> None:
        self.battle_page = None
        self.fighters = None
        self.initiative = None
        self.grapples = {}
        self.protections = {}

    @event("InitiativeSet")
    def set_initiative(self, page: int, order: list[list[str]], edges: dict[str, int]) -> None:
        self.initiative = {"page": page, "order": order, "edges": edges, "delayed": {}, "triggered": []}

    @event("ActionDelayed")
    def delay(self, character: str, moment: str) -> None:
        assert self.initiative is not None
        self.initiative["delayed"][character] = moment

    @event("MomentCame")
    def trigger(self, moment: str, characters: list[str]) -> None:
        assert self.initiative is not None
        self.initiative["triggered"].append(moment)

    @event("DelayedActionsLost")
    def delays_lost(self, page: int, characters: list[str]) -> None:
        pass

    @event("ProtectionDeclared")
    def protect(self, ward: str, protector: str, page: int) -> None:
        """`protector` rolls the defence for `ward` in `page`, the one after the declaration (L257)."""
        self.protections[ward] = {"protector": protector, "page": page}

    # --- contests, chases, distances, grapples (§5, §7.3, §7.5) -----------------------------

    @event("ContestChanged")
    def set_contest(self, contest: str, state: dict[str, Any]) -> None:
        self.contests[contest] = state

    @event("ChaseChanged")
    def set_chase(self, chase: str, state: dict[str, Any]) -> None:
        self.chases[chase] = state

    @event("DistanceSet")
    def set_distance(self, between: str, distance: str, reason: str) -> None:
        self.distances[between] = distance
        self.journeys.pop(between, None)

    @event("MovementBegun")
    def begin_journey(self, between: str, mover: str, to: str, page: int) -> None:
        self.journeys[between] = {"mover": mover, "to": to, "page": page}

    @event("GrappleChanged")
    def set_grapple(self, grapple: str, state: dict[str, Any] | None) -> None:
        if state is None:
            self.grapples.pop(grapple, None)
        else:
            self.grapples[grapple] = state

    @event("DayPassed")
    def pass_day(self, day: int) -> None:
        self.day = day

    def distance(self, a: str, b: str) -> str | None:
        return self.distances.get(pair(a, b))

    # --- what projections show ----------------------------------------------------------

    def sheet(self) -> dict[str, Any]:
        return {
            **super().sheet(),
            "trait_limit": self.trait_limit,
            "adversity": self.adversity,
            "scene_adversity": self.scene_adversity,
            "page": self.page,
            "battle_page": self.battle_page,
            "fighters": self.fighters,
            "initiative": self.initiative,
            "help": {c: dict(h) for c, h in self.help.items()},
            "contests": dict(self.contests),
            "chases": dict(self.chases),
            "distances": dict(self.distances),
            "grapples": dict(self.grapples),
            "day": self.day,
            "exchange": self.exchange,
        }

