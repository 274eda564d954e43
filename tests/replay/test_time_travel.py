"""`--at` on every kind of point, through the CLI."""

import pytest

# every test here runs `rollbook` in new processes (the fast tier starts none)
pytestmark = pytest.mark.slow


def test_at_a_command_id_shows_the_state_right_after_it(audited, cli):
    store, _ = audited
    assert cli.json("sheet", "Anna", "-c", "audit", "--at", "r1", store=store)["luck"] == 0
    assert cli.json("sheet", "Anna", "-c", "audit", "--at", "h1", store=store)["wounds"]["light"] == 1
    assert cli.json("sheet", "Anna", "-c", "audit", "--at", "h2", store=store)["wounds"]["light"] == 2


def test_at_a_position(audited, cli):
    store, _ = audited
    log = cli.json("log", "-c", "audit", store=store)
    wound = next(row["position"] for row in log if row["type"] == "Wounded")
    assert cli.json("sheet", "Anna", "-c", "audit", "--at", str(wound - 1), store=store)["wounds"]["light"] == 0
    assert cli.json("sheet", "Anna", "-c", "audit", "--at", str(wound), store=store)["wounds"]["light"] == 1
    assert cli.json("log", "-c", "audit", "--at", str(wound), store=store)[-1]["position"] == wound


def test_at_an_iso_time_is_right_after_the_last_command_by_then(audited, cli):
    store, _ = audited
    assert cli.json("sheet", "Anna", "-c", "audit", "--at", "2026-03-02T19:25:00Z", store=store)["wounds"]["light"] == 1
    assert cli.json("sheet", "Anna", "-c", "audit", "--at", "2026-03-02T19:35:00+00:00", store=store)["wounds"]["light"] == 2


def test_at_a_boundary_is_right_after_it_ends_or_begins(audited, cli):
    store, _ = audited
    # Chapter 1's end heals the light wounds; at its start none were taken yet.
    assert cli.json("sheet", "Anna", "-c", "audit", "--at", "chapter:1", store=store)["wounds"]["light"] == 0
    assert cli.json("sheet", "Anna", "-c", "audit", "--at", "chapter:1:start", store=store)["wounds"]["light"] == 0
    assert cli.json("sheet", "Anna", "-c", "audit", "--at", "move:2", store=store)["move"]["roll"] == "r2"
    timeline = cli.json("timeline", "-c", "audit", "--at", "move:2", store=store)["timeline"]
    assert {(e["label"], e["number"]) for e in timeline if e["end"] is None} == {("chapter", 1), ("scene", 1), ("battle", 1)}


def test_rolls_and_limits_as_they_were(audited, cli):
    store, _ = audited
    before_help = cli.json("rolls", "-c", "audit", "--at", "r2", store=store)
    after_help = cli.json("rolls", "-c", "audit", "--at", "help", store=store)
    assert [r["total"] for r in before_help if r["id"] == "r2"] == [8]
    assert [r["total"] for r in after_help if r["id"] == "r2"] == [9]
    limits = cli.json("limits", "-c", "audit", "--at", "help", store=store)
    assert any(r["limit"] == "luck_help_or_hinder" and r["holder"] == "Bo" and r["used"] == 1 for r in limits)
    now = cli.json("limits", "-c", "audit", store=store)
    assert not any(r["holder"] == "Bo" for r in now)  # Bo's next move released it


def test_an_unknown_point_is_refused_clearly(audited, cli):
    store, _ = audited
    result = cli.run("sheet", "Anna", "-c", "audit", "--at", "chapter:9", store=store, check=False)
    assert result.returncode == 1 and "no chapter 9 in the timeline" in result.stderr
    result = cli.run("sheet", "Anna", "-c", "audit", "--at", "2026-01-01T00:00:00Z", store=store, check=False)
    assert result.returncode == 1 and "had not begun" in result.stderr
