"""A `rollbook serve` that is killed (SIGKILL) right after its posts' grouped COMMIT, before it answers them.

    python tests/server/dies_after_group_commit.py STORE_URL PORT WAITING

The first COMMIT is held until WAITING more posts are handed over to the writer (bounded), so the second
COMMIT stores them together; the moment it has, the process kills itself: every post of that group is
stored and not one of them answered. test_group_commit.py's kill test posts into it from 20 threads.
"""

from __future__ import annotations

import os
import signal
import sys
import threading

import uvicorn

from rollbook.bootstrap import create_app
from rollbook.store.own_connection import OwnConnection


def serve(store_url: str, port: int, waiting: int) -> None:
    app = create_app(store_url, posts_per_minute=0)
    original, commits = OwnConnection.commit, []

    def commit(connection: OwnConnection) -> None:
        commits.append(connection)
        if len(commits) == 1:
            writer = app.state.rollbook.writer
            for _ in range(60_000):  # bounded: the other posts are handed over in far fewer turns
                if writer._writes.qsize() >= waiting:
                    break
                threading.Event().wait(0.001)
        original(connection)
        if len(commits) == 2:
            os.kill(os.getpid(), signal.SIGKILL)  # stored: the answers die with the process

    OwnConnection.commit = commit  # type: ignore[method-assign]
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning")


if __name__ == "__main__":
    serve(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]))
