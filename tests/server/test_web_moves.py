"""A move from the sheet (issue 45), in process: a player's own card lists his moves in the book's groups;
a move opens a short form with what it decides already set; choosing a move sets the stat the book fixes
(Wild Carousing rolls Reputation, L215); each game's player form opens on what its players do most; a
command that rolls nothing asks no salt, faces or odds."""

import re

import pytest
from rollbook.domain.rulesets import available, ruleset
from rollbook.web.moves import moves_of
from rollbook.web.posting import commands_for_role

from .conftest import table_on
from .test_web_posting import HTML, HTMX, form_of, open_form, rolls, send


def page(table, user):
    answer = table.client.get("/campaigns/bs", headers={**table.headers(user), **HTML})
    assert answer.status_code == 200, answer.text
    return answer.text


def card_of(html, character):
    found = re.search(rf'<article class="sheet[^"]*" aria-label="character {character}">.*?</article>', html, re.S)
    return found.group(0)


def test_a_players_own_card_lists_his_moves_in_the_books_groups_and_no_one_elses(table):
    html = page(table, "anna")
    anna, bo = card_of(html, "Anna"), card_of(html, "Bo")
    assert "Moves of Anna" in anna and "Moves of" not in bo  # Bo is not hers to move
    assert "<h3>Common moves</h3>" in anna and "<h3>Basic</h3>" in anna
    assert '<details class="move-group"><summary>Port</summary>' in anna  # the book's later groups folded
    assert ">Wriggle Out</a>" in anna and ">Wild Carousing</a>" in anna and ">Scheme</a>" in anna
    assert ">Sale of Loot</a>" not in anna  # applied by the GM's gain_money, never rolled
    gm = page(table, "gm1")
    assert "Moves of Anna" in card_of(gm, "Anna") and "Moves of Bo" in card_of(gm, "Bo")


def test_a_move_opens_a_short_form_with_what_it_decides_set_and_posts_in_one_press(table):
    html = card_of(page(table, "anna"), "Anna")
    link = re.search(r'hx-get="(/campaigns/bs/fragments/post-fields\?[^"]*move=wild_carousing[^"]*)"', html).group(1)
    form = table.client.get(link.replace("&amp;", "&"), headers={**table.headers("anna"), **HTMX}).text
    assert "<h4>Anna · Wild Carousing (L212) · Reputation -1</h4>" in form and 'name="character" value="Anna"' in form
    # The stat the book fixes is the only one offered: no chance of "rolls 2d6 + reputation, not guile".
    assert '<input type="hidden" name="stat" value="reputation">' in form and '<select id="card-0-f-stat"' not in form
    assert 'name="ship"' not in form  # the campaign's one ship needs no choosing
    assert "Luck bonus (luck held: 1)" in form and "dice rolled elsewhere" in form and 'name="salt"' in form
    before = len(rolls(table))
    posted = send(table, "anna", form_of_card(form) | {"salt": "anna's own", "luck_bonus": "true"})
    assert posted.headers["X-Rollbook-Status"] == "201", posted.text
    assert rolls(table)[-1]["purpose"] == "move:wild_carousing" and rolls(table)[-1]["stat"] == "reputation"
    assert len(rolls(table)) == before + 1
    again = form_of_card(posted.text)  # the answer is the same short form, ready for the next press
    assert again["move"] == "wild_carousing" and again["character"] == "Anna" and again["card"].startswith("card-")
    line = re.search(r'<textarea id="forum-[^"]*-text" readonly rows="4">(.*?)</textarea>', posted.text, re.S).group(1)
    assert "Wild Carousing" in line and "Rollbook · bs" in line  # the line to paste, as `rollbook line` tells it
    assert '<ul class="changes"><li>Anna: luck 1 → 0</li></ul>' in posted.text  # what changed on her sheet


def test_a_russian_page_says_what_changed_in_the_games_words_and_the_line_in_the_campaigns(table):
    """The answer beside the form is the reader's (фарт, L38); the line to paste is the group's, the campaign's
    language (English here)."""
    russian = {**HTMX, "Accept-Language": "ru"}
    form = table.client.get("/campaigns/bs/fragments/post-fields", headers={**table.headers("anna"), **russian},
                            params={"type": "roll_move", "character": "Anna", "stat": "guile"}).text
    posted = send(table, "anna", form_of(form) | {"salt": "anna's own", "luck_bonus": "true"}, headers=russian)
    assert posted.headers["X-Rollbook-Status"] == "201", posted.text
    assert '<ul class="changes"><li>Anna: фарт 1 → 0</li></ul>' in posted.text
    line = re.search(r'<textarea id="forum-[^"]*-text" readonly rows="4">(.*?)</textarea>', posted.text, re.S).group(1)
    assert "\nAnna: luck 1 → 0\n" in line


def form_of_card(html):
    return form_of(html.replace(re.search(r'<form id="card-\d-post"', html).group(0), '<form id="post-fields"'))


def test_choosing_a_move_on_the_post_page_sets_its_stat(table):
    redrawn = table.client.get("/campaigns/bs/fragments/post-fields", headers={**table.headers("anna"), **HTMX},
                               params={"type": "roll_move", "character": "Anna", "stat": "guile",
                                       "move": "wild_carousing"})
    assert '<option value="reputation" selected>Reputation -1</option>' in redrawn.text
    assert "Guile" not in re.search(r'name="stat".*?</select>', redrawn.text, re.S).group(0)
    assert re.search(r'<select id="f-move" name="move"[^>]*hx-get=', redrawn.text)  # choosing a move redraws


def test_a_refusal_on_a_card_is_beside_the_luck_bonus_in_words(table):
    assert table.post("anna", {"type": "roll_move", "character": "Anna", "stat": "guile", "luck_bonus": True,
                               "dice": [1, 2]}).status_code == 201
    html = card_of(page(table, "anna"), "Anna")
    link = re.search(r'hx-get="(/campaigns/bs/fragments/post-fields\?[^"]*move=wriggle_out[^"]*)"', html).group(1)
    form = form_of_card(table.client.get(link.replace("&amp;", "&"), headers={**table.headers("anna"), **HTMX}).text)
    refused = send(table, "anna", form | {"luck_bonus": "true", "stat": "guile"})
    assert refused.headers["X-Rollbook-Status"] == "422"
    beside = re.search(r'<div class="field field-checkbox invalid">.*?</div>', refused.text, re.S).group(0)
    assert 'name="luck_bonus"' in beside and "Anna has 0 luck" in beside and "roll_bonus" not in refused.text
    assert re.search(r'name="luck_bonus" type="checkbox" value="true" checked', refused.text)  # kept as typed
    assert '<option value="guile" selected>' in refused.text


@pytest.mark.parametrize("ruleset_name", available())
def test_each_games_player_form_opens_on_what_its_players_do_most(ruleset_name, rollbook_store):
    table = table_on(rollbook_store, posts_per_minute=0)
    with table.client:
        assert table.post("gm1", {"type": "create_campaign", "ruleset": ruleset_name}, campaign="g").status_code == 201
        table.client.put("/campaigns/g/members/anna", json={"role": "player"}, headers=table.headers("gm1"))
        opened = table.client.get("/campaigns/g/post", headers={**table.headers("anna"), **HTML}).text
        usual = ruleset(ruleset_name).common_moves[0][1]
        assert f'<input type="hidden" name="type" value="{usual}">' in opened
        assert "all_out_defence" not in re.search(r'name="type" value="[^"]*"', opened).group(0)
        models = commands_for_role(ruleset_name, "player")
        assert moves_of(ruleset_name, models)[0][0] == "Common moves"


def test_a_command_that_rolls_nothing_asks_no_salt_faces_or_odds(table):
    luck = open_form(table, "anna", type="spend_luck").text
    assert 'name="salt"' not in luck and 'name="dice"' not in luck and "/post/odds" not in luck
    move = open_form(table, "anna", type="roll_move").text
    assert 'name="salt"' in move and 'name="dice"' in move and "/post/odds" in move


def test_the_gms_forms_ask_lists_as_lists_and_names_with_their_numbers_without_json(rollbook_store):
    table = table_on(rollbook_store, posts_per_minute=0)
    with table.client:
        assert table.post("gm1", {"type": "create_campaign", "ruleset": "heroes"}, campaign="h").status_code == 201
        form = table.client.get("/campaigns/h/fragments/post-fields", headers={**table.headers("gm1"), **HTMX},
                                params={"type": "create_character", "talents#0:name": "Science", "talents#0:value": "3",
                                        "perks#0": "Rich", "more": "perks"}).text
        assert "(as JSON)" not in re.search(r'<legend>Talents</legend>.*?</fieldset>', form, re.S).group(0)
        assert re.search(r'name="talents#0:value" type="number"[^>]*value="3"', form)
        assert 'name="perks#0" type="text" value="Rich"' in form and 'name="perks#2"' in form  # one more asked
        assert 'name="powers#0:value" type="number"' in form  # a Power's rank, a number
        fields = form_of(form.replace('id="post-fields"', 'id="post-fields"')) | {
            "name": "Nova", "player": "anna", "talents#1:name": "Flight", "talents#1:value": "2",
            "perks#1": "Famous", "powers#0:name": "Blast", "powers#0:value": "4"}
        abilities = ("strength", "agility", "stamina", "intellect", "perception", "will")
        fields = {k: v for k, v in fields.items() if v != ""} | {f"abilities.{a}": "3" for a in abilities}
        posted = send_to(table, "h", fields)
        assert posted.headers["X-Rollbook-Status"] == "201", posted.text
        nova = table.get("gm1", "/campaigns/h/sheets/Nova").json()
        assert nova["talents"] == {"Science": 3, "Flight": 2} and nova["powers"] == {"Blast": 4}
        assert nova["perks"] == ["Rich", "Famous"]
        unnamed = send_to(table, "h", fields | {"name": "Vega", "talents#2:value": "5", "key": "k-unnamed"})
        assert unnamed.headers["X-Rollbook-Status"] == "422" and "give both the name and its value" in unnamed.text


def send_to(table, campaign, fields):
    return table.client.post(f"/campaigns/{campaign}/post", data=fields, headers={**table.headers("gm1"), **HTMX})


def card_form(table, user, character, move):
    html = card_of(page(table, user), character)
    link = re.search(rf'hx-get="(/campaigns/bs/fragments/post-fields\?[^"]*move={move}[^"]*)"', html).group(1)
    return form_of_card(table.client.get(link.replace("&amp;", "&"), headers={**table.headers(user), **HTMX}).text)


def test_a_card_form_changed_to_name_someone_elses_character_is_refused_and_stores_nothing(table):
    form = card_form(table, "anna", "Anna", "wriggle_out")
    before = len(rolls(table))
    for crafted in ({"character": "Bo"}, {"character": "Bo", "decided": "move"}):
        refused = send(table, "anna", form | crafted | {"key": f"k-{len(crafted)}"})
        assert refused.headers["X-Rollbook-Status"] == "403", refused.text
        assert "Not yours to post" in refused.text
    assert len(rolls(table)) == before


def test_moves_from_the_card_on_the_campaigns_own_dice_verify_once_the_chapter_ends(table):
    for move, salt in (("wriggle_out", "a"), ("lie_low", "b"), ("wild_carousing", "")):
        posted = send(table, "anna", card_form(table, "anna", "Anna", move) | {"salt": salt})
        assert posted.headers["X-Rollbook-Status"] == "201", posted.text
    assert [r.get("salt") for r in rolls(table)[-3:]] == ["a", "b", None]
    assert table.post("gm1", {"type": "end_chapter"}).status_code == 201  # the chapter's seed is revealed
    (report,) = table.get("aud", "/campaigns/bs/verify").json().values()
    assert report["findings"] == [] and report["rolls_checked"] >= 3 and report["seeds_revealed"] >= 1


def test_the_cards_moves_go_with_a_step_back_and_come_back_at_the_last(table):
    def fragment(step):
        return table.client.get("/campaigns/bs/fragments/sheets", params={"step": step},
                                headers={**table.headers("anna"), **HTMX}).text

    assert "Moves of Anna" not in fragment(0)  # the past is read, not played
    assert "Moves of Anna" in fragment(3) and "Moves of Anna" in fragment(99)


def test_a_card_form_drawn_before_the_seed_was_rotated_is_refused_and_a_new_one_posts(table):
    """Issue 44: the card's move form carries the seed it was drawn under; the GM's rotation before the post is
    stored vetoes it in words (the seed changed), nothing stored; the card's form drawn again posts."""
    drawn = card_form(table, "anna", "Anna", "wriggle_out") | {"salt": "anna's card salt"}
    assert re.fullmatch(r"[0-9a-f]{64}", drawn["commitment"])
    assert table.post("gm1", {"type": "rotate_seed"}, key="turned").status_code == 201
    before = len(rolls(table))
    refused = send(table, "anna", drawn)
    assert refused.headers["X-Rollbook-Status"] == "422" and "the seed changed by command turned" in refused.text
    assert len(rolls(table)) == before
    posted = send(table, "anna", card_form(table, "anna", "Anna", "wriggle_out") | {"salt": "anna's card salt"})
    assert posted.headers["X-Rollbook-Status"] == "201", posted.text
    assert len(rolls(table)) == before + 1 and rolls(table)[-1]["commitment"] != drawn["commitment"]
