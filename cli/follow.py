"""`rollbook follow`: keep the projections caught up as commands arrive, until stopped (SIGTERM, Ctrl-C)."""

from __future__ import annotations

import signal
from typing import Annotated, Any

import typer

from . import N_, StoreOption, app, configure_logging, fail, gettext, guarded, say
from .opening import open_store


@app.command()
@guarded
def follow(
    store: StoreOption = None,
    interval: Annotated[float, typer.Option("--interval", help=N_("SQLite: seconds between pulls."))] = 1.0,
) -> None:
    """Keep the projections caught up as commands are stored: PostgreSQL's subscription, SQLite's pull loop."""
    from ..projections.follow import Follower

    configure_logging(writing=True)
    opened = open_store(store, creates=True)  # it may start before the first command makes the store
    try:
        follower = Follower(opened, interval=interval)
    except ValueError as error:
        fail(str(error))

    def stop(*_: Any) -> None:
        follower.stop()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    position = follower.run()
    say(gettext("followed up to position {position}").format(position=position))
