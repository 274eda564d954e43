"""`rollbook telegram poll`: the updates by long polling (`getUpdates`), for a GM with no public host.

The same desk as the webhook's answers them. After each update the last one applied is kept in the settings
(`polled`) and the next `getUpdates` asks for those after it, which also tells Telegram it may forget them; a
poller killed between applying an update and keeping its id is given it again, and the desk, finding it
stored, applies nothing. `register` with a public URL sets a webhook, and Telegram gives no updates to
`getUpdates` while one is set: `rollbook telegram register` without one removes it.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace

from telegram import Bot

from ...store.logs import Log
from ..config import Keeper
from .bot import deliver, new_bot, patiently
from .desk import TelegramDesk

log = Log("rollbook.telegram")
#: How long one getUpdates waits for an update, in seconds (Telegram allows up to 50).
LONG_POLL = 50


async def _poll(bot: Bot, desk: TelegramDesk, keeper: Keeper, wait: int, rounds: int | None,
                most: int | None) -> int:
    handled = 0
    while rounds is None or rounds > 0:
        rounds = None if rounds is None else rounds - 1
        offset = keeper.load().polled + 1
        updates = await patiently(lambda: bot.get_updates(offset=offset, timeout=wait))
        for update in updates:
            answers = await asyncio.to_thread(desk.handle, update.to_dict())
            await deliver(bot, answers)
            keeper.save(replace(keeper.load(), polled=update.update_id))
            log.info("telegram.update", update_id=update.update_id, answers=len(answers))
            handled += 1
            if most is not None and handled >= most:
                return handled
    return handled


def poll(desk: TelegramDesk, keeper: Keeper, *, wait: int = LONG_POLL, rounds: int | None = None,
         most: int | None = None) -> int:
    """Answer updates until stopped (Ctrl-C), or for `rounds` getUpdates calls, or until `most` are handled;
    how many were handled."""
    async def run() -> int:
        async with new_bot(keeper.load()) as bot:
            return await _poll(bot, desk, keeper, wait, rounds, most)

    return asyncio.run(run())
