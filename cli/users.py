"""Verbs for who may sign in to `rollbook serve`: users and their tokens, and roles in a campaign."""

from __future__ import annotations

from typing import Annotated

import typer

from . import (N_, gettext, CampaignOption, JsonOption, StoreOption, app, by_this_user, configure_logging, fail, guarded, print_json,
               say)
from .opening import open_lasting, open_store
from .printing import day_and_time, show_table

users = typer.Typer(help=N_("Users who sign in to `rollbook serve`, and their tokens."), no_args_is_help=True)
app.add_typer(users, name="users")

NameArgument = Annotated[str, typer.Argument(help=N_("The user's name (becomes player:NAME, auditor:NAME)."))]


def _accounts(store: str | None):  # type: ignore[no-untyped-def]
    from ..hosting.accounts import Accounts

    configure_logging(writing=False)
    return Accounts(open_store(store, creates=True))


def _show_token(name: str, token: str, as_json: bool) -> None:
    if as_json:
        print_json({"user": name, "token": token})
        return
    say(gettext("token for {name} (shown once; only its hash is kept):").format(name=name) + f"\n{token}")


@users.command("add")
@guarded
def users_add(name: NameArgument, store: StoreOption = None, as_json: JsonOption = False) -> None:
    """Create a user and print its token, once."""
    _show_token(name, _accounts(store).add(name), as_json)


@users.command("token")
@guarded
def users_token(name: NameArgument, store: StoreOption = None, as_json: JsonOption = False) -> None:
    """Give a user a new token (also after a revoke); the old one stops working at once."""
    _show_token(name, _accounts(store).new_token(name), as_json)


@users.command("revoke")
@guarded
def users_revoke(name: NameArgument, store: StoreOption = None) -> None:
    """Stop a user's token from working, at once."""
    _accounts(store).revoke(name)
    say(gettext("revoked {name}'s token").format(name=name))


@users.command("list")
@guarded
def users_list(store: StoreOption = None, as_json: JsonOption = False) -> None:
    """Every user, whether its token works, and its role in each campaign."""
    rows = _accounts(store).users()
    if as_json:
        print_json(rows)
        return
    show_table(gettext("Users"), ["user", "active", "roles"], rows)


@app.command()
@guarded
def grant(
    user: NameArgument,
    role: Annotated[str, typer.Argument(help=N_("gm, player or auditor."))],
    campaign: CampaignOption,
    store: StoreOption = None,
    as_json: JsonOption = False,
) -> None:
    """Grant a user a role in a campaign (recorded with who granted it, and when)."""
    from ..projections.queries import Reader

    accounts = _accounts(store)
    reader = Reader(accounts.store)
    reader.catch_up()
    reader.campaign(campaign)  # an unknown campaign is refused by name
    membership = accounts.grant(campaign, user, role, by=by_this_user())
    if as_json:
        print_json({"campaign": campaign, "user": user, "role": membership.role})
        return
    say(gettext("{user} is now {role} of {campaign}").format(user=user, role=gettext(role), campaign=campaign))


# --- Discord members ------------------------------------------------------------------------

DiscordId = Annotated[str | None, typer.Option(
    "--discord", help=N_("The member's Discord user id (Developer Mode: Copy User ID)."))]
TelegramId = Annotated[str | None, typer.Option(
    "--telegram", help=N_("The member's Telegram user id (digits; a bot such as @userinfobot tells it)."))]


@users.command("link")
@guarded
def users_link(name: NameArgument, discord_user: DiscordId = None, telegram_user: TelegramId = None,
               unlink: Annotated[bool, typer.Option("--unlink", help=N_("The member acts as no one any more."))] = False,
               store: StoreOption = None, as_json: JsonOption = False) -> None:
    """Link a Discord member or a Telegram account to a user: what he sends there acts as that user (recorded: by
    whom, when)."""
    from ..integrations.members import DISCORD, Members
    from ..integrations.telegram import TELEGRAM

    if (discord_user is None) == (telegram_user is None):
        fail(gettext("give --discord ID or --telegram ID (one of them)"))
    platform, account = (DISCORD, discord_user) if discord_user is not None else (TELEGRAM, telegram_user)
    assert account is not None
    members = Members(open_lasting(store, creates=True), platform)
    if unlink:
        members.unlink(account, by=by_this_user())
    else:
        members.link(name, account, by=by_this_user())
    if as_json:
        print_json({"user": None if unlink else name, platform.name: account})
        return
    who = (gettext("Discord member {account}") if platform is DISCORD else gettext("Telegram account {account}")).format(
        account=account)
    say(gettext("{who} acts as no one").format(who=who) if unlink else gettext("{who} acts as {name}").format(who=who, name=name))


@users.command("link-code")
@guarded
def users_link_code(name: NameArgument, store: StoreOption = None, as_json: JsonOption = False) -> None:
    """A one-time code the user sends in Discord (`/rb link code:…`) or Telegram (`/link CODE`) to link his account
    himself, within a day."""
    from ..integrations.members import Members

    code, expires = Members(open_lasting(store, creates=True)).new_code(name, by=by_this_user())
    if as_json:
        print_json({"user": name, "code": code, "expires": expires.isoformat(timespec="seconds")})
        return
    say(gettext("link code for {name} (once, until {expires} UTC): {code}").format(
        name=name, expires=day_and_time(expires), code=code) + "\n"
        + gettext("In Discord, type: /rb link code:{code}\nIn Telegram, send: /link {code}").format(code=code))
