"""The campaign a store's commands and questions go to when none is named (`rollbook use C`).

It is kept beside the store, like the secret seeds: `FILE.db.campaign` next to a SQLite file,
one file per database under `campaign/` in `$ROLLBOOK_STATE` or the user's data folder
(`user_data_folder()`) for PostgreSQL (the URL's host, port, database and schema name it; never
its password), and nowhere for `memory://`, which is gone with the process anyway.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import parse_qs, quote, unquote, urlparse

from ..domain.errors import CommandRejected
from .. import settings


def user_data_folder() -> Path:
    """Rollbook's folder in the user's data directory, as the platform places it (platformdirs):
    `~/.local/share/rollbook` on Linux (or `$XDG_DATA_HOME/rollbook`), `~/Library/Application
    Support/rollbook` on macOS, `%LOCALAPPDATA%\\rollbook` on Windows."""
    from platformdirs import user_data_path

    return user_data_path("rollbook", appauthor=False)


def default_campaign_file(url: str) -> Path | None:
    parsed = urlparse(url)
    if parsed.scheme == "sqlite":
        return Path(unquote(parsed.path)[1:] + ".campaign")
    if parsed.scheme in ("postgresql", "postgres"):
        schema = parse_qs(parsed.query).get("schema", ["public"])[-1]
        where = f"{parsed.hostname or '127.0.0.1'}:{parsed.port or 5432}/{parsed.path.lstrip('/')}/{schema}"
        folder = Path(settings.text("state") or user_data_folder()) / "campaign"
        return folder / quote(where, safe="")
    return None


def read_default_campaign(url: str) -> str | None:
    path = default_campaign_file(url)
    if path is None:
        return None
    try:
        return path.read_text(encoding="utf-8").strip() or None
    except FileNotFoundError:
        return None


def keep_default_campaign(url: str, campaign: str) -> Path:
    path = default_campaign_file(url)
    if path is None:
        raise CommandRejected(
            "{url} keeps nothing between runs: give -c, or set ROLLBOOK_CAMPAIGN", field="store", url=url
        )
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(campaign + "\n", encoding="utf-8")
    return path
