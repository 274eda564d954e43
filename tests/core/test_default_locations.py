"""Where Rollbook keeps things by default: the platform's user folders (platformdirs), not a hard-coded
~/.local/share; the environment's variables still win."""

import stat

from rollbook.cli.saved import keep_login, login_file, saved_login
from rollbook.store import secrets_folder
from rollbook.store.defaults import default_campaign_file

POSTGRES = "postgresql://rb@127.0.0.1:5432/test?schema=s1"


def test_secrets_and_default_campaigns_of_postgresql_live_in_the_users_data_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    for name in ("ROLLBOOK_SECRETS", "ROLLBOOK_STATE"):
        monkeypatch.delenv(name, raising=False)
    assert secrets_folder(POSTGRES) == tmp_path / "data" / "rollbook" / "secrets"
    assert default_campaign_file(POSTGRES).parent == tmp_path / "data" / "rollbook" / "campaign"
    monkeypatch.setenv("ROLLBOOK_SECRETS", str(tmp_path / "mine"))
    monkeypatch.setenv("ROLLBOOK_STATE", str(tmp_path / "state"))
    assert secrets_folder(POSTGRES) == tmp_path / "mine"
    assert default_campaign_file(POSTGRES).parent == tmp_path / "state" / "campaign"
    assert secrets_folder("sqlite:///x.db").name == "x.db.secrets"  # beside a SQLite file, as before


def test_the_login_is_kept_in_the_users_config_folder_readable_by_its_owner_only(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    kept = keep_login("http://127.0.0.1:8421", "rb_secret", "anna")
    assert kept == login_file() == tmp_path / "config" / "rollbook" / "login.json"
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600 and stat.S_IMODE(kept.parent.stat().st_mode) == 0o700
    assert saved_login() == {"server": "http://127.0.0.1:8421", "token": "rb_secret", "user": "anna"}
