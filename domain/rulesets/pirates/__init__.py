"""«Поднять паруса!» (Raise the Sails!), a Powered-by-the-Apocalypse pirate game with ships.

- `rules.py`: every number, limit and rule option; `data/moves.json`: the book of moves (names only);
- `pirate.py`, `ship.py`, `campaign.py`: the sheets (aggregates) and the table-wide state;
- `creation.py` (a new pirate), `play.py` (checks, luck, harm, the Code, ambushes, carousals), `seamanship.py` (ships),
  `fate.py` (Meet Fate), `intrigue.py` (Scheme, Conduct Negotiations), `money.py` (purses and the crew treasury):
  the decisions, taken at a Table.
"""

from __future__ import annotations

from ...timeline import Scope
from .. import Ruleset
from . import intrigue, play, rules  # intrigue: Scheme and the negotiations' ties are settled moves
from .campaign import PiratesCampaign
from .pirate import Pirate
from .ship import Ship


RULESET = Ruleset(
    name="pirates",
    campaign_class=PiratesCampaign,
    limits=rules.LIMITS,
    scopes=(rules.SHIP,),
    boundaries=("story", "chapter", "scene", "battle"),
    commands=("rollbook.domain.rulesets.pirates.commands", "rollbook.domain.rulesets.pirates.sea_commands"),
    narration="rollbook.domain.rulesets.pirates.narration",
    odds="rollbook.domain.rulesets.pirates.odds",
    sheets="rollbook.domain.rulesets.pirates.sheet",
    options=rules.OPTIONS,
    on_start={Scope.SCENE: play.scene_started},
    on_end={Scope.SCENE: play.scene_ended, Scope.CHAPTER: play.end_of_chapter},
    listed=1,
    generator="rollbook.domain.rulesets.pirates.generator",
    common_moves=(("move", "roll_move"), ("luck", "spend_luck"), ("harm", "take_damage")),
    move_book=rules.move_book,
    given="rollbook.domain.rulesets.pirates.given",
)

__all__ = ["RULESET", "PiratesCampaign", "Pirate", "Ship"]
