"""One answer shape (issue 47): a post's HTTP answer holds every key `rollbook post --json` prints for the same
command, with the same meaning where they are the same (the id, its status, its position, its line in words);
HTTP adds what it needs more (the events and rolls whole, the revision and its place in it)."""

import json
import subprocess
import sys

from .conftest import table_on

DAMAGE = {"type": "take_damage", "character": "Bo", "harm": 1}


def posted_by_the_cli(url: str) -> dict:
    result = subprocess.run(
        [sys.executable, "-m", "rollbook.cli", "post", "take_damage", "character=Bo", "harm=1", "-c", "bs", "--json",
         "--store", url], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_an_http_post_answers_every_key_of_post_json(tmp_path):
    url = f"sqlite:///{tmp_path / 'shape.db'}"
    table = table_on(url, posts_per_minute=0)
    with table.client:
        answer = table.post("gm1", DAMAGE, key="bo-hurt").json()
        again = table.post("gm1", DAMAGE, key="bo-hurt").json()
    printed = posted_by_the_cli(url)

    assert set(printed) <= set(answer), sorted(set(printed) - set(answer))
    assert again == answer  # a repeated key is answered the same, byte for byte
    assert answer["id"] == answer["command_id"] == "bo-hurt" and answer["status"] == printed["status"] == "applied"
    assert isinstance(answer["position"], int) and isinstance(printed["position"], int)
    assert printed["position"] > answer["position"]
    assert answer["summary"] and printed["summary"]
    # The events and rolls: whole in the HTTP answer, counted and named by id in the CLI's.
    assert len(answer["events"]) > 0 and printed["events"] > 0
