"""The pirate game's table-wide state: carousals, the enemy faced, the negotiation under way.

These are the game's own sub-sequences (§1): a carousal (one tall tale's luck per carousal,
L52), and a negotiation of three rounds (§11). They are not nested in the generic scopes —
a carousal may outlast a scene — so they are kept here, with their own events.
"""

from __future__ import annotations

from typing import Any

from eventsourcing.domain import event

from ...campaign import Campaign
from ...timeline import Scope


#: The key of the rule that burns unused ambush tokens when the enemy changes (L56), in `stirred`.
TOKENS_BURN = "tokens:burn"


class PiratesCampaign(Campaign):
    scope_labels = {Scope.MOVE: "move", Scope.CHAPTER: "chapter"}
    #: Chapter end heals and calls fate, scene end returns who met fate, a new enemy burns tokens (play.py).
    roster_visits = ("end:chapter", "end:scene", TOKENS_BURN)
    #: Each Scheme roll still its leader's open move -> the ship whose plan holds it, the one ship its command
    #: wrote (intrigue.scheme): luck spent on it after the roll finds the plan there (intrigue._reckon_scheme).
    #: A class default (None: no Scheme roll open), only ever replaced: a campaign restored from an older
    #: snapshot has it too, and looks at every ship for a roll it does not know.
    scheme_ships: dict[str, str] | None = None

    def __init__(self, campaign: str, ruleset: str, title: str | None, options: dict[str, Any]) -> None:
        super().__init__(campaign, ruleset, title, options)
        self.carousal: dict[str, Any] = {"number": 0, "open": False, "title": None}
        #: The enemy the players acted against in the latest scene (P-10), and whether a scene was seen.
        self.enemy: str | None = None
        self.scenes_seen = 0
        self.negotiation: dict[str, Any] | None = None
        self.negotiations = 0

    def indexed(self, command_id: str, command: dict[str, Any], writes: list[list[Any]]) -> None:
        kept = {roll: ship for roll, ship in (self.scheme_ships or {}).items() if roll in self.open_moves}
        if command.get("type") == "scheme" and command_id in self.open_moves:
            kept[command_id] = next(name for name, _ in (self.member_of[w[0]] for w in writes if w[0] in self.member_of)
                                    if self.roster[name]["kind"] == "ship")
        if kept != (self.scheme_ships or {}):
            self.scheme_ships = kept

    @staticmethod
    def snapshot_agrees(kept: dict[str, Any], folded: dict[str, Any]) -> bool:
        """As `Campaign.snapshot_agrees`; a snapshot's `scheme_ships` may miss Scheme rolls of the fold's (made
        before the campaign was restored from an older snapshot), never tell another ship for one."""
        kept, folded = dict(kept), dict(folded)
        mine, fold = kept.pop("scheme_ships", None) or {}, folded.pop("scheme_ships", None) or {}
        return (all(fold.get(roll) == ship for roll, ship in mine.items())
                and Campaign.snapshot_agrees(kept, folded))

    # --- carousals (L52, HB) ---------------------------------------------------------------

    @event("CarousalStarted")
    def carousal_started(self, number: int, title: str | None) -> None:
        self.carousal = {"number": number, "open": True, "title": title}

    @event("CarousalEnded")
    def carousal_ended(self, number: int) -> None:
        self.carousal = {**self.carousal, "open": False}

    # --- the enemy of the scene (L56) ---------------------------------------------------------

    @event("EnemyFaced")
    def enemy_faced(self, enemy: str | None, scene: int) -> None:
        if self.scenes_seen and enemy != self.enemy:  # the tokens were burnt (play.scene_started)
            self.visited(TOKENS_BURN)
        self.enemy = enemy
        self.scenes_seen += 1

    # --- negotiations (§11) -------------------------------------------------------------------

    @event("NegotiationStarted")
    def negotiation_started(
        self,
        number: int,
        negotiator: str,
        opponent: str,
        opponent_kind: str,
        ship: str | None,
        first: str,
    ) -> None:
        self.negotiations = number
        self.negotiation = {
            "number": number,
            "negotiator": negotiator,
            "opponent": opponent,
            "opponent_kind": opponent_kind,
            "ship": ship,
            "first": first,
            "rounds": [],
            "trumps": {"pirates": 0, "opponent": 0},
        }

    @event("NegotiationRoundPlayed")
    def negotiation_round_played(
        self,
        number: int,
        first: str,
        pirate_bet: str,
        opponent_bet: str,
        secret: str | None,
        opponent_secret: str | None,
        roll: str | None,
        winner: str | None,
        trumps: int,
        next_first: str,
    ) -> None:
        assert self.negotiation is not None
        self.negotiation["rounds"].append(
            {
                "number": number, "first": first, "pirate_bet": pirate_bet, "opponent_bet": opponent_bet,
                "secret": secret, "opponent_secret": opponent_secret, "roll": roll,
                "winner": winner, "trumps": trumps,
            }
        )
        if winner is not None:
            self.negotiation["trumps"][winner] += trumps
        self.negotiation["first"] = next_first

    @event("NegotiationRoundReckoned")
    def negotiation_round_reckoned(
        self, number: int, roll: str, outcome: str, winner: str | None, trumps: int, next_first: str
    ) -> None:
        """The tie's Reputation check changed by luck after the roll: the round goes to whom the new outcome gives it."""
        assert self.negotiation is not None
        played = self.negotiation["rounds"][-1]
        assert played["number"] == number and played["roll"] == roll
        if played["winner"] is not None:
            self.negotiation["trumps"][played["winner"]] -= played["trumps"]
        if winner is not None:
            self.negotiation["trumps"][winner] += trumps
        played.update(winner=winner, trumps=trumps)
        self.negotiation["first"] = next_first

    @event("NegotiationEnded")
    def negotiation_ended(
        self,
        number: int,
        trumps: dict[str, int],
        winner: str | None,
        margin: int,
        conceded_by: str | None,
        loser: str | None,
        threat_harm: int,
    ) -> None:
        self.negotiation = None

    def sheet(self) -> dict[str, Any]:
        return {
            **super().sheet(),
            "carousal": dict(self.carousal),
            "enemy": self.enemy,
            "negotiation": self.negotiation,
        }
