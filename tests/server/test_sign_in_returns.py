"""A signed-out deep link lands on the page asked for once signed in (issue 45), and on no other site."""

import re

import pytest

HTML = {"Accept": "text/html"}


def test_a_deep_link_asked_for_signed_out_is_where_the_sign_in_goes(table):
    client = table.client
    client.cookies.clear()
    asked = client.get("/campaigns/bs/post?type=roll_move", headers=HTML, follow_redirects=False)
    assert asked.status_code == 303
    assert asked.headers["location"] == "/?next=%2Fcampaigns%2Fbs%2Fpost%3Ftype%3Droll_move"
    signin = client.get(asked.headers["location"], headers=HTML)
    [kept] = re.findall(r'<input type="hidden" name="next" value="([^"]*)">', signin.text)
    assert kept == "/campaigns/bs/post?type=roll_move"
    signed = client.post("/sign-in", data={"token": table.tokens["anna"], "next": kept}, follow_redirects=False)
    assert signed.status_code == 303 and signed.headers["location"] == "/campaigns/bs/post?type=roll_move"
    assert client.get(signed.headers["location"], headers=HTML).status_code == 200


def test_a_wrong_token_keeps_the_page_asked_for(table):
    table.client.cookies.clear()
    refused = table.client.post("/sign-in", data={"token": "rb_nope", "next": "/campaigns/bs/rolls"})
    assert refused.status_code == 401 and 'name="next" value="/campaigns/bs/rolls"' in refused.text


@pytest.mark.parametrize("elsewhere", ["//evil.example/", "https://evil.example/", "/\\evil.example", "campaigns",
                                       "/a\nb", '/"><script>'])
def test_a_sign_in_never_sends_the_browser_to_another_site(table, elsewhere):
    table.client.cookies.clear()
    signed = table.client.post("/sign-in", data={"token": table.tokens["anna"], "next": elsewhere},
                               follow_redirects=False)
    location = signed.headers["location"]
    assert signed.status_code == 303 and location.startswith("/") and not location.startswith(("//", "/\\"))
    assert "<" not in location and "\n" not in location
    page = table.client.get("/", params={"next": elsewhere}, headers=HTML)
    assert "<script>" not in page.text
