"""Verbs for who may sign in to `rollbook serve`: users and their tokens, and roles in a campaign."""

from __future__ import annotations

import getpass
from typing import Annotated

import typer

from . import (
    CampaignOption, JsonOption, StoreOption, app, configure_logging, guarded, open_store, print_json, say,
)
from .printing import show_table

users = typer.Typer(help="Users who sign in to `rollbook serve`, and their tokens.", no_args_is_help=True)
app.add_typer(users, name="users")

NameArgument = Annotated[str, typer.Argument(help="The user's name (becomes player:NAME, auditor:NAME).")]


def _accounts(store: str | None):  # type: ignore[no-untyped-def]
    from ..server.accounts import Accounts

    configure_logging(writing=False)
    return Accounts(open_store(store, creates=True))


def _show_token(name: str, token: str, as_json: bool) -> None:
    if as_json:
        print_json({"user": name, "token": token})
        return
    say(f"token for {name} (shown once; only its hash is kept):\n{token}")


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
    say(f"revoked {name}'s token")


@users.command("list")
@guarded
def users_list(store: StoreOption = None, as_json: JsonOption = False) -> None:
    """Every user, whether its token works, and its role in each campaign."""
    rows = _accounts(store).users()
    if as_json:
        print_json(rows)
        return
    show_table("Users", ["user", "active", "roles"], rows)


@app.command()
@guarded
def grant(
    user: NameArgument,
    role: Annotated[str, typer.Argument(help="gm, player or auditor.")],
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
    membership = accounts.grant(campaign, user, role, by=f"cli:{getpass.getuser()}")
    if as_json:
        print_json({"campaign": campaign, "user": user, "role": membership.role})
        return
    say(f"{user} is now {role} of {campaign}")


from . import discord as _discord  # noqa: E402,F401 - `users link` and `users link-code` (Discord) register on `users`
