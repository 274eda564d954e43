"""`rollbook serve`: the HTTP API (FastAPI on uvicorn) on a store, for players, GMs and auditors signed in."""

from __future__ import annotations

from typing import Annotated

import typer

from . import StoreOption, app, configure_logging, fail, open_store


@app.command()
def serve(
    store: StoreOption = None,
    host: Annotated[str, typer.Option("--host", help="Address to listen on (loopback: put a TLS proxy in front).")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="Port to listen on.")] = 8421,
    posts_per_minute: Annotated[float, typer.Option(
        "--posts-per-minute", help="POSTs a minute each token may make (0: no limit).")] = 600,
    demo: Annotated[bool, typer.Option(
        "--demo", help=f"Serve a fresh demo store ({DEMO_STORE} unless --store) with the pirate example "
                       "campaign, a GM and a player; print their tokens and curl lines to try.")] = False,
) -> None:
    """Serve the HTTP API: players post their own moves, signed in with `rollbook users` tokens."""
    import uvicorn

    from ...server.app import create_app
    from ...store import default_url

    configure_logging(writing=True)
    url = store or (DEMO_STORE if demo else default_url())
    if demo:
        _build_demo(url, f"http://{host}:{port}")
    try:
        application = create_app(url, posts_per_minute=posts_per_minute)
    except Exception as error:
        fail(f"cannot open the store {url}: {error}")
    uvicorn.run(application, host=host, port=port, log_level="warning")


DEMO_STORE = "sqlite:///rollbook-serve-demo.db"


def _build_demo(url: str, base: str) -> None:
    """The pirate example campaign in a fresh store, its GM `gm` and player `anna`; how to try them."""
    from importlib import resources

    from ...commands.runner import run_file
    from ...commands.service import Rollbook
    from ...server.accounts import Accounts
    from .write import _remove_sqlite_file

    _remove_sqlite_file(url)
    opened = open_store(url)
    report = run_file(Rollbook(opened), resources.files("rollbook").joinpath("examples", "pirates.jsonl").read_bytes())
    if report.error is not None:
        fail(f"the demo campaign: {report.error}")
    accounts = Accounts(opened)
    tokens = {name: accounts.add(name) for name in ("gm", "anna")}
    accounts.grant("black-sails", "gm", "gm", by="rollbook serve --demo")
    accounts.grant("black-sails", "anna", "player", by="rollbook serve --demo")
    opened.close()
    c = f"{base}/campaigns/black-sails"
    typer.echo(f"""Demo store {url}: the campaign black-sails (examples/pirates.jsonl), serving on {base}

GM token (user gm):       {tokens["gm"]}
Player token (user anna): {tokens["anna"]}

Try, in another terminal:
  GM={tokens["gm"]}
  ANNA={tokens["anna"]}
  curl -s {c}/sheets/Anna -H "Authorization: Bearer $ANNA"
  curl -s -X POST {c}/commands -H "Authorization: Bearer $ANNA" -H "Idempotency-Key: anna-demo-1" \\
       -H "Content-Type: application/json" -d '{{"type": "roll_move", "character": "Anna", "stat": "audacity"}}'
  curl -s -X POST {c}/commands -H "Authorization: Bearer $ANNA" -H "Idempotency-Key: anna-demo-2" \\
       -H "Content-Type: application/json" -d '{{"type": "roll_move", "character": "Bo", "stat": "guile"}}'   # 403: Bo is not hers
  curl -s {c}/rolls -H "Authorization: Bearer $GM"
  curl -sN {c}/events -H "Authorization: Bearer $GM" -H "Last-Event-ID: 0"                     # live, Ctrl-C to stop
  {base}/docs shows every route (the OpenAPI document is {base}/openapi.json)
""")
