"""The projections are verified too (issue 36, items 3 and 8): what the sheets, rolls, timeline and ledger
show must be what the events make, and a cut at one campaign's end is caught while the projections still
show it, however much another campaign wrote after it."""

import json

from rollbook.store import Store

from .conftest import HISTORY, rollbook


def verified(url):
    return rollbook("verify", "-c", "audit", store=url, check=False)


def words(result):
    return " ".join(result.stdout.split())


def test_an_edited_roll_in_the_projections_is_found_and_rebuild_mends_it(tampered):
    url, tamper = tampered
    assert verified(url).returncode == 0
    rolls = tamper.sql("SELECT key FROM rollbook_views WHERE campaign = 'audit' AND kind = 'roll'")
    assert ("r1",) in rolls
    doc = json.loads(tamper.sql("SELECT doc FROM rollbook_views WHERE campaign = 'audit' AND kind = 'roll' "
                                "AND key = 'r1'")[0][0])
    # The roll is the campaign's seeded one: the forgery is whatever it did not roll.
    forged = {**doc, "faces": [1, 1] if doc["faces"] == [6, 6] else [6, 6], "total": doc["total"] + 5,
              "outcome": "miss" if doc["outcome"] != "miss" else "full_success"}
    tamper.sql("UPDATE rollbook_views SET doc = ? WHERE campaign = 'audit' AND kind = 'roll' AND key = 'r1'",
               json.dumps(forged))
    assert json.loads(rollbook("rolls", "-c", "audit", "--json", store=url).stdout)  # the forgery is what is shown
    result = verified(url)
    assert result.returncode == 1
    assert "the stored roll 'r1' differs from what its events make, in faces, outcome, total" in words(result)
    rollbook("rebuild", store=url)
    assert verified(url).returncode == 0


def test_an_edited_sheet_and_ledger_and_an_invented_document_are_found(tampered):
    url, tamper = tampered
    sheet = json.loads(tamper.sql("SELECT doc FROM rollbook_views WHERE campaign = 'audit' AND kind = 'sheet' "
                                  "AND key = 'Anna'")[0][0])
    sheet["sheet"]["luck"] = 5
    tamper.sql("UPDATE rollbook_views SET doc = ? WHERE campaign = 'audit' AND kind = 'sheet' AND key = 'Anna'",
               json.dumps(sheet))
    tamper.sql("DELETE FROM rollbook_views WHERE campaign = 'audit' AND kind = 'limits'")
    tamper.sql("INSERT INTO rollbook_views (campaign, kind, key, position, doc) VALUES ('audit', 'roll', 'r9', 3, ?)",
               json.dumps({"faces": [6, 6]}))
    said = words(verified(url))
    assert "the stored sheet 'Anna' differs from what its events make, in sheet" in said
    assert "the stored limits is missing from the projections" in said
    assert "the stored roll 'r9' is made by no event" in said


def _run(url, commands):
    from rollbook.commands.runner import run_file
    from rollbook.commands.service import Rollbook
    from rollbook.projections.queries import Reader

    store = Store.open(url)
    try:
        assert run_file(Rollbook(store), "\n".join(json.dumps(c) for c in commands).encode()).error is None
        Reader(store).catch_up()
        return store.app.recorder.max_notification_id()
    finally:
        store.close()


def test_a_cut_at_one_campaigns_end_is_found_though_another_campaign_wrote_after_it(tmp_path, tamper_of):
    path = tmp_path / "two.db"
    url = f"sqlite:///{path}"
    kept = _run(url, [{"campaign": "audit", **c} for c in HISTORY[:-3]])
    cut_to = _run(url, [{"campaign": "audit", **c} for c in HISTORY[-3:]])
    _run(url, [{"campaign": "other", "type": "create_campaign", "ruleset": "pirates", "title": "Other",
                "at": "2026-03-05T20:00:00Z"}])
    tamper = tamper_of(url, path)
    tamper.sql("DELETE FROM {events} WHERE rowid > ? AND rowid <= ?", kept, cut_to)
    result = verified(url)
    assert result.returncode == 1
    assert "the projections show this campaign up to position" in words(result)
    assert "events at its end were removed" in words(result)
    assert rollbook("verify", "-c", "other", store=url, check=False).returncode == 0
