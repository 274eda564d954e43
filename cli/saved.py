"""What the command line keeps between runs for a remote player: the server signed in to, its token,
and the campaign `rollbook use` chose on each server.

They live in the user's config directory (platformdirs: `~/.config/rollbook` on Linux, or
`$XDG_CONFIG_HOME/rollbook`): `login.json` holds the server and the token, readable by its owner
only (0600, created so, in a 0700 folder); `campaigns.json` the default campaign per server.
`--server`/`ROLLBOOK_SERVER` and `--token`/`ROLLBOOK_TOKEN` win over them, and the saved token is
only ever sent to the server it was saved for.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

PRIVATE_FILE_MODE = 0o600
PRIVATE_FOLDER_MODE = 0o700


def config_folder() -> Path:
    from platformdirs import user_config_path

    return user_config_path("rollbook", appauthor=False)


def login_file() -> Path:
    return config_folder() / "login.json"


def _read(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (FileNotFoundError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _write_privately(path: Path, data: dict[str, Any]) -> None:
    """Written to a temporary file created 0600 (never chmod-ed after the secret is in it), then renamed."""
    path.parent.mkdir(mode=PRIVATE_FOLDER_MODE, parents=True, exist_ok=True)
    os.chmod(path.parent, PRIVATE_FOLDER_MODE)
    temporary = path.with_suffix(f".{os.getpid()}.tmp")
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, PRIVATE_FILE_MODE)
    with os.fdopen(descriptor, "w", encoding="utf-8") as file:
        json.dump(data, file, ensure_ascii=False, indent=2)
        file.write("\n")
    os.replace(temporary, path)


def saved_login() -> dict[str, Any]:
    """`{"server", "token", "user"}` as `rollbook login` kept them, or {} when signed out."""
    found = _read(login_file())
    return found if isinstance(found.get("server"), str) and isinstance(found.get("token"), str) else {}


def keep_login(server: str, token: str, user: str) -> Path:
    path = login_file()
    _write_privately(path, {"server": server, "token": token, "user": user})
    return path


def forget_login() -> dict[str, Any]:
    """Remove the saved login; what it was ({} if there was none)."""
    was = saved_login()
    login_file().unlink(missing_ok=True)
    return was


def same_server(one: str, other: str) -> bool:
    return one.rstrip("/") == other.rstrip("/")


def default_campaign(server: str) -> str | None:
    found = _read(config_folder() / "campaigns.json").get(server.rstrip("/"))
    return found if isinstance(found, str) else None


def keep_default_campaign(server: str, campaign: str) -> Path:
    path = config_folder() / "campaigns.json"
    chosen = {**_read(path), server.rstrip("/"): campaign}
    _write_privately(path, chosen)
    return path
