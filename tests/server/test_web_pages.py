"""The browser pages, in process: sign-in and its cookie, who sees what, the scrubber's past sheets,
posting with CSRF protection, disputes for auditors, the roll log's proofs and the dice statistics."""

import re

import pytest
from rollbook.web.dice_stats import Tally, dice_statistics
from rollbook.web.sheets import layout

HTML = {"Accept": "text/html"}
MOVE = {"type": "roll_move", "character": "Anna", "stat": "audacity", "dice": [3, 4]}


def page(table, user, path, **params):
    return table.client.get(path, headers={**table.headers(user), **HTML}, params=params)


def signed_in_client(table, user):
    """A browser's way in: the token pasted into the sign-in form once, then the cookie."""
    client = table.client
    client.cookies.clear()
    answer = client.post("/sign-in", data={"token": table.tokens[user]}, follow_redirects=False)
    assert answer.status_code == 303
    return client, answer


def csrf_of(html):
    return re.search(r'name="csrf" value="([0-9a-f]+)"', html).group(1)


def test_signed_out_the_home_page_asks_for_a_token_and_a_bad_one_is_refused(table):
    home = table.client.get("/", headers=HTML)
    assert home.status_code == 200 and 'name="token"' in home.text and "<label for=\"token\">" in home.text
    bad = table.client.post("/sign-in", data={"token": "rb_not-a-token"})
    assert bad.status_code == 401 and "unknown, replaced or revoked" in bad.text
    assert table.client.get("/campaigns/bs", headers=HTML, follow_redirects=False).status_code == 303


def test_signing_in_sets_an_httponly_samesite_cookie_and_lists_ones_campaigns(table):
    client, answer = signed_in_client(table, "anna")
    cookie = answer.headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=strict" in cookie.replace("Strict", "strict")
    home = client.get("/", headers=HTML)
    assert "Black Sails" in home.text and "player" in home.text
    client.cookies.clear()


def test_only_members_see_a_campaign(table):
    assert page(table, "carl", "/campaigns/bs").status_code == 403
    assert page(table, "anna", "/campaigns/bs").status_code == 200
    assert page(table, "anna", "/campaigns/nope").status_code == 404
    assert page(table, "anna", "/campaigns/bs/disputes").status_code == 403  # a player does not rule


def test_the_scrubber_shows_the_sheet_as_it_was_with_the_change_marked(table):
    table.post("gm1", {"type": "take_damage", "character": "Anna", "harm": 1})
    now = page(table, "anna", "/campaigns/bs")
    assert now.status_code == 200 and 'type="range"' in now.text and 'aria-label="character Anna"' in now.text
    steps = int(re.search(r'max="(\d+)"', now.text).group(1))
    wounded = re.search(r'aria-label="character Anna".*?</article>', now.text, re.S).group(0)
    assert "<mark>" in wounded  # the last step wounded Anna: the page marks it
    before = page(table, "anna", "/campaigns/bs/fragments/sheets", step=steps - 1)
    earlier = re.search(r'aria-label="character Anna".*?</article>', before.text, re.S).group(0)
    assert earlier != wounded and f"Step {steps} of {steps + 1}" in before.text
    by_point = page(table, "anna", "/campaigns/bs", at="chapter:1:start")
    assert by_point.status_code == 200 and "Step" in by_point.text


def test_the_roll_log_is_a_page_for_browsers_and_json_for_the_api(table):
    table.post("anna", MOVE, key="anna-1")
    html = page(table, "anna", "/campaigns/bs/rolls")
    assert html.headers["content-type"].startswith("text/html") and "anna-1" in html.text and "proof-typed" in html.text
    api = table.get("anna", "/campaigns/bs/rolls")
    assert api.headers["content-type"].startswith("application/json") and api.json()[0]["id"] == "anna-1"


def test_posting_from_the_page_needs_the_forms_csrf_token_and_offers_only_ones_own_characters(table):
    client, _ = signed_in_client(table, "anna")
    form = client.get("/campaigns/bs/post", params={"type": "roll_move"}, headers=HTML)
    assert re.search(r'<option value="Anna"( selected)?>', form.text) and '<option value="Bo"' not in form.text
    fields = {"type": "roll_move", "character": "Anna", "stat": "audacity", "dice": "[5, 6]", "key": "form-1"}
    forged = client.post("/campaigns/bs/post", data=fields, headers=HTML)
    assert forged.status_code == 403 and table.stored() > 0
    before = table.stored()
    posted = client.post("/campaigns/bs/post", data={**fields, "csrf": csrf_of(form.text)}, headers=HTML)
    assert posted.status_code == 201 and "anna-1" in posted.text and table.stored() > before  # an id one can say
    again = client.post("/campaigns/bs/post", data={**fields, "csrf": csrf_of(form.text)}, headers=HTML)
    assert again.status_code == 201 and len(table.get("anna", "/campaigns/bs/rolls").json()) == 1  # a double click
    for_bo = client.post("/campaigns/bs/post", headers=HTML, data={
        **fields, "character": "Bo", "key": "form-2", "csrf": csrf_of(form.text)})
    assert for_bo.status_code == 403 and "Not yours to post" in for_bo.text and "Bo" in for_bo.text
    client.cookies.clear()


def test_the_post_page_shows_the_odds_before_posting(table):
    form = page(table, "anna", "/campaigns/bs/post", type="roll_move")
    odds = table.client.post("/campaigns/bs/post/odds", headers={**table.headers("anna"), **HTML},
                             data={"type": "roll_move", "character": "Anna", "stat": "audacity",
                                   "csrf": csrf_of(form.text)})
    assert odds.status_code == 200 and "full success" in odds.text and "41.7%" in odds.text


def test_an_auditor_dry_runs_then_applies_a_ruling_from_the_disputes_page(table):
    table.post("anna", MOVE, key="anna-1")
    form = page(table, "aud", "/campaigns/bs/disputes")
    assert form.status_code == 200 and "anna-1" in form.text
    russian = table.client.get("/campaigns/bs/disputes",
                               headers={**table.headers("aud"), **HTML, "Accept-Language": "ru"}).text
    assert re.search(r"anna-1 — Anna, ход: [^<]*→ (частичный успех|полный успех|провал)</option>", russian), russian
    ruling = {"roll": "anna-1", "reason": "misfire", "ruling": "faces", "faces": "6, 6", "key": "rule-1",
              "csrf": csrf_of(form.text)}
    dry = table.client.post("/campaigns/bs/disputes/ruling", data={**ruling, "action": "dry_run"},
                            headers={**table.headers("aud"), **HTML})
    assert dry.status_code == 200 and "Dry run" in dry.text and "<mark>" in dry.text
    assert len(table.get("aud", "/campaigns/bs/revisions").json()) == 1
    applied = table.client.post("/campaigns/bs/disputes/ruling", data={**ruling, "action": "apply"},
                                headers={**table.headers("aud"), **HTML})
    assert applied.status_code == 200 and "Applied: revision 2" in applied.text
    assert table.get("aud", "/campaigns/bs/rolls").json()[-1]["faces"] == [6, 6]
    bad = table.client.post("/campaigns/bs/disputes/ruling", data={**ruling, "faces": "six", "key": "rule-2",
                                                                   "action": "dry_run"},
                            headers={**table.headers("aud"), **HTML})
    assert bad.status_code == 422 and "faces" in bad.text


def test_campaign_dice_show_pending_until_the_chapter_ends_then_verified(table):
    table.post("anna", {"type": "roll_move", "character": "Anna", "stat": "audacity"}, key="seeded-1")
    assert "proof-pending" in page(table, "anna", "/campaigns/bs/rolls").text
    table.post("gm1", {"type": "end_chapter"})
    log = page(table, "anna", "/campaigns/bs/rolls").text
    assert "proof-verified" in log and "proof-pending" not in log
    dice = page(table, "anna", "/campaigns/bs/dice")
    assert dice.status_code == 200 and "The campaign's own dice" in dice.text and "<svg" in dice.text


def test_a_fair_tally_and_a_loaded_one():
    fair = Tally(6, [50, 50, 50, 50, 50, 50])
    loaded = Tally(6, [20, 20, 20, 20, 20, 200])
    assert fair.p_value() == pytest.approx(1.0) and "as even as fair dice" in fair.verdict()
    assert loaded.p_value() < 0.01 and "worth a look" in loaded.verdict()
    assert Tally(6, [1, 0, 0, 0, 0, 2]).p_value() is None


def test_dice_statistics_count_every_face_apart_by_source_and_roller():
    rolls = [
        {"source": "typed", "character": "Anna", "position": 5, "dice": [{"sides": 6, "faces": [6, 2], "kept": True}]},
        {"source": "hmac", "character": "Anna", "position": 9, "dice": [{"sides": 6, "faces": [1], "kept": False}]},
    ]
    timeline = [{"scope": "chapter", "label": "chapter", "number": 1, "start": 1, "end": 6}]
    stats = dice_statistics(rolls, timeline)
    assert stats["typed"]["roller"]["Anna"][0].counts == [0, 1, 0, 0, 0, 1]
    assert stats["campaign"]["roller"]["Anna"][0].counts == [1, 0, 0, 0, 0, 0]
    assert list(stats["typed"]["chapter"]) == ["chapter 1"] and list(stats["campaign"]["chapter"]) == ["outside any chapter"]


def test_dice_statistics_count_the_draws_whatever_a_face_reads_as():
    """A Fate die is drawn as a d3 and read -1, 0, +1: the draws are what a fair die is held to."""
    fate = {"source": "hmac", "character": "Ada", "faces": [1, 2, 3, 3], "sides": [3, 3, 3, 3],
            "dice": [{"sides": 3, "faces": [face - 2], "kept": True} for face in (1, 2, 3, 3)]}
    assert dice_statistics([fate], [])["campaign"]["roller"]["Ada"][0].counts == [1, 1, 2]


def test_a_sheet_is_laid_out_in_the_games_sections_with_the_rows_that_moved_marked():
    before = {"name": "Anna", "player": "anna", "stats": {"audacity": 2}, "luck": 1, "purse_piastres": 0,
              "slots": [None, None, None], "modifier": 0, "pending_light": 0}
    after = {**before, "luck": 0}
    shown = layout("pirates", "character", after, before, compare=True)
    marked = [(g.title, r.name) for g in shown.groups for r in g.rows if r.changed]
    assert marked == [("Luck and purse", "luck")] and shown.changed
    assert not layout("pirates", "character", after, before, compare=False).changed
    assert all(r.changed for g in layout("pirates", "character", after, None, compare=True).groups for r in g.rows)
