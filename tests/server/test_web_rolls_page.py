"""The rolls page in process (issue 37, item 5): the newest first, a page at a time, the page and the
filters in every link; outcomes and purposes in words; times to the minute with the exact time kept."""

import re
from datetime import UTC, datetime, timedelta

#: An hour from now, on a whole minute: the GM may date a command up to a day ahead, never before the last.
START = (datetime.now(UTC) + timedelta(hours=1)).replace(second=0, microsecond=0)
HTML = {"Accept": "text/html"}


def page(table, user, path, **params):
    return table.client.get(path, headers={**table.headers(user), **HTML}, **({"params": params} if params else {}))


def post_rolls(table, count, character="Anna", after=0):
    for n in range(after, after + count):
        answer = table.post("gm1", {"type": "roll_move", "character": character, "stat": "audacity", "dice": [3, 4],
                                    "at": (START + timedelta(seconds=n, microseconds=500_000)).isoformat()})
        assert answer.status_code == 201, answer.text


def test_a_long_log_is_read_a_page_at_a_time_with_the_filters_kept(table):
    post_rolls(table, 55)
    post_rolls(table, 3, character="Bo", after=55)
    first = page(table, "anna", "/campaigns/bs/rolls")
    assert first.status_code == 200
    assert "58 of 58" in first.text and "Page 1 of 2" in first.text
    assert first.text.count('class="roll card"') == 50
    assert re.search(r'<li class="roll card"[^>]*>\s*<div class="roll-head">\s*<strong>Bo</strong>', first.text)  # newest first
    filtered = page(table, "anna", "/campaigns/bs/rolls", character="Anna")
    assert "55 of 58" in filtered.text
    older = re.search(r'<a class="button" href="([^"]+)" rel="next">Older', filtered.text).group(1).replace("&amp;", "&")
    assert older == "/campaigns/bs/rolls?character=Anna&page=2"
    second = page(table, "anna", older)
    assert "Page 2 of 2" in second.text and second.text.count('class="roll card"') == 5
    assert '<ol class="rolls" start="51"' in second.text
    assert 'href="/campaigns/bs/rolls?character=Anna" rel="prev">‹ Newer' in second.text
    assert "Bo</strong>" not in second.text
    beyond = page(table, "anna", "/campaigns/bs/rolls", character="Anna", page=9)
    assert "Page 2 of 2" in beyond.text  # past the last page: the last page


def test_outcomes_purposes_and_times_are_in_words(table):
    post_rolls(table, 1)
    html = page(table, "anna", "/campaigns/bs/rolls").text
    assert "partial_success" not in html.split("<ol", 1)[1] and "partial success" in html
    assert "move: audacity" in html
    exact = re.escape((START + timedelta(microseconds=500_000)).isoformat())
    assert re.search(rf'<time datetime="{exact}" data-local title="{exact}">{START:%Y-%m-%d %H:%M} UTC</time>', html)
    assert 'aria-label="faces"' not in html


def test_the_api_still_answers_json(table):
    post_rolls(table, 2)
    answer = table.get("anna", "/campaigns/bs/rolls")
    assert answer.headers["content-type"].startswith("application/json") and len(answer.json()) == 2
