"""The pages' words for the record's identifiers and times (issue 37, items 4 and 5)."""

import pytest

from rollbook.web.pages import limit_row
from rollbook.web.wording import humanised, minute


def row(scope, instance):
    return limit_row({"limit": "defining_moment", "scope": scope, "instance": instance, "description": "d"})


def test_a_limit_says_where_it_counts_once():
    assert row("story", "story 1")["where"] == "story 1"  # not "story story 1"
    assert row("campaign", "campaign")["where"] == "the campaign"
    assert row("ship", None)["where"] == "the ship"
    assert row("battle", None)["where"] == "each battle"
    assert row("move", "anna-3")["where"] == "move anna-3"
    assert row("story", "story 1")["label"] == "defining moment"


def test_identifiers_read_as_words():
    assert humanised("partial_success") == "partial success"
    assert humanised("move:audacity") == "move: audacity"
    assert humanised(None) == ""


def test_a_time_is_shown_to_the_minute_with_the_exact_time_kept():
    shown = minute("2026-03-02T19:10:42.123456+01:00")
    assert shown["shown"] == "2026-03-02 18:10 UTC"
    assert shown["exact"] == shown["iso"] == "2026-03-02T19:10:42.123456+01:00"
    assert minute("not a time") == {"shown": "not a time", "exact": "not a time", "iso": ""}


@pytest.mark.parametrize(("outcome", "russian"), [
    ("success, 1 raise", "успех, 1 подъём"), ("success, 2 raises", "успех, 2 подъёма"),
    ("success, 5 raises", "успех, 5 подъёмов"), ("success, 11 raises", "успех, 11 подъёмов"),
    ("success, 21 raises", "успех, 21 подъём"), ("success, 22 raises", "успех, 22 подъёма"),
    ("2 damage", "2 урона"), ("21 through", "21 проходит"), ("no damage", "без урона"), ("7 sharks", "7 sharks")])
def test_a_counted_outcome_is_said_in_the_plural_form_of_the_pages_language(outcome, russian):
    """Implant's raises (подъёмы, L19), the heroes' damage and what gets through, as the rolls page shows them."""
    from rollbook.language import speaking
    from rollbook.web.wording import translated

    with speaking("ru"):
        assert translated(outcome) == russian
    assert translated(outcome) == outcome
