"""Ids a person can say (issue 45): a post without an id gets its poster's name and a counter, `anna-7`,
unique in the campaign however many server processes share the store; a retried key is the same command."""

from fastapi.testclient import TestClient
from rollbook.replay.replayer import replay
from rollbook.bootstrap import create_app
from tests.server.conftest import table_on

SHORT = {"Rollbook-Short-Id": "true"}
MOVE = {"type": "roll_move", "character": "Anna", "stat": "audacity", "dice": [3, 4]}


def test_posts_without_an_id_get_the_posters_name_and_a_counter(table):
    ids = [table.post(user, {**MOVE, "character": name}, **SHORT).json()["command_id"]
           for user, name in (("anna", "Anna"), ("bo", "Bo"), ("anna", "Anna"))]
    assert ids == ["anna-1", "bo-1", "anna-2"]
    rolls = table.get("gm1", "/campaigns/bs/rolls").json()
    assert [r["id"] for r in rolls][-3:] == ids


def test_a_retried_key_is_the_same_command_under_the_same_id(table):
    first = table.post("anna", MOVE, key="form-a", **SHORT)
    again = table.post("anna", MOVE, key="form-a", **SHORT)
    assert first.status_code == again.status_code == 201
    assert again.headers["Idempotent-Replayed"] == "true" and again.json() == first.json()
    assert first.json()["command_id"] == "anna-1"
    other = table.post("anna", {**MOVE, "stat": "guile"}, key="form-a", **SHORT)
    assert other.status_code == 422 and "another command (anna-1)" in other.json()["error"]["reason"]
    assert table.post("anna", MOVE, key="form-b", **SHORT).json()["command_id"] == "anna-2"


def test_ids_given_keep_working_and_a_number_already_an_id_is_skipped(table):
    assert table.post("anna", MOVE, key="anna-1").json()["command_id"] == "anna-1"  # the key is the id, as before
    assert table.post("anna", {**MOVE, "id": "mine"}, key="mine", **SHORT).json()["command_id"] == "mine"
    assert table.post("anna", MOVE, **SHORT).json()["command_id"] == "anna-2"


def test_a_refused_post_stores_nothing_and_its_number_goes_to_the_next_post(table):
    before = table.stored()
    refused = table.post("anna", {**MOVE, "character": "Bo"}, key="try", **SHORT)  # not her character
    assert refused.status_code == 403 and "Bo" in refused.json()["error"]["reason"]
    assert table.stored() == before
    assert table.post("anna", MOVE, key="try", **SHORT).json()["command_id"] == "anna-1"
    assert table.post("anna", MOVE, key="next", **SHORT).json()["command_id"] == "anna-2"


def test_an_undone_commands_id_is_not_handed_out_again(table):
    assert table.post("anna", MOVE, **SHORT).json()["command_id"] == "anna-1"
    undone = table.client.post("/campaigns/bs/undo", json={"command": "anna-1", "reason": "typo"},
                               headers=table.headers("anna", "undo-1"))
    assert undone.status_code == 201, undone.text
    assert table.post("anna", MOVE, **SHORT).json()["command_id"] == "anna-2"


def test_two_processes_on_one_store_never_give_the_same_id(rollbook_store, tmp_path):
    """Two servers on one store (SQLite or PostgreSQL; a memory store is one process's own: a file then),
    each with its own counters, posting alternately: every id is handed out once."""
    url = rollbook_store if rollbook_store != "memory://" else f"sqlite:///{tmp_path / 'shared.db'}"
    table = table_on(url, posts_per_minute=0)
    other = TestClient(create_app(url, posts_per_minute=0))
    with table.client, other:
        headers = table.headers("anna", **SHORT)
        ids = []
        for n in range(6):
            client = (table.client, other)[n % 2]
            answer = client.post("/campaigns/bs/commands", json=MOVE, headers={**headers, "Idempotency-Key": f"p{n}"})
            assert answer.status_code == 201, answer.text
            ids.append(answer.json()["command_id"])
        assert ids == [f"anna-{n}" for n in range(1, 7)]
        assert replay(table.state.store, "bs", verify=True).difference is None


def test_a_number_another_process_stored_between_the_look_and_the_store_is_passed_over(table, monkeypatch):
    said = table.state.said_ids
    assert table.post("anna", MOVE, key="first", **SHORT).json()["command_id"] == "anna-1"
    looks = iter(["anna-1", "anna-2"])  # the other process's look: anna-1 seemed free when it looked
    monkeypatch.setattr(said, "next_id", lambda campaign, user: next(looks))
    assert table.post("anna", MOVE, key="second", **SHORT).json()["command_id"] == "anna-2"
    assert table.post("anna", MOVE, key="first", **SHORT).json()["command_id"] == "anna-1"  # the key keeps its id


def test_the_same_key_stored_by_another_process_a_moment_ago_is_answered_as_a_repeat(table, monkeypatch):
    said = table.state.said_ids
    first = table.post("anna", MOVE, key="twice", **SHORT).json()
    looked, looks = said.kept, []

    def stored_after_the_first_look(campaign, key):  # the other process stored it just after this one looked
        looks.append(key)
        return None if len(looks) == 1 else looked(campaign, key)

    monkeypatch.setattr(said, "kept", stored_after_the_first_look)
    before = table.stored()
    again = table.post("anna", MOVE, key="twice", **SHORT)
    assert again.status_code == 201 and again.headers["Idempotent-Replayed"] == "true"
    assert again.json() == first and table.stored() == before


def test_two_processes_posting_at_the_same_time_hand_out_every_id_once(rollbook_store, tmp_path):
    """The same, at once: a thread per server, each posting five moves as fast as it can."""
    from concurrent.futures import ThreadPoolExecutor

    url = rollbook_store if rollbook_store != "memory://" else f"sqlite:///{tmp_path / 'shared.db'}"
    table = table_on(url, posts_per_minute=0)
    other = TestClient(create_app(url, posts_per_minute=0))
    with table.client, other:
        headers = table.headers("anna", **SHORT)

        def five(client, name):
            return [client.post("/campaigns/bs/commands", json=MOVE,
                                headers={**headers, "Idempotency-Key": f"{name}-{n}"}).json()["command_id"]
                    for n in range(5)]

        with ThreadPoolExecutor(2) as pool:
            both = [pool.submit(five, table.client, "a"), pool.submit(five, other, "b")]
            ids = [said for posting in both for said in posting.result()]
        assert sorted(ids, key=lambda said: int(said.split("-")[1])) == [f"anna-{n}" for n in range(1, 11)]


def test_a_campaigns_creation_keeps_its_key_as_its_id_so_its_retry_finishes_it(table):
    """The remote CLI asks for a short id on every post without --id, a creation's too: the creation is stored
    under its key, and the creator's retry after a server stopped before the GM grant finishes it."""
    from rollbook.commands.parse import parse_command
    from rollbook.hosting.posting import _creator

    creation = {"type": "create_campaign", "ruleset": "pirates", "title": "Half made"}
    assert _creator(table.state, "half", "make-half", claim="carl") == "carl"
    table.state.service.execute(parse_command({**creation, "campaign": "half", "id": "make-half"},
                                              ruleset_of=table.state.service.ruleset_of))
    retried = table.post("carl", creation, campaign="half", key="make-half", **SHORT)
    assert retried.status_code == 201 and retried.json()["command_id"] == "make-half"
    assert table.state.accounts.roster("half") == {"carl": "gm"}
    made = table.post("carl", {**creation, "title": "New"}, campaign="new", key="make-new", **SHORT)
    assert made.status_code == 201 and made.json()["command_id"] == "make-new"
