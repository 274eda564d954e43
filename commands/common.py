"""Commands every ruleset shares: creating a campaign and moving along its timeline."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from ..domain.errors import CommandRejected
from ..domain.members import Scene
from ..domain.rulesets import available
from ..domain.rulesets import ruleset as ruleset_named
from ..domain.table import Table
from ..domain.timeline import Scope
from .base import Command, handles


class CreateCampaign(Command):
    """Create a campaign of one ruleset; its rule options are recorded in its first event."""

    type: Literal["create_campaign"] = "create_campaign"
    ruleset: str = Field(description="One of the installed rulesets: the keys of `rollbook schema`'s `rulesets`.")
    title: str | None = Field(default=None, max_length=500)
    options: dict[str, Any] = Field(
        default_factory=dict,
        description="Rule options (the alternative readings the digests keep); defaults are the recommended readings.",
    )
    trait_limit: int | None = Field(
        default=None, ge=1, le=100,
        description="The GM's Trait Limit (heroes, L27); the same as options.trait_limit.",
    )
    testing_kit: Literal[True] | None = Field(
        default=None,
        description="Set by the testing kit, whose given history no rule decides; refused from a command file "
        "(verify allows given history only in such a campaign).",
    )
    gm_only = True

    def rule_options(self) -> dict[str, Any]:
        """The options as recorded: a top-level `trait_limit` is one of them (the heroes' Trait Limit, L27)."""
        options = dict(self.options)
        if self.trait_limit is not None and self.ruleset in available() and (
                "trait_limit" not in ruleset_named(self.ruleset).default_options):
            raise CommandRejected(
                f"the {self.ruleset} rules have no Trait Limit (it is the heroes' GM limit, L27)", field="trait_limit"
            )
        if self.trait_limit is not None:
            if options.setdefault("trait_limit", self.trait_limit) != self.trait_limit:
                raise CommandRejected("trait_limit and options.trait_limit differ", field="trait_limit")
        return options


class _Boundary(Command):
    gm_only = True


class StartStory(_Boundary):
    type: Literal["start_story"] = "start_story"
    title: str | None = Field(default=None, max_length=500)
    boundary = "story"


class EndStory(_Boundary):
    type: Literal["end_story"] = "end_story"
    boundary = "story"


class StartChapter(_Boundary):
    type: Literal["start_chapter"] = "start_chapter"
    title: str | None = Field(default=None, max_length=500)
    boundary = "chapter"


class EndChapter(_Boundary):
    type: Literal["end_chapter"] = "end_chapter"
    boundary = "chapter"


class EndIssue(_Boundary):
    type: Literal["end_issue"] = "end_issue"
    boundary = "issue"


class StartScene(_Boundary):
    type: Literal["start_scene"] = "start_scene"
    title: str | None = Field(default=None, max_length=500)
    enemy: str | None = Field(default=None, max_length=200, description="Whom the players act against.")
    boundary = "scene"


class EndScene(_Boundary):
    type: Literal["end_scene"] = "end_scene"
    boundary = "scene"


class StartBattle(_Boundary):
    type: Literal["start_battle"] = "start_battle"
    title: str | None = Field(default=None, max_length=500)
    #: The heroes have a start_battle of their own, which names who takes part (commands/heroes_combat.py).
    boundary = "battle"


class EndBattle(_Boundary):
    type: Literal["end_battle"] = "end_battle"
    boundary = "battle"


class RotateSeed(_Boundary):
    """Reveal the campaign's current dice seed and commit to a new one (on demand)."""

    type: Literal["rotate_seed"] = "rotate_seed"


class AbandonSeed(_Boundary):
    """Give up a seed whose secret is lost (the secrets folder gone) and commit to a new one.

    Recorded, not hidden: `rollbook verify` lists every roll made under the abandoned seed as
    unverifiable, and the campaign rolls on, and can end its chapter, under the new one.
    """

    type: Literal["abandon_seed"] = "abandon_seed"
    reason: str = Field(min_length=1, max_length=500, description="Why the seed is lost (said to the players).")


def start(table: Table, scope: Scope, title: str | None = None, enemy: str | None = None) -> None:
    from ..domain.rulesets import ruleset

    number = table.campaign.start(scope, title)
    if scope is Scope.SCENE:
        table.add(Scene(campaign=table.campaign.campaign, number=number, title=title, enemy=enemy))
    rules = ruleset(table.campaign.ruleset)
    if rules.on_start is not None:
        rules.on_start(table, scope)


def end(table: Table, scope: Scope) -> None:
    """End a scope and every open scope inside it, innermost first; hooks run before each end."""
    from ..domain.rulesets import ruleset

    rules = ruleset(table.campaign.ruleset)
    closing = table.campaign.open_scopes_within(scope)
    for inner in closing:
        if rules.on_end is not None:
            rules.on_end(table, inner)
        if inner is Scope.SCENE:
            scene = table.scene()
            if scene is not None:
                scene.end()
        if inner is Scope.CHAPTER:
            rotate_seed(table)
        table.campaign.end(inner)
    if Scope.CHAPTER in closing or Scope.STORY in closing:
        # The head the thread can hold the store to, one paste away (README, checkpoints).
        table.sign_checkpoint()


def rotate_seed(table: Table) -> None:
    """Reveal the seed the chapter's rolls came from and commit to the next one (§ verifiable dice)."""
    campaign = table.campaign
    if campaign.commitment is not None:
        campaign.reveal_seed(table.seeds.seed(campaign.root, campaign.commitment).hex())
    campaign.commit_seed(table.seeds.new_seed(campaign.root))


@handles(CreateCampaign)
def create_campaign(command: CreateCampaign, table: Table) -> None:
    table.campaign.commit_seed(table.seeds.new_seed(table.campaign.root))
    table.record_signing_key()


@handles(RotateSeed)
def _rotate_seed(command: RotateSeed, table: Table) -> None:
    rotate_seed(table)


@handles(AbandonSeed)
def abandon_seed(command: AbandonSeed, table: Table) -> None:
    campaign = table.campaign
    if campaign.commitment is None:
        raise CommandRejected("the campaign has no committed seed to abandon", field="type")
    campaign.abandon_seed(command.reason)
    campaign.commit_seed(table.seeds.new_seed(campaign.root))


@handles(StartStory)
def start_story(command: StartStory, table: Table) -> None:
    start(table, Scope.STORY, command.title)


@handles(EndStory)
def end_story(command: EndStory, table: Table) -> None:
    end(table, Scope.STORY)


@handles(StartChapter)
def start_chapter(command: StartChapter, table: Table) -> None:
    start(table, Scope.CHAPTER, command.title)


@handles(EndChapter)
def end_chapter(command: EndChapter, table: Table) -> None:
    end(table, Scope.CHAPTER)


@handles(EndIssue)
def end_issue(command: EndIssue, table: Table) -> None:
    end(table, Scope.CHAPTER)


@handles(StartScene)
def start_scene(command: StartScene, table: Table) -> None:
    start(table, Scope.SCENE, command.title, command.enemy)


@handles(EndScene)
def end_scene(command: EndScene, table: Table) -> None:
    end(table, Scope.SCENE)


@handles(StartBattle)
def start_battle(command: StartBattle, table: Table) -> None:
    start(table, Scope.BATTLE, command.title)


@handles(EndBattle)
def end_battle(command: EndBattle, table: Table) -> None:
    end(table, Scope.BATTLE)

