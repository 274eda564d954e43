"""A post's sign-in, role and key checked in one query (hosting/standing.py; issue 48, item 4), and what that query
must not hide: a grant, a revoked token or a key already used, by another process, counts at the very next post."""

import pytest

from rollbook.hosting import standing
from rollbook.hosting.accounts import Accounts
from rollbook.hosting.refusals import Refusal
from rollbook.store import Store

MOVE = {"type": "roll_move", "character": "Anna", "stat": "audacity", "dice": [3, 4]}


def test_a_post_reads_its_sign_in_role_and_key_in_one_query_and_sees_what_another_process_changed(table, monkeypatch):
    state = table.state
    if state.store.kind == "memory":
        pytest.skip("a store in memory answers without queries: nothing to share")
    token = table.tokens["anna"]
    assert table.post("anna", MOVE, key="first").status_code == 201  # her sign-in and the roster are kept now
    queries, latest, select = [], standing.latest_versions, state.store.app.recorder.select_events
    monkeypatch.setattr(standing, "latest_versions", lambda app, ids: queries.append(len(ids)) or latest(app, ids))
    monkeypatch.setattr(state.store.app.recorder, "select_events",
                        lambda *args, **kwargs: queries.append("select_events") or select(*args, **kwargs))
    found = state.standings.of_token(token, "bs", "second")
    assert (found.user, found.role, found.recorded) == ("anna", "player", None)
    assert queries == [3], "the user, the roster and the key's claim in one query"

    elsewhere = Store.open(state.store.url)
    try:
        Accounts(elsewhere).grant("bs", "anna", "gm", by="gm1")
        assert state.standings.of_token(token, "bs", "second").role == "gm"
        assert state.standings.of_token(token, "bs", "first").recorded["type"] == "roll_move"
        Accounts(elsewhere).revoke("anna")
    finally:
        elsewhere.close()
    with pytest.raises(Refusal) as refused:
        state.standings.of_token(token, "bs", "third")
    assert refused.value.kind == "signed_out"
