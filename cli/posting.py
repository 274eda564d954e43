"""Posting a turn without writing JSON: `rollbook post TYPE FIELD=VALUE …`, and the line in
words every applied command prints (from `post` and `run`)."""

from __future__ import annotations

import secrets
from typing import Annotated, Any

import typer

from . import N_, gettext, say, CampaignOption, JsonOption, StoreOption, app, configure_logging, fail, guarded, print_json, settings
from .opening import chosen, open_store, remote_client, serving
from .printing import phased_bar


AllowFutureOption = Annotated[bool, typer.Option(
    "--allow-future", help=N_("Take an `at` more than a day past the clock (refused otherwise: a command dated so "
                              "makes every later one too early)."))]


def local_only(allow_future: bool, store: str | None) -> None:
    """`--allow-future` is the local store's: a server dates a player's command itself (and the GM's within a day)."""
    if allow_future and serving(store):
        fail(gettext("--allow-future applies to a local store; with --server the server dates a player's command "
                     "itself and takes a GM's `at` up to a day past its clock: leave the option out"))


def told(service: Any, campaign: str, command_id: str, language: str) -> str:
    """The line in words, in `language`, for a command the service just applied."""
    from ..language import speaking
    from ..projections.narration.stored import summary_of

    key = service.key_for(campaign)
    with speaking(language):
        return summary_of(service.store, service.ruleset_of(campaign), key, command_id)


@app.command(context_settings={"help_option_names": []})
@guarded
def post(
    ctx: typer.Context,
    command_type: Annotated[str | None, typer.Argument(metavar="TYPE", help=N_("The command (`rollbook schema`)."))] = None,
    words: Annotated[list[str] | None, typer.Argument(
        metavar="FIELD=VALUE…", help=N_("Its fields: JSON values as JSON (harm=2, dice=[5,6]), anything else as text."),
        show_default=False)] = None,
    campaign: CampaignOption = None,
    actor: Annotated[str | None, typer.Option("--actor", help=N_("gm (default), player:NAME or auditor:NAME."))] = None,
    at: Annotated[str | None, typer.Option("--at", help=N_("When it happened (ISO-8601 with a time zone)."))] = None,
    command_id: Annotated[str | None, typer.Option("--id", help=N_("The command's id (a recorded id is skipped)."))] = None,
    store: StoreOption = None,
    as_json: JsonOption = False,
    allow_future: AllowFutureOption = False,
    if_match: Annotated[str | None, typer.Option(
        "--if-match", metavar="ETAG", help=N_("With --server: apply it only if the campaign is still at this version "
                                              "(the ETag a read gave, r1.42); refused otherwise, to look again."))] = None,
    show_help: Annotated[bool, typer.Option("--help", "-h", help=N_("This help; with TYPE, that command's fields."))] = False,
) -> None:
    """Apply one command given as FIELD=VALUE words, and say in words what it did.

    `rollbook post roll_move character=Red stat=audacity move=threaten_violence -c black-sails`;
    `rollbook post --help roll_move` lists that command's fields, with their rule lines.
    """
    from ..commands.field_values import parse_field_values

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
                fail(gettext("{name} is given twice: as --{name} and as {name}=").format(name=name))
            data[name] = given
    salted_here = "dice" not in data and "salt" not in data and "id" not in data
    if salted_here:
        # The poster's own randomness, so the seed holder cannot know the roll before it is posted
        # (issue 17). Not with an --id: a rerun of the same id must be the same command.
        data["salt"] = secrets.token_hex(16)
    local_only(allow_future, store)
    if serving(store):  # the server decides: no rules, models or store are imported here
        # No `seen` and no look at the campaign first: a post is never refused because someone else
        # posted meanwhile (nor is a new campaign's creation, which has nothing to look at yet).
        _post_remotely(data, as_json, store, if_match=if_match)
        return
    if if_match is not None:
        fail(gettext("--if-match applies with --server (it is sent as the If-Match header); a local post is "
                     "decided on the store as it is: leave the option out"))
    from ..commands.clock import refuse_future
    from ..commands.parse import CommandError, parse_command, rejected
    from ..bootstrap import service_for
    from ..domain.errors import CommandRejected
    from ..projections.queries import Reader

    configure_logging(writing=False)  # the line in words says it; -v adds the log line
    opened = open_store(store, creates=True)
    service = service_for(opened)
    current = service.campaign(service.key_for(data["campaign"])) if salted_here and data.get("campaign") else None
    if current is not None and "seen" not in data:
        data["seen"] = current.seq  # the salt binds the roll to the campaign as it is now (issue 36, item 5)
    try:
        command = parse_command(data, ruleset_of=service.ruleset_of)
        if not allow_future:
            refuse_future(command)
    except CommandError as error:
        fail(str(error) + (_lookalike_campaign(opened, data.get("campaign")) if error.field == "campaign" else ""))
    except CommandRejected as error:
        fail(str(rejected(error, None, command)))
    outcome = service.execute(command)
    Reader(opened).catch_up()
    assert command.campaign is not None
    if settings.quiet and not as_json:
        return  # no line in words, so none is told (narrating it is a tenth of a post)
    language = "en" if as_json else settings.language  # --json is the same in every language
    summary = told(service, command.campaign, outcome.command_id, language) if outcome.status == "applied" else (
        f"skipped: {outcome.command_id} is already recorded")
    if as_json:
        print_json({"id": outcome.command_id, "status": outcome.status, "events": outcome.events,
                    "rolls": outcome.rolls, "position": outcome.position, "summary": summary})
    else:
        say(summary)


def _lookalike_campaign(opened: Any, campaign: Any) -> str:
    """A campaign id that only looks like one of the store's (a fullwidth letter, a Cyrillic one among Latin
    ones): which letters, and the id meant; else ""."""
    from ..domain.names import lookalike_hint
    from ..domain.revisions import REVISION_MARK
    from ..projections.queries import Reader

    reader = Reader(opened)
    reader.catch_up()
    return lookalike_hint(campaign, [name for name in reader.views.campaigns() if REVISION_MARK not in name])


def _post_remotely(data: dict[str, Any], as_json: bool, store: str | None, *, if_match: str | None) -> None:
    """`post` to --server: the server applies it as the token's user and says it in words."""
    from ..commands.lines import CommandError
    from .remote import post as post_remote

    try:
        answer = post_remote(remote_client(store), data, if_match=if_match)
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
    from ..commands.catalogue import all_types, commands_for

    rulesets = all_types().get(command_type)
    if rulesets is None:
        fail(gettext("unknown command type {type} (see `rollbook schema`)").format(type=repr(command_type)))
    if campaign is not None:
        from ..bootstrap import service_for

        ruleset = (remote_client(store).campaign_get(campaign, "/timeline").json()["ruleset"] if serving(store)
                   else service_for(open_store(store)).ruleset_of(campaign))
        if ruleset in rulesets:
            rulesets = [ruleset]
    from .printing import wrapped

    blocks = []
    for ruleset in rulesets:
        model = commands_for(ruleset)[command_type][0]
        # The docstring is its catalog's message (N_): said in the reader's language.
        doc = " ".join((gettext(model.__doc__) if model.__doc__ else "").split())
        lines = [wrapped(f"{command_type} ({ruleset}): {doc}"), ""]
        described = model.model_json_schema()["properties"]  # a description may be made with the schema
        for name, info in model.model_fields.items():
            if name in ("type", "campaign", "actor", "id", "at", "via"):  # via: the server says it
                continue
            # A default made by a factory (a list, a dict) is shown as the factory makes it.
            default = None if info.is_required() else info.get_default(call_default_factory=True)
            need = gettext("required") if info.is_required() else gettext("default {value}").format(value=_shown(default))
            lines.append(wrapped(f"{name}  ({need})", first="  ", indent="      "))
            if description := described.get(name, {}).get("description"):
                # As the post form says it (web/post_form.py): the description's message, in the reader's language.
                lines.append(wrapped(" ".join(gettext(description).split()), first="      ", indent="      "))
        blocks.append("\n".join(lines))
    blocks.append(wrapped(gettext("Every command also takes --campaign/-c, --actor, --at and --id; dice=[…] types "
                                  "faces rolled elsewhere.")))
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
    command_id: Annotated[str | None, typer.Argument(
        metavar="[CMD]", help=N_("The command's id (`rollbook rolls`, `post --json`); default: your own last command."),
        show_default=False)] = None,
    reason: Annotated[str, typer.Option("--reason", help=N_("Why it is taken back (a typo, a wrong character…)."))] = "",
    campaign: CampaignOption = None,
    actor: Annotated[str, typer.Option("--actor", help=(
        N_("Who takes it back: gm (any command), auditor:NAME, or player:NAME (his own only). "
           "With --server, the signed-in user.")))] = "gm",
    dry_run: Annotated[bool, typer.Option("--dry-run", help=N_("Show what would change; write nothing."))] = False,
    store: StoreOption = None,
    as_json: JsonOption = False,
) -> None:
    """Take a command back: a ruling that drops it, recorded as a dispute (`dispute CMD --drop`); nothing is deleted.

    Without CMD, the actor's own last command (with --server, the signed-in user's). A player takes
    back only his own; the GM any. The history without it becomes the campaign's next revision;
    `rollbook revisions` lists the ruling.
    """
    from ..domain.ids import shown_id
    from .audit import show_ruling

    if not reason.strip():
        fail(gettext("reason: undo needs --reason TEXT (why it is taken back: it is kept with the ruling)"))
    campaign = chosen(campaign, store)
    if command_id is not None:  # as the rolls table may show it, shortened
        from .read import whole_id

        command_id = whole_id(store, campaign, command_id).partition("#")[0]
    if serving(store):
        from .remote import undo as undo_remotely

        result = undo_remotely(remote_client(store), campaign, command_id, reason=reason, dry_run=dry_run)
    else:
        result = _undo_here(store, campaign, command_id, reason, actor, dry_run, as_json)
    if as_json:
        print_json(result)
        return
    show_ruling(gettext("Undo of {roll}").format(roll=shown_id(result["roll"])), result, dry_run=dry_run, undo=True)


def _undo_here(store: str | None, campaign: str, command_id: str | None, reason: str, actor: str, dry_run: bool,
               as_json: bool) -> dict[str, Any]:
    from ..domain.errors import UnknownName
    from ..projections.listing import check_undoable, last_command_of
    from ..projections.queries import Reader
    from ..replay.dispute import Ruling, dispute

    configure_logging(writing=False)
    opened = open_store(store)
    if command_id is None:
        reader = Reader(opened)
        reader.catch_up()
        command_id = last_command_of(reader, str(reader.campaign(campaign)["current_key"]), actor)
        if command_id is None:
            raise UnknownName(f"{actor} has given no command in {campaign} to undo (name one: undo CMD)",
                              field="command")
    reader = Reader(opened)
    reader.catch_up()
    check_undoable(reader, str(reader.campaign(campaign)["current_key"]), command_id)
    ruling = Ruling(roll=command_id, reason=reason, actor=actor, drop=True)
    with phased_bar(not as_json) as done:
        result = dispute(opened, campaign, ruling, dry_run=dry_run,
                         progress=lambda n, total: done("re-executing", n, total))
    return dict(result.as_dict())
