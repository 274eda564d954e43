"""One writer of the concurrency tests, run as its own process: `python racer.py STORE FILE READY GO`.

It opens the store and reads its commands first (its campaign is now cached as it was),
creates the file READY, waits for the file GO and the start time written in it (so all
writers begin at once, on what they read before), applies its commands in order through
the service, and prints what became of each as JSON. Log lines are JSON on standard error.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import structlog

from rollbook.commands.parse import parse_command
from rollbook.commands.service import Rollbook
from rollbook.domain.errors import CommandRejected
from rollbook.store import Store


def main(url: str, path: str, ready: str, go: str) -> None:
    structlog.configure(
        processors=[structlog.processors.add_log_level, structlog.processors.JSONRenderer()],
        logger_factory=structlog.PrintLoggerFactory(file=sys.stderr),
    )
    store = Store.open(url)
    service = Rollbook(store)
    with open(path, encoding="utf-8") as lines:
        commands = [parse_command(json.loads(line), ruleset_of=service.ruleset_of) for line in lines if line.strip()]
    Path(ready).touch()
    while not Path(go).exists() or not Path(go).read_text():
        time.sleep(0.005)
    start = float(Path(go).read_text())
    while time.time() < start:
        pass
    results = []
    for command in commands:
        try:
            results.append({"id": command.id, "status": service.execute(command).status})
        except CommandRejected as error:
            results.append({"id": command.id, "status": "refused", "reason": str(error)})
    store.close()
    print(json.dumps(results))


if __name__ == "__main__":
    main(*sys.argv[1:5])
