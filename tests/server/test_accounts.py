"""Users, tokens and roles: event-sourced in the campaign store, tokens kept only as hashes."""

import hmac
import json

import pytest
from rollbook.domain.accounts import Roster, User
from rollbook.domain.errors import CommandRejected, UnknownName
from rollbook.hosting import accounts as accounts_module
from rollbook.hosting.accounts import Accounts, token_hash
from rollbook.store import Store


@pytest.fixture
def accounts(rollbook_store):
    store = Store.open(rollbook_store)
    yield Accounts(store)
    store.close()


def stored_bytes(store):
    app = store.app
    return b"".join(n.state for n in app.recorder.select_notifications(1, 10_000))


def test_a_new_user_signs_in_with_the_token_printed_once_and_only_its_hash_is_stored(accounts):
    token = accounts.add("anna")
    assert len(token) > 43 and accounts.authenticate(token) == "anna"
    assert token.encode() not in stored_bytes(accounts.store)
    assert token_hash(token).encode() in stored_bytes(accounts.store)


def test_a_wrong_token_a_new_token_and_a_revoke_each_change_who_signs_in(accounts):
    first = accounts.add("anna")
    assert accounts.authenticate(first + "x") is None
    second = accounts.new_token("anna")
    assert accounts.authenticate(first) is None and accounts.authenticate(second) == "anna"
    accounts.revoke("anna")
    assert accounts.authenticate(second) is None
    assert accounts.users() == [{"user": "anna", "active": False, "roles": {}}]
    third = accounts.new_token("anna")
    assert accounts.authenticate(third) == "anna"


def test_a_revoke_in_another_process_counts_at_the_very_next_sign_in(tmp_path):
    url = f"sqlite:///{tmp_path / 'r.db'}"
    server, cli = Accounts(Store.open(url)), Accounts(Store.open(url))
    token = server.add("anna")
    assert server.authenticate(token) == "anna"
    cli.revoke("anna")
    assert server.authenticate(token) is None


def test_a_kept_sign_in_is_not_read_again_yet_a_revoke_or_new_token_elsewhere_counts_at_once(tmp_path, monkeypatch):
    from rollbook.hosting.sign_ins import SignIns

    url = f"sqlite:///{tmp_path / 'kept.db'}"
    server, cli = Accounts(Store.open(url)), Accounts(Store.open(url))
    sign_ins, reads = SignIns(server), []
    original = server.token_user
    monkeypatch.setattr(server, "token_user", lambda digest: reads.append(digest) or original(digest))
    token = cli.add("anna")
    assert [sign_ins.user(token) for _ in range(3)] == ["anna"] * 3
    assert len(reads) == 1, "a token signed in before is checked by its user's version, not read again"
    cli.revoke("anna")
    assert sign_ins.user(token) is None
    fresh = cli.new_token("anna")
    assert sign_ins.user(fresh) == "anna" and sign_ins.user(token) is None
    cli.new_token("anna")  # replaced elsewhere: the kept one stops at once
    assert sign_ins.user(fresh) is None


def test_hashes_are_compared_in_constant_time(accounts, monkeypatch):
    token = accounts.add("anna")
    compared, original = [], hmac.compare_digest

    def spy(a, b):
        compared.append((a, b))
        return original(a, b)

    monkeypatch.setattr(accounts_module.hmac, "compare_digest", spy)
    assert accounts.authenticate(token) == "anna"
    assert compared == [(token_hash(token), token_hash(token))]


def test_names_twice_or_unfit_are_refused_by_field(accounts):
    accounts.add("anna")
    with pytest.raises(CommandRejected, match="already exists") as error:
        accounts.add("anna")
    assert error.value.field == "user"
    with pytest.raises(CommandRejected, match="1 to 64 letters"):
        accounts.add("player:bo")
    with pytest.raises(UnknownName, match="no user 'bo'"):
        accounts.revoke("bo")


def test_a_grant_records_who_granted_which_role_to_whom_and_when(accounts):
    accounts.add("anna")
    accounts.add("bo")
    accounts.grant("black-sails", "anna", "gm", by="cli:op")
    accounts.grant("black-sails", "bo", "player", by="anna")
    accounts.grant("black-sails", "bo", "auditor", by="anna")
    assert accounts.role_of("black-sails", "bo") == "auditor"
    assert accounts.role_of("black-sails", "carl") is None
    assert [m.role for m in accounts.memberships("bo")] == ["auditor"]
    grants = [e for e in accounts.store.app.events.get(Roster.create_id("black-sails")) if isinstance(e, Roster.Granted)]
    assert [(g.user, g.role, g.by) for g in grants] == [("anna", "gm", "cli:op"), ("bo", "player", "anna"),
                                                        ("bo", "auditor", "anna")]
    assert all(g.timestamp.tzinfo is not None for g in grants)
    with pytest.raises(CommandRejected, match="unknown role 'owner'"):
        accounts.grant("black-sails", "bo", "owner", by="anna")
    with pytest.raises(UnknownName, match="no user 'carl'"):
        accounts.grant("black-sails", "carl", "player", by="anna")


def test_users_and_grant_on_the_command_line(tmp_path):
    from typer.testing import CliRunner
    from rollbook.cli import app

    runner = CliRunner()
    url = f"sqlite:///{tmp_path / 'cli.db'}"
    added = runner.invoke(app, ["users", "add", "anna", "--store", url, "--json"])
    assert added.exit_code == 0, added.output
    shown = json.loads(added.stdout)
    assert set(shown) == {"user", "token"} and shown["user"] == "anna"
    created = tmp_path / "c.jsonl"
    created.write_text('{"type": "create_campaign", "campaign": "bs", "ruleset": "pirates"}\n')
    assert runner.invoke(app, ["-q", "run", str(created), "--store", url]).exit_code == 0
    granted = runner.invoke(app, ["grant", "anna", "player", "-c", "bs", "--store", url])
    assert granted.exit_code == 0, granted.output
    unknown = runner.invoke(app, ["grant", "anna", "player", "-c", "nope", "--store", url])
    assert unknown.exit_code == 1 and "no campaign 'nope'" in unknown.output
    listed = runner.invoke(app, ["users", "list", "--store", url, "--json"])
    assert json.loads(listed.stdout) == [{"user": "anna", "active": True, "roles": {"bs": "player"}}]
    renewed = runner.invoke(app, ["users", "token", "anna", "--store", url, "--json"])
    assert json.loads(renewed.stdout)["token"] != shown["token"]
    assert runner.invoke(app, ["users", "revoke", "anna", "--store", url]).exit_code == 0
    assert json.loads(runner.invoke(app, ["users", "list", "--store", url, "--json"]).stdout)[0]["active"] is False


def test_what_is_kept_between_requests_is_bounded_the_longest_kept_going_first():
    from rollbook.hosting.sign_ins import Kept

    kept: Kept[int] = Kept(2)
    for key, value in (("a", 1), ("b", 2), ("c", 3)):
        kept.keep(key, value)
    assert (kept.get("a"), kept.get("b"), kept.get("c")) == (None, 2, 3)
    kept.keep("b", None)
    assert kept.get("b") is None and kept.get("c") == 3
