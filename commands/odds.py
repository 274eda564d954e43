"""The odds of a command before it is posted: `rollbook odds`, `POST /campaigns/{c}/odds`.

The command is parsed and decided exactly as `execute` would (same model, same ownership and
rules checks, on the live sheets) up to the point where its dice would be thrown; there the
rules say what they would roll (`Table.foresee`) and the module its `Ruleset.odds` names computes the
chance of each outcome. Nothing is decided, rolled or written.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any, Protocol

from ..domain.campaign import Campaign
from ..domain.errors import CommandRejected
from ..domain.odds import Odds
from ..domain.rulesets import ruleset
from .base import Command
from .parse import CommandError, parse_command


class Foreseeing(Protocol):
    """What the odds need of the service (`Rollbook`): a campaign's ruleset, and a command decided up to its dice."""

    def ruleset_of(self, name: str) -> str | None: ...

    def foresee(self, command: Command) -> tuple[Any, Campaign]: ...


def odds(service: Foreseeing, campaign: str, command: dict[str, Any], *, compare: dict[str, Any] | None = None) -> dict[str, Any]:
    """The odds of `command` in `campaign` as `--json` shows them; with `compare`, the same command
    with those fields changed beside it (`compare`: its fields and its odds, or why it is refused)."""
    shown = _odds_of(service, campaign, command).as_dict()
    if compare:
        try:
            other: dict[str, Any] = _odds_of(service, campaign, {**command, **compare}).as_dict()
        except CommandRejected as refused:
            other = {"refused": str(refused)}
        shown["compare"] = {"fields": compare, **other}
    return shown


def _odds_of(service: Foreseeing, campaign: str, body: dict[str, Any]) -> Odds:
    if body.get("campaign", campaign) != campaign:
        raise CommandRejected("the command names the campaign {named!r}, not {campaign!r}", field="campaign",
                              named=body["campaign"], campaign=campaign)
    if body.get("dice") is not None:
        raise CommandRejected("odds are asked before the roll: leave the faces (dice) out", field="dice")
    try:
        command = parse_command(body, default_campaign=campaign, ruleset_of=service.ruleset_of)
    except CommandError as error:
        raise CommandRejected(error.template, field=error.field, **error.values) from None
    plan, at = service.foresee(command)
    module = ruleset(at.ruleset).odds
    if module is None:
        raise CommandRejected("the {ruleset} rules compute no odds", field="type", ruleset=at.ruleset)
    return import_module(module).odds(plan, at.options)  # type: ignore[no-any-return]
