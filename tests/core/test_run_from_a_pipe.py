"""`rollbook run PATH` where PATH is a pipe (/dev/stdin, a shell's `<(…)`): read once, never rewound."""

import json
import os
import threading

from typer.testing import CliRunner

from rollbook.cli import app

LINES = [
    {"type": "create_campaign", "campaign": "piped", "ruleset": "pirates", "title": "Piped"},
    {"type": "create_character", "campaign": "piped", "name": "Anna", "player": "anna",
     "stats": {"audacity": 2, "guile": 1, "foresight": 1, "reputation": -1}, "luck": 1},
    {"type": "take_damage", "campaign": "piped", "character": "Anna", "harm": 1},
]


def test_a_command_file_that_is_a_pipe_is_applied_whole(tmp_path):
    fifo = tmp_path / "commands"
    os.mkfifo(fifo)

    def feed() -> None:
        with open(fifo, "w") as pipe:  # blocks until `run` opens the other end
            pipe.write("".join(json.dumps(line) + "\n" for line in LINES))

    feeder = threading.Thread(target=feed, daemon=True)
    feeder.start()
    url = f"sqlite:///{tmp_path / 'store.db'}"
    done = CliRunner().invoke(app, ["run", str(fifo), "--store", url, "--json"])
    feeder.join(timeout=10)
    assert done.exit_code == 0, done.output
    assert json.loads(done.stdout)["applied"] == 3
    sheet = CliRunner().invoke(app, ["sheet", "Anna", "--campaign", "piped", "--store", url, "--json"])
    assert sheet.exit_code == 0, sheet.output
    assert json.loads(sheet.stdout)["wounds"]["light"] == 1
