"""The log as C2SP tlog-tiles over HTTP (issue 51): the checkpoint and the tiles under `/campaigns/C/log/`, from
which a client builds the root and any proof itself; full tiles cached for good, partial ones by width."""

import pytest
from fastapi.testclient import TestClient

from rollbook.domain.rulesets.pirates.generator import generate
from rollbook.domain.transparency import merkle
from rollbook.domain.transparency.note import Checkpoint, Verifier, parse_note
from rollbook.domain.transparency.tiles import Tile, parse_tile_path
from rollbook.bootstrap import create_app
from rollbook.testing.serving import prepare

SIZE = 300  # one full tile of leaves, a partial one of 44, and a level-1 tile of one hash


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    url = f"sqlite:///{tmp_path_factory.mktemp('tiles') / 'rollbook.db'}"
    generated = generate(SIZE, 5)
    tokens = prepare(url, generated.campaign, generated.commands, ["p0"])
    with TestClient(create_app(url, posts_per_minute=0)) as client:
        tokens["carl"] = client.app.state.rollbook.accounts.add("carl")  # signed in, not a member
        yield client, tokens, f"/campaigns/{generated.campaign}"


def get(served, path, user="p0"):
    client, tokens, prefix = served
    return client.get(f"{prefix}{path}", headers={"Authorization": f"Bearer {tokens[user]}"})


def hashes(data):
    return [data[i:i + 32] for i in range(0, len(data), 32)]


def test_a_client_rebuilds_the_checkpoints_root_from_the_tiles(served):
    answer = get(served, "/log/checkpoint")
    assert answer.status_code == 200 and answer.headers["cache-control"] == "no-cache"
    vkey = get(served, "/checkpoint/vkey").text.strip()
    note = parse_note(answer.text)
    assert note.verified([Verifier.parse(vkey)]) and answer.text == get(served, "/checkpoint/note").text
    checkpoint = Checkpoint.parse(note.text)
    assert checkpoint.size == SIZE
    full = get(served, "/log/tile/0/000")
    assert full.status_code == 200 and full.headers["content-type"] == "application/octet-stream"
    assert "immutable" in full.headers["cache-control"] and len(full.content) == 256 * 32
    partial = get(served, f"/log/tile/0/001.p/{SIZE - 256}")
    assert partial.status_code == 200 and len(partial.content) == (SIZE - 256) * 32
    assert merkle.root_of(hashes(full.content) + hashes(partial.content)) == checkpoint.root
    # Level 1 holds the hash of each full tile below it; a shorter width is the prefix of a longer one.
    assert get(served, "/log/tile/1/000.p/1").content == merkle.complete_root(hashes(full.content))
    assert get(served, "/log/tile/0/001.p/3").content == partial.content[:96]
    # What the log does not hold (yet) is 404: a client falls back to a narrower width or waits.
    for missing in ("/log/tile/0/001", f"/log/tile/0/001.p/{SIZE - 255}", "/log/tile/1/000", "/log/tile/0/002.p/1",
                    "/log/r2/checkpoint", "/log/r2/tile/0/000"):
        assert get(served, missing).status_code == 404, missing


@pytest.mark.parametrize("path", ["tile/0/0", "tile/0/x000/000", "tile/00/000", "tile/64/000", "tile/0/000.p/0",
                                  "tile/0/000.p/256", "tile/0/000.p/01", "tile/0/000.p", "tile/0/x1/000", "tile/0/abc",
                                  "tile/entries/000", "checkpoint/", "r1/checkpoint", "r02/checkpoint", "tiles/0/000"])
def test_a_path_not_written_as_the_spec_writes_it_is_404(served, path):
    answer = get(served, f"/log/{path}")
    assert answer.status_code == 404 and answer.json()["error"]["field"] in ("path", "revision"), path


def test_the_log_is_read_by_members_only(served):
    assert get(served, "/log/checkpoint", user="carl").status_code == 403
    assert get(served, "/log/tile/0/000", user="carl").status_code == 403
    client, _, prefix = served
    assert client.get(f"{prefix}/log/tile/0/000").status_code == 401


@pytest.mark.parametrize("index", [0, 7, 999, 1000, 1234067, 2**40 + 3])
def test_tile_paths_read_back_as_written(index):
    for width in (None, 1, 255):
        tile = Tile(3, index, width)
        assert parse_tile_path(tile.path) == tile
    assert Tile(0, 1234067).path == "tile/0/x001/x234/067" and Tile(2, 5, 9).path == "tile/2/005.p/9"


def test_a_rulings_revision_is_a_log_of_its_own_under_its_origins_prefix(table):
    """Revision 2 (an auditor's ruling) is served under `/log/r2/`, signed under its origin (`rollbook/bs/r2`):
    its own vkey opens it as the standard says; revision 1's log stays at `/log/`."""
    from rollbook.domain.transparency.note import ED25519

    assert table.post("anna", {"type": "roll_move", "character": "Anna", "stat": "audacity", "dice": [3, 4]},
                      key="anna-1").status_code == 201
    ruled = table.client.post("/campaigns/bs/disputes", json={"roll": "anna-1", "reason": "misfired", "faces": [6, 6]},
                              headers=table.headers("aud", "ruling-1"))
    assert ruled.status_code == 201 and ruled.json()["revision"] == 2
    campaign_key = Verifier.parse(table.get("anna", "/campaigns/bs/checkpoint/vkey").text)
    second = table.get("anna", "/campaigns/bs/log/r2/checkpoint")
    assert second.status_code == 200 and second.text.startswith("rollbook/bs/r2\n")
    own = Verifier("rollbook/bs/r2", ED25519, campaign_key.public_key)
    assert parse_note(second.text).verified([own]) and not parse_note(second.text).verified([campaign_key])
    size = Checkpoint.parse(parse_note(second.text).text).size
    leaves = table.get("anna", f"/campaigns/bs/log/r2/tile/0/000.p/{size}")
    assert merkle.root_of(hashes(leaves.content)) == Checkpoint.parse(parse_note(second.text).text).root
    first = table.get("anna", "/campaigns/bs/log/checkpoint")
    assert first.text.startswith("rollbook/bs\n") and parse_note(first.text).verified([campaign_key])
    assert table.get("anna", "/campaigns/bs/log/r3/checkpoint").status_code == 404
