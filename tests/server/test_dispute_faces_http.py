"""A ruling's faces over HTTP and from the disputes page are held to the roll's dice (issue 36, item 13)."""

import re

MOVE = {"type": "roll_move", "character": "Anna", "stat": "audacity", "dice": [3, 4]}
HTML = {"Accept": "text/html"}


def dispute(table, user, body, key="ruling-1"):
    return table.client.post("/campaigns/bs/disputes", json=body, headers=table.headers(user, key))


def test_impossible_faces_are_a_422_naming_faces_dry_run_or_not(table):
    table.post("anna", MOVE, key="anna-1")
    before = table.stored()
    for dry in (True, False):
        for faces in ([9, 9], [6], [6, 6, 6]):
            answer = dispute(table, "aud", {"roll": "anna-1", "reason": "misfire", "faces": faces, "dry_run": dry},
                             key=f"r-{dry}-{len(faces)}-{faces[0]}")
            assert answer.status_code == 422, answer.text
            assert answer.json()["error"]["field"] == "faces"
    assert "face 1 is 9, impossible on a d6 (1..6)" in dispute(
        table, "gm1", {"roll": "anna-1", "reason": "x", "faces": [9, 9]}, key="gm").json()["error"]["reason"]
    assert table.stored() == before
    assert len(table.get("aud", "/campaigns/bs/revisions").json()) == 1


def test_the_disputes_page_refuses_them_in_a_dry_run(table):
    table.post("anna", MOVE, key="anna-1")
    form = table.client.get("/campaigns/bs/disputes", headers={**table.headers("aud"), **HTML})
    csrf = re.search(r'name="csrf" value="([0-9a-f]+)"', form.text).group(1)
    before = table.stored()
    for action in ("dry_run", "apply"):
        ruled = table.client.post("/campaigns/bs/disputes/ruling", headers={**table.headers("aud"), **HTML},
                                  data={"roll": "anna-1", "reason": "misfire", "ruling": "faces", "faces": "9, 9",
                                        "key": f"page-{action}", "csrf": csrf, "action": action})
        assert ruled.status_code == 422 and "impossible on a d6" in ruled.text, ruled.text
    assert table.stored() == before


def test_a_player_ruling_faces_on_another_players_roll_is_403(table):
    table.post("bo", {**MOVE, "character": "Bo"}, key="bo-1")
    before = table.stored()
    for faces in ([9, 9], [6, 6]):
        refused = dispute(table, "anna", {"roll": "bo-1", "reason": "mine", "faces": faces}, key=f"a-{faces[0]}")
        assert refused.status_code == 403 and refused.json()["error"]["field"] == "role"
    assert table.stored() == before
