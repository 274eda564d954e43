"""A chat's markup, for the chat core's answers (`answers.py`, `readings.py`): Discord's Markdown, Telegram's HTML."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .lines import DISCORD_LIMIT, TELEGRAM_LIMIT
from .markup import escape_markdown, escape_telegram_html, markdown_block, markdown_code


@dataclass(frozen=True)
class Style:
    """A chat's markup: a user's text escaped, in code, a block, bold (of escaped text), a heading, a small line."""

    escape: Callable[[str], str]
    code: Callable[[str], str]
    block: Callable[[str], str]
    bold: Callable[[str], str]
    heading: Callable[[str], str]
    small: Callable[[str], str]
    limit: int

    def fit(self, text: str) -> str:
        return text if len(text) <= self.limit else text[: self.limit - 1] + "…"


DISCORD_STYLE = Style(escape_markdown, markdown_code, markdown_block, lambda s: f"**{s}**", lambda s: f"__{s}__",
                      lambda s: f"-# {s}", DISCORD_LIMIT)
TELEGRAM_STYLE = Style(escape_telegram_html, lambda s: f"<code>{escape_telegram_html(s)}</code>",
                       lambda s: f"<pre>{escape_telegram_html(s)}</pre>", lambda s: f"<b>{s}</b>",
                       lambda s: f"<u>{s}</u>", lambda s: f"<i>{s}</i>", TELEGRAM_LIMIT)
