"""The post form in process (FastAPI's TestClient): every post is answered with the form again and
the next post's key; refusals beside their field; each status in words; the form from the game."""

import html
import re
import sqlite3

import pytest
from rollbook.commands.catalogue import commands_for
from rollbook.web.posting import commands_for_role
from rollbook.domain.rulesets import available
from rollbook.web import posting

from .conftest import table_on

HTML = {"Accept": "text/html"}
HTMX = {"HX-Request": "true", "Accept": "text/html"}


def form_of(html):
    """The post form's inputs as the browser would send them (checked boxes and chosen options only)."""
    form = re.search(r'<form id="post-fields".*?</form>', html, re.S).group(0)
    fields = {}
    for tag in re.findall(r"<input[^>]*>", form):
        name = re.search(r'name="([^"]+)"', tag)
        value = re.search(r'value="([^"]*)"', tag)
        if name and ('type="checkbox"' not in tag or " checked" in tag):
            fields[name.group(1)] = value.group(1).replace("&#34;", '"') if value else ""
    for name, body in re.findall(r'<select[^>]*name="([^"]+)"[^>]*>(.*?)</select>', form, re.S):
        chosen = re.search(r'<option value="([^"]*)" selected>', body) or re.search(r'<option value="([^"]*)"', body)
        fields[name] = chosen.group(1) if chosen else ""
    return fields


def open_form(table, user, **params):
    answer = table.client.get("/campaigns/bs/post", headers={**table.headers(user), **HTML}, params=params)
    assert answer.status_code == 200, answer.text
    return answer


def send(table, user, fields, headers=HTMX):
    return table.client.post("/campaigns/bs/post", data=fields, headers={**table.headers(user), **headers})


def rolls(table):
    return table.get("gm1", "/campaigns/bs/rolls").json()


def test_two_posts_in_a_row_from_one_page_each_with_a_new_key(table):
    for round in range(2):  # the flow twice in a row, on the same table; a salt is used once (issue 44)
        page = open_form(table, "anna", type="roll_move")
        before = len(rolls(table))
        first = form_of(page.text) | {"stat": "guile", "salt": f"first salt {round}"}
        posted = send(table, "anna", first)
        assert posted.status_code == 200 and posted.headers["X-Rollbook-Status"] == "201"
        assert 'role="status"' in posted.text and "Anna" in posted.text and "See the roll" in posted.text
        assert 'class="die' in posted.text and "proof-pending" in posted.text
        second = form_of(posted.text)
        assert second["key"] != first["key"] and second["type"] == "roll_move" and second["character"] == "Anna"
        assert second["stat"] == "guile"  # the same choices again; the salt is the browser's to fill anew
        again = send(table, "anna", second | {"salt": f"second salt {round}"})
        assert again.headers["X-Rollbook-Status"] == "201" and form_of(again.text)["key"] not in (first["key"], second["key"])
        assert len(rolls(table)) == before + 2


def test_a_double_click_posts_once(table):
    for _ in range(2):
        fields = form_of(open_form(table, "anna", type="roll_move").text) | {"dice": "3, 4"}
        before = len(rolls(table))
        one, two = send(table, "anna", fields), send(table, "anna", fields)
        assert one.headers["X-Rollbook-Status"] == two.headers["X-Rollbook-Status"] == "201"
        assert "already stored" in two.text and len(rolls(table)) == before + 1
        assert re.fullmatch(r"anna-\d+", rolls(table)[-1]["id"])  # one a person can say, the same for both


def test_a_refusal_is_shown_beside_its_field_with_the_form_kept_as_filled_in(table):
    for _ in range(2):
        fields = form_of(open_form(table, "anna", type="roll_move").text) | {"dice": "3, 4, nine"}
        refused = send(table, "anna", fields)
        assert refused.status_code == 200 and refused.headers["X-Rollbook-Status"] == "422"
        field = re.search(r'<div class="field field-faces invalid">.*?</div>', refused.text, re.S).group(0)
        assert "give whole numbers" in field and 'aria-invalid="true"' in field
        assert '<details class="more dice-elsewhere" open>' in refused.text and 'value="3, 4, nine"' in refused.text
    spent = table.post("anna", {"type": "roll_move", "character": "Anna", "stat": "guile", "luck_bonus": True, "dice": [1, 2]})
    assert spent.status_code == 201, spent.text  # her one luck spent
    fields = form_of(open_form(table, "anna", type="roll_move").text) | {"luck_bonus": "true", "dice": "3, 4"}
    no_luck = send(table, "anna", fields)
    assert no_luck.headers["X-Rollbook-Status"] == "422" and "0 luck" in no_luck.text
    # Beside the luck bonus, the choice that spends it, in the game's words (issue 45): not beside the character.
    beside = re.search(r'<div class="field field-checkbox invalid">.*?</div>', no_luck.text, re.S).group(0)
    assert 'name="luck_bonus"' in beside and "Anna has 0 luck and cannot spend 1 for +1 on his own move" in beside
    assert "roll_bonus" not in no_luck.text and "luck held: 0" in beside
    assert re.search(r'name="luck_bonus" type="checkbox" value="true" checked', no_luck.text)  # kept as filled in


def test_without_scripts_the_answer_is_the_whole_page_with_the_commands_status(table):
    fields = form_of(open_form(table, "anna", type="roll_move").text) | {"dice": "3, 4"}
    applied = send(table, "anna", fields, headers=HTML)
    assert applied.status_code == 201 and "<h1>Post a move" in applied.text and form_of(applied.text)["key"] != fields["key"]
    refused = send(table, "anna", form_of(applied.text) | {"dice": "x"}, headers=HTML)
    assert refused.status_code == 422 and "<h1>Post a move" in refused.text


def test_a_403_and_a_412_are_told_in_words(table):
    fields = form_of(open_form(table, "anna", type="roll_move").text) | {"dice": "3, 4", "if_unchanged": "true"}
    table.post("gm1", {"type": "take_damage", "character": "Bo", "harm": 1})  # someone posts meanwhile
    moved = send(table, "anna", fields)
    assert moved.headers["X-Rollbook-Status"] == "412" and "The campaign changed since this form was shown" in moved.text
    fresh = form_of(moved.text)
    assert fresh["version"] != fields["version"] and fresh["if_unchanged"] == "true"
    assert send(table, "anna", fresh).headers["X-Rollbook-Status"] == "201"  # the new version holds
    assert table.client.put("/campaigns/bs/members/anna", json={"role": "auditor"},
                            headers=table.headers("gm1")).status_code == 200
    revoked = send(table, "anna", fresh | {"key": "after-revoking"})
    assert revoked.status_code == 200 and revoked.headers["X-Rollbook-Status"] == "403"
    assert "Not yours to post" in revoked.text and "auditor" in revoked.text and "ask the GM" in revoked.text


def test_a_stale_form_under_the_session_cookie_is_told_to_reload(table):
    client = table.client
    client.cookies.clear()
    assert client.post("/sign-in", data={"token": table.tokens["anna"]}, follow_redirects=False).status_code == 303
    page = client.get("/campaigns/bs/post", params={"type": "roll_move"}, headers=HTML)
    stale = client.post("/campaigns/bs/post", data=form_of(page.text) | {"csrf": "0" * 64}, headers=HTMX)
    assert stale.headers["X-Rollbook-Status"] == "403" and "This form is stale" in stale.text and "Reload" in stale.text
    client.cookies.clear()


def test_too_many_posts_and_a_failed_store_keep_the_key(table, monkeypatch):
    limit = table.state.rate_limit
    monkeypatch.setattr(limit, "per_minute", 1)
    monkeypatch.setattr(limit, "burst", 1)
    fields = form_of(open_form(table, "anna", type="roll_move").text) | {"dice": "3, 4"}
    next_one = form_of(send(table, "anna", fields).text)  # the bucket is empty now
    busy = send(table, "anna", next_one | {"dice": "5, 5"})
    assert busy.headers["X-Rollbook-Status"] == "429" and "Too many posts" in busy.text
    assert form_of(busy.text)["key"] == next_one["key"] and "Wait" in busy.text
    monkeypatch.setattr(limit, "per_minute", 0)

    def failing(*_, **__):
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(posting, "post_command", failing)
    for _ in range(2):
        failed = send(table, "anna", next_one)
        assert failed.headers["X-Rollbook-Status"] == "503" and "disk I/O error" in failed.text
        assert form_of(failed.text)["key"] == next_one["key"] and "stored once" in failed.text


def test_the_form_is_the_games_not_the_schemas(table):
    player = open_form(table, "anna", type="roll_move").text
    assert 'type="checkbox" value="true"' in player and 'name="luck_bonus"' in player
    assert "Audacity +2" in player and "Reputation -1" in player
    assert '<option value="wriggle_out">Wriggle Out (L23)</option>' in player
    assert 'name="disadvantage"' not in player  # the GM's alone
    assert "not even the GM" in player
    assert player.index("<summary>More: dice rolled elsewhere") > player.index('name="stat"')
    assert player.index('name="move"') < player.index('name="stat"')  # the move first: it may decide the stat
    gm = open_form(table, "gm1", type="roll_move").text
    assert 'name="disadvantage"' in gm and '<option value="Bo"' in gm and "did not choose them" in gm
    damage = open_form(table, "gm1", type="take_damage").text
    assert re.search(r'name="harm" type="number"[^>]*min="', damage)


def test_the_gms_form_opens_on_his_most_common_command_and_never_on_the_seed(table):
    assert '<input type="hidden" name="type" value="create_character">' in open_form(table, "gm1").text
    for harm in (1, 1):
        table.post("gm1", {"type": "take_damage", "character": "Bo", "harm": harm})
    table.post("gm1", {"type": "take_damage", "character": "Anna", "harm": 1})
    assert '<input type="hidden" name="type" value="take_damage">' in open_form(table, "gm1").text
    assert '<input type="hidden" name="type" value="roll_move">' in open_form(table, "anna").text


@pytest.mark.parametrize("ruleset", available())
def test_every_command_of_every_ruleset_gets_a_form(ruleset, rollbook_store):
    table = table_on(rollbook_store, posts_per_minute=0)
    with table.client:
        assert table.post("gm1", {"type": "create_campaign", "ruleset": ruleset}, campaign="other").status_code == 201
        for name in commands_for_role(ruleset, "gm"):
            answer = table.client.get("/campaigns/other/fragments/post-fields", params={"type": name},
                                      headers={**table.headers("gm1"), **HTML})
            assert answer.status_code == 200 and f'name="type" value="{name}"' in answer.text, name


def test_choosing_another_character_redraws_the_form_with_his_stats_keeping_what_was_filled(table):
    redrawn = table.client.get("/campaigns/bs/fragments/post-fields", headers={**table.headers("gm1"), **HTMX},
                               params={"type": "roll_move", "character": "Bo", "luck_bonus": "true", "key": "k-same"})
    assert '<option value="Bo" selected>' in redrawn.text and 'value="k-same"' in redrawn.text
    assert re.search(r'name="luck_bonus" type="checkbox" value="true" checked', redrawn.text)


def test_the_favicon_and_the_pages_script_are_served(table):
    icon = table.client.get("/favicon.ico")
    assert icon.status_code == 200 and icon.headers["content-type"].startswith("image/svg+xml")
    assert table.client.get("/static/rollbook.js").status_code == 200
    assert '<link rel="icon"' in open_form(table, "anna").text


def test_a_roll_is_chosen_among_the_recent_rolls_and_a_trait_shows_its_die():
    from rollbook.web import post_form

    told = post_form.recent_rolls([{"id": "a-1", "character": "Anna", "purpose": "move:guile", "total": 9,
                                    "outcome": "partial_success"}, {"id": "a-2", "actor": "gm", "total": 4}])
    assert told == [("a-2", "gm — roll 4 (a-2)"), ("a-1", "Anna — move:guile 9, partial success (a-1)")]
    sheet = {"attributes": {"agility": "d8"}, "skills": {"fighting": "d6"}, "wounds": 1}
    assert post_form._labelled(["agility", "fighting", "stealth"], sheet) == [
        ("agility", "Agility d8"), ("fighting", "Fighting d6"), ("stealth", "Stealth")]


def test_the_roll_to_close_is_a_choice_among_recent_rolls(table):
    table.post("anna", {"type": "roll_move", "character": "Anna", "stat": "guile", "dice": [3, 4]}, key="open-1")
    form = open_form(table, "gm1", type="close_roll").text
    assert re.search(r'<option value="open-1"[^>]*>Anna — move:guile 8, partial success \(open-1\)</option>', form)


def test_a_ruleset_that_declares_no_form_still_gets_one_from_its_models():
    from typing import Annotated, Literal

    from pydantic import BaseModel, Field
    from rollbook.commands.base import Command
    from rollbook.commands.ownership import GM_ONLY, Own
    from rollbook.web import post_form

    class Gear(BaseModel):
        rope: int = Field(ge=0, le=3)

    class Climb(Command):  # a plugin's command, as its own package would write it
        type: Literal["climb"] = "climb"
        climber: Own
        approach: Literal["careful", "bold"]
        roped: bool = False
        metres: int = Field(default=1, ge=1, le=50)
        gear: Gear | None = None
        bonus: Annotated[int, GM_ONLY] = 0
        trait: str | None = None
        notes: list[str] = []
        anchors: list[Gear] = []  # a list of objects: asked row by row, part by part
        plan: dict[str, list[Gear]] = {}  # more than one input to a part: asked as JSON

    offer = dict(actable=["Ada"], ships=[], players=["ada"], user="ada",
                 sheets={"Ada": {"approaches": {"careful": 2, "bold": -1}, "skills": {"ropework": "d8"}}})
    rows, dice = post_form.build(Climb, post_form.Offer(role="player", **offer))
    kinds = {row.name: row.kind for row in rows}
    assert kinds == {"climber": "choice", "approach": "choice", "roped": "checkbox", "metres": "number",
                     "gear": "group", "trait": "text", "notes": "list", "anchors": "list", "plan": "json"} and dice.kind == "faces"
    by_name = {row.name: row for row in rows}
    assert by_name["climber"].choices == [("Ada", "Ada")] and by_name["climber"].value == "Ada"
    assert by_name["approach"].choices == [("careful", "Careful +2"), ("bold", "Bold -1")]
    assert (by_name["metres"].minimum, by_name["metres"].maximum) == (1, 50)
    assert by_name["trait"].suggestions == ["careful", "bold", "ropework"]
    gm_rows, _ = post_form.build(Climb, post_form.Offer(role="gm", **offer))
    assert "bonus" in {row.name for row in gm_rows}
    body = post_form.read(rows, dice, {"climber": "Ada", "approach": "bold", "roped": "true", "metres": "12",
                                       "gear.rope": "2", "notes#0": "a", "anchors#0.rope": "1", "plan": '{"up": [{"rope": 3}]}',
                                       "dice": "4, 5"})
    assert body == {"climber": "Ada", "approach": "bold", "roped": True, "metres": 12, "gear": {"rope": 2},
                    "notes": ["a"], "anchors": [{"rope": 1}], "plan": {"up": [{"rope": 3}]}, "dice": [4, 5]}
    with pytest.raises(post_form.FormValueError, match="outside 1…50") as refused:
        post_form.read(rows, dice, {"metres": "99"})
    assert refused.value.field == "metres"


def test_every_command_a_player_may_issue_gets_his_form(table):
    offered = posting.commands_for_role("pirates", "player")
    assert "abandon_seed" not in offered and "roll_move" in offered
    for name in offered:
        answer = table.client.get("/campaigns/bs/fragments/post-fields", params={"type": name},
                                  headers={**table.headers("anna"), **HTML})
        assert answer.status_code == 200 and f'name="type" value="{name}"' in answer.text, name
        assert 'value="Bo"' not in answer.text and 'name="purse_piastres"' not in answer.text, name


def test_after_a_ruling_the_form_posts_to_the_current_revision(table):
    table.post("anna", {"type": "roll_move", "character": "Anna", "stat": "guile", "dice": [1, 1]}, key="ruled-1")
    disputes = table.client.get("/campaigns/bs/disputes", headers={**table.headers("aud"), **HTML})
    csrf = re.search(r'name="csrf" value="([0-9a-f]+)"', disputes.text).group(1)
    ruling = table.client.post("/campaigns/bs/disputes/ruling", headers={**table.headers("aud"), **HTML}, data={
        "roll": "ruled-1", "reason": "misfire", "ruling": "faces", "faces": "6, 6", "key": "rule-1",
        "csrf": csrf, "action": "apply"})
    assert "Applied: revision 2" in ruling.text
    for _ in range(2):
        fields = form_of(open_form(table, "anna", type="roll_move").text) | {"dice": "2, 2"}
        posted = send(table, "anna", fields)
        assert posted.headers["X-Rollbook-Status"] == "201", posted.text
    assert len(rolls(table)) == 3 and rolls(table)[0]["faces"] == [6, 6]  # the ruling stands, both posts after it


def test_the_command_a_form_opens_on_is_counted_over_recent_play():
    from rollbook.web.post_form import RECENT_PLAY, default_type

    types = ["abandon_seed", "create_character", "roll_move", "take_damage"]
    setting_up = [{"type": "create_character", "actor": "gm"}] * (RECENT_PLAY + 5)
    playing = ([{"type": "take_damage", "actor": "gm"}] * 3 + [{"type": "roll_move", "actor": "player:anna"}] * 2) * 50
    assert default_type(types, setting_up + playing, "gm") == "take_damage"
    assert default_type(types, setting_up + playing, "player") == "roll_move"
    assert default_type(types, [{"type": "abandon_seed", "actor": "gm"}] * 9, "gm") == "create_character"
    assert default_type(["abandon_seed", "rotate_seed"], [], "gm") == "abandon_seed"  # nothing else to offer


def test_a_salted_roll_from_a_form_shown_before_another_post_is_applied(table):
    """Issue 45: in play-by-post a form is almost always stale; the pages send no `seen`, so a post is
    never refused for someone else's. Only "only if nothing changed" (If-Match) refuses it, in words."""
    for turn in range(2):
        salt = f"anna's salt {turn}"  # a salt is used once (issue 44)
        stale = form_of(open_form(table, "anna", type="roll_move").text) | {"stat": "guile", "salt": salt}
        table.post("gm1", {"type": "roll_move", "character": "Bo", "stat": "guile", "dice": [3, 3]})  # posted first
        before = len(rolls(table))
        posted = send(table, "anna", stale)
        assert posted.headers["X-Rollbook-Status"] == "201", posted.text
        assert re.fullmatch(r"anna-\d+", rolls(table)[-1]["id"]) and rolls(table)[-1]["salt"] == salt
        assert len(rolls(table)) == before + 1
    asked = form_of(open_form(table, "anna", type="roll_move").text) | {"salt": "s", "if_unchanged": "true"}
    table.post("gm1", {"type": "roll_move", "character": "Bo", "stat": "guile", "dice": [3, 3]})
    refused = send(table, "anna", asked)
    assert refused.headers["X-Rollbook-Status"] == "412" and "post again" in refused.text
    assert "seen" not in refused.text


def test_a_salt_used_once_is_refused_from_the_form_naming_the_command_that_used_it(table):
    """A salt is used once per seed (issue 44): a second post with it is refused in words, nothing stored."""
    fields = form_of(open_form(table, "anna", type="roll_move").text) | {"stat": "guile", "salt": "anna's salt"}
    assert send(table, "anna", fields).headers["X-Rollbook-Status"] == "201"
    used, before = rolls(table)[-1]["id"], len(rolls(table))
    again = form_of(open_form(table, "anna", type="roll_move").text) | {"stat": "guile", "salt": "anna's salt"}
    refused = send(table, "anna", again)
    assert refused.headers["X-Rollbook-Status"] == "422"
    assert f"used under this seed by command {used}" in html.unescape(refused.text)
    assert len(rolls(table)) == before  # nothing stored


def test_a_form_drawn_before_the_seed_was_rotated_is_refused_and_a_fresh_form_posts(table):
    """Issue 44: the GM who sees a salt arrive and rotates the seed before it is stored can only veto the roll.
    The form carries the seed it was drawn under (hidden `commitment`); the post is refused in words, at the top
    (no field of the form is named), nothing stored; the form drawn again carries the new seed and posts."""
    drawn = form_of(open_form(table, "anna", type="roll_move").text) | {"stat": "guile", "salt": "anna's salt"}
    assert re.fullmatch(r"[0-9a-f]{64}", drawn["commitment"])
    rotated = table.post("gm1", {"type": "rotate_seed"}, key="turned")
    assert rotated.status_code == 201, rotated.text
    before = len(rolls(table))
    refused = send(table, "anna", drawn)
    assert refused.headers["X-Rollbook-Status"] == "422"
    words = html.unescape(refused.text)
    assert "the seed changed by command turned" in words and "post again with a new salt" in words
    assert 'class="field field-choice invalid"' not in refused.text  # beside nothing: the answer's own line
    assert len(rolls(table)) == before  # nothing stored
    again = form_of(refused.text)
    assert again["commitment"] != drawn["commitment"] and again.get("salt", "") == ""  # a new seed, a new salt
    posted = send(table, "anna", again | {"salt": "anna's salt"})  # the salt is free again under the new seed
    assert posted.headers["X-Rollbook-Status"] == "201", posted.text
    assert rolls(table)[-1]["commitment"] == again["commitment"] and len(rolls(table)) == before + 1


def test_a_salted_double_click_posts_once_and_typed_faces_are_not_bound_to_the_form(table):
    fields = form_of(open_form(table, "anna", type="roll_move").text) | {"salt": "one salt"}
    before = len(rolls(table))
    one, two = send(table, "anna", fields), send(table, "anna", fields)
    assert one.headers["X-Rollbook-Status"] == two.headers["X-Rollbook-Status"] == "201"
    assert "already stored" in two.text and len(rolls(table)) == before + 1
    typed = form_of(open_form(table, "anna", type="roll_move").text) | {"dice": "2, 5", "salt": "ignored"}
    table.post("gm1", {"type": "roll_move", "character": "Bo", "stat": "guile", "dice": [3, 3]})
    assert send(table, "anna", typed).headers["X-Rollbook-Status"] == "201"  # faces rolled elsewhere: nothing to shift


def test_a_damaged_version_matters_only_to_a_post_that_asks_nothing_changed(table):
    fields = form_of(open_form(table, "anna", type="roll_move").text) | {"salt": "s", "version": "r1.x"}
    before = len(rolls(table))
    assert send(table, "anna", fields).headers["X-Rollbook-Status"] == "201"
    refused = send(table, "anna", fields | {"key": "another", "if_unchanged": "true"})
    assert refused.headers["X-Rollbook-Status"] == "422" and "If-Match" in refused.text
    assert len(rolls(table)) == before + 1


def test_a_recent_roll_is_said_in_the_pages_language_by_the_books_name():
    from rollbook.language import speaking
    from rollbook.web import post_form

    rolls = [{"id": "a-1", "character": "Anna", "purpose": "move:wriggle_out", "total": 9, "outcome": "partial_success"},
             {"id": "a-2", "actor": "gm", "total": 4}]
    with speaking("ru"):
        told = post_form.recent_rolls(rolls, "pirates")
    assert told == [("a-2", "gm — бросок 4 (a-2)"), ("a-1", "Anna — ход: Выкрутиться 9, частичный успех (a-1)")]
    assert post_form.recent_rolls(rolls, "pirates")[1] == ("a-1", "Anna — move:wriggle_out 9, partial success (a-1)")
