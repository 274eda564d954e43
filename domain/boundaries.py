"""A campaign's timeline boundaries and its dice seeds: what every ruleset shares.

A boundary opens or closes a scope (domain/timeline.py) and runs what the ruleset hooks on it
(`Ruleset.on_start`, `Ruleset.on_end`). Ending a scope ends every open scope inside it first,
innermost first, each with its hooks: ending a story ends its chapter, scene and battle. A
chapter's end reveals the seed its rolls came from and commits to the next one, and the end of
a chapter or story signs the chain head, so the thread can hold the store to it.
"""

from __future__ import annotations

from .errors import CommandRejected
from .members import Scene
from .rulesets import ruleset
from .table import Table
from .timeline import Scope


def open_campaign(table: Table) -> None:
    """A new campaign commits to its first dice seed and records the key its checkpoints are signed with."""
    table.campaign.commit_seed(table.seeds.new_seed(table.campaign.root))
    table.record_signing_key()


def start(table: Table, scope: Scope, title: str | None = None, enemy: str | None = None) -> None:
    """Open a scope; a scene is a member of its own (with the enemy the players act against)."""
    number = table.campaign.start(scope, title)
    if scope is Scope.SCENE:
        table.add(Scene(campaign=table.campaign.campaign, number=number, title=title, enemy=enemy))
    hook = ruleset(table.campaign.ruleset).on_start.get(scope)
    if hook is not None:
        hook(table)


def end(table: Table, scope: Scope) -> None:
    """End a scope and every open scope inside it, innermost first; hooks run before each end."""
    rules = ruleset(table.campaign.ruleset)
    closing = table.campaign.open_scopes_within(scope)
    for inner in closing:
        hook = rules.on_end.get(inner)
        if hook is not None:
            hook(table)
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


def abandon_seed(table: Table, reason: str) -> None:
    """Give up a seed whose secret is lost, on the record, and commit to a new one."""
    campaign = table.campaign
    if campaign.commitment is None:
        raise CommandRejected("the campaign has no committed seed to abandon", field="type")
    campaign.abandon_seed(reason)
    campaign.commit_seed(table.seeds.new_seed(campaign.root))
