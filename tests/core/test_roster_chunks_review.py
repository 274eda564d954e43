"""Review findings on the sealed roster chunks (store/roster_chunks.py): each test one problem fixed."""

from __future__ import annotations

import json
import sqlite3

import pytest

from rollbook.commands.runner import run_file
from rollbook.commands.service import Rollbook
from rollbook.domain.ids import campaign_id
from rollbook.replay.verify import verify
from rollbook.store import Store, roster_chunks
from rollbook.store.roster_chunks import SEALED, chunk_id

from .test_roster_chunks import CAMPAIGN, commands, the_fold


@pytest.fixture
def small_chunks(monkeypatch):
    monkeypatch.setattr(roster_chunks, "CHUNK", 4)


@pytest.fixture
def encrypted(monkeypatch):
    """Stores opened are encrypted and compressed by the library (its env, read from the environment)."""
    from eventsourcing.cryptography import AESCipher

    monkeypatch.setenv("CIPHER_TOPIC", "eventsourcing.cryptography:AESCipher")
    monkeypatch.setenv("CIPHER_KEY", AESCipher.create_key(16))
    monkeypatch.setenv("COMPRESSOR_TOPIC", "eventsourcing.compressor:ZlibCompressor")


def sealed_states(store: Store) -> list[dict]:
    mapper = store.app.mapper
    rows = store.app.snapshots.recorder.select_events(campaign_id(CAMPAIGN))
    return [json.loads(mapper.compressor.decompress(mapper.cipher.decrypt(r.state)))["state"] for r in rows]


def test_an_encrypted_store_keeps_its_roster_chunks_encrypted(tmp_path, small_chunks, encrypted):
    path = tmp_path / "secret.db"
    store = Store.open(f"sqlite:///{path}")
    try:
        assert run_file(Rollbook(store), commands()).error is None
        assert all(len(state[SEALED]) == 7 for state in sealed_states(store))
    finally:
        store.close()
    with sqlite3.connect(path) as db:
        leaked = [row for row in db.execute("SELECT state FROM stored_snapshots") if b"Pirate" in row[0]]
    assert leaked == []  # no member's name (nor player) in the clear
    store = Store.open(f"sqlite:///{path}")  # a new process: the chunks read back and checked
    try:
        loaded = store.app.repository.get(campaign_id(CAMPAIGN), version=400)
        assert vars(loaded) == vars(the_fold(store, 400))
        assert verify(store.app, CAMPAIGN).findings == []
        # Going on, the new process seals the chunks it finds stored (encrypted anew, they are still the same).
        more = [{"type": "rotate_seed", "campaign": CAMPAIGN, "id": f"r{n}"} for n in range(70)]
        assert run_file(Rollbook(store), "\n".join(map(json.dumps, more)).encode()).error is None
        assert [len(state[SEALED]) for state in sealed_states(store)] == [7, 7, 7]
        assert verify(store.app, CAMPAIGN).findings == []
    finally:
        store.close()


def edited_store(tmp_path, edit) -> str:
    """The campaign played into a SQLite file, then `edit(db)` run on the file: a store tampered with."""
    path = tmp_path / "edited.db"
    store = Store.open(f"sqlite:///{path}")
    try:
        assert run_file(Rollbook(store), commands()).error is None
    finally:
        store.close()
    with sqlite3.connect(path) as db:
        edit(db)
    return f"sqlite:///{path}"


def edit_snapshots(change):
    def edit(db):
        for originator, version, state in db.execute(
            "SELECT originator_id, originator_version, state FROM stored_snapshots WHERE originator_id = ?",
            (campaign_id(CAMPAIGN).hex,),
        ).fetchall():
            body = json.loads(state)
            change(body["state"])
            db.execute("UPDATE stored_snapshots SET state = ? WHERE originator_id = ? AND originator_version = ?",
                       (json.dumps(body).encode(), originator, version))
    return edit


def break_chunk_body(db):
    """Chunk 2 rewritten as JSON of another shape, and every snapshot's digest of it made to match."""
    import hashlib

    ident = chunk_id(campaign_id(CAMPAIGN), 2).hex
    state = json.dumps({"members": []}).encode()
    db.execute("UPDATE stored_snapshots SET state = ? WHERE originator_id = ?", (state, ident))

    def digest(sealed):
        sealed[SEALED][2] = hashlib.sha256(state).hexdigest()
    edit_snapshots(digest)(db)


@pytest.mark.parametrize("edit", [
    edit_snapshots(lambda state: state.update({SEALED: None})),
    edit_snapshots(lambda state: state.update({SEALED: 7})),
    edit_snapshots(lambda state: state.update({SEALED: [None] * 7})),
    edit_snapshots(lambda state: state.update({"roster": None})),
    break_chunk_body,
], ids=["digests-null", "digests-number", "digests-not-text", "tail-not-an-object", "chunk-of-another-shape"])
def test_a_sealed_snapshot_edited_out_of_shape_is_a_finding_and_the_campaign_folded(tmp_path, small_chunks, edit):
    store = Store.open(edited_store(tmp_path, edit))
    try:
        found = verify(store.app, CAMPAIGN).findings
        assert len(found) == 2 and all("the snapshot at v" in f.problem for f in found)
        loaded = store.app.repository.get(campaign_id(CAMPAIGN))
        assert vars(loaded) == vars(the_fold(store, loaded.version))
    finally:
        store.close()


def test_a_reader_that_does_not_unseal_cannot_take_a_sealed_snapshot_for_the_whole_campaign(tmp_path, small_chunks):
    """A process reading the store with the library's own mapper (an older Rollbook, a plain Application)
    would restore a campaign missing every member of its sealed chunks: it must fail to read it instead."""
    from eventsourcing.persistence import Mapper

    store = Store.open(f"sqlite:///{tmp_path / 'plain.db'}")
    try:
        assert run_file(Rollbook(store), commands()).error is None
        plain = Mapper(store.app.mapper.transcoder)
        (row, *_) = store.app.snapshots.recorder.select_events(campaign_id(CAMPAIGN))
        try:
            restored = plain.to_domain_event(row).mutate(None)
        except roster_chunks.RosterChunkError:
            pass  # refused: the campaign is not taken for another
        else:
            assert len(restored.roster) == 30, f"a plain reader restored {len(restored.roster)} of the 30 members"
        assert len(store.app.mapper.to_domain_event(row).mutate(None).roster) == 30
        # A Rollbook from before chunks cannot even resolve the topic (and the library's Snapshot is not it).
        assert row.topic == "rollbook.store.roster_chunks:SealedSnapshot"
    finally:
        store.close()
