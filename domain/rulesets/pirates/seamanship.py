"""Ships at a Table (§9): holes, breakdowns, repairs at sea and in port, development, secrets, chances."""

from __future__ import annotations

from ...errors import RuleViolation, UnknownName, Word
from ...table import Table
from . import money, rules
from .ship import Ship


def crew_ship(table: Table, ship: str | None, field: str = "ship") -> Ship:
    """The ship named, or the campaign's only ship when none is named."""
    if ship is not None:
        return table.get(Ship, ship, field=field)
    ships = table.campaign.members(Ship.kind)
    if len(ships) != 1:
        raise RuleViolation(
            "name the ship: the campaign has {ships} ships ({names})",
            field=field, ships=len(ships), names=", ".join(ships) or Word("none"),
        )
    return table.get(Ship, ships[0], field=field)


def hull_cap(table: Table, vessel: Ship) -> int:
    """Hull's ceiling: 6 (L109), or the ship's rated hull under the P-17 (b) option."""
    return min(rules.HULL_MAX, vessel.hull_rating) if table.campaign.option("hull") == "rated" else rules.HULL_MAX


def raise_stat(stat: int, hull: int, rating: int, by: int = 1) -> tuple[int, int, int]:
    """A +1 to a ship stat; past 3 it goes to Hull instead (L113; P-18), Hull at most 6."""
    overflow = max(0, stat + by - rules.SHIP_STAT_MAX)
    return (
        stat + by - overflow,
        min(rules.HULL_MAX, hull + overflow),
        min(rules.HULL_MAX, rating + overflow),
    )


def create_ship(
    table: Table, name: str, *, stats: dict[str, int], hull: int, hull_rating: int | None, bonuses: dict[str, int],
    secrets: list[str], treasury_piastres: int, in_port: bool, ship_moves: list[str], rigging: list[str],
) -> None:
    """The crew's ship (§9), its acquisition bonuses applied (L111-L113), with the additional ship moves and
    rigging the GM gives its type (pp. 107-108, not in the source)."""
    moves = _named_once([_book_key("additional_ship", move, "ship_moves") for move in ship_moves], "ship_moves")
    riggings = _named_once([_book_key("rigging", item, "rigging") for item in rigging], "rigging")
    table.campaign.enrol(name, Ship.kind)
    raised, raised_hull = with_bonuses(stats, hull, bonuses)
    # Hull the bonuses overflowed into raises the rated hull as well (P-17 (b)).
    rating = min(rules.HULL_MAX, (hull_rating or hull) + raised_hull - hull)
    table.add(
        Ship(
            campaign=table.campaign.campaign, name=name, **raised, hull=raised_hull, secrets=secrets,
            treasury_piastres=treasury_piastres, in_port=in_port, hull_rating=rating, bonuses=dict(bonuses) or None,
        )
    )
    if moves or riggings:
        table.get(Ship, name).fitted(ship_moves=moves, rigging=riggings)


def _named_once(keys: list[str], field: str) -> list[str]:
    twice = sorted({key for key in keys if keys.count(key) > 1})
    if twice:
        raise RuleViolation(
            "{what} names {twice} twice; a ship has each once (L166)",
            field=field, what=field, twice=", ".join(twice),
        )
    return keys


def with_bonuses(stats: dict[str, int], hull: int, bonuses: dict[str, int]) -> tuple[dict[str, int], int]:
    """The voyage-purpose and position bonuses at acquisition (L111-L113): past 3, into Hull."""
    stats = dict(stats)
    for stat, bonus in bonuses.items():
        stats[stat], hull, _ = raise_stat(stats[stat], hull, hull, bonus)
    return stats, hull


# --- holes and breakdowns (§9.1) ------------------------------------------------------------------


def take_hole(table: Table, ship: str) -> None:
    table.get(Ship, ship, field="ship").take_hole()


def take_breakdown(table: Table, ship: str, breakdown: str) -> None:
    """Once per battle, a breakdown instead of a hole (L140); one at a time (L144)."""
    vessel = table.get(Ship, ship, field="ship")
    refusals = []
    for rule in (lambda: table.campaign.check_limit(rules.BREAKDOWN_PER_BATTLE, holder=ship), vessel.check_breakdown):
        try:
            rule()
        except RuleViolation as refusal:
            refusals.append(refusal)
    if len(refusals) == 1:  # said as its rule says it, in its reader's language
        raise RuleViolation(refusals[0].template, field="breakdown", **refusals[0].values)
    if refusals:
        raise RuleViolation("{first}; and {second}", field="breakdown", first=refusals[0].message,
                            second=refusals[1].message)
    table.campaign.use_limit(rules.BREAKDOWN_PER_BATTLE, holder=ship)
    vessel.take_breakdown(breakdown)


def chosen_by_ship(table: Table, ship: str | None, move: str) -> None:
    """An additional ship move or a rigging is rolled only by a ship that chose it (L157-L164: «выбрать новый
    ход корабля», «поставить новую оснастку»; the lists L170-L190); the basic ship moves are every ship's (L117)."""
    vessel = crew_ship(table, ship)
    if move in vessel.ship_moves or move in vessel.rigging:
        return
    _, entry = rules.move_entry(move)
    has = ", ".join([*vessel.ship_moves, *vessel.rigging])
    if has:
        raise RuleViolation(
            "{ship} has not chosen {en} ({ru}): a ship's additional moves and rigging are the ones its development "
            "chose or the GM gave it (L157-L164, L170-L190); {ship} has {has}",
            field="move", ship=vessel.name, en=entry["en"], ru=entry["ru"], has=has,
        )
    raise RuleViolation(
        "{ship} has not chosen {en} ({ru}): a ship's additional moves and rigging are the ones its development "
        "chose or the GM gave it (L157-L164, L170-L190); {ship} has no additional ship move or rigging",
        field="move", ship=vessel.name, en=entry["en"], ru=entry["ru"],
    )


def sinking_first(table: Table, *, move: str | None = None, ship: str | None = None, field: str = "type") -> None:
    """L138 «немедленно разыграйте ход корабля не пойти ко дну»: a ship that owes Don't Go Under has it
    played next, so while one does, every other move of any pirate is refused (the campaign keeps no crew
    per ship). Don't Go Under for a ship that owes it is that move; luck, harm and holes are not moves."""
    sinking = [vessel.name for vessel in table.all(Ship) if vessel.must_not_go_under]
    if not sinking or (move == "dont_go_under" and crew_ship(table, ship).must_not_go_under):
        return
    several = len(table.campaign.members(Ship.kind)) > 1
    play = "roll_move with move dont_go_under" + (
        f", ship {' or '.join(sinking)}; the GM names which crew's pirate plays it" if several else "")
    raise RuleViolation(
        "{sinking} must play Don't Go Under (Не пойти ко дну) first: a hole at Hull 0 has it played immediately "
        "(L138 «немедленно разыграйте»), and no pirate makes another move before it; {play}",
        field=field, sinking=" and ".join(sinking), play=play,
    )


# --- repairs (§9.2) ------------------------------------------------------------------------------


def _at_sea(vessel: Ship) -> str:
    return f"{vessel.name} at sea {vessel.voyage}"


def repair_ship(table: Table, ship: str, what: str, paid_by: str | None) -> None:
    """At sea one hole between port visits, free (Patch the Breach); in port 1 chest a point (L146-L147)."""
    vessel = table.get(Ship, ship, field="ship")
    if what == "breakdown" and vessel.breakdown is None:
        raise RuleViolation("{ship} has no breakdown to remove", field="what", ship=ship)
    if what == "hull" and vessel.hull >= hull_cap(table, vessel):
        raise RuleViolation(
            "{ship}'s Hull is {hull}, already at its most (L109; P-17)",
            field="what", ship=ship, hull=vessel.hull,
        )
    if not vessel.in_port:
        if what == "breakdown":
            raise RuleViolation(
                "{ship} is at sea: a breakdown is removed only in port (L146-L147)", field="what", ship=ship
            )
        if paid_by is not None:
            raise RuleViolation("a hole patched at sea (Patch the Breach) costs no money", field="paid_by")
        instance = _at_sea(vessel)
        used = table.campaign.uses(rules.SEA_REPAIR, holder=ship, instance=instance)
        if used >= rules.SEA_REPAIR.count:
            raise rules.SEA_REPAIR.refusal(used, f"stay at sea ({instance}); more only in port", field="what")
        table.campaign.use_limit(rules.SEA_REPAIR, holder=ship, instance=instance)
        vessel.hull_repaired(hull=vessel.hull + 1, at="sea")
        return
    money.pay(
        table, paid_by or ship, rules.piastres(chests=rules.PORT_REPAIR_CHESTS),
        f"port repair of {ship}: {what} (L147)", field="paid_by",
    )
    if what == "hull":
        vessel.hull_repaired(hull=vessel.hull + 1, at="port")
    else:
        assert vessel.breakdown is not None
        stat = rules.BREAKDOWNS[vessel.breakdown]
        value, hull, rating = raise_stat(vessel.stat(stat), vessel.hull, vessel.hull_rating)
        vessel.breakdown_removed(breakdown=vessel.breakdown, stat=stat, value=value, hull=hull, hull_rating=rating)


def enter_port(table: Table, ship: str) -> None:
    vessel = table.get(Ship, ship, field="ship")
    if vessel.in_port:
        raise RuleViolation("{ship} is already in port", field="ship", ship=ship)
    table.campaign.release(rules.SHIP, _at_sea(vessel))
    vessel.entered_port()


def put_to_sea(table: Table, ship: str) -> None:
    vessel = table.get(Ship, ship, field="ship")
    if not vessel.in_port:
        raise RuleViolation("{ship} is already at sea", field="ship", ship=ship)
    vessel.put_to_sea(voyage=vessel.voyage + 1)


# --- development (§9.3) -------------------------------------------------------------------------


def meet_condition(table: Table, ship: str, condition: str) -> None:
    vessel = table.get(Ship, ship, field="ship")
    if condition in vessel.conditions:
        raise RuleViolation(
            "{ship} has already met {condition} since its last development (L152-L155; P-19)",
            field="condition", ship=ship, condition=condition,
        )
    vessel.condition_met(condition=condition)


def upgrade_ship(table: Table, ship: str, option: str, pick: str | None, paid_by: str | None) -> None:
    """In port: 6 chests and 2 conditions; each option once per ship; then Hull +1 (L151-L168)."""
    vessel = table.get(Ship, ship, field="ship")
    if not vessel.in_port:
        raise RuleViolation("{ship} is at sea: a ship is developed only in port (L151)", field="ship", ship=ship)
    used = table.campaign.uses(rules.DEVELOPMENT_OPTION, holder=ship, instance=option)
    if used:
        raise rules.DEVELOPMENT_OPTION.refusal(used, f"ship ({ship})", field="option")
    if len(vessel.conditions) < rules.DEVELOPMENT_CONDITIONS_NEEDED:
        raise RuleViolation(
            "{ship} has met {conditions} of the {development_conditions_needed} conditions a development needs "
            "({met}; L152-L155)",
            field="option", ship=ship, conditions=len(vessel.conditions),
            development_conditions_needed=rules.DEVELOPMENT_CONDITIONS_NEEDED,
            met=", ".join(vessel.conditions) or Word("none"),
        )
    upgrade = rules.UPGRADES[option]
    chosen = _pick(vessel, option, upgrade.get("pick"), pick)
    money.pay(
        table, paid_by or ship, rules.piastres(chests=rules.DEVELOPMENT_CHESTS),
        f"development of {ship}: {option} (L152)", field="paid_by",
    )
    table.campaign.use_limit(rules.DEVELOPMENT_OPTION, holder=ship, instance=option)
    stat, value, hull, rating = upgrade.get("stat"), None, vessel.hull, vessel.hull_rating
    if stat is not None:
        value, hull, rating = raise_stat(vessel.stat(stat), hull, rating)
    hull, rating = min(rules.HULL_MAX, hull + rules.DEVELOPMENT_HULL), min(rules.HULL_MAX, rating + rules.DEVELOPMENT_HULL)
    vessel.developed(
        option=option, stat=stat, value=value, pick=chosen, hull=hull, hull_rating=rating,
        conditions_used=list(vessel.conditions),
        keep_conditions=table.campaign.option("development_conditions") == "ever",
    )


def _pick(vessel: Ship, option: str, kind: str | None, pick: str | None) -> str | None:
    """The ship move or rigging a development adds, from the book (L170-L190)."""
    if kind is None:
        if pick is not None:
            raise RuleViolation("{option} raises a stat; it picks nothing", field="pick", option=option)
        return None
    if pick is None:
        names = ", ".join(rules.move_book()[kind])
        raise RuleViolation(
            "{option} needs a `pick` from the book ({kind}: {names})",
            field="pick", option=option, kind=kind, names=names,
        )
    key = _book_key(kind, pick, "pick")
    if key in vessel.ship_moves or key in vessel.rigging:
        raise RuleViolation("{name} already has {key}", field="pick", name=vessel.name, key=key)
    return key


def _book_key(kind: str, name: str, field: str) -> str:
    """The key of a move of `kind` (additional_ship, rigging) from its key, English or Russian name."""
    key = rules.find_move(name, (kind,))
    if key is None:
        what = "additional ship move" if kind == "additional_ship" else kind
        raise UnknownName("no {what} named {name!r} (see `rollbook moves`)", field=field, what=what, name=name)
    return key


# --- secrets (§4.4) -------------------------------------------------------------------------------


def gain_secret(table: Table, ship: str | None, secret: str, strike: str | None) -> None:
    """A secret goes on the ship sheet; with three held, one of the four is struck (L99; P-11)."""
    vessel = crew_ship(table, ship)
    if secret in vessel.secrets:
        raise RuleViolation("{name}'s crew already knows {secret!r}", field="secret", name=vessel.name, secret=secret)
    if len(vessel.secrets) < rules.SECRETS_MAX:
        if strike is not None:
            raise RuleViolation(
                "{name} holds {secrets} secrets; strike one only when a fourth comes (L99)",
                field="strike", name=vessel.name, secrets=len(vessel.secrets),
            )
    elif strike is None or (strike not in vessel.secrets and strike != secret):
        raise RuleViolation(
            "the crew cannot know more than {secrets_max} secrets (L99): `strike` one of {secrets}",
            field="strike", secrets_max=rules.SECRETS_MAX, secrets=", ".join(map(repr, [*vessel.secrets, secret])),
        )
    vessel.secret_gained(secret=secret, struck=strike)


# --- chances (§4.5) -------------------------------------------------------------------------------


def declare_chances(
    table: Table, ship: str | None, roll: str, *, advantage: bool, disadvantage: bool
) -> str | None:
    """Spend a crew chance for advantage, a GM chance for disadvantage, before the roll (L196; P-13).

    Returns how the dice are rolled: "advantage", "disadvantage", or None for plain 2d6.
    """
    if not (advantage or disadvantage):
        return None
    if advantage and disadvantage and table.campaign.option("opposed_chances") == "refuse":
        raise RuleViolation(
            "a crew chance and a GM chance on the same roll are refused in this campaign (P-13 option)",
            field="disadvantage",
        )
    vessel = crew_ship(table, ship)
    if vessel.plan is None:
        raise RuleViolation(
            "chances are spent only while carrying out a plan (L196); {name} has none (scheme first)",
            field="advantage" if advantage else "disadvantage", name=vessel.name,
        )
    if advantage and vessel.chances < 1:
        raise RuleViolation(
            "{name}'s crew has no chance left for advantage (L196)",
            field="advantage", name=vessel.name,
        )
    if disadvantage and vessel.gm_chances < 1:
        raise RuleViolation(
            "the GM has no chance left against {name}'s crew (L196)",
            field="disadvantage", name=vessel.name,
        )
    if advantage:
        vessel.chance_spent(side="crew", roll=roll)
    if disadvantage:
        vessel.chance_spent(side="gm", roll=roll)
    if advantage and disadvantage:
        return None  # P-13 note: they cancel, 2d6
    return "advantage" if advantage else "disadvantage"
