"""Commands every ruleset shares: creating a campaign, moving along its timeline, its dice seeds.

Each handler is one call into domain/boundaries.py, which decides.
"""

from __future__ import annotations

from typing import Any, ClassVar, Literal

from pydantic import Field

from ..domain import boundaries
from ..domain.errors import N_, CommandRejected
from ..domain.rulesets import available
from ..domain.rulesets import ruleset as ruleset_named
from ..domain.table import Table
from .base import Command, handles
from .rule_options import TABLE_OPTIONS_SAID


class CreateCampaign(Command):
    __doc__ = N_("""Create a campaign of one ruleset; its rule options are recorded in its first event.""")

    type: Literal["create_campaign"] = "create_campaign"
    ruleset: str = Field(description=N_("One of the installed rulesets: the keys of `rollbook schema`'s `rulesets`."))
    title: str | None = Field(default=None, max_length=500)
    options: dict[str, Any] = Field(
        default_factory=dict,
        description="Rule options (the alternative readings the digests keep); defaults are the recommended readings. "
        "Every ruleset also takes the table's options: "
        + " ".join(f"`{name}`: {said}" for name, said in TABLE_OPTIONS_SAID.items()),
    )
    trait_limit: int | None = Field(
        default=None, ge=1, le=100, json_schema_extra=lambda schema: schema.update(description=_trait_limit_said()),
    )
    testing_kit: Literal[True] | None = Field(
        default=None,
        description=N_("Set by the testing kit, whose given history no rule decides; refused from a command file "
        "(verify allows given history only in such a campaign)."),
    )
    gm_only = True

    def rule_options(self) -> dict[str, Any]:
        """The options as recorded: a top-level `trait_limit` is one of them, for a ruleset that has that option."""
        options = dict(self.options)
        if self.trait_limit is not None and self.ruleset in available() and (
                "trait_limit" not in ruleset_named(self.ruleset).default_options):
            having = [name for name in available() if "trait_limit" in ruleset_named(name).default_options]
            raise CommandRejected(
                "the {ruleset} rules have no Trait Limit (an option of the {having} rules)",
                field="trait_limit", ruleset=self.ruleset, having=", ".join(having),
            )
        if self.trait_limit is not None:
            if options.setdefault("trait_limit", self.trait_limit) != self.trait_limit:
                raise CommandRejected("trait_limit and options.trait_limit differ", field="trait_limit")
        return options


def _trait_limit_said() -> str:
    """What the top-level `trait_limit` is, from the rulesets that declare that option: their names and the
    option's ruling ("the GM's Trait Limit, L27"), read when the schema is made, not when a command is."""
    having = [name for name in available() if "trait_limit" in ruleset_named(name).options]
    if not having:
        return "A rule option no installed ruleset has; the same as options.trait_limit."
    what, _, line = ruleset_named(having[0]).options["trait_limit"].ruling.rpartition(", ")
    return f"{what[:1].upper()}{what[1:]} ({', '.join(having)}, {line}); the same as options.trait_limit."


class Boundary(Command):
    """A command of the timeline, the GM's. A ruleset's own boundary (one of its `Ruleset.scopes`) has its
    start and end commands subclass `StartBoundary` and `Boundary` and register `start` and `end` below."""

    gm_only = True
    boundary: ClassVar[str]


class StartBoundary(Boundary):
    title: str | None = Field(default=None, max_length=500)


def _timeline_command(verb: Literal["start", "end"], boundary: str) -> Any:
    """The `{verb}_{boundary}` command of a common boundary (`StartChapter`, typed `start_chapter`), which has
    nothing of its own: every one is the same model but for its type and the boundary it names."""
    typed = f"{verb}_{boundary}"
    base = StartBoundary if verb == "start" else Boundary
    return type(base)(f"{verb.title()}{boundary.title()}", (base,), {
        "__module__": __name__, "__annotations__": {"type": Literal[typed]}, "type": typed, "boundary": boundary,
    })


StartStory, EndStory = _timeline_command("start", "story"), _timeline_command("end", "story")
StartChapter, EndChapter = _timeline_command("start", "chapter"), _timeline_command("end", "chapter")
EndIssue = _timeline_command("end", "issue")


class StartScene(StartBoundary):
    type: Literal["start_scene"] = "start_scene"
    enemy: str | None = Field(default=None, max_length=200, description=N_("Whom the players act against."))
    boundary = "scene"


EndScene = _timeline_command("end", "scene")
#: A ruleset's own start_battle (one that names who takes part, say) takes this one's place (catalogue.py).
StartBattle, EndBattle = _timeline_command("start", "battle"), _timeline_command("end", "battle")


class RotateSeed(Boundary):
    __doc__ = N_("""Reveal the campaign's current dice seed and commit to a new one (on demand).""")

    type: Literal["rotate_seed"] = "rotate_seed"


class AbandonSeed(Boundary):
    __doc__ = N_("""Give up a seed whose secret is lost (the secrets folder gone) and commit to a new one.

    Recorded, not hidden: `rollbook verify` lists every roll made under the abandoned seed as
    unverifiable, and the campaign rolls on, and can end its chapter, under the new one.
    """)

    type: Literal["abandon_seed"] = "abandon_seed"
    reason: str = Field(min_length=1, max_length=500, description=N_("Why the seed is lost (said to the players)."))


@handles(CreateCampaign)
def create_campaign(command: CreateCampaign, table: Table) -> None:
    boundaries.open_campaign(table)


@handles(RotateSeed)
def rotate_seed(command: RotateSeed, table: Table) -> None:
    boundaries.rotate_seed(table)


@handles(AbandonSeed)
def abandon_seed(command: AbandonSeed, table: Table) -> None:
    boundaries.abandon_seed(table, command.reason)


def start(command: StartBoundary, table: Table) -> None:
    """Every start_* command of the timeline: its scope is the one its boundary names."""
    scope = ruleset_named(table.campaign.ruleset).boundary_scope(command.boundary)
    boundaries.start(table, scope, **command.model_dump(include={"title", "enemy"}))


def end(command: Boundary, table: Table) -> None:
    """Every end_* command of the timeline, with all it closes inside (domain/boundaries.py)."""
    boundaries.end(table, ruleset_named(table.campaign.ruleset).boundary_scope(command.boundary))


# In this order: the schema lists the commands as they register.
for _model in (StartStory, EndStory, StartChapter, EndChapter, EndIssue, StartScene, EndScene, StartBattle, EndBattle):
    handles(_model)(start if issubclass(_model, StartBoundary) else end)
