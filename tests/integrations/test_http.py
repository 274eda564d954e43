"""The GM's HTTP equivalents: bind, link, link codes, the slash commands, webhooks, status, and the forum lines."""

from .support import MEMBERS, move, rb


def test_bind_and_status_are_the_gms(thread):
    table = thread.table
    refused = table.client.put("/campaigns/bs/discord", json={"channel": "1300000000000000005"},
                               headers=table.headers("anna"))
    assert refused.status_code == 403
    bad = table.client.put("/campaigns/bs/discord", json={"channel": 13}, headers=table.headers("gm1"))
    assert bad.status_code == 422 and bad.json()["error"]["field"] == "body.channel"
    bound = table.client.put("/campaigns/bs/discord", json={"channel": "1300000000000000005"},
                             headers=table.headers("gm1"))
    assert bound.status_code == 200 and bound.json()["channel"] == "1300000000000000005"
    shown = table.get("anna", "/campaigns/bs/discord").json()
    assert shown["channel"] == "1300000000000000005" and shown["backlog"] == 0
    assert table.get("carl", "/campaigns/bs/discord").status_code == 403
    assert table.client.delete("/campaigns/bs/discord", headers=table.headers("gm1")).json()["channel"] is None


def test_the_gm_links_his_members_and_a_player_no_one(thread):
    table = thread.table
    linked = table.client.put("/campaigns/bs/members/bo/discord", json={"discord": "1400000000000000022"},
                              headers=table.headers("gm1"))
    assert linked.status_code == 200
    said = thread.send(move("pirates-move", member="1400000000000000022", character="Bo", stat="guile")).json()
    assert "`bo-1`" in said["data"]["content"] and "flags" not in said["data"]
    for user, headers in (("bo", table.headers("anna")), ("carl", table.headers("gm1"))):
        answer = table.client.put(f"/campaigns/bs/members/{user}/discord", json={"discord": MEMBERS["anna"]},
                                  headers=headers)
        assert answer.status_code in (403, 404), answer.text
    assert table.client.post("/campaigns/bs/members/bo/discord-code", headers=table.headers("anna")).status_code == 403


def test_a_user_gets_his_own_link_code_and_links_himself_in_discord(thread):
    table = thread.table
    assert table.client.post("/discord/link-code").status_code == 401
    code = table.client.post("/discord/link-code", headers=table.headers("carl")).json()
    assert code["user"] == "carl"
    assert "**carl**" in thread.send(rb("link", code=code["code"], member="1400000000000000066")).json()["data"]["content"]
    gm_made = table.client.post("/campaigns/bs/members/bo/discord-code", headers=table.headers("gm1")).json()
    assert gm_made["user"] == "bo" and gm_made["code"] != code["code"]


def test_the_slash_commands_and_webhooks_over_http(thread):
    table = thread.table
    assert table.client.get("/discord/commands").status_code == 401
    assert table.get("anna", "/discord/commands").json()[0]["name"] == "rb"
    assert table.client.post("/campaigns/bs/webhooks", json={"url": "https://b.example.org/h"},
                             headers=table.headers("anna")).status_code == 403
    made = table.client.post("/campaigns/bs/webhooks", json={"url": "https://b.example.org/h"},
                             headers=table.headers("gm1"))
    assert made.status_code == 201 and len(made.json()["secret"]) == 64
    listed = table.get("gm1", "/campaigns/bs/webhooks").json()
    assert listed == [{k: v for k, v in made.json().items() if k != "secret"}]
    assert table.client.post("/campaigns/bs/webhooks", json={"url": "file:///etc/passwd"},
                             headers=table.headers("gm1")).status_code == 422
    gone = table.client.delete(f"/campaigns/bs/webhooks/{made.json()['id']}", headers=table.headers("gm1"))
    assert gone.status_code == 200 and table.get("gm1", "/campaigns/bs/webhooks").json() == []


def test_a_commands_forum_lines_for_its_members(thread):
    table = thread.table
    rolled = table.post("anna", {"type": "roll_move", "character": "Anna", "stat": "guile", "salt": "p 1"}, key="mine")
    assert rolled.status_code == 201
    for form, mark in (("text", "roll mine:"), ("markdown", "**Anna"), ("bbcode", "[b]Anna")):
        answer = table.get("bo", "/campaigns/bs/lines/mine", format=form).json()
        assert answer["format"] == form and mark in answer["text"] and 'salt' in answer["text"]
    page = table.client.get("/campaigns/bs/lines/mine", headers={**table.headers("anna"), "Accept": "text/html"})
    assert page.status_code == 200 and "Copy bbcode" in page.text and "[b]Anna" in page.text
    assert table.get("anna", "/campaigns/bs/lines/nope").status_code == 404
    assert table.get("anna", "/campaigns/bs/lines/mine", format="html").status_code == 422
    assert table.get("carl", "/campaigns/bs/lines/mine").status_code == 403

