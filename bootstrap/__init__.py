"""The composition root: where Rollbook's parts are put together, once, for every way it is run.

`open_store` and `service_for` make the store and the service every way of running Rollbook works on (the
command line's verbs, the testing kit); `open_host` builds from them what a serving process holds (the host,
hosting/host.py: the projections, the accounts, the writer, the answers); `create_app` is `rollbook serve`'s
application: the HTTP API (server/) on that host, with the pages (web/) and the chat adapters (integrations/:
Discord, Telegram, webhooks, the mirror) mounted beside it.
The command line starts what it serves from here (`rollbook serve`, `rollbook telegram poll`,
`rollbook witness serve`), and the testing kit serves through the command line. The interfaces import none of
each other's insides: only this package knows them all.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..hosting.limits import BURST, POSTS_PER_MINUTE

if TYPE_CHECKING:
    from fastapi import FastAPI

    from ..commands.service import Rollbook
    from ..hosting.host import Host
    from ..store import Store

__all__ = ["BURST", "POSTS_PER_MINUTE", "create_app", "open_host", "open_store", "service_for", "witness_app"]


def open_store(url: str | None, *, to_read: bool = False, **parts: Any) -> Store:
    """The store at `url` (None: the settings' store, else the default SQLite file); `to_read`: only to be read, so
    a file that cannot be written opens too. `parts`: the store's own parts given instead of the configured ones
    (the testing kit's deterministic seeds and keys)."""
    from ..store import Store

    return Store.open_to_read(url) if to_read else Store.open(url, **parts)


def service_for(store: Store, **parts: Any) -> Rollbook:
    """The service that applies commands to `store`. `parts`: given instead of its defaults (the testing kit's
    dice, a replay's recorded ones)."""
    from ..commands.service import Rollbook

    return Rollbook(store, **parts)


def open_host(store_url: str, *, posts_per_minute: float = POSTS_PER_MINUTE, burst: int = BURST) -> Host:
    """What one serving process holds, on the store at `store_url`: each user may post `posts_per_minute` times a
    minute, `burst` at once (0 a minute: no limit)."""
    from ..hosting.accounts import Accounts
    from ..hosting.answers import Answers
    from ..hosting.host import Host
    from ..hosting.limits import RateLimit
    from ..hosting.said_ids import SaidIds
    from ..hosting.sign_ins import SignIns
    from ..hosting.standing import Standings
    from ..projections.queries import Reader
    from ..store.grouped import GroupedUnit

    store = open_store(store_url)
    service, reader = service_for(store), Reader(store)
    accounts, answers = Accounts(store), Answers(store, service, reader)
    sign_ins = SignIns(accounts)
    return Host(store=store, service=service, reader=reader, accounts=accounts, writer=GroupedUnit.writer_for(store),
                answers=answers, said_ids=SaidIds(accounts, service),
                rate_limit=RateLimit(posts_per_minute, burst), sign_ins=sign_ins,
                standings=Standings(accounts, sign_ins, service, answers))


def create_app(store_url: str, *, posts_per_minute: float = POSTS_PER_MINUTE, burst: int = BURST,
               poll_seconds: float = 0.5, allow_webhook_networks: tuple[str, ...] = ()) -> FastAPI:
    """`rollbook serve`'s application on the store at `store_url`: the API, the chats' routes and the pages.
    `posts_per_minute` 0 lifts the rate limit; webhooks may send to public addresses, and to the CIDR ranges in
    `allow_webhook_networks`."""
    from ..integrations import install as install_integrations
    from ..server.app import create_api
    from ..web import install as install_pages

    app = create_api(open_host(store_url, posts_per_minute=posts_per_minute, burst=burst), poll_seconds=poll_seconds)
    install_integrations(app, allow_webhook_networks)  # Discord, Telegram, the mirror, webhooks, forum lines
    install_pages(app)
    return app


def witness_app(state: Path) -> FastAPI:
    """`rollbook witness serve`'s application: a witness's tlog-witness API over its own state (no host: a witness
    keeps no campaign)."""
    from ..server.witness import create_witness_app

    return create_witness_app(state)
