"""The special moves played step by step: Scheme (§10) and Conduct Negotiations (§11)."""

from __future__ import annotations

from ...dice import Modifier
from ...errors import PermissionDenied, RuleViolation, Word
from ...table import Table
from . import rules
from .pirate import Pirate
from .acting import acting, alive, campaign_of, in_play
from .play import check
from .rules import OPPONENT, PIRATES
from .seamanship import crew_ship, sinking_first
from .settling import SETTLED, Settled, close_plan_rolls, close_roll
from .ship import Ship

# --- Scheme (§10) ---------------------------------------------------------------------------------


def scheme(
    table: Table,
    ship: str | None,
    leader: str,
    goal: str,
    marked: list[str],
    council: list[str],
    *,
    luck_bonus: bool = False,
) -> str:
    """Mark secrets, the leader's Foresight check with the council's +1s, chances, secrets gone (L194)."""
    vessel = crew_ship(table, ship)
    if vessel.plan is not None and vessel.plan["goal"] != goal:
        raise RuleViolation(
            "{name}'s crew is still carrying out the plan {goal!r}; scheme for that goal again or end_plan first",
            field="goal", name=vessel.name, goal=vessel.plan["goal"],
        )
    if not marked:
        raise RuleViolation("mark at least one secret from the ship sheet (L194)", field="secrets")
    if len(set(marked)) != len(marked):
        raise RuleViolation("a secret is marked once", field="secrets")
    unknown = [s for s in marked if s not in vessel.secrets]
    if unknown:
        raise RuleViolation(
            "{unknown} not on {name}'s sheet (held: {secrets}; L194)",
            field="secrets", unknown=", ".join(map(repr, unknown)), name=vessel.name,
            secrets=", ".join(map(repr, vessel.secrets)) or Word("none"),
        )
    pirate = acting(table, leader, "lead a scheme", field="leader")
    if leader in council or len(set(council)) != len(council):
        raise RuleViolation("the council names each other participant once, not the leader", field="council")
    close_plan_rolls(table, vessel, f"another Scheme for {vessel.name}'s plan", moving=pirate)
    bonus = []
    for index, name in enumerate(council):
        member = table.get(Pirate, name, field="council")
        alive(member, "sit in a council", field="council")
        if index >= rules.COUNCIL_BONUS_MAX:
            continue  # P-12: beyond +3 a participant adds nothing and pays nothing
        if member.luck < rules.COUNCIL_LUCK:
            raise RuleViolation(
                "{name} has no luck to spend for the council's +1 (L194, HB; P-12)", field="council", name=name
            )
        member.spend_luck(rules.COUNCIL_LUCK, "scheme_council")
        bonus.append(Modifier(f"council: {name}", 1))
    roll_id, _, outcome = check(
        table, pirate, "foresight", move="scheme", luck_bonus=luck_bonus, extra=bonus, settled=True
    )
    chances, gm_chances = _scheme_chances(outcome, len(marked))
    vessel.secrets_removed(secrets=list(marked), reason="marked for a scheme: they lose relevance (L194)")
    vessel.schemed(
        goal=goal, leader=leader, roll=roll_id, chances=chances, gm_chances=gm_chances, marked=len(marked)
    )
    return roll_id


def _scheme_chances(outcome: str, marked: int) -> tuple[int, int]:
    """(the crew's chances, the GM's): 10+ marked + 2, 7-9 marked, a miss gives the GM marked (L194)."""
    if outcome == rules.FULL_SUCCESS:
        return marked + rules.FULL_SUCCESS_EXTRA_CHANCES, 0
    if outcome == rules.PARTIAL_SUCCESS:
        return marked, 0
    return 0, marked


def _reckon_scheme(table: Table, leader: Pirate) -> None:
    """Luck after the Scheme roll (L45-L46): the plan's chances follow its new outcome (L194)."""
    assert leader.move is not None
    roll = leader.move["roll"]
    ship = (campaign_of(table).scheme_ships or {}).get(roll)
    ships = [table.get(Ship, ship)] if ship is not None else table.all(Ship)
    vessel = next(v for v in ships if v.plan is not None and roll in v.plan.get("schemes", {}))
    chances, gm_chances = _scheme_chances(leader.move["outcome"], vessel.plan["schemes"][roll]["marked"])
    vessel.scheme_reckoned(roll=roll, outcome=leader.move["outcome"], chances=chances, gm_chances=gm_chances)


def end_plan(table: Table, ship: str | None) -> None:
    """The plan is over: its Scheme rolls are final, and unspent chances of both sides are gone (P-13)."""
    vessel = crew_ship(table, ship)
    if vessel.plan is None:
        raise RuleViolation("{name}'s crew is carrying out no plan", field="ship", name=vessel.name)
    close_plan_rolls(table, vessel, f"{vessel.name}'s plan ended")
    vessel.plan_ended(unspent_chances=vessel.chances, unspent_gm_chances=vessel.gm_chances)


# --- Conduct Negotiations (§11) --------------------------------------------------------------------


def start_negotiation(
    table: Table, negotiator: str, opponent: str, opponent_kind: str, ship: str | None, initiator: str
) -> None:
    campaign = campaign_of(table)
    sinking_first(table)
    if campaign.negotiation is not None:
        n = campaign.negotiation
        raise RuleViolation(
            "{negotiator} is still negotiating with {opponent} (round {round} of {rounds}); finish it first{awaiting}",
            negotiator=n["negotiator"], opponent=n["opponent"], round=len(n["rounds"]), rounds=rules.NEGOTIATION_ROUNDS,
            awaiting=_awaiting_close(n),
        )
    # Conduct Negotiations is a move (L198-L200) each side argues in (L202): not for one out of the scene (L78).
    in_play(table.get(Pirate, negotiator, field="negotiator"), "negotiate", field="negotiator")
    if opponent_kind == "pirate":
        in_play(table.get(Pirate, opponent, field="opponent"), "negotiate", field="opponent")
        if opponent == negotiator:
            raise RuleViolation("a pirate does not negotiate with himself", field="opponent")
    elif initiator == OPPONENT:
        raise RuleViolation(
            "against the Cartographer's characters the players bet first in every round (L202)", field="initiator"
        )
    if ship is not None:
        crew_ship(table, ship)
    campaign.negotiation_started(
        number=campaign.negotiations + 1, negotiator=negotiator, opponent=opponent,
        opponent_kind=opponent_kind, ship=ship, first=initiator,
    )


def _open(table: Table) -> dict:
    negotiation = campaign_of(table).negotiation
    if negotiation is None:
        raise RuleViolation("no negotiation is going on (start_negotiation first)")
    return negotiation


def _awaiting_close(negotiation: dict) -> str:
    """Why a negotiation of three rounds played has not ended: its last tie's roll is open to luck."""
    if len(negotiation["rounds"]) < rules.NEGOTIATION_ROUNDS:
        return ""
    roll = negotiation["rounds"][-1]["roll"]
    return f": round {rules.NEGOTIATION_ROUNDS}'s Reputation check {roll} is still open to luck; close_roll {roll} ends it"


def _close_last_round(table: Table, negotiation: dict, why: str) -> None:
    """The negotiation goes on: the tie's roll of the round before is final (L202)."""
    if negotiation["rounds"] and negotiation["rounds"][-1]["roll"] is not None:
        close_roll(table, negotiation["rounds"][-1]["roll"], why)


def _tie_winner(first: str, outcome: str) -> str | None:
    """Same bets: the side acting first checks Reputation; 10+ it wins, 7-9 nobody, 6- the other side (L202)."""
    other = OPPONENT if first == PIRATES else PIRATES
    return {rules.FULL_SUCCESS: first, rules.MISS: other}.get(outcome)


def _round_result(negotiation: dict, first: str, winner: str | None, secret: str | None,
                  opponent_secret: str | None) -> tuple[int, str]:
    """(the trumps the round gives, who acts first in the next): L202-L204, P-14, P-16."""
    used_secret = secret if winner == PIRATES else opponent_secret if winner == OPPONENT else None
    trumps = 0 if winner is None else rules.SECRET_TRUMPS if used_secret else rules.ROUND_TRUMPS
    if negotiation["opponent_kind"] != "pirate":
        next_first = PIRATES  # L202: against the Cartographer's characters the players always bet first
    elif winner is None:
        next_first = first  # P-14: nobody lost, the same side acts first again
    else:
        next_first = OPPONENT if winner == PIRATES else PIRATES  # L202: the loser of the round
    return trumps, next_first


def negotiation_round(
    table: Table,
    pirate_bet: str,
    opponent_bet: str,
    *,
    secret: str | None = None,
    opponent_secret: str | None = None,
    luck_bonus: bool = False,
    advantage: bool = False,
    disadvantage: bool = False,
) -> None:
    """One round (L202-L204): bets revealed, rock-paper-scissors, a tie decided by a Reputation check.

    The tie's check is a check of the plan when the negotiating ship's crew carries one out: a chance
    spent gives it advantage (the crew's) or disadvantage (the GM's), 3d6 keep two, declared with the
    round, before the roll (L196; P-13), as on `roll_move`.
    """
    campaign = campaign_of(table)
    sinking_first(table)
    n = _open(table)
    if len(n["rounds"]) >= rules.NEGOTIATION_ROUNDS:
        raise RuleViolation("a negotiation has {rounds} rounds (L202){awaiting}", rounds=rules.NEGOTIATION_ROUNDS,
                            awaiting=_awaiting_close(n))
    _close_last_round(table, n, f"round {len(n['rounds']) + 1} of the negotiation was played")
    number = len(n["rounds"]) + 1
    first = n["first"]
    tie = pirate_bet == opponent_bet
    for declared, name in ((luck_bonus, "luck_bonus"), (advantage, "advantage"), (disadvantage, "disadvantage")):
        if declared and not tie:
            raise RuleViolation(
                "no Reputation check in this round (the bets differ, L202): no {name}",
                field=name, name=name,
            )
    if secret is not None:
        vessel = crew_ship(table, n["ship"])
        if secret not in vessel.secrets:
            raise RuleViolation(
                "{secret!r} is not on {name}'s sheet (held: {secrets})",
                field="secret", secret=secret, name=vessel.name,
                secrets=", ".join(map(repr, vessel.secrets)) or Word("none"),
            )
        vessel.secrets_removed(secrets=[secret], reason=f"used against {n['opponent']} in a negotiation (L204)")
    roll_id = None
    if tie:
        roller = n["negotiator"] if first == PIRATES else n["opponent"]
        pirate = table.get(Pirate, roller, field="opponent")
        if luck_bonus:
            table.acting_for(roller)
        if advantage:  # the crew's chance is spent by the roller's player (the GM's only by the GM, on the model)
            table.acting_for(roller, field="advantage")
        roll_id, _, outcome = check(
            table, pirate, "reputation", move="conduct_negotiations", luck_bonus=luck_bonus, settled=True,
            advantage=advantage, disadvantage=disadvantage, ship=n["ship"],
        )
        winner = _tie_winner(first, outcome)
    elif rules.BEATS[pirate_bet] == opponent_bet:
        winner = PIRATES
    else:
        winner = OPPONENT
    trumps, next_first = _round_result(n, first, winner, secret, opponent_secret)
    campaign.negotiation_round_played(
        number=number, first=first, pirate_bet=pirate_bet, opponent_bet=opponent_bet, secret=secret,
        opponent_secret=opponent_secret, roll=roll_id, winner=winner, trumps=trumps, next_first=next_first,
    )
    if number == rules.NEGOTIATION_ROUNDS and roll_id is None:
        _finish(table, conceded_by=None)  # a tie's roll ends it when it closes (_close_tie)


def _reckon_tie(table: Table, roller: Pirate) -> None:
    """Luck after the tie's Reputation check (L45-L46): the round's trump follows its new outcome (L202)."""
    assert roller.move is not None
    n = _open(table)
    played = n["rounds"][-1]
    winner = _tie_winner(played["first"], roller.move["outcome"])
    trumps, next_first = _round_result(n, played["first"], winner, played["secret"], played["opponent_secret"])
    campaign_of(table).negotiation_round_reckoned(
        number=played["number"], roll=played["roll"], outcome=roller.move["outcome"], winner=winner,
        trumps=trumps, next_first=next_first,
    )


def _close_tie(table: Table, roller: Pirate) -> None:
    """The third round's tie is final: the negotiation ends (L202-L204)."""
    n = campaign_of(table).negotiation
    if n is not None and len(n["rounds"]) == rules.NEGOTIATION_ROUNDS:
        _finish(table, conceded_by=None)


def trailing_side(table: Table, negotiation: dict) -> str | None:
    """The side that may concede after round 2 (L204 "2/0"; P-15), if any."""
    if len(negotiation["rounds"]) != rules.CONCESSION_AFTER_ROUND:
        return None
    trumps = negotiation["trumps"]
    for side, other in ((PIRATES, OPPONENT), (OPPONENT, PIRATES)):
        if trumps[side] == 0:
            lead = trumps[other]
            if table.campaign.option("concession") == "exactly_2_0":
                return side if lead == rules.CONCESSION_LEAD else None
            return side if lead >= rules.CONCESSION_LEAD else None
    return None


def concede_negotiation(table: Table) -> None:
    """After two rounds at 2:0 the trailing side may yield instead of playing the third (L204)."""
    n = _open(table)
    _close_last_round(table, n, "a side conceded the negotiation")
    side = trailing_side(table, n)
    if side is None:
        t = n["trumps"]
        raise RuleViolation(
            "a side may concede only after round {concession_after_round} when it trails 0 to 2 or more (L204; "
            "P-15); round {rounds} played, trumps {pirate_trumps}:{opponent_trumps}",
            concession_after_round=rules.CONCESSION_AFTER_ROUND, rounds=len(n["rounds"]), pirate_trumps=t[PIRATES],
            opponent_trumps=t[OPPONENT],
        )
    if side == PIRATES:
        table.acting_for(n["negotiator"])
    elif n["opponent_kind"] == "pirate":
        table.acting_for(n["opponent"])
    elif table.actor != "gm":
        raise PermissionDenied(
            "{opponent} is the GM's to concede for, not {actor}'s",
            opponent=n["opponent"], actor=table.actor,
        )
    _finish(table, conceded_by=side)


def _finish(table: Table, conceded_by: str | None) -> None:
    """The end (L202-L204): the loser yields; a threat takes harm, a pirate loses luck, by the margin."""
    campaign = campaign_of(table)
    n = campaign.negotiation
    assert n is not None
    trumps = dict(n["trumps"])
    margin = abs(trumps[PIRATES] - trumps[OPPONENT])
    winner = None if margin == 0 else PIRATES if trumps[PIRATES] > trumps[OPPONENT] else OPPONENT
    loser = None
    if winner == OPPONENT:
        loser = n["negotiator"]  # P-27: the pirate who conducted it
    elif winner == PIRATES and n["opponent_kind"] == "pirate":
        loser = n["opponent"]
    threat_harm = margin if winner == PIRATES and n["opponent_kind"] == "threat" else 0
    campaign.negotiation_ended(
        number=n["number"], trumps=trumps, winner=winner, margin=margin, conceded_by=conceded_by,
        loser=loser, threat_harm=threat_harm,
    )
    if loser is not None:
        pirate = table.get(Pirate, loser)
        # L204: luck, never wounds; what cannot be paid sends him to fate right after the negotiation.
        if not pirate.lose_luck(margin, f"lost a negotiation by {margin} trumps (L204)"):
            pirate.fate_called_at_once(reason="a lost negotiation would push luck below 0 (L204)")


SETTLED["scheme"] = Settled(reckon=_reckon_scheme, close=lambda table, leader: None)
SETTLED["conduct_negotiations"] = Settled(reckon=_reckon_tie, close=_close_tie)
