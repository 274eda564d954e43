"""The bare baseline of the server's rows (issue 48): FastAPI on uvicorn storing each POST as one row, one COMMIT each.

    python -m bench.bareserve sqlite:///posts.db 8500      # WAL, synchronous=FULL, as the library opens SQLite
    python -m bench.bareserve postgresql://u@h:5432/db?schema=s 8500

What the stack costs a post with nothing of Rollbook's: the body read and decoded as JSON, a thread
hop, one INSERT committed on the thread's own connection, a JSON answer. Requests do not wait for
each other's decision (there is none), only for the database.
"""

from __future__ import annotations

import json
import sqlite3
import sys
import threading
from typing import Any
from urllib.parse import parse_qs, urlparse

import uvicorn
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from starlette.concurrency import run_in_threadpool

TABLE = "CREATE TABLE IF NOT EXISTS posts (id {key}, campaign TEXT, key TEXT, body TEXT)"


def connector(url: str) -> Any:
    """A function opening one connection to the store at `url` (the table made by the first)."""
    parsed = urlparse(url)
    if parsed.scheme == "sqlite":
        path = parsed.path[1:]

        def sqlite() -> Any:
            connection = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=30)
            connection.execute("PRAGMA journal_mode=WAL")
            connection.execute("PRAGMA synchronous=FULL")
            connection.execute(TABLE.format(key="INTEGER PRIMARY KEY"))
            return connection

        return sqlite
    import psycopg

    schema = parse_qs(parsed.query).get("schema", ["public"])[0]
    conninfo = f"host={parsed.hostname} port={parsed.port or 5432} user={parsed.username} dbname={parsed.path[1:]}"

    def postgres() -> Any:
        connection = psycopg.connect(conninfo, autocommit=True, options=f"-c search_path={schema}")
        connection.execute(TABLE.format(key="BIGSERIAL PRIMARY KEY"))
        return connection

    return postgres


def create(url: str) -> FastAPI:
    connect, local = connector(url), threading.local()
    marker = "?" if url.startswith("sqlite") else "%s"
    insert = f"INSERT INTO posts (campaign, key, body) VALUES ({marker}, {marker}, {marker}) RETURNING id"

    def store(campaign: str, key: str, body: str) -> int:
        connection = getattr(local, "connection", None)
        if connection is None:
            connection = local.connection = connect()
        connection.execute("BEGIN")
        position = connection.execute(insert, (campaign, key, body)).fetchone()[0]
        connection.execute("COMMIT")
        return int(position)

    app = FastAPI()

    @app.get("/health")
    async def health() -> dict[str, str]:
        return {"status": "ok"}

    @app.post("/campaigns/{campaign}/commands")
    async def post(campaign: str, request: Request) -> JSONResponse:
        body = await request.json()
        key = request.headers["Idempotency-Key"]
        position = await run_in_threadpool(store, campaign, key, json.dumps(body))
        return JSONResponse({"command_id": key, "campaign": campaign, "position": position}, status_code=201)

    return app


if __name__ == "__main__":
    uvicorn.run(create(sys.argv[1]), host="127.0.0.1", port=int(sys.argv[2]), log_level="warning")
