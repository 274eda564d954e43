"""The HTTP API: signed in as yourself, one command per POST, idempotent, conditional, and the CLI's JSON."""

import json

from rollbook.cli import app as cli_app
from typer.testing import CliRunner

from rollbook.hosting.limits import RateLimit

from .conftest import table_on

MOVE = {"type": "roll_move", "character": "Anna", "stat": "audacity", "dice": [3, 4]}


def test_the_creator_of_a_campaign_is_its_gm_and_grants_the_roles(table):
    listed = table.get("gm1", "/campaigns").json()
    assert [{k: v for k, v in row.items() if k != "last"} for row in listed] == [
        {"campaign": "bs", "role": "gm", "title": "Black Sails", "ruleset": "pirates", "revision": 1, "commands": 4,
         "open": ["chapter 1"]}]
    assert listed[0]["last"].startswith("20")  # `rollbook campaigns --json`'s time of the last event
    assert table.get("anna", "/campaigns/bs/members").json() == {"gm1": "gm", "anna": "player", "bo": "player",
                                                                 "aud": "auditor"}
    refused = table.client.put("/campaigns/bs/members/carl", json={"role": "gm"}, headers=table.headers("anna"))
    assert refused.status_code == 403 and refused.json()["error"]["field"] == "role"
    unknown = table.client.put("/campaigns/bs/members/nobody", json={"role": "player"}, headers=table.headers("gm1"))
    assert unknown.status_code == 404 and "no user 'nobody'" in unknown.json()["error"]["reason"]
    bad_role = table.client.put("/campaigns/bs/members/carl", json={"role": "owner"}, headers=table.headers("gm1"))
    assert bad_role.status_code == 422 and bad_role.json()["error"]["field"] == "role"


def test_a_players_move_carries_his_name_from_the_token_and_answers_with_events_rolls_and_a_line(table):
    answer = table.post("anna", MOVE, key="anna-1")
    assert answer.status_code == 201
    body = answer.json()
    assert body["command_id"] == "anna-1" and body["rolls"] == [
        {"id": "anna-1", "faces": [3, 4], "total": 9, "outcome": "partial_success", "text": "2d6 = [3, 4] + 2 = 9"}]
    assert body["events"][-1]["type"] == "CommandApplied" and body["events"][-1]["position"] == body["position"]
    assert body["events"][-1]["data"]["command"]["actor"] == "player:anna"
    assert "Anna" in body["summary"] and "9" in body["summary"]
    log = table.get("anna", "/campaigns/bs/log").json()
    assert [e for e in log if e["position"] > body["position"] - len(body["events"])] == body["events"]


def test_a_move_with_the_campaigns_own_seeded_dice(table):
    body = table.post("anna", {"type": "roll_move", "character": "Anna", "stat": "guile"}).json()
    [roll] = body["rolls"]
    assert len(roll["faces"]) == 2 and all(1 <= f <= 6 for f in roll["faces"])
    assert table.get("aud", "/campaigns/bs/rolls").json()[-1]["source"] == "hmac"


def test_an_actor_that_is_not_the_signed_in_user_is_403_and_writes_nothing(table):
    before = table.stored()
    for actor in ("player:bo", "gm", "auditor:anna"):
        refused = table.post("anna", {**MOVE, "actor": actor})
        assert refused.status_code == 403 and refused.json()["error"]["field"] == "actor"
    assert table.stored() == before


def test_a_player_naming_someone_elses_character_is_refused_with_the_clis_message(table):
    before = table.stored()
    refused = table.post("anna", {**MOVE, "character": "Bo"})
    assert refused.status_code == 403, refused.json()
    assert refused.json()["error"]["field"] == "character" and "Bo" in refused.json()["error"]["reason"]
    assert table.stored() == before


def test_an_auditor_may_read_but_not_play(table):
    refused = table.post("aud", {"type": "take_damage", "character": "Anna", "harm": 1})
    assert refused.status_code == 403 and "may dispute rolls but not play" in refused.json()["error"]["reason"]
    assert table.get("aud", "/campaigns/bs/sheets/Anna").status_code == 200


def test_a_refused_command_is_422_with_the_clis_message_and_writes_nothing(table):
    before = table.stored()
    refused = table.post("gm1", {"type": "take_damage", "character": "Anna", "harm": 3, "absorb_with_luck": 2})
    assert refused.status_code == 422
    assert refused.json() == {"error": {"type": "take_damage", "id": refused.request.headers["Idempotency-Key"],
                                        "field": refused.json()["error"]["field"],
                                        "reason": refused.json()["error"]["reason"]}}
    assert "cannot absorb 2" in refused.json()["error"]["reason"]
    assert table.stored() == before


def test_the_same_key_and_body_gets_the_same_answer_and_stores_nothing_new(table):
    first = table.post("anna", MOVE, key="same")
    stored = table.stored()
    table.post("gm1", {"type": "take_damage", "character": "Bo", "harm": 1})  # the campaign moves on
    moved = table.stored()
    again = table.post("anna", MOVE, key="same")
    assert again.status_code == 201 and again.json() == first.json()
    assert again.headers["Idempotent-Replayed"] == "true" and table.stored() == moved > stored
    other = table.post("anna", {**MOVE, "stat": "guile"}, key="same")
    assert other.status_code == 422 and other.json()["error"]["field"] == "Idempotency-Key header"
    assert table.stored() == moved


def test_every_post_needs_an_idempotency_key(table):
    missing = table.client.post("/campaigns/bs/commands", json=MOVE, headers=table.headers("anna"))
    assert missing.status_code == 422 and missing.json()["error"]["field"] == "Idempotency-Key header"
    with_hash = table.post("anna", MOVE, key="a#2")
    assert with_hash.status_code == 422 and with_hash.json()["error"]["field"] == "Idempotency-Key header"


def test_if_match_with_the_etag_of_a_get_applies_and_a_stale_one_is_412(table):
    etag = table.get("anna", "/campaigns/bs/sheets/Anna").headers["ETag"]
    applied = table.post("anna", MOVE, **{"If-Match": etag})
    assert applied.status_code == 201 and applied.headers["ETag"] != etag
    before = table.stored()
    stale = table.post("anna", {**MOVE, "stat": "guile"}, **{"If-Match": etag})
    assert stale.status_code == 412 and stale.json()["error"]["field"] == "If-Match header"
    assert table.stored() == before
    garbled = table.post("anna", MOVE, **{"If-Match": "yesterday"})
    assert garbled.status_code == 422 and garbled.json()["error"]["field"] == "If-Match header"


def test_reads_answer_the_clis_json_at_a_point_and_in_a_revision(table, tmp_path):
    table.post("anna", MOVE, key="anna-1")
    table.post("gm1", {"type": "take_damage", "character": "Anna", "harm": 1})
    before = table.get("anna", "/campaigns/bs/sheets/Anna", at="anna-1").json()
    now = table.get("anna", "/campaigns/bs/sheets/Anna").json()
    assert before != now and before["wounds"] == {"light": 0, "serious": 0, "terrible": 0}
    timeline = table.get("anna", "/campaigns/bs/timeline")
    assert timeline.json()["campaign"] == "bs" and timeline.json()["timeline"] and timeline.headers["ETag"]
    limits = table.get("anna", "/campaigns/bs/limits", revision=1).json()
    assert {"limit", "scope", "used", "remaining"} <= set(limits[0])
    assert table.get("anna", "/campaigns/bs/revisions").json()[0]["revision"] == 1
    no_point = table.get("anna", "/campaigns/bs/rolls", at="chapter:9")
    assert no_point.status_code == 404 or no_point.status_code == 422
    assert no_point.json()["error"]["field"] == "at"
    not_a_ship = table.get("anna", "/campaigns/bs/ships/Anna")
    assert not_a_ship.status_code == 404 and "not a ship" in not_a_ship.json()["error"]["reason"]


def test_the_reads_give_what_the_cli_gives_for_the_same_store(tmp_path):
    url = f"sqlite:///{tmp_path / 'same.db'}"
    table = table_on(url, posts_per_minute=0)
    with table.client:
        table.post("anna", MOVE, key="anna-1")
        runner = CliRunner()
        for verb, path in (("rolls", "/campaigns/bs/rolls"), ("limits", "/campaigns/bs/limits"),
                           ("log", "/campaigns/bs/log")):
            cli = json.loads(runner.invoke(cli_app, [verb, "-c", "bs", "--store", url, "--json"]).stdout)
            assert table.get("anna", path).json() == cli, verb
        cli_sheet = json.loads(runner.invoke(cli_app, ["sheet", "Anna", "-c", "bs", "--store", url, "--json"]).stdout)
        assert table.get("bo", "/campaigns/bs/sheets/Anna").json() == cli_sheet


def test_sign_in_401_without_a_token_403_for_another_campaigns_member_404_for_no_campaign(table):
    assert table.client.get("/campaigns/bs/log").status_code == 401
    wrong = table.client.get("/campaigns/bs/log", headers={"Authorization": "Bearer rb_nonsense"})
    assert wrong.status_code == 401 and wrong.headers["WWW-Authenticate"] == "Bearer"
    table.post("carl", {"type": "create_campaign", "ruleset": "pirates"}, campaign="carls")
    for path in ("/campaigns/bs/log", "/campaigns/bs/sheets/Anna", "/campaigns/bs/events", "/campaigns/bs/export",
                 "/campaigns/bs/verify", "/campaigns/bs/members"):
        refused = table.get("carl", path)
        assert refused.status_code == 403 and "not a member" in refused.json()["error"]["reason"], path
    assert table.post("carl", MOVE).status_code == 403
    assert [c["campaign"] for c in table.get("carl", "/campaigns").json()] == ["carls"]
    assert table.get("carl", "/campaigns/nope/log").status_code == 404


def test_a_revoked_token_is_refused_at_once(table):
    assert table.get("anna", "/campaigns/bs/log").status_code == 200
    table.state.accounts.revoke("anna")
    assert table.get("anna", "/campaigns/bs/log").status_code == 401
    assert table.post("anna", MOVE).status_code == 401


def test_posts_beyond_the_rate_limit_are_429_and_others_go_on(table):
    table.state.rate_limit = RateLimit(per_minute=1, burst=2)
    answers = [table.post("anna", {"type": "take_damage", "character": "Anna", "harm": 0}).status_code
               for _ in range(3)]
    assert answers[2] == 429
    limited = table.post("anna", MOVE)
    assert limited.status_code == 429 and int(limited.headers["Retry-After"]) >= 1
    assert table.get("anna", "/campaigns/bs/log").status_code == 200
    assert table.post("bo", {"type": "roll_move", "character": "Bo", "stat": "guile", "dice": [1, 2]}).status_code == 201


def test_characters_and_replay_answer_as_the_cli_does(table):
    table.post("anna", MOVE, key="anna-1")
    rows = table.get("bo", "/campaigns/bs/characters").json()
    assert [(r["name"], r["player"], r["kind"]) for r in rows] == [("Anna", "anna", "character"), ("Bo", "bo", "character")]
    replayed = table.get("aud", "/campaigns/bs/replay", verify="true").json()
    assert replayed["identical"] is True and replayed["commands"] == 5 and replayed["events_compared"] > 0
    until = table.get("aud", "/campaigns/bs/replay", until="k2").json()  # Anna's creation, the second command
    assert until["commands"] == 2
    assert table.get("carl", "/campaigns/bs/replay").status_code == 403


def test_a_creation_whose_server_stopped_before_the_gm_grant_is_finished_by_the_creators_retry(table):
    from rollbook.commands.parse import parse_command
    from rollbook.hosting.posting import _creator

    creation = {"type": "create_campaign", "ruleset": "pirates", "title": "Half made"}
    # As the server does it, stopped right after the command was stored: the creator kept, no roster yet.
    assert _creator(table.state, "half", "make-half", claim="carl") == "carl"
    table.state.service.execute(parse_command({**creation, "campaign": "half", "id": "make-half"},
                                              ruleset_of=table.state.service.ruleset_of))
    assert table.state.accounts.roster("half") == {}
    assert table.post("anna", creation, campaign="half", key="make-half").status_code == 403
    retried = table.post("carl", creation, campaign="half", key="make-half")
    assert retried.status_code == 201 and retried.headers["Idempotent-Replayed"] == "true"
    assert table.state.accounts.roster("half") == {"carl": "gm"}


def test_a_campaign_made_on_the_command_line_cannot_be_claimed_by_repeating_its_creation(table):
    from rollbook.commands.parse import parse_command

    creation = {"type": "create_campaign", "ruleset": "pirates", "title": "Local"}
    table.state.service.execute(parse_command({**creation, "campaign": "local", "id": "local-1"},
                                              ruleset_of=table.state.service.ruleset_of))
    refused = table.post("carl", creation, campaign="local", key="local-1")
    assert refused.status_code == 403 and table.state.accounts.roster("local") == {}


def test_health_reads_and_other_campaigns_answer_while_a_command_holds_its_campaign(table):
    """A command waiting on a store that went away holds its campaign's lock; /health, the reads of that
    campaign and the posts of another must not queue behind it (there is no process-wide lock)."""
    import threading

    assert table.post("gm1", {"type": "create_campaign", "ruleset": "pirates", "title": "Other"},
                      campaign="other").status_code == 201
    before = table.stored()
    held, release = threading.Event(), threading.Event()

    def hold_the_campaign():
        with table.state.writing("bs"):
            held.set()
            release.wait(30)

    holder = threading.Thread(target=hold_the_campaign)
    holder.start()
    try:
        assert held.wait(5)
        answered = {}
        askers = [threading.Thread(target=lambda: answered.update(health=table.client.get("/health"))),
                  threading.Thread(target=lambda: answered.update(sheet=table.get("anna", "/campaigns/bs/sheets/Anna"))),
                  threading.Thread(target=lambda: answered.update(
                      post=table.post("gm1", {"type": "start_chapter"}, campaign="other")))]
        for asker in askers:
            asker.start()
        for asker in askers:
            asker.join(10)
        assert not any(asker.is_alive() for asker in askers), f"waited behind bs's lock: {sorted(answered)} answered"
        assert answered["health"].status_code == 200 and before <= answered["health"].json()["position"] <= table.stored()
        assert answered["sheet"].status_code == 200 and answered["sheet"].json()["name"] == "Anna"
        assert answered["post"].status_code == 201
    finally:
        release.set()
        holder.join()


def test_a_point_in_a_unit_still_open_is_its_latest_point_and_the_answer_says_so(table):
    table.post("anna", MOVE, key="anna-1")
    now = table.get("anna", "/campaigns/bs/sheets/Anna").json()
    open_chapter = table.get("anna", "/campaigns/bs/sheets/Anna", at="chapter:1")
    assert open_chapter.json() == now
    assert open_chapter.headers["Rollbook-Note"].startswith("chapter 1 is still open: showing its latest point, now")
    assert "Rollbook-Note" not in table.get("anna", "/campaigns/bs/sheets/Anna", at="anna-1").headers
