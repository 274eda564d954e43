"""Verbs for playing where the group plays: `rollbook discord …`, `rollbook webhook …`, `rollbook line`,
and how to reach them (`users link` and `users link-code` are `users.py`'s).

Each has `--json`, and the GM has an HTTP equivalent (integrations/routes.py). Secrets (the bot's
token, a webhook's secret) are read from a file or made here, kept beside the store, and never
printed but once where Rollbook made them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from . import (N_, CampaignOption, JsonOption, StoreOption, app, by_this_user, fail, gettext, guarded, print_json,
               say)
from .opening import chosen, open_lasting, open_store
from .printing import show_table

discord = typer.Typer(help=N_("Discord: the application, the thread each campaign plays in, the slash commands."),
                      no_args_is_help=True)
app.add_typer(discord, name="discord")
webhook = typer.Typer(help=N_("Outgoing webhooks: every line of a campaign POSTed, signed, to a URL."), no_args_is_help=True)
app.add_typer(webhook, name="webhook")



def _keeper(opened: Any) -> Any:
    from ..integrations.config import keeper_for

    return keeper_for(opened)


def _secret_from(file: Path | None, what: str) -> str | None:
    if file is None:
        return None
    try:
        text = file.read_text().strip()
    except OSError as error:
        fail(gettext("cannot read {what} from {file}: {error}").format(what=gettext(what), file=file,
                                                                       error=error.strerror))
    if not text:
        fail(gettext("{file} holds no {what}").format(file=file, what=gettext(what)))
    return text


def _campaign_exists(opened: Any, campaign: str) -> None:
    from ..projections.queries import Reader

    reader = Reader(opened)
    reader.catch_up()
    reader.campaign(campaign)  # an unknown campaign is refused by name


def kept_settings(store: str | None, keeper_of: Any) -> tuple[Any, Any]:
    """(the keeper of a platform's settings beside the store, made if need be; the settings now)."""
    keeper = keeper_of(open_lasting(store, creates=True))
    return keeper, keeper.load()


def changed(keeper: Any, settings: Any, changes: dict[str, Any]) -> Any:
    """The settings with each change given (not None) made, kept; what is kept."""
    from dataclasses import replace

    settings = replace(settings, **{k: v for k, v in changes.items() if v is not None})
    keeper.save(settings)
    return settings


def bound_members(store: str | None, campaign: str, platform: Any = None) -> Any:
    """The links and bindings of a chat platform (Discord's by default), for a campaign that must exist."""
    from ..integrations.members import DISCORD, Members

    opened = open_lasting(store)
    _campaign_exists(opened, campaign)
    return Members(opened, platform or DISCORD)


#: What `bind --unbind` says, by the place a platform plays in (a whole sentence each: Russian declines the place).
UNBOUND = {"chat": N_("{campaign} is bound to no chat"), "channel": N_("{campaign} is bound to no channel")}


def unbound(members: Any, campaign: str, place: str, as_json: bool) -> None:
    """`bind --unbind`: the campaign played in no place of the platform any more."""
    members.unbind(campaign, by=by_this_user())
    print_json({"campaign": campaign, place: None}) if as_json else say(
        gettext(UNBOUND[place]).format(campaign=campaign))


def mirror_shown(campaign: str | None, store: str | None, keeper_of: Any, platform: str) -> tuple[str, Any, dict]:
    """(the campaign, its store's settings keeper, what `status` shows of its mirror to the platform)."""
    from ..integrations.mirror import status as mirror_status

    campaign = chosen(campaign, store)
    opened = open_lasting(store)
    _campaign_exists(opened, campaign)
    keeper = keeper_of(opened)
    return campaign, keeper, mirror_status(opened, keeper, campaign, platform=platform)


# --- the application -------------------------------------------------------------------------


#: A secret's state as the settings show it (`shown()`: "set" or "not set", so in --json), in words.
SECRET_STATES = {"set": N_("set"), "not set": N_("not set")}


def secret_said(state: str) -> str:
    return gettext(SECRET_STATES.get(state, state))


@discord.command("setup")
@guarded
def setup(
    application_id: Annotated[str | None, typer.Option("--application-id", help=N_("The application's id (General Information)."))] = None,
    public_key: Annotated[str | None, typer.Option("--public-key", help=N_("The application's public key, 64 hex digits."))] = None,
    bot_token_file: Annotated[Path | None, typer.Option("--bot-token-file", help=N_("A file holding the bot's token (Bot → Reset Token)."))] = None,
    api_base: Annotated[str | None, typer.Option("--api-base", help=N_("Discord's API (default https://discord.com/api/v10)."))] = None,
    public_url: Annotated[str | None, typer.Option("--public-url", help=N_("Where players reach this server: proof links start there."))] = None,
    store: StoreOption = None,
    as_json: JsonOption = False,
) -> None:
    """Set up (or change) the Discord application this store answers; the secrets stay beside the store, 0600."""
    from ..integrations.members import check_snowflake

    keeper, settings = kept_settings(store, _keeper)
    if application_id is not None:
        check_snowflake(application_id, "application-id")
    if public_key is not None and (len(public_key) != 64 or any(c not in "0123456789abcdefABCDEF" for c in public_key)):
        fail(gettext("--public-key is 64 hex digits, as the Developer Portal shows it"))
    changes = {"application_id": application_id, "public_key": public_key and public_key.lower(),
               "bot_token": _secret_from(bot_token_file, N_("the bot's token")), "api_base": api_base,
               "public_url": public_url and public_url.rstrip("/")}
    settings = changed(keeper, settings, changes)
    if as_json:
        print_json(settings.shown())
        return
    shown = settings.shown()
    unset = gettext("(not set)")
    say(gettext("Discord application {application}; public key {key}; bot token {bot}; API {api}; proof links "
                "{links}").format(application=shown["application_id"] or unset, key=shown["public_key"] or unset,
                                  bot=secret_said(shown["bot_token"]), api=shown["api_base"],
                                  links=shown["public_url"] or gettext("(none)")))
    say(gettext("Next: `rollbook discord register` puts the slash commands; set the Interactions Endpoint URL to "
                "https://YOUR-HOST/discord/interactions"))


@discord.command("bind")
@guarded
def bind(
    campaign: Annotated[str, typer.Argument(help=N_("The campaign played in the channel."))],
    channel: Annotated[str | None, typer.Option("--channel", help=N_("The channel's or thread's id (Copy Channel ID)."))] = None,
    unbind: Annotated[bool, typer.Option("--unbind", help=N_("Play it in no channel any more."))] = False,
    store: StoreOption = None,
    as_json: JsonOption = False,
) -> None:
    """Bind a channel or thread to a campaign: its members play there, and every command is mirrored into it."""
    members = bound_members(store, campaign)
    if unbind:
        unbound(members, campaign, "channel", as_json)
        return
    if channel is None:
        fail(gettext("give --channel CHANNEL_ID (or --unbind)"))
    bound = members.bind(campaign, channel, by=by_this_user())
    if as_json:
        print_json({"campaign": bound.campaign, "channel": bound.channel, "since": bound.since})
        return
    say(gettext("{campaign} is played in channel {channel}; the mirror posts what is stored after position {since}")
        .format(campaign=campaign, channel=bound.channel, since=bound.since))


@discord.command("commands")
@guarded
def commands(as_json: JsonOption = False) -> None:
    """The slash commands, as Discord's API takes them (`register` puts them)."""
    from ..integrations.slash import application_commands

    found = application_commands()
    if as_json:
        print_json(found)
        return
    rows = [{"command": f"/{c['name']}" + (f" {o['name']}" if o["type"] == 1 else ""),
             "what": _described(o if o["type"] == 1 else c)}
            for c in found for o in ([x for x in c["options"] if x["type"] == 1] or [c | {"type": 0}])]
    show_table(gettext("Slash commands"), ["command", "what"], rows)


def _described(command: dict[str, Any]) -> str:
    """A slash command's description as Discord shows it to a reader of the CLI's language (its localization)."""
    from . import settings as invocation  # here `settings` are the integrations' (application id, bot token…)

    return command.get("description_localizations", {}).get(invocation.language, command["description"])


@discord.command("register")
@guarded
def register(
    guild: Annotated[str | None, typer.Option("--guild", help=N_("Register in one server only (at once; global ones take up to an hour)."))] = None,
    store: StoreOption = None,
    as_json: JsonOption = False,
) -> None:
    """Put the slash commands into the application (all at once, replacing what was there)."""
    from ..integrations.discord_api import DiscordAPI, DiscordError
    from ..integrations.slash import application_commands

    settings = _keeper(open_lasting(store)).load()
    if not settings.application_id:
        fail(gettext("no application is set up: `rollbook discord setup --application-id ID --public-key HEX "
                     "--bot-token-file F`"))
    api = DiscordAPI(settings.api, settings.bot_token)
    try:
        made = api.put_commands(settings.application_id, application_commands(), guild=guild)
    except DiscordError as error:
        fail(str(error))
    finally:
        api.close()
    names = [f"/{c['name']}" for c in made]
    if as_json:
        print_json({"application_id": settings.application_id, "guild": guild, "commands": names})
        return
    registered = (gettext("registered {count} slash commands in server {guild}: {names}") if guild
                  else gettext("registered {count} slash commands: {names}"))
    say(registered.format(count=len(names), guild=guild, names=", ".join(names)))


@discord.command("status")
@guarded
def status(campaign: CampaignOption = None, store: StoreOption = None, as_json: JsonOption = False) -> None:
    """The mirror of a campaign: its channel, each target's backlog, what was sent, the last error."""
    campaign, _, shown = mirror_shown(campaign, store, _keeper, "discord")
    if as_json:
        print_json(shown)
        return
    when = gettext(" at {time}").format(time=shown["last_error_at"]) if shown["last_error_at"] else ""
    say(gettext("{campaign}: channel {channel}; backlog {backlog}; last error {error}{when}").format(
        campaign=campaign, channel=shown["channel"] or gettext("(not bound)"), backlog=shown["backlog"],
        error=shown["last_error"] or gettext("none"), when=when))
    if shown["targets"]:
        show_table(gettext("Targets"), ["target", "backlog", "delivered", "resent", "dropped", "last_error"],
                   shown["targets"])


# --- webhooks -------------------------------------------------------------------------------


@webhook.command("add")
@guarded
def webhook_add(
    campaign: CampaignOption = None,
    url: Annotated[str, typer.Option("--url", help=N_("Where each line is POSTed: https:// to a public address, "
                                                      "no user or password in it."))] = "",
    secret_file: Annotated[Path | None, typer.Option("--secret-file", help=N_("A file holding the signing secret (else one is made and shown once)."))] = None,
    allow_webhook_network: Annotated[list[str] | None, typer.Option(
        "--allow-webhook-network", metavar="CIDR",
        help=N_("A range the URL may be in beside public addresses, over http:// too; `rollbook serve` must allow it "
                "as well to deliver there. Repeatable."))] = None,
    store: StoreOption = None,
    as_json: JsonOption = False,
) -> None:
    """Send every line of the campaign to a URL as JSON, signed (X-Rollbook-Signature: sha256=…)."""
    from ..integrations.outbound import Reach, networks
    from ..integrations.webhook import add

    campaign = chosen(campaign, store)
    opened = open_lasting(store)
    _campaign_exists(opened, campaign)
    given = _secret_from(secret_file, N_("a secret"))
    made = add(_keeper(opened), opened, campaign, url, given, Reach(networks(allow_webhook_network or ())))
    shown = made.shown() | ({} if given else {"secret": made.secret})
    if as_json:
        print_json(shown)
        return
    say(gettext("webhook {webhook}: {campaign}'s lines go to {url} from position {since}").format(
        webhook=made.id, campaign=campaign, url=shown["url"], since=made.since)
        + ("" if given else "\n" + gettext("its secret (shown once, kept beside the store): {secret}").format(
            secret=made.secret)))


@webhook.command("list")
@guarded
def webhook_list(campaign: CampaignOption = None, store: StoreOption = None, as_json: JsonOption = False) -> None:
    """The campaign's webhooks (without their secrets)."""
    campaign = chosen(campaign, store)
    rows = [w.shown() for w in _keeper(open_lasting(store)).load().webhooks if w.campaign == campaign]
    print_json(rows) if as_json else show_table(gettext("Webhooks"), ["id", "campaign", "url", "since"], rows)


@webhook.command("remove")
@guarded
def webhook_remove(webhook_id: Annotated[str, typer.Argument(metavar="ID")], campaign: CampaignOption = None,
                   store: StoreOption = None) -> None:
    """Stop sending the campaign's lines to a webhook."""
    from ..integrations.webhook import remove

    campaign = chosen(campaign, store)
    remove(_keeper(open_lasting(store)), campaign, webhook_id)
    say(gettext("webhook {webhook} removed").format(webhook=webhook_id))


# --- forum lines ----------------------------------------------------------------------------


@app.command()
@guarded
def line(
    command_id: Annotated[str, typer.Argument(metavar="ID", help=N_("The command's id (`rollbook rolls`, `post --json`)."))],
    campaign: CampaignOption = None,
    form: Annotated[str, typer.Option("--format", help=N_("text, markdown (Discourse) or bbcode (phpBB, MyBB)."))] = "text",
    public_url: Annotated[str | None, typer.Option("--public-url", help=N_("Where the roll log is served: adds the proof link."))] = None,
    revision: Annotated[int | None, typer.Option("--revision", help=N_("A revision of the campaign (default: current)."))] = None,
    store: StoreOption = None,
) -> None:
    """A command's line with its faces, outcome, nonce and proof link, ready to paste into a forum post; a command
    a ruling struck since (name its revision) is shown struck, with who struck it and why."""
    from ..integrations.config import keeper_for
    from ..integrations.lines import FORMATS, render, struck_note, told_by_id
    from ..projections.queries import Reader
    from ..replay.struck import struck_since
    from ..replay.timetravel import key_of

    if form not in FORMATS:
        fail(gettext("--format is one of {formats} (got {form!r})").format(formats=", ".join(FORMATS), form=form))
    campaign = chosen(campaign, store)
    opened = open_store(store)
    reader = Reader(opened)
    reader.catch_up()
    key = key_of(reader, campaign, revision)
    base = (public_url or "").rstrip("/") or keeper_for(opened).load().proof_base
    told = told_by_id(opened, key, command_id, base)
    told.struck = struck_note(struck_since(reader, campaign, key, command_id), told.language)  # a ruling took it back
    say(render(told, form).rstrip("\n"))
