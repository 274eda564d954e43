"""`rollbook serve`: the HTTP API (FastAPI on uvicorn) on a store, for players, GMs and auditors signed in."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from . import N_, StoreOption, app, configure_logging, fail, gettext, refused, say
from .opening import open_store


@app.command()
def serve(
    store: StoreOption = None,
    host: Annotated[str, typer.Option("--host", help=N_("Address to listen on (loopback: put a TLS proxy in front)."))] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help=N_("Port to listen on."))] = 8421,
    posts_per_minute: Annotated[float, typer.Option(
        "--posts-per-minute", help=N_("POSTs a minute each token may make (0: no limit)."))] = 600,
    demo: Annotated[bool, typer.Option(
        "--demo", help=f"Serve a fresh demo store ({DEMO_STORE} unless --store) with every example campaign, "
                       "a GM, two players and an auditor; print their tokens and curl lines to try.")] = False,
    allow_webhook_network: Annotated[list[str] | None, typer.Option(
        "--allow-webhook-network", metavar="CIDR",
        help=N_("A range webhooks may send to beside public addresses, over http:// too (a receiver of your own on "
                "127.0.0.1: 127.0.0.0/8). Repeatable."))] = None,
) -> None:
    """Serve the HTTP API: players post their own moves, signed in with `rollbook users` tokens."""
    import uvicorn

    from ..domain.errors import CommandRejected
    from ..integrations.outbound import networks
    from ..bootstrap import create_app
    from ..store import default_url

    allowed = tuple(allow_webhook_network or ())
    try:
        networks(allowed)
    except CommandRejected as error:
        fail(refused(error))
    url = store or (DEMO_STORE if demo else default_url())
    if demo:
        configure_logging(writing=False)  # the demo's own commands would bury its banner in log lines
        _build_demo(url, f"http://{host}:{port}")
    configure_logging(writing=True)
    try:
        application = create_app(url, posts_per_minute=posts_per_minute, allow_webhook_networks=allowed)
    except Exception as error:
        fail(gettext("cannot open the store {url}: {error}").format(url=url, error=error))
    base = f"http://{host}:{port}"
    say(gettext("serving {url} on {base}").format(url=url, base=base))
    _Announcing = _announcing(uvicorn.Server)
    server = _Announcing(uvicorn.Config(application, host=host, port=port, log_level="warning"),
                         ready=gettext("ready: open {base}/ in a browser, or `rollbook login {base}`; Ctrl-C stops "
                                       "it").format(base=base))
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    if not server.started:  # uvicorn said why (the port is taken…)
        raise typer.Exit(1)


def _announcing(server_class: Any) -> Any:
    """uvicorn's server, saying a ready line once it listens (uvicorn's own lines are below --log-level warning;
    made here, so that a verb that does not serve never imports uvicorn)."""

    class Announcing(server_class):  # type: ignore[misc, valid-type]
        def __init__(self, config: Any, *, ready: str) -> None:
            super().__init__(config)
            self.ready = ready

        async def startup(self, sockets: Any = None) -> None:
            await super().startup(sockets=sockets)
            if self.started:
                say(self.ready)

    return Announcing


DEMO_STORE = "sqlite:///rollbook-serve-demo.db"


#: A session played with the campaign's own dice, so the pages have proofs and dice to show:
#: one chapter ended (its seed revealed, every roll verifiable), one still open (pending).
DEMO_STATS = ("audacity", "guile", "foresight", "reputation")


def _seeded_session(rounds: int, *, end: bool) -> list[dict[str, object]]:
    lines: list[dict[str, object]] = [{"type": "start_chapter", "title": "Dice in the hold" if end else "The long night"},
                                      {"type": "start_scene"}]
    for n in range(rounds):
        for actor, name in (("anna", "Anna"), ("bo", "Bo")):
            lines.append({"type": "roll_move", "actor": f"player:{actor}", "character": name,
                          "stat": DEMO_STATS[n % len(DEMO_STATS)], "salt": f"forum post {n + 1} by {actor}"})
    lines.append({"type": "end_scene"})
    if end:
        lines.append({"type": "end_chapter"})
    return [{**line, "campaign": "black-sails"} for line in lines]


def _build_demo(url: str, base: str) -> None:
    """Every example campaign in a fresh store, with a GM `gm`, players `anna` and `bo` and an auditor
    `audrey`, and a session of the campaign's own dice in black-sails; how to try them."""
    import json
    from importlib import resources

    from ..commands.runner import run_file
    from ..bootstrap import service_for
    from ..hosting.accounts import Accounts
    from .write import _campaigns_in, _remove_sqlite_file

    _remove_sqlite_file(url)
    opened = open_store(url, creates=True)
    service = service_for(opened)
    campaigns: list[str] = []
    for example in sorted(resources.files("rollbook").joinpath("examples").iterdir(), key=lambda p: p.name):
        if example.name.endswith(".jsonl"):
            text = example.read_text()
            report = run_file(service, text.encode())
            if report.error is not None:
                fail(gettext("the demo campaign {name}: {error}").format(name=example.name, error=report.error))
            campaigns += _campaigns_in(text)
    session = [*_seeded_session(12, end=True), *_seeded_session(3, end=False)]
    report = run_file(service, "".join(json.dumps(line) + "\n" for line in session).encode())
    if report.error is not None:
        fail(gettext("the demo's dice session: {error}").format(error=report.error))
    accounts = Accounts(opened)
    tokens = {name: accounts.add(name) for name in ("gm", "anna", "bo", "audrey")}
    for campaign in campaigns:
        accounts.grant(campaign, "gm", "gm", by="rollbook serve --demo")
        accounts.grant(campaign, "audrey", "auditor", by="rollbook serve --demo")
    accounts.grant("black-sails", "anna", "player", by="rollbook serve --demo")
    accounts.grant("black-sails", "bo", "player", by="rollbook serve --demo")
    opened.close()
    say(gettext("Demo store {url}: the example campaigns ({campaigns}), serving on {base}\n\n"
                "In a browser: open {base}/ and paste a token (GM: every campaign; anna and bo: black-sails; audrey: "
                "auditor).\n").format(url=url, campaigns=", ".join(campaigns), base=base))
    c = f"{base}/campaigns/black-sails"
    labels = [(gettext("GM token (user {user}):"), "gm"), (gettext("Player token (user {user}):"), "anna"),
              (gettext("Player token (user {user}):"), "bo"), (gettext("Auditor token (user {user}):"), "audrey")]
    labelled = [(label.format(user=user), tokens[user]) for label, user in labels]
    size = max(len(label) for label, _ in labelled)
    say("\n".join(f"{label:<{size}} {token}" for label, token in labelled) + "\n\n" + gettext("Try, in another terminal:"))
    not_hers, live = gettext("403: Bo is not hers"), gettext("live, Ctrl-C to stop")
    routes = gettext("{base}/docs shows every route (the OpenAPI document is {base}/openapi.json)").format(base=base)
    say(f"""  GM={tokens["gm"]}
  ANNA={tokens["anna"]}
  curl -s {c}/sheets/Anna -H "Authorization: Bearer $ANNA"
  curl -s -X POST {c}/commands -H "Authorization: Bearer $ANNA" -H "Idempotency-Key: anna-demo-1" \\
       -H "Content-Type: application/json" -d '{{"type": "roll_move", "character": "Anna", "stat": "audacity"}}'
  curl -s -X POST {c}/commands -H "Authorization: Bearer $ANNA" -H "Idempotency-Key: anna-demo-2" \\
       -H "Content-Type: application/json" -d '{{"type": "roll_move", "character": "Bo", "stat": "guile"}}'   # {not_hers}
  curl -s {c}/rolls -H "Authorization: Bearer $GM"
  curl -sN {c}/events -H "Authorization: Bearer $GM" -H "Last-Event-ID: 0"                     # {live}
  {routes}
""")
