"""`rollbook serve`: the HTTP API (FastAPI on uvicorn) on a store, for players, GMs and auditors signed in."""

from __future__ import annotations

from typing import Annotated

import typer

from . import StoreOption, app, configure_logging, fail


@app.command()
def serve(
    store: StoreOption = None,
    host: Annotated[str, typer.Option("--host", help="Address to listen on (loopback: put a TLS proxy in front).")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="Port to listen on.")] = 8421,
    posts_per_minute: Annotated[float, typer.Option(
        "--posts-per-minute", help="POSTs a minute each token may make (0: no limit).")] = 600,
) -> None:
    """Serve the HTTP API: players post their own moves, signed in with `rollbook users` tokens."""
    import uvicorn

    from ...server.app import create_app
    from ...store import default_url

    configure_logging(writing=True)
    try:
        application = create_app(store or default_url(), posts_per_minute=posts_per_minute)
    except Exception as error:
        fail(f"cannot open the store {store or default_url()}: {error}")
    uvicorn.run(application, host=host, port=port, log_level="warning")
