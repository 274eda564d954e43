"""Issue 4's acceptance: a dispute on the pirate digest's §18 worked scenario.

The roll of step 3 is reruled to a miss (faces 1, 1) and the harm of step 5 dropped. Then the
Cartographer's swap of step 4 is no longer possible (it is a miss already), so Anna never gains
the luck she spends in step 6, which is refused too: no serious wound, and her Foresight check
in the Scheme (step 9) is one higher.
"""

from pathlib import Path

import pytest

# every test here runs `rollbook` in new processes (the fast tier starts none)
pytestmark = pytest.mark.slow


SCENARIO = Path(__file__).parents[1] / "pirates" / "worked-scenario.jsonl"
RULING = ("dispute", "step-03", "-c", "worked-scenario", "--faces", "1,1", "--and-drop", "step-05",
          "--reason", "the roller showed 1 and 1; the harm never landed", "--actor", "auditor:kim")

EXPECTED_DIFFERENCES = [
    {"what": "character Anna", "path": "modifier", "before": -1, "after": 0},
    {"what": "character Anna", "path": "move.total", "before": 10, "after": 11},
    {"what": "character Anna", "path": "slots", "before": ["serious", None, None], "after": [None, None, None]},
    {"what": "character Anna", "path": "wounds.serious", "before": 1, "after": 0},
]


def test_the_dry_run_shows_the_exact_downstream_difference(tmp_path, cli):
    store = f"sqlite:///{tmp_path / 'scenario.db'}"
    cli.run("run", str(SCENARIO), store=store)
    result = cli.json(*RULING, "--dry-run", store=store)
    assert result["differences"] == EXPECTED_DIFFERENCES
    assert [(s["id"], s["reason"]) for s in result["not_applied"]] == [
        ("step-04", "roll step-03 is already a miss (3); only a success can be traded for luck (L50)"),
        ("step-05", "dropped by the dispute"),
        ("step-06", "Anna has 0 luck and cannot absorb 1 wounds with it (L43)"),
    ]
    assert cli.json("revisions", "-c", "worked-scenario", store=store) == [
        {"revision": 1, "key": "worked-scenario", "dispute": None}
    ]


def test_applied_it_is_revision_2_and_revision_1_reads_as_before(tmp_path, cli):
    store = f"sqlite:///{tmp_path / 'scenario.db'}"
    cli.run("run", str(SCENARIO), store=store)
    before = cli.json("sheet", "Anna", "-c", "worked-scenario", store=store)
    result = cli.json(*RULING, store=store)
    assert result["applied"] and result["revision"] == 2
    assert result["differences"] == EXPECTED_DIFFERENCES

    now = cli.json("sheet", "Anna", "-c", "worked-scenario", store=store)
    assert (now["wounds"], now["luck"], now["modifier"]) == ({"light": 0, "serious": 0, "terrible": 0}, 0, 0)
    assert cli.json("sheet", "Anna", "-c", "worked-scenario", "--revision", "1", store=store) == before
    assert before["wounds"]["serious"] == 1
    rolls = {r["id"]: r for r in cli.json("rolls", "-c", "worked-scenario", store=store)}
    assert (rolls["step-03"]["faces"], rolls["step-03"]["outcome"]) == ([1, 1], "miss")
    old_rolls = {r["id"]: r for r in cli.json("rolls", "-c", "worked-scenario", "--revision", "1", store=store)}
    assert (old_rolls["step-03"]["faces"], old_rolls["step-03"]["outcome"]) == ([6, 2], "miss")  # traded away
    assert [r["revision"] for r in cli.json("revisions", "-c", "worked-scenario", store=store)] == [1, 2]
    for report in cli.json("verify", "-c", "worked-scenario", store=store).values():
        assert report["findings"] == []
