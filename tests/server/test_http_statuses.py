"""HTTP that clients and caches understand: 304 for the ETag a client has, 404 for a name not found,
odds without an Idempotency-Key, every status documented, and undo's ownership checks."""

from .conftest import ANNA

MOVE = {"type": "roll_move", "character": "Anna", "stat": "audacity", "dice": [3, 4]}
BO_MOVE = {**MOVE, "character": "Bo", "dice": [5, 5]}


def test_if_none_match_with_the_current_etag_is_304_and_a_stale_one_gets_the_body(table):
    first = table.get("anna", "/campaigns/bs/sheets/Anna")
    etag = first.headers["ETag"]
    for path in ("/campaigns/bs/sheets/Anna", "/campaigns/bs/timeline", "/campaigns/bs/log", "/campaigns/bs/rolls",
                 "/campaigns/bs/limits", "/campaigns/bs/characters", "/campaigns/bs/revisions"):
        cached = table.client.get(path, headers=table.headers("anna", **{"If-None-Match": etag}))
        assert (cached.status_code, cached.content, cached.headers["ETag"]) == (304, b"", etag), path
    for also in (f"W/{etag}", f'"r9.9", {etag}', "*"):
        assert table.client.get("/campaigns/bs/log", headers=table.headers("anna", **{"If-None-Match": also})
                                ).status_code == 304, also
    table.post("anna", MOVE)
    moved = table.client.get("/campaigns/bs/sheets/Anna", headers=table.headers("anna", **{"If-None-Match": etag}))
    assert moved.status_code == 200 and moved.headers["ETag"] != etag and moved.json()["name"] == "Anna"


def test_an_unknown_sheet_or_ship_name_is_404_naming_the_known_ones(table):
    for path in ("/campaigns/bs/sheets/Nobody", "/campaigns/bs/ships/Nobody"):
        missing = table.get("anna", path)
        assert missing.status_code == 404, path
        assert missing.json()["error"]["field"] == "name" and "(known: Anna, Bo)" in missing.json()["error"]["reason"]


def test_odds_need_no_idempotency_key_and_write_nothing(table):
    before = table.stored()
    asked = table.client.post("/campaigns/bs/odds", headers=table.headers("anna"),
                              json={"command": {"type": "roll_move", "character": "Anna", "stat": "audacity"}})
    assert asked.status_code == 200, asked.json()
    assert asked.json()["fractions"]["miss"] == "1/6" and table.stored() == before


def test_every_route_documents_the_statuses_it_can_answer(table):
    document = table.client.get("/openapi.json").json()
    assert document["components"]["schemas"]["Error"]["required"] == ["error"]
    operations = {(method.upper(), path): set(map(int, op["responses"]))
                  for path, ops in document["paths"].items() for method, op in ops.items()}
    with_a_body = {(method.upper(), path) for path, ops in document["paths"].items() for method, op in ops.items()
                   if "requestBody" in op}
    # Only these take no body; any other POST or PUT documents the body it reads.
    assert {op for op in operations if op[0] in ("POST", "PUT")} - with_a_body == {
        ("POST", "/discord/interactions"), ("POST", "/discord/link-code"),
        ("POST", "/campaigns/{campaign}/members/{user}/discord-code")}
    for (method, path), statuses in operations.items():
        assert 503 in statuses, (method, path)
        if path == "/discord/interactions":  # Discord's own contract: a refusal or a rate limit is a message (200)
            assert {400, 401, 413} <= statuses
            continue
        if path == "/telegram/webhook":  # Telegram's: a refusal is a message in the chat, the delivery 200
            assert {400, 401, 413, 422} <= statuses
            continue
        if path != "/health":
            assert 401 in statuses, (method, path)
        if path.startswith("/campaigns/{campaign}/") and method == "GET":
            assert {403, 404} <= statuses, (method, path)
        if (method, path) in with_a_body:
            assert {413, 422} <= statuses, (method, path)
        if method == "POST":
            assert 429 in statuses, (method, path)
    assert {200, 201, 403, 409} <= operations[("POST", "/campaigns/{campaign}/disputes")]
    assert {201, 403, 404, 412} <= operations[("POST", "/campaigns/{campaign}/commands")]
    for read in ("sheets/{name}", "timeline", "log", "rolls", "limits", "export", "verify", "characters"):
        assert 304 in operations[("GET", f"/campaigns/{{campaign}}/{read}")], read
    errors = document["paths"]["/campaigns/{campaign}/sheets/{name}"]["get"]["responses"]
    assert errors["404"]["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/Error"}
    assert errors["422"]["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/Error"}


def undo(table, user, body, key):
    return table.client.post("/campaigns/bs/undo", json=body, headers=table.headers(user, key))


def test_undo_takes_back_the_users_own_last_command_and_a_player_never_anothers(table):
    table.post("anna", MOVE, key="anna-1")
    table.post("bo", BO_MOVE, key="bo-1")
    table.post("anna", {**MOVE, "dice": [1, 1]}, key="anna-2")
    theirs = undo(table, "anna", {"command": "bo-1", "reason": "not mine"}, "undo-1")
    assert theirs.status_code == 403, theirs.json()
    assert theirs.json()["error"]["reason"] == "player:anna may undo only his own commands; bo-1 is player:bo's"
    assert len(table.get("gm1", "/campaigns/bs/revisions").json()) == 1  # nothing ruled
    dry = undo(table, "anna", {"reason": "typo", "dry_run": True}, "undo-2")
    assert dry.status_code == 200 and dry.json()["roll"] == "anna-2" and dry.json()["applied"] is False
    mine = undo(table, "anna", {"reason": "typo"}, "undo-3")
    assert mine.status_code == 201 and mine.json()["roll"] == "anna-2" and mine.json()["revision"] == 2
    ruled = table.get("gm1", "/campaigns/bs/revisions").json()[-1]
    assert (ruled["actor"], ruled["roll"], ruled["reason"]) == ("player:anna", "anna-2", "typo")
    rolls = [r["id"] for r in table.get("anna", "/campaigns/bs/rolls").json()]
    assert "anna-2" not in rolls and {"anna-1", "bo-1"} <= set(rolls)
    again = undo(table, "anna", {"reason": "typo"}, "undo-3")  # the same key: the same answer, nothing more
    assert again.status_code == 201 and again.json() == mine.json()
    gm = undo(table, "gm1", {"command": "bo-1", "reason": "the GM rules"}, "undo-4")
    assert gm.status_code == 201 and gm.json()["revision"] == 3
    assert undo(table, "aud", {"reason": "x"}, "undo-5").status_code == 404  # the auditor gave no command


def test_a_player_with_no_command_has_nothing_to_undo(table):
    table.post("gm1", {**ANNA, "name": "Cy", "player": "carl"})
    nothing = undo(table, "bo", {"reason": "x"}, "undo-1")
    assert nothing.status_code == 404 and nothing.json()["error"]["field"] == "command"


def test_the_campaigns_creation_is_never_undone(table):
    before = table.stored()
    refused = undo(table, "gm1", {"command": "k1", "reason": "start again"}, "undo-1")
    assert refused.status_code == 422 and refused.json()["error"] == {
        "field": "command", "reason": "k1 created the campaign: its creation cannot be undone"}
    assert table.stored() == before


def test_every_kind_of_refusal_has_its_one_status_and_the_pages_answer_with_it(table):
    """The use cases refuse by kind (hosting/refusals.py); the server's errors.py is the one place a kind gets its
    status, and the app it builds lends that mapping to the pages mounted beside it."""
    from typing import get_args

    from rollbook.hosting.refusals import Kind, Refusal
    from rollbook.server.errors import STATUS_OF_KIND, headers_of

    assert set(STATUS_OF_KIND) == set(get_args(Kind))
    assert len(set(STATUS_OF_KIND.values())) == len(STATUS_OF_KIND), "each kind is told apart by its status"
    assert headers_of(Refusal("signed_out", None, "sign in")) == {"WWW-Authenticate": "Bearer"}
    assert headers_of(Refusal("too_fast", None, "slow down", retry_after=3)) == {"Retry-After": "3"}
    assert table.client.app.state.status_of(Refusal("moved_on", "If-Match header", "moved on")) == 412
    page = table.client.get("/campaigns/nope", headers=table.headers("anna", Accept="text/html"))
    assert page.status_code == 404 and "text/html" in page.headers["content-type"]
