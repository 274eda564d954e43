"""`rollbook telegram …`: the bot, the group (or forum topic) each campaign plays in, and playing without a host.

`setup` keeps the bot's token (read from a file) and makes the webhook's secret token, both beside the store
(0600) and never printed; `register` gives Telegram the commands (English and Russian) and, with a public URL,
the webhook; `bind` plays a campaign in a chat or one topic of it; `status` shows it; `poll` receives the
updates by long polling, for a GM with no public host.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer

from . import (N_, CampaignOption, JsonOption, StoreOption, app, by_this_user, fail, gettext, guarded, print_json,
               say)
from .discord import _secret_from, bound_members, changed, kept_settings, mirror_shown, secret_said, unbound
from .opening import open_lasting

telegram = typer.Typer(help=N_("Telegram: the bot, the group or topic each campaign plays in, long polling."),
                       no_args_is_help=True)
app.add_typer(telegram, name="telegram")


@contextmanager
def _telegram_errors() -> Iterator[None]:
    """Telegram's refusals and an unreachable Bot API, said in words."""
    from telegram.error import TelegramError

    try:
        yield
    except TelegramError as error:
        fail(gettext("Telegram: {error} (nothing more was done)").format(error=error.message))


def _keeper(opened: Any) -> Any:
    from ..integrations.telegram.config import telegram_keeper

    return telegram_keeper(opened)


@telegram.command("setup")
@guarded
def setup(
    bot_token_file: Annotated[Path | None, typer.Option(
        "--bot-token-file", help=N_("A file holding the bot's token (BotFather's /newbot)."))] = None,
    public_url: Annotated[str | None, typer.Option(
        "--public-url", help=N_("Where Telegram reaches this server (https://…): the webhook and proof links start there."),
    )] = None,
    store: StoreOption = None,
    as_json: JsonOption = False,
) -> None:
    """Set up (or change) the bot this store answers; its token and the webhook's secret stay beside the store."""
    keeper, settings = kept_settings(store, _keeper)
    if public_url is not None and not public_url.startswith("https://"):
        fail(gettext("--public-url is an https:// address: Telegram sends webhooks over HTTPS only"))
    changes = {"bot_token": _secret_from(bot_token_file, N_("the bot's token")),
               "public_url": public_url and public_url.rstrip("/"),
               "secret_token": settings.secret_token or secrets.token_urlsafe(32)}
    shown = changed(keeper, settings, changes).shown()
    if as_json:
        print_json(shown)
        return
    say(gettext("Telegram bot token {bot}; secret token {secret}; API {api}; webhook {webhook}").format(
        bot=secret_said(shown["bot_token"]), secret=secret_said(shown["secret_token"]), api=shown["api_base"],
        webhook=shown["webhook"] or gettext("(none: use `rollbook telegram poll`)")))
    say(gettext("Next: `rollbook telegram register` gives Telegram the commands (and the webhook, with a public URL)"))


@telegram.command("bind")
@guarded
def bind(
    campaign: Annotated[str, typer.Argument(help=N_("The campaign played in the chat."))],
    chat: Annotated[str | None, typer.Option("--chat", help=N_("The group's chat id (-100…)."))] = None,
    topic: Annotated[str | None, typer.Option(
        "--topic", help=N_("One forum topic's id (message_thread_id): only it plays the campaign."))] = None,
    unbind: Annotated[bool, typer.Option("--unbind", help=N_("Play it in no chat any more."))] = False,
    store: StoreOption = None,
    as_json: JsonOption = False,
) -> None:
    """Bind a Telegram group, or one forum topic of it, to a campaign: its members play there, and it is mirrored."""
    from ..integrations.telegram import TELEGRAM, place_of

    members = bound_members(store, campaign, TELEGRAM)
    if unbind:
        unbound(members, campaign, "chat", as_json)
        return
    if chat is None:
        fail(gettext("give --chat CHAT_ID (or --unbind)"))
    if topic is not None and not topic.isdigit():
        fail(gettext("--topic is a forum topic's id, its digits (got {topic!r})").format(topic=topic))
    bound = members.bind(campaign, place_of(chat, topic), by=by_this_user())
    if as_json:
        print_json({"campaign": bound.campaign, "chat": chat, "topic": topic, "since": bound.since})
        return
    where = gettext("topic {topic} of chat {chat}").format(topic=topic, chat=chat) if topic \
        else gettext("chat {chat}").format(chat=chat)
    say(gettext("{campaign} is played in {where}; the mirror posts what is stored after position {since}").format(
        campaign=campaign, where=where, since=bound.since))


@telegram.command("status")
@guarded
def status(campaign: CampaignOption = None, store: StoreOption = None, as_json: JsonOption = False) -> None:
    """The campaign's chat or topic, the bot's settings (secrets said set or not), and the mirror's backlog."""
    campaign, keeper, mirrored = mirror_shown(campaign, store, _keeper, "telegram")
    shown = {**mirrored, "bot": keeper.load().shown()}
    if as_json:
        print_json(shown)
        return
    say(gettext("{campaign}: chat {chat}; bot token {bot}; backlog {backlog}; last error {error}").format(
        campaign=campaign, chat=shown["channel"] or gettext("(not bound)"), bot=secret_said(shown["bot"]["bot_token"]),
        backlog=shown["backlog"], error=shown["last_error"] or gettext("none")))


@telegram.command("register")
@guarded
def register(store: StoreOption = None, as_json: JsonOption = False) -> None:
    """Give Telegram the bot's commands (English and Russian) and, with a public URL, the webhook and its secret."""
    from ..integrations.telegram.bot import register as register_bot

    settings = _keeper(open_lasting(store)).load()
    with _telegram_errors():
        made = register_bot(settings)
    if as_json:
        print_json(made)
        return
    say(gettext("registered {commands} in English and Russian; {webhook}").format(
        commands=", ".join("/" + c for c in made["commands"]),
        webhook=gettext("webhook {url}").format(url=made["webhook"]) if made["webhook"]
        else gettext("no webhook: run `rollbook telegram poll`")))


@telegram.command("poll")
@guarded
def poll(
    store: StoreOption = None,
    wait: Annotated[int, typer.Option(
        "--wait", min=0, max=50, help=N_("Seconds each getUpdates waits for an update."))] = 50,
    rounds: Annotated[int | None, typer.Option(
        "--rounds", min=1, help=N_("Stop after this many getUpdates calls."))] = None,
    most: Annotated[int | None, typer.Option(
        "--max-updates", min=1, help=N_("Stop after handling this many updates."))] = None,
    as_json: JsonOption = False,
) -> None:
    """Receive the bot's updates by long polling and answer them (until Ctrl-C), resuming after the last applied."""
    from ..integrations.telegram.desk import TelegramDesk
    from ..integrations.telegram.polling import poll as poll_updates
    from ..bootstrap import open_host

    opened = open_lasting(store)
    url = opened.url
    opened.close()
    state = open_host(url)
    try:
        keeper = _keeper(state.store)
        with _telegram_errors():
            handled = poll_updates(TelegramDesk(state, keeper), keeper, wait=wait, rounds=rounds, most=most)
        polled = keeper.load().polled
    finally:
        state.close()
    print_json({"handled": handled, "polled": polled}) if as_json else say(
        gettext("handled {handled} updates; the next poll starts after update {polled}").format(
            handled=handled, polled=polled))
