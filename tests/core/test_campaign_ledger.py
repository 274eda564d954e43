"""The campaign's ledger of once-only limits (domain/campaign_ledger.py), on a plain dict as the aggregate keeps it."""

from rollbook.domain.campaign_ledger import count_use, counts_in, ledger_key, ledger_parts, release, rows, uses


def test_a_key_reads_back_whole_whatever_the_names_hold():
    key = ledger_key("luck", "scene 2", "Bo|Red")
    assert key == '["luck", "scene 2", "Bo|Red"]'
    assert ledger_parts(key) == ["luck", "scene 2", "Bo|Red"]


def test_a_key_of_an_old_snapshot_reads_back_too():
    assert ledger_parts("luck|scene 2|Bo|Red") == ["luck", "scene 2", "Bo|Red"]


def test_uses_are_counted_per_limit_instance_and_holder():
    limits: dict[str, dict[str, int]] = {}
    count_use(limits, "scene", "luck", "scene 1", "Anna")
    count_use(limits, "scene", "luck", "scene 1", "Anna")
    count_use(limits, "scene", "luck", "scene 2", "Anna")
    assert uses(limits, "scene", "luck", "scene 1", "Anna") == 2
    assert uses(limits, "scene", "luck", "scene 1", "Bo") == 0
    assert uses(limits, "story", "luck", "scene 1", "Anna") == 0
    assert rows(limits) == [
        {"limit": "luck", "scope": "scene", "instance": "scene 1", "holder": "Anna", "used": 2},
        {"limit": "luck", "scope": "scene", "instance": "scene 2", "holder": "Anna", "used": 1},
    ]


def test_releasing_an_instance_forgets_its_uses_only():
    limits: dict[str, dict[str, int]] = {}
    count_use(limits, "day", "rest", "day 1", "Anna")
    count_use(limits, "day", "rest", "day 2", "Bo")
    assert counts_in(limits, "day", "day 1") and not counts_in(limits, "day", "day 3")
    assert not counts_in(limits, "hour", "day 1")
    release(limits, "day", "day 1")
    assert [row["holder"] for row in rows(limits)] == ["Bo"]
    release(limits, "hour", "day 1")  # nothing counted there: nothing to forget
    assert uses(limits, "day", "rest", "day 2", "Bo") == 1
