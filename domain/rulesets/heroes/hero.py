"""A character of the superhero game: hero, villain, opponent, bystander or a group of minions (§2).

Every character is one `Hero` aggregate; its `role` says which side of the initiative ties it
is on (L130-L133) and whether it is a hero (who alone may declare a Defining Moment, H-22, and
who count for the GM's Adversity, L118). A minion group shares one danger rank (L26): its
Health is the number of minions still standing, one net success defeating one (L191; H-24).
"""

from __future__ import annotations

from typing import Any

from eventsourcing.domain import event

from ...errors import Count, RuleViolation
from ...members import Character
from . import rules, traits
from .rules import MINION


class Hero(Character):
    kind = "character"
    #: The pages whose action he gave up, his movement kept (L141 separates the two): protecting
    #: another instead of the next page's action (L257). Page (as text, as JSON keeps it) -> why.
    #: A class default, only ever replaced: a hero restored from an older snapshot has it too.
    actions_given_up: dict[str, str] | None = None
    #: The page in which one of his own simultaneous group defeated him before his turn came: his
    #: attack of that page still happens (L132). A class default, as `actions_given_up`.
    felled_in_group: int | None = None

    @event("Created")
    def __init__(
        self,
        campaign: str,
        name: str,
        player: str | None,
        role: str,
        abilities: dict[str, int],
        talents: dict[str, int],
        powers: dict[str, dict[str, Any]],
        perks: list[str],
        flaws: list[str],
        motivation: str | None,
        count: int,
        resolve: int,
        health: int,
    ) -> None:
        self.campaign = campaign
        self.name = name
        self.player = player
        self.role = role
        self.abilities = dict(abilities)
        self.talents = dict(talents)
        self.powers = {n: dict(p) for n, p in powers.items()}
        self.perks = list(perks)
        self.flaws = list(flaws)
        self.motivation = motivation
        self.count = count
        self.resolve = resolve
        self.health = health
        self.effects: dict[str, dict[str, Any]] = {}
        #: Unconscious to the end of the scene after a desperate last effort (L103).
        self.unconscious = False
        #: The page in which damage defeated him: "back in the fight" is bought in the next one (L203).
        self.defeat_page: int | None = None
        #: The Defining Moment being lived: story, scene, effort, whether it lasts, its rolls (L77-L79).
        self.moment: dict[str, Any] | None = None
        self.defining_moment_used: int | None = None
        #: After a Defining Moment an Ability of this kind must lose a rank (L79).
        self.must_lower: str | None = None
        self.lowered: dict[str, int] = {}
        self.acts_first = False
        self.edge_doubled = False
        #: Charge / all-out attack / all-out defence, for the rest of one page (L251, L261-L263).
        self.stance: dict[str, Any] | None = None
        #: Actions declared for a page, when more than one (L142).
        self.actions: dict[str, int] | None = None
        self.acted_page: int | None = None
        #: The page whose turn he let go by without acting, so the slower could act (L126).
        self.passed_page: int | None = None
        self.lost_pages: list[int] = []
        #: Why each lost page is lost, so that a refused action names its rule (a knockback, L266).
        self.lost_because: dict[int, str] = {}
        #: The ambush's first page in which only passive defence is left (L244-L245).
        self.passive_only_page: int | None = None
        #: The page in which desperation gave him a Resolve that must be spent in it (L103).
        self.desperation_page: int | None = None
        #: Powers imitated with a power stunt, usable for one roll (L116).
        self.stunts: dict[str, dict[str, Any]] = {}

    # --- what the sheet derives (§2) ------------------------------------------------------

    @property
    def is_minion(self) -> bool:
        return self.role == MINION

    @property
    def is_hero(self) -> bool:
        return self.role == rules.HERO

    @property
    def edge(self) -> int:
        """L127-L128; doubled for the rest of the battle under the GM's variant of act first (L137)."""
        base = rules.edge(self.abilities)
        return base * 2 if self.edge_doubled else base

    @property
    def max_health(self) -> int:
        if self.is_minion:
            return self.count
        return rules.max_health(self.abilities)

    def starting_resolve(self, trait_limit: int) -> int:
        if self.is_minion:
            return 0
        return rules.starting_resolve(trait_limit, rules.highest_rank(self.abilities, self.powers))

    @property
    def defeated(self) -> bool:
        """Health 0, unconscious after desperation, or beaten by a special effect (L186, L103, L195)."""
        return self.health == 0 or self.unconscious or any(e["defeating"] for e in self.effects.values())

    def penalty(self) -> int:
        """Dice lost to manoeuvre effects on him (L229-L231; H-5)."""
        return sum(e.get("penalty", 0) for e in self.effects.values())

    def trait(self, name: str, *, field: str = "trait") -> dict[str, Any]:
        """A trait by name (case does not matter): its kind, rank and what it can be used for (traits.py)."""
        return traits.find(self.name, name, field=field, abilities=self.abilities,
                           books=(("talent", self.talents), ("power", self.powers), ("stunt", self.stunts)))

    # --- Resolve (§4.1) ---------------------------------------------------------------------

    def spend_resolve(self, amount: int, purpose: str, *, field: str = "character") -> None:
        """Resolve never goes below 0 (invariant 4)."""
        if amount > self.resolve:
            raise RuleViolation(
                "{name} has {resolve} and cannot spend {amount} ({purpose}); Resolve never goes below 0 (L84, L105)",
                field=field, name=self.name, resolve=Count(self.resolve, "{count} Resolve", "{count} Resolve"),
                amount=amount, purpose=purpose,
            )
        self._resolve_spent(amount=amount, purpose=purpose, resolve=self.resolve - amount)
        if self.desperation_page is not None:
            # Right after the desperate effort he passes out to the end of the scene (L103).
            self.pass_out(reason="spent the Resolve of his last strength (L103)", resolve=self.resolve)

    @event("ResolveSpent")
    def _resolve_spent(self, amount: int, purpose: str, resolve: int) -> None:
        self.resolve = resolve

    @event("ResolveGained")
    def gain_resolve(self, amount: int, reason: str, resolve: int) -> None:
        self.resolve = resolve

    @event("ResolveRenewed")
    def renew_resolve(self, resolve: int, starting: int, reading: str) -> None:
        self.resolve = resolve

    @event("DesperateEffort")
    def desperate(self, page: int, resolve: int) -> None:
        """At 0 Resolve, in trouble: one Resolve from his last strength, to spend in this page (L103)."""
        self.resolve = resolve
        self.desperation_page = page

    @event("PassedOut")
    def pass_out(self, reason: str, resolve: int) -> None:
        """Right after the desperate effort: unconscious to the end of the scene (L103)."""
        self.desperation_page = None
        self.resolve = resolve
        self.unconscious = True

    # --- Health and defeat (§6) -----------------------------------------------------------

    def lose_health(self, *, damage: int, loss: int, page: int, source: str) -> None:
        """Health falls by `loss`; an effect that now lasts as many pages as the Health left defeats
        him (L195 sets the condition on the remaining Health, so it is checked whenever Health falls)."""
        self.damaged(damage=damage, loss=loss, health=self.health - loss, page=page, source=source)
        self.meet_effects(f"Health fell to {self.health}")

    def meet_effects(self, why: str) -> None:
        for name, effect in list(self.effects.items()):
            if self.defeated_by(effect):
                self.set_effect(effect=name, state={**effect, "until": "scene", "defeating": True},
                                reason=f"{why}, {effect['pages']} pages ≥ Health {self.health}: "
                                       "defeated by it to the end of the scene (L195)")

    def defeated_by(self, effect: dict[str, Any]) -> bool:
        """L195: a Power's special effect lasting at least as many pages as the Health left defeats him.
        A manoeuvre's effect is a penalty, never a defeat (L224-L231): it says `defeats: false`."""
        return (effect["until"] == "pages" and not effect["defeating"] and effect.get("defeats", True)
                and effect["pages"] >= self.health)

    @event("Damaged")
    def damaged(self, damage: int, loss: int, health: int, page: int, source: str) -> None:
        """`damage` is the net damage, `loss` what Health actually lost (never below 0)."""
        self.health = health
        if health > 0:
            self.defeat_page = None
        elif loss:
            self.defeat_page = page

    @event("Healed")
    def healed(self, amount: int, health: int, reason: str) -> None:
        self.health = health
        if health > 0:
            self.defeat_page = None

    @event("CameTo")
    def came_to(self, reason: str) -> None:
        self.unconscious = False

    # --- special effects (§6.1) -----------------------------------------------------------

    @event("EffectChanged")
    def set_effect(self, effect: str, state: dict[str, Any], reason: str) -> None:
        self.effects[effect] = dict(state)

    @event("EffectEnded")
    def end_effect(self, effect: str, reason: str) -> None:
        self.effects.pop(effect, None)

    # --- ranks (§4.3) ---------------------------------------------------------------------

    @event("AbilityLowered")
    def ability_lowered(self, ability: str, rank: int, health: int) -> None:
        self.abilities[ability] = rank
        self.lowered[ability] = self.lowered.get(ability, 0) + 1
        self.health = health
        self.must_lower = None

    @event("AbilityRestored")
    def ability_restored(self, ability: str, rank: int, cost: str) -> None:
        self.abilities[ability] = rank
        self.lowered[ability] -= 1
        if not self.lowered[ability]:
            del self.lowered[ability]

    # --- the Defining Moment (§4.3) -------------------------------------------------------

    @event("DefiningMomentDeclared")
    def moment_declared(self, story: int, scene: int, effort: str, lasting: bool) -> None:
        self.moment = {"story": story, "scene": scene, "effort": effort, "lasting": lasting, "rolls": []}
        self.defining_moment_used = story

    @event("DefiningMomentRolled")
    def moment_rolled(self, roll: str) -> None:
        assert self.moment is not None
        self.moment["rolls"].append(roll)

    @event("DefiningMomentEnded")
    def moment_ended(self, effort: str, reason: str) -> None:
        self.moment = None
        self.must_lower = effort

    # --- the page (§7) --------------------------------------------------------------------

    @event("ActionsDeclared")
    def actions_declared(self, page: int, count: int) -> None:
        self.actions = {"page": page, "count": count}

    def declared_actions(self, page: int) -> int:
        return self.actions["count"] if self.actions and self.actions["page"] == page else 1

    @event("Acted")
    def acted(self, page: int, action: str) -> None:
        self.acted_page = page

    @event("TurnPassed")
    def passed(self, page: int) -> None:
        self.passed_page = page

    def had_turn(self, page: int) -> bool:
        """Has his turn of the page come and gone: he acted, or passed it?"""
        return page in (self.acted_page, self.passed_page)

    @event("StanceTaken")
    def stance_taken(self, page: int, stance: str) -> None:
        kinds = self.stance["kinds"] if self.stance and self.stance["page"] == page else []
        self.stance = {"page": page, "kinds": [*kinds, stance]}

    def stance_in(self, page: int) -> list[str]:
        return list(self.stance["kinds"]) if self.stance and self.stance["page"] == page else []

    @event("PageLost")
    def page_lost(self, page: int, reason: str) -> None:
        if page not in self.lost_pages:
            self.lost_pages.append(page)
        earlier = self.lost_because.get(page)
        self.lost_because[page] = f"{earlier}; {reason}" if earlier else reason

    @event("ActionGivenUp")
    def action_given_up(self, page: int, reason: str) -> None:
        """Not the page, only its action: he still moves in it (L141, L143)."""
        self.actions_given_up = {**(self.actions_given_up or {}), str(page): reason}

    def gave_up_action(self, page: int) -> str | None:
        """Why he has no action in `page`, if he gave it up."""
        return (self.actions_given_up or {}).get(str(page))

    @event("FelledInHisGroup")
    def felled_by_his_group(self, page: int, by: str) -> None:
        """Defeated by `by`, who acts at the same moment (L132): his own attack of the page still comes."""
        self.felled_in_group = page

    @event("PageRegained")
    def page_regained(self, page: int, reason: str) -> None:
        self.lost_pages = [p for p in self.lost_pages if p != page]
        self.lost_because.pop(page, None)

    @event("Surprised")
    def surprised(self, page: int | None) -> None:
        """Ambushed: only passive defence in the ambush's first page (L244-L245); None lifts it."""
        self.passive_only_page = page

    @event("PagesForgotten")
    def forget_pages(self, before: int) -> None:
        self.lost_pages = [p for p in self.lost_pages if p >= before]
        self.lost_because = {p: why for p, why in self.lost_because.items() if p >= before}
        if self.actions_given_up:
            self.actions_given_up = {p: why for p, why in self.actions_given_up.items() if int(p) >= before}

    @event("PagesLapsed")
    def pages_lapsed(self, reason: str) -> None:
        """The pages he was to lose, or whose action he gave up, are gone with their battle or scene: a page
        is a few seconds of a fight (L11), and what lasts pages lasts at most to the scene's end (L19)."""
        self.lost_pages = []
        self.lost_because = {}
        if self.actions_given_up:
            self.actions_given_up = {}

    def owes_pages(self) -> bool:
        """Is a page still to lose, or a page's action given up, on his sheet?"""
        return bool(self.lost_pages or self.actions_given_up)

    def has_past_pages(self, before: int) -> bool:
        """Does he keep a lost page, or a page's action given up, from before page `before`?"""
        return any(p < before for p in [*self.lost_pages, *map(int, self.actions_given_up or {})])

    @event("ActsFirst")
    def bought_act_first(self, double_edge: bool) -> None:
        if double_edge:
            self.edge_doubled = True
        else:
            self.acts_first = True

    @event("BattleOver")
    def battle_over(self) -> None:
        """Act first lasts the combat (L136; H-23); a stance the page."""
        self.acts_first = False
        self.edge_doubled = False
        self.stance = None

    # --- power stunts (L116) --------------------------------------------------------------

    @event("PowerImitated")
    def stunt_gained(self, power: str, spec: dict[str, Any], via: str) -> None:
        self.stunts[power] = dict(spec)

    @event("ImitationUsed")
    def stunt_used(self, power: str) -> None:
        self.stunts.pop(power, None)

    # --- the sheet --------------------------------------------------------------------------

    def sheet(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "player": self.player,
            "role": self.role,
            "abilities": dict(self.abilities),
            "talents": dict(self.talents),
            "powers": {name: p["rank"] for name, p in self.powers.items()},
            "power_uses": {name: dict(p) for name, p in self.powers.items()},
            "perks": list(self.perks),
            "flaws": list(self.flaws),
            "motivation": self.motivation,
            "edge": self.edge,
            "health": self.health,
            "max_health": self.max_health,
            "resolve": self.resolve,
            "defeated": self.defeated,
            "unconscious": self.unconscious,
            "effects": {name: dict(e) for name, e in self.effects.items()},
            "defining_moment_used": self.defining_moment_used,
            "defining_moment": dict(self.moment) if self.moment else None,
            "must_lower_ability": self.must_lower,
            "lowered": dict(self.lowered),
            "acts_first": self.acts_first,
            "lost_pages": list(self.lost_pages),
            "actions_given_up": sorted(int(p) for p in self.actions_given_up or {}),
            "stunts": {name: s["rank"] for name, s in self.stunts.items()},
            "minions": self.count if self.is_minion else None,
        }
