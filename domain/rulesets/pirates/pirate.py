"""A pirate's sheet: stats, luck (фарт), three wound slots, ambush tokens, fate, purse (§2, §4-§7)."""

from __future__ import annotations

from typing import Any

from eventsourcing.domain import event

from ...dice import Modifier
from ...errors import Count, RuleViolation, Word
from ...members import Character
from . import rules
from .rules import LIGHT, SERIOUS, TERRIBLE

#: What luck is spent for, as a refusal says it (the purposes are the record's names).
LUCK_SPENT_FOR = {
    "roll_bonus": Word("for +1 on his own move (L45)"), "help": Word("to help a crewmate's roll (L46)"),
    "hinder": Word("to hinder a roll (L46)"), "reputation": Word("to keep his Reputation from falling below −2 (L44)"),
    "avoid_wound": Word("to avoid a wound"), "scheme_council": Word("at a Scheme's council"),
}


class Pirate(Character):
    #: How many of the fates he owes (the first of `fate_pending`) come right after a lost negotiation (L204
    #: «сразу»), before anything else he does. A class default, only ever replaced: a pirate restored from an
    #: older snapshot has it too.
    fate_at_once = 0

    @event("Created")
    def __init__(
        self,
        campaign: str,
        name: str,
        player: str | None,
        stats: dict[str, int],
        luck: int,
        background: str | None,
        position: str | None,
        purse_piastres: int,
        fate_struck: list[str] | None = None,
    ) -> None:
        self.campaign = campaign
        self.name = name
        self.player = player
        self.stats = dict(stats)
        self.luck = luck
        self.background = background
        self.position = position
        self.purse_piastres = purse_piastres
        self.slots: list[str | None] = [None] * rules.WOUND_SLOTS
        self.treated: list[bool] = [False] * rules.WOUND_SLOTS
        self.pending_light = 0
        self.move: dict[str, Any] | None = None
        self.ambush_tokens: dict[str, int] = {}
        #: The struck fates of this pirate's player (L87), mirrored on each of the player's pirates.
        self.fate_struck: list[str] = list(fate_struck or [])
        #: Why the pirate must meet fate, one entry per Meet Fate roll owed (L75).
        self.fate_pending: list[str] = []
        #: Who must choose a fate after a roll of 9 or less: "player" or "gm" (L78).
        self.fate_choice: str | None = None
        self.fates: list[str] = []
        self.out_of_scene = False

    @property
    def dead(self) -> bool:
        """He chose (or was given) death after his last action (L85): he makes no more moves."""
        return rules.DEATH in self.fates

    @property
    def fate_holder(self) -> str:
        """Whose fates are struck: the player's (L87); a GM's pirate strikes his own."""
        return f"player:{self.player}" if self.player else f"pirate:{self.name}"

    # --- luck (§4.1) ----------------------------------------------------------------

    def spend_luck(self, amount: int, purpose: str, field: str = "character") -> None:
        """An optional spend: refused when the pirate does not have the luck (§4.1), naming `field`, the
        choice that spends it (the luck bonus of a move, say), in the game's words."""
        if amount > self.luck:
            raise RuleViolation(
                "{name} has {luck} and cannot spend {amount} {purpose}; luck never goes below 0 (L43)",
                field=field, name=self.name, luck=Count(self.luck, "{count} luck", "{count} luck"), amount=amount,
                purpose=LUCK_SPENT_FOR.get(purpose, purpose),
            )
        self._luck_spent(amount=amount, purpose=purpose)

    @event("LuckSpent")
    def _luck_spent(self, amount: int, purpose: str) -> None:
        self.luck -= amount

    def lose_luck(self, amount: int, reason: str) -> bool:
        """A mandatory loss (S2, S6, S7): what luck there is goes; False if it was not enough (L75)."""
        paid = min(amount, self.luck)
        if paid:
            self._luck_lost(amount=paid, reason=reason)
        return paid == amount

    @event("LuckLost")
    def _luck_lost(self, amount: int, reason: str) -> None:
        self.luck -= amount

    @event("LuckGained")
    def gain_luck(self, amount: int, reason: str) -> None:
        self.luck += amount

    # --- reputation (§4.2, §7) --------------------------------------------------------

    def change_reputation(self, by: int, reason: str) -> int:
        """Reputation moved by `by`, clamped to -2..+3 (L10); returns the points that could not move."""
        current = self.stats["reputation"]
        after = max(rules.STAT_MIN, min(rules.STAT_MAX, current + by))
        if after != current:
            self._reputation_changed(by=after - current, reputation=after, reason=reason)
        return abs(by) - abs(after - current)

    @event("ReputationChanged")
    def _reputation_changed(self, by: int, reputation: int, reason: str) -> None:
        self.stats["reputation"] = reputation

    # --- the check (§3) -----------------------------------------------------------------

    def wound_modifiers(self) -> list[Modifier]:
        """The wound modifier on the next rolled move (§2; P-3, P-4)."""
        modifiers = []
        if self.pending_light:
            modifiers.append(Modifier("light wounds", -self.pending_light))
        if SERIOUS in self.slots:
            modifiers.append(Modifier("serious wound", rules.SERIOUS_PENALTY))
        if TERRIBLE in self.slots:
            modifiers.append(Modifier("terrible wound", rules.TERRIBLE_PENALTY))
        return modifiers

    @property
    def modifier(self) -> int:
        return sum(m.value for m in self.wound_modifiers())

    @event("MoveRolled")
    def move_rolled(
        self, roll: str, move: str | None, stat: str, total: int, outcome: str, settled: bool = False
    ) -> None:
        """A rolled move consumes every pending light-wound -1 (invariant 7).

        A `settled` move (Scheme, a negotiation's tie) had its outcome applied by its own
        command; until it is `closed` (why, once it is), luck may still change it.
        """
        self.move = {
            "roll": roll, "move": move, "stat": stat, "total": total, "outcome": outcome,
            "settled": settled, "traded": False, "closed": None,
        }
        self.pending_light = 0

    @event("MoveClosed")
    def move_closed(self, roll: str, why: str) -> None:
        """A settled move is final: luck no longer changes it, and what waited for it follows."""
        assert self.move is not None and self.move["roll"] == roll
        self.move = {**self.move, "closed": why}

    @event("MoveModified")
    def move_modified(self, roll: str, total: int, outcome: str, reason: str) -> None:
        assert self.move is not None and self.move["roll"] == roll
        self.move = {**self.move, "total": total, "outcome": outcome}

    @event("SuccessTraded")
    def success_traded(self, roll: str, outcome: str, luck: int) -> None:
        """G2: the Cartographer's offer accepted; the move is a miss from now on (L50-L51)."""
        assert self.move is not None and self.move["roll"] == roll
        self.move = {**self.move, "outcome": rules.MISS, "traded": True}

    # --- harm and wounds (§5) -------------------------------------------------------

    def wound_for_harm(self, level: str = LIGHT, *, upgrade_lowest: bool = False) -> tuple[str, int, str] | None:
        """Where one point of harm goes: (change, slot, level), or None when no wound can be recorded.

        The transition table of §5 under ruling P-2 (a): an empty slot takes the wound;
        all three light -> one becomes serious; all three serious -> one becomes terrible;
        any other full combination cannot take a wound. With `upgrade_lowest` (P-2 (b))
        the lowest wound is upgraded whenever the slots are full, until all are terrible.
        """
        if None in self.slots:
            return "filled", self.slots.index(None), level
        if upgrade_lowest:
            for lower, higher in ((LIGHT, SERIOUS), (SERIOUS, TERRIBLE)):
                if lower in self.slots:
                    return "upgraded", self.slots.index(lower), higher
            return None
        if all(s == LIGHT for s in self.slots):
            return "upgraded", 0, SERIOUS
        if all(s == SERIOUS for s in self.slots):
            return "upgraded", 0, TERRIBLE
        return None

    @event("Wounded")
    def wounded(self, slot: int, level: str, change: str) -> None:
        self.slots[slot] = level
        self.treated[slot] = False
        if change == "filled" and level == LIGHT:
            self.pending_light += 1

    def treat(self, level: str, count: int, heal: bool) -> None:
        """P-25: the GM names the wounds a treatment reaches; untreated ones of that level first."""
        if heal:  # a wound treated earlier (awaiting its special condition) heals first
            slots = sorted((i for i, s in enumerate(self.slots) if s == level), key=lambda i: not self.treated[i])
        else:
            slots = [i for i, s in enumerate(self.slots) if s == level and not self.treated[i]]
        if len(slots) < count:
            have = self.slots.count(level)
            if have > len(slots):
                raise RuleViolation(
                    "{name} has {have} {level} wound(s), {treated} of them already treated; cannot treat {count} "
                    "(L66, L68, L70)",
                    field="count", name=self.name, have=have, level=Word(level), treated=have - len(slots), count=count,
                )
            raise RuleViolation(
                "{name} has {have} {level} wound(s); cannot treat {count} (L66, L68, L70)",
                field="count", name=self.name, have=have, level=Word(level), count=count,
            )
        for slot in slots[:count]:
            self.wound_treated(slot=slot, level=level, healed=heal)

    @event("WoundTreated")
    def wound_treated(self, slot: int, level: str, healed: bool) -> None:
        if healed:
            self.slots[slot] = None
            self.treated[slot] = False
        else:
            self.treated[slot] = True

    def heal_light_wounds(self) -> None:
        count = self.slots.count(LIGHT)
        if count:
            self._light_wounds_healed(count=count)

    @event("LightWoundsHealed")
    def _light_wounds_healed(self, count: int) -> None:
        """Chapter end: every light wound heals by itself (L64)."""
        self.slots = [None if s == LIGHT else s for s in self.slots]
        self.treated = [t and s is not None for s, t in zip(self.slots, self.treated, strict=True)]

    @property
    def has_untreated_terrible_wound(self) -> bool:
        return any(s == TERRIBLE and not t for s, t in zip(self.slots, self.treated, strict=True))

    # --- ambush tokens (§4.3) -----------------------------------------------------------

    @event("AmbushTokenGained")
    def gain_ambush_token(self, enemy: str) -> None:
        self.ambush_tokens[enemy] = self.ambush_tokens.get(enemy, 0) + 1

    def spend_ambush_token(self, enemy: str) -> None:
        if not self.ambush_tokens.get(enemy):
            held = ", ".join(f"{e} ×{n}" for e, n in self.ambush_tokens.items()) or "none"
            raise RuleViolation(
                "{name} has no ambush token against {enemy!r} (held: {held}); a token works only against its own "
                "enemy (L56)",
                field="enemy", name=self.name, enemy=enemy, held=held,
            )
        self._ambush_token_spent(enemy=enemy)

    @event("AmbushTokenSpent")
    def _ambush_token_spent(self, enemy: str) -> None:
        self.ambush_tokens[enemy] -= 1
        if not self.ambush_tokens[enemy]:
            del self.ambush_tokens[enemy]

    def burn_ambush_tokens(self, reason: str) -> None:
        count = sum(self.ambush_tokens.values())
        if count:
            self._ambush_tokens_burned(count=count, reason=reason)

    @event("AmbushTokensBurned")
    def _ambush_tokens_burned(self, count: int, reason: str) -> None:
        self.ambush_tokens = {}

    # --- meeting fate (§6) -----------------------------------------------------------

    @event("FateCalled")
    def fate_called(self, reason: str) -> None:
        """The pirate must meet fate (L75): a mandatory loss he cannot pay, or a wound left untreated."""
        self.fate_pending.append(reason)

    @event("FateCalledAtOnce")
    def fate_called_at_once(self, reason: str) -> None:
        """He must meet fate right after the negotiation he lost (L204 «сразу после переговоров»): before the
        fates he owed already, and before any move of his."""
        self.fate_pending.insert(0, reason)
        self.fate_at_once += 1

    @event("FateMet")
    def fate_met(self, roll: str, total: int, result: str, chooser: str | None, left_scene: bool) -> None:
        """One owed Meet Fate rolled (L77-L78), the first owed; `chooser` must now pick a fate, if anyone."""
        self.fate_pending.pop(0)
        if self.fate_at_once:
            self.fate_at_once -= 1
        self.fate_choice = chooser
        if left_scene:
            self.out_of_scene = True

    @event("FateChosen")
    def fate_chosen(self, option: str, by: str) -> None:
        self.fate_choice = None
        self.fates.append(option)

    @event("FateOptionStruck")
    def fate_option_struck(self, option: str) -> None:
        """A fate chosen for any pirate of this pirate's player is struck for him too (L87)."""
        self.fate_struck.append(option)

    @event("ReturnedToPlay")
    def returned_to_play(self) -> None:
        """The scene he left after meeting fate has ended (L78)."""
        self.out_of_scene = False

    # --- the purse (§4.7; P-26) ----------------------------------------------------------

    @event("MoneyGained")
    def receive(self, piastres: int, reason: str) -> None:
        self.purse_piastres += piastres

    def pay(self, piastres: int, reason: str, *, field: str = "from") -> None:
        if piastres > self.purse_piastres:
            raise RuleViolation(
                "{name}'s purse holds {coins}, not {wanted} ({reason}); money never goes below 0",
                field=field, name=self.name, coins=_coins(self.purse_piastres), wanted=_coins(piastres), reason=reason,
            )
        self._money_spent(piastres=piastres, reason=reason)

    @event("MoneySpent")
    def _money_spent(self, piastres: int, reason: str) -> None:
        self.purse_piastres -= piastres

    # --- the sheet ----------------------------------------------------------------------

    def sheet(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "player": self.player,
            "stats": dict(self.stats),
            "luck": self.luck,
            "wounds": {level: self.slots.count(level) for level in rules.WOUND_LEVELS},
            "slots": list(self.slots),
            "treated": [s for s, t in zip(self.slots, self.treated, strict=True) if t],
            "pending_light": self.pending_light,
            "modifier": self.modifier,
            "ambush_tokens": dict(self.ambush_tokens),
            "fate_struck": list(self.fate_struck),
            "fate_pending": list(self.fate_pending),
            "fate_choice": self.fate_choice,
            "fates": list(self.fates),
            "dead": self.dead,
            "out_of_scene": self.out_of_scene,
            "purse_piastres": self.purse_piastres,
            "purse": rules.in_coins(self.purse_piastres),
            "background": self.background,
            "position": self.position,
            "move": dict(self.move) if self.move else None,
        }


def _coins(amount: int) -> str:
    c = rules.in_coins(amount)
    return f"{amount} piastres ({c['chests']} chests, {c['doubloons']} doubloons, {c['piastres']} piastres)"
