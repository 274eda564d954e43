"""A campaign's snapshot stores its roster's full chunks once (store/roster_chunks.py, issue 22).

Before, every snapshot of a campaign re-encoded its whole roster: a long campaign's command cost
and its snapshots' space grew with every member ever created. Here a chunk is 4 members, so a
small campaign has several; each test holds the sealed snapshots to the fold of the events.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from rollbook.commands.runner import run_file
from rollbook.commands.service import Rollbook
from rollbook.domain.ids import campaign_id
from rollbook.replay.export import export_lines
from rollbook.replay.transfer import import_lines
from rollbook.replay.verify import verify
from rollbook.store import Store, roster_chunks
from rollbook.store.roster_chunks import CHUNK_TOPIC, SEALED, chunk_id
from rollbook.testing.plugin import postgres_schema

CAMPAIGN = "chunky"
CREW = 30  # 7 full chunks of 4 and 2 members after them


def commands() -> bytes:
    lines = [{"type": "create_campaign", "campaign": CAMPAIGN, "ruleset": "pirates", "title": "Chunks"}]
    lines += [{"type": "create_character", "campaign": CAMPAIGN, "name": f"Pirate{n:02}", "player": f"p{n % 5}",
               "stats": {"audacity": 1, "guile": 1, "foresight": 0, "reputation": 0}, "luck": 1} for n in range(CREW)]
    # Each rotation writes three campaign events: these take it past versions 200 and 400.
    lines += [{"type": "rotate_seed", "campaign": CAMPAIGN} for _ in range(140)]
    return "\n".join(json.dumps({**line, "id": f"c{n}"}) for n, line in enumerate(lines)).encode()


@pytest.fixture
def small_chunks(monkeypatch):
    monkeypatch.setattr(roster_chunks, "CHUNK", 4)


@pytest.fixture(params=["sqlite", "postgres"])
def played(request, tmp_path, small_chunks) -> Iterator[str]:
    """The campaign's store, on a backend that a second `Store.open` reads again (a new process's cache)."""
    with contextlib.ExitStack() as stack:
        url = (f"sqlite:///{tmp_path / 'chunks.db'}" if request.param == "sqlite"
               else stack.enter_context(postgres_schema()))
        store = Store.open(url)
        try:
            assert run_file(Rollbook(store), commands()).error is None
        finally:
            store.close()
        yield url


@pytest.fixture
def played_file(tmp_path, small_chunks) -> Path:
    """A SQLite store's file the campaign was played into, closed: for a test to edit its rows."""
    path = tmp_path / "played.db"
    store = Store.open(f"sqlite:///{path}")
    assert run_file(Rollbook(store), commands()).error is None
    store.close()
    return path


def stored_snapshots(store: Store) -> list:
    return list(store.app.snapshots.recorder.select_events(campaign_id(CAMPAIGN)))


def the_fold(store: Store, version: int):
    aggregate = None
    for event in store.app.events.get(campaign_id(CAMPAIGN), lte=version):
        aggregate = event.mutate(aggregate)
    return aggregate


def test_a_campaign_snapshot_keeps_only_the_members_after_its_last_full_chunk(played):
    store = Store.open(played)
    try:
        rows = stored_snapshots(store)
        assert len(rows) == 2  # taken after the commands that took it past versions 200 and 400
        for row in rows:
            state = json.loads(row.state)["state"]
            assert list(state["roster"]) == ["Pirate28", "Pirate29"] and len(state["member_of"]) == 2
            assert len(state[SEALED]) == 7
        # Each chunk stored once, though both snapshots seal it, and by the same digest in both.
        assert json.loads(rows[0].state)["state"][SEALED] == json.loads(rows[1].state)["state"][SEALED]
        recorder = store.app.snapshots.recorder
        chunks = [recorder.select_events(chunk_id(campaign_id(CAMPAIGN), n)) for n in range(8)]
        assert [len(found) for found in chunks] == [1] * 7 + [0]
        assert all(found[0].topic == CHUNK_TOPIC for found in chunks[:7])
        assert list(json.loads(chunks[1][0].state)["roster"]) == ["Pirate04", "Pirate05", "Pirate06", "Pirate07"]
    finally:
        store.close()


def test_a_campaign_restored_from_a_sealed_snapshot_is_the_fold_of_its_events(played):
    store = Store.open(played)  # a new process's cache: the chunks are read from the store
    try:
        for version in (row.originator_version for row in stored_snapshots(store)):
            restored = store.app.repository.get(campaign_id(CAMPAIGN), version=version)
            folded = the_fold(store, version)
            assert list(restored.roster.items()) == list(folded.roster.items())  # in roster order
            assert list(restored.member_of.items()) == list(folded.member_of.items())
            assert vars(restored) == vars(folded)
        report = verify(store.app, CAMPAIGN, projected=True)
        assert report.findings == [] and report.commands == CREW + 141
    finally:
        store.close()


def test_play_goes_on_from_a_sealed_snapshot_and_seals_the_next_chunk(played):
    store = Store.open(played)
    try:
        more = [{"type": "create_character", "campaign": CAMPAIGN, "id": f"more{n}", "name": f"Late{n}", "player": "p1",
                 "stats": {"audacity": 0, "guile": 0, "foresight": 0, "reputation": 1}, "luck": 1} for n in range(2)]
        more += [{"type": "rotate_seed", "campaign": CAMPAIGN, "id": f"r{n}"} for n in range(70)]
        assert run_file(Rollbook(store), "\n".join(map(json.dumps, more)).encode()).error is None
        last = json.loads(stored_snapshots(store)[-1].state)["state"]
        assert len(last[SEALED]) == 8 and list(last["roster"]) == []
        assert verify(store.app, CAMPAIGN, projected=True).findings == []
    finally:
        store.close()


def test_an_export_imports_with_the_same_sealed_snapshots(played, tmp_path):
    source = Store.open(played)
    target = Store.open(f"sqlite:///{tmp_path / 'copy.db'}")
    try:
        import_lines(target, iter(list(export_lines(source, CAMPAIGN))))
        def kept(store):  # what each snapshot keeps (its own timestamp is when it was taken)
            return [(r.originator_version, json.loads(r.state)["state"]) for r in stored_snapshots(store)]

        assert kept(target) == kept(source) and all(SEALED in state for _, state in kept(target))
        for number in range(7):
            ident = chunk_id(campaign_id(CAMPAIGN), number)
            assert target.app.snapshots.recorder.select_events(ident) == source.app.snapshots.recorder.select_events(ident)
        assert verify(target.app, CAMPAIGN, projected=True).findings == []
    finally:
        source.close()
        target.close()


def test_a_chunk_edited_in_the_store_is_found_and_the_campaign_folded_from_its_events(played_file):
    import sqlite3

    path = played_file
    ident = chunk_id(campaign_id(CAMPAIGN), 2).hex
    with sqlite3.connect(path) as db:
        (state,) = db.execute("SELECT state FROM stored_snapshots WHERE originator_id = ?", (ident,)).fetchone()
        body = json.loads(state)
        body["roster"]["Pirate08"]["player"] = "p4"
        db.execute("UPDATE stored_snapshots SET state = ? WHERE originator_id = ?", (json.dumps(body).encode(), ident))
    store = Store.open(f"sqlite:///{path}")
    try:
        found = verify(store.app, CAMPAIGN, projected=True).findings
        assert {f.problem for f in found} == {
            f"the snapshot at v{row.originator_version}: roster chunk 2 of {campaign_id(CAMPAIGN)} "
            "is not the chunk its snapshot was sealed with" for row in stored_snapshots(store)
        }
        # Loading passes the snapshot over and folds the events: the edit changes nothing decided.
        loaded = store.app.repository.get(campaign_id(CAMPAIGN))
        assert loaded.roster["Pirate08"]["player"] == "p3" and vars(loaded) == vars(the_fold(store, loaded.version))
    finally:
        store.close()


def test_a_snapshot_that_cannot_be_stored_does_not_fail_the_command_it_follows(tmp_path, small_chunks, monkeypatch):
    from eventsourcing.persistence import IntegrityError, OperationalError

    store = Store.open(f"sqlite:///{tmp_path / 'unsnapshotted.db'}")
    try:
        failures = iter([IntegrityError("taken"), IntegrityError("taken again"), OperationalError("disk full")] * 10)

        def refuse(rows, **_):
            raise next(failures)

        monkeypatch.setattr(store.app.snapshots.recorder, "insert_events", refuse)
        report = run_file(Rollbook(store), commands())
        # Every command recorded once and told so; the campaign is read from its events instead.
        assert report.error is None and report.applied == CREW + 141 and not report.skipped
        assert stored_snapshots(store) == []
        assert verify(store.app, CAMPAIGN, projected=True).findings == []
    finally:
        store.close()


def test_a_row_put_beside_a_chunk_under_another_version_is_not_read_for_it(played_file):
    import sqlite3

    path = played_file
    with sqlite3.connect(path) as db:
        db.execute("INSERT INTO stored_snapshots (originator_id, originator_version, topic, state) VALUES (?, 0, ?, ?)",
                   (chunk_id(campaign_id(CAMPAIGN), 0).hex, CHUNK_TOPIC, b'{"roster": {}, "member_of": {}}'))
    store = Store.open(f"sqlite:///{path}")
    try:
        assert verify(store.app, CAMPAIGN, projected=True).findings == []
        version = stored_snapshots(store)[-1].originator_version
        restored = store.app.repository.get(campaign_id(CAMPAIGN), version=version)
        assert list(restored.roster) == [f"Pirate{n:02}" for n in range(CREW)]
    finally:
        store.close()


def test_a_whole_snapshot_stored_before_chunks_is_read_as_before_and_the_next_one_sealed(tmp_path, monkeypatch):
    path = f"sqlite:///{tmp_path / 'before.db'}"
    monkeypatch.setattr(roster_chunks, "CHUNK", 10**6)  # as a store written before chunks: every snapshot whole
    store = Store.open(path)
    assert run_file(Rollbook(store), commands()).error is None
    store.close()
    monkeypatch.setattr(roster_chunks, "CHUNK", 4)
    store = Store.open(path)
    try:
        whole, _ = [json.loads(row.state)["state"] for row in stored_snapshots(store)]
        assert SEALED not in whole and len(whole["roster"]) == CREW
        version = stored_snapshots(store)[-1].originator_version
        assert vars(store.app.repository.get(campaign_id(CAMPAIGN), version=version)) == vars(the_fold(store, version))
        more = [{"type": "rotate_seed", "campaign": CAMPAIGN, "id": f"r{n}"} for n in range(70)]
        assert run_file(Rollbook(store), "\n".join(map(json.dumps, more)).encode()).error is None
        sealed = json.loads(stored_snapshots(store)[-1].state)["state"]
        assert len(sealed[SEALED]) == 7 and list(sealed["roster"]) == ["Pirate28", "Pirate29"]
        assert verify(store.app, CAMPAIGN, projected=True).findings == []
    finally:
        store.close()


def a_campaign_snapshot(members: int):
    """A campaign snapshot of `members` members, as `Campaign` builds its roster and index."""
    from eventsourcing.domain import Snapshot

    from rollbook.domain.ids import member_id

    roster = {f"Hero{n:05}": {"kind": "character", "player": "p1"} for n in range(members)}
    member_of = {member_id(CAMPAIGN, "character", name).hex: [name, at] for at, name in enumerate(roster)}
    return Snapshot(originator_id=campaign_id(CAMPAIGN), originator_version=200, timestamp=Snapshot.create_timestamp(),
                    topic="rollbook.domain.campaign:Campaign", state={"roster": roster, "member_of": member_of})


def python_steps(work) -> int:
    """How many Python-level calls `work()` makes (a generator's resumption counts as one)."""
    import sys

    steps = 0

    def count(frame, event, arg):
        nonlocal steps
        if event == "call":
            steps += 1

    sys.setprofile(count)
    try:
        work()
    finally:
        sys.setprofile(None)
    return steps


@pytest.mark.parametrize("chunks", [8, 64])
def test_sealing_again_chunks_already_stored_takes_no_python_step_per_member(small_chunks, chunks):
    """A snapshot is taken every 200 events of a campaign whose roster only grows: sealing it walked
    every member in Python (a generator step each), so at 100k heroes commands the snapshots cost a
    command more and more (issue 22). Chunks this process has stored are compared as a whole now."""
    store = Store.open("memory://")
    try:
        chunks_of = store.app.chunks
        snapshot = a_campaign_snapshot(chunks * 4 + 2)
        rows, _ = chunks_of.seal(snapshot)
        store.app.snapshots.recorder.insert_events(rows)
        chunks_of.stored(rows)
        steps = python_steps(lambda: chunks_of.seal(snapshot))
        _, sealed = chunks_of.seal(snapshot)
        assert len(sealed.state[SEALED]) == chunks and list(sealed.state["roster"]) == [f"Hero{chunks * 4:05}",
                                                                                         f"Hero{chunks * 4 + 1:05}"]
        # A few calls per chunk (its id is a uuid5), none per member: a chunk here is 4 members.
        assert steps < 40 + 8 * chunks, steps
    finally:
        store.close()
