"""Posting a turn without writing JSON: `rollbook post TYPE FIELD=VALUE …`, and the line in
words every applied command prints (from `post` and `run`)."""

from __future__ import annotations

import secrets
from typing import Annotated, Any

import typer

from . import (
    say,
    CampaignOption,
    JsonOption,
    StoreOption,
    app,
    chosen,
    configure_logging,
    fail,
    guarded,
    open_store,
    print_json,
    remote_client,
    settings,
)
from .printing import phased_bar


def told(service: Any, campaign: str, command_id: str) -> str:
    """The line in words for a command the service just applied."""
    from ...projections.narration.stored import summary_of

    key = service.key_for(campaign)
    return summary_of(service.app, service.ruleset_of(campaign), key, command_id)


@app.command(context_settings={"help_option_names": []})
@guarded
def post(
    ctx: typer.Context,
    command_type: Annotated[str | None, typer.Argument(metavar="TYPE", help="The command (`rollbook schema`).")] = None,
    words: Annotated[list[str] | None, typer.Argument(
        metavar="FIELD=VALUE…", help="Its fields: JSON values as JSON (harm=2, dice=[5,6]), anything else as text.",
        show_default=False)] = None,
    campaign: CampaignOption = None,
    actor: Annotated[str | None, typer.Option("--actor", help="gm (default), player:NAME or auditor:NAME.")] = None,
    at: Annotated[str | None, typer.Option("--at", help="When it happened (ISO-8601 with a time zone).")] = None,
    command_id: Annotated[str | None, typer.Option("--id", help="The command's id (a recorded id is skipped).")] = None,
    store: StoreOption = None,
    as_json: JsonOption = False,
    show_help: Annotated[bool, typer.Option("--help", "-h", help="This help; with TYPE, that command's fields.")] = False,
) -> None:
    """Apply one command given as FIELD=VALUE words, and say in words what it did.

    `rollbook post roll_move character=Red stat=audacity move=threaten_violence -c black-sails`;
    `rollbook post --help roll_move` lists that command's fields, with their rule lines.
    """
    from .fields import parse_field_values

    if show_help or command_type is None:
        if command_type is None:
            say(ctx.get_help())
        else:
            say(fields_help(command_type, campaign=chosen(campaign, store, needed=False), store=store))
        return
    data: dict[str, Any] = {"type": command_type, **parse_field_values(list(words or []))}
    # A campaign= word (create_campaign names its new campaign so) wins over -c and the default.
    data.setdefault("campaign", chosen(campaign, store) if command_type != "create_campaign" else campaign)
    for name, given in (("actor", actor), ("at", at), ("id", command_id)):
        if given is not None:
            if name in data:
                fail(f"{name} is given twice: as --{name} and as {name}=")
            data[name] = given
    if "dice" not in data and "salt" not in data and "id" not in data:
        # The poster's own randomness, so the seed holder cannot know the roll before it is posted
        # (issue 17). Not with an --id: a rerun of the same id must be the same command.
        data["salt"] = secrets.token_hex(16)
    if settings.server:  # the server decides: no rules, models or store are imported here
        _post_remotely(data, as_json)
        return
    from ...commands.parse import CommandError, parse_command
    from ...commands.service import Rollbook
    from ...projections.queries import Reader

    configure_logging(writing=False)  # the line in words says it; -v adds the log line
    opened = open_store(store, creates=True)
    service = Rollbook(opened)
    try:
        command = parse_command(data, ruleset_of=service.ruleset_of)
    except CommandError as error:
        fail(str(error))
    outcome = service.execute(command)
    Reader(opened).catch_up()
    assert command.campaign is not None
    if settings.quiet and not as_json:
        return  # no line in words, so none is told (narrating it is a tenth of a post)
    summary = told(service, command.campaign, outcome.command_id) if outcome.status == "applied" else (
        f"skipped: {outcome.command_id} is already recorded")
    if as_json:
        print_json({"id": outcome.command_id, "status": outcome.status, "events": outcome.events,
                    "rolls": outcome.rolls, "position": outcome.position, "summary": summary})
    else:
        say(summary)


def _post_remotely(data: dict[str, Any], as_json: bool) -> None:
    """`post` to --server: the server applies it as the token's user and says it in words."""
    from ...commands.lines import CommandError
    from .remote import post as post_remote

    try:
        answer = post_remote(remote_client(), data)
    except CommandError as error:
        fail(str(error))
    summary = answer["summary"] if not answer["replayed"] else f"skipped: {answer['command_id']} is already recorded"
    if as_json:
        print_json({"id": answer["command_id"], "status": "skipped" if answer["replayed"] else "applied",
                    "events": len(answer["events"]), "rolls": [r["id"] for r in answer["rolls"]],
                    "position": answer["position"], "summary": summary})
    elif not settings.quiet:
        say(summary)


def fields_help(command_type: str, *, campaign: str | None, store: str | None) -> str:
    """A command's fields, from its model: name, type, required or default, description."""
    from ...commands.catalogue import all_types, commands_for

    rulesets = all_types().get(command_type)
    if rulesets is None:
        fail(f"unknown command type {command_type!r} (see `rollbook schema`)")
    if campaign is not None:
        from ...commands.service import Rollbook

        ruleset = Rollbook(open_store(store)).ruleset_of(campaign)
        if ruleset in rulesets:
            rulesets = [ruleset]
    blocks = []
    for ruleset in rulesets:
        model = commands_for(ruleset)[command_type][0]
        lines = [f"{command_type} ({ruleset}): {(model.__doc__ or '').strip()}", ""]
        for name, info in model.model_fields.items():
            if name in ("type", "campaign", "actor", "id", "at"):
                continue
            need = "required" if info.is_required() else f"default {_shown(info.default)}"
            lines.append(f"  {name}  ({need})")
            if info.description:
                lines.append(f"      {info.description}")
        blocks.append("\n".join(lines))
    blocks.append("Every command also takes --campaign/-c, --actor, --at and --id; dice=[…] types faces rolled elsewhere.")
    return "\n\n".join(blocks)


def _shown(value: Any) -> str:
    import json

    try:
        return json.dumps(value, ensure_ascii=False)
    except TypeError:
        return str(value)


@app.command()
@guarded
def undo(
    command_id: Annotated[str, typer.Argument(metavar="CMD", help="The command's id (`rollbook rolls`, `post --json`).")],
    reason: Annotated[str, typer.Option("--reason", help="Why it is taken back (a typo, a wrong character…).")],
    campaign: CampaignOption = None,
    actor: Annotated[str, typer.Option("--actor", help="gm or auditor:NAME.")] = "gm",
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Show what would change; write nothing.")] = False,
    store: StoreOption = None,
    as_json: JsonOption = False,
) -> None:
    """Take a command back: a ruling that drops it, recorded as a dispute (`dispute CMD --drop`); nothing is deleted.

    The history without it becomes the campaign's next revision; `rollbook revisions` lists the ruling.
    """
    from ...replay.dispute import Ruling, dispute
    from .audit import show_ruling

    campaign = chosen(campaign, store)
    configure_logging(writing=False)
    ruling = Ruling(roll=command_id, reason=reason, actor=actor, drop=True)
    with phased_bar(not as_json) as done:
        result = dispute(open_store(store), campaign, ruling, dry_run=dry_run,
                         progress=lambda n, total: done("re-executing", n, total))
    if as_json:
        print_json(result.as_dict())
        return
    show_ruling(f"Undo of {command_id}", result.as_dict(), dry_run=dry_run)
