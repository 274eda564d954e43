"""Rollbook where the group already plays: Discord's slash commands, the thread as the record's mirror,
outgoing webhooks, and lines to paste into any forum.

`install(app)` adds them to `rollbook serve`: the routes (`routes.py`, among them Discord's
Interactions Endpoint), the desk that answers interactions (`interactions.py`), and the mirror's
worker (`mirror.py`), started and stopped with the server.

- `slash.py`, `words.py`: the slash commands' JSON, and what an interaction asks for;
- `interactions.py`, `readings.py`, `signature.py`: answering them;
- `provenance.py`: the signed interaction kept with its command, and `verify --discord-key`;
- `mirror.py`, `discord_api.py`, `webhook.py`: the outbox delivered (the ledger is `store/outbox.py`);
- `lines.py`: a command told for outside (text, Markdown, BBCode, Discord, JSON);
- `members.py`, `config.py`: links, codes, bindings (in the store), settings (beside it), for every platform;
- `chat.py`: a command posted from a chat, with what the chat delivered kept beside it;
- `telegram/`: the second adapter, Telegram's updates (`POST /telegram/webhook`) and its bot.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from functools import partial
from typing import Any

from ..settings import current


def install(app: Any, webhook_networks: tuple[str, ...] = ()) -> None:
    """Add the integrations to the server's app: its routes, its desk, and its mirror's worker. Webhooks may send
    to public addresses and to `webhook_networks` (CIDR ranges the operator allowed)."""
    from .config import keeper_for
    from .interactions import Desk
    from .lines import posted_words
    from .mirror import Mirror
    from .outbound import Reach, networks
    from .routes import router
    from .telegram.config import telegram_keeper
    from .telegram.desk import TelegramDesk
    from .telegram.routes import router as telegram_router

    state = app.state.rollbook
    keeper = keeper_for(state.store)
    app.state.discord = Desk(state, keeper)
    app.state.tell_posted = partial(posted_words, state.store, keeper)
    app.state.discord_follow_ups = set()
    app.state.webhook_reach = Reach(networks(webhook_networks))
    app.state.mirror = Mirror(state.store, keeper, wake=lambda seen, timeout: app.state.bell.wait(seen, timeout),
                              reach=app.state.webhook_reach,
                              backoff=current().mirror_backoff, lease=current().mirror_lease)
    app.state.telegram = TelegramDesk(state, telegram_keeper(state.store))
    app.include_router(router)
    app.include_router(telegram_router)
    serving = app.router.lifespan_context

    @asynccontextmanager
    async def with_mirror(application: Any) -> AsyncIterator[Any]:
        running = current().mirror
        async with serving(application) as held:  # the store is closed as this ends: the mirror stops first
            if running:
                app.state.mirror.start()
            try:
                yield held
            finally:
                if running:
                    app.state.mirror.stop()

    app.router.lifespan_context = with_mirror
