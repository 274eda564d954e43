"""Where a verb's work goes: the store it opens (its projections caught up, for a verb that reads) or
the `rollbook serve` it is sent to, and the campaign it is about when none is named.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .. import settings as rollbook_settings
from . import configure_logging, fail, gettext, retries_said, say, settings


def remote_server(store: str | None = None) -> str | None:
    """The `rollbook serve` a verb goes to: --server (or $ROLLBOOK_SERVER), else the one `rollbook login`
    kept, unless the verb names a store (--store, $ROLLBOOK_STORE): then it opens that store."""
    if settings.server:
        return settings.server
    if store or settings.store or rollbook_settings.text("store"):
        return None
    from .saved import saved_login

    return saved_login().get("server")


def serving(store: str | None = None) -> bool:
    """Whether the verb goes to a server instead of opening a store (`remote_server`)."""
    return remote_server(store) is not None


def remote_client(store: str | None = None) -> Any:
    """The server `remote_server` names, signed in with --token (or $ROLLBOOK_TOKEN), else with the token
    `rollbook login` kept for that very server: a saved token is never sent to another one."""
    from .remote import Remote
    from .saved import same_server, saved_login

    server = str(remote_server(store))
    token = settings.token
    if not token:
        saved = saved_login()
        token = saved["token"] if saved and same_server(saved["server"], server) else None
    return Remote(server, token, say_retry=retries_said())


def open_lasting(store: str | None, *, creates: bool = False) -> Any:
    """The store, for a verb whose settings must outlive it (a link, a binding, a webhook): memory:// is refused."""
    configure_logging(writing=False)
    opened = open_store(store, creates=creates)
    if opened.kind == "memory":
        fail(gettext("memory:// keeps nothing from one command to the next: give a SQLite or PostgreSQL --store"))
    return opened


def open_store(url: str | None, *, to_read: bool = False, creates: bool = False) -> Any:
    """The store; `to_read`: only to be read, so a file that cannot be written opens too; `creates`: a
    verb that makes the store if it is not there (run, import, demo, serve, users, post, follow); the others
    need it to exist."""
    from ..bootstrap import open_store as opened
    from ..domain.errors import CommandRejected

    url = url or settings.store
    if not creates:
        _refuse_a_missing_file(url)
    try:
        store = opened(url, to_read=to_read)
    except CommandRejected as error:
        fail(str(error))
    except Exception as error:  # the database cannot be reached or opened
        from ..store import default_url
        from ..store.failures import read_only_hint

        fail(gettext("cannot open the store {url}: {error}").format(url=url or "", error=error)
             + read_only_hint(url or default_url()))
    # Closed when the verb ends, not at interpreter exit: a PostgreSQL pool left to the garbage collector
    # is closed by the library's `__del__` after its modules are gone (an AttributeError on stderr), and a
    # verb invoked in process (tests, `serve`'s helpers) would keep its connections.
    if settings.context is not None:
        settings.context.call_on_close(store.close)
    return store


def _refuse_a_missing_file(url: str | None) -> None:
    """A verb that needs an existing SQLite store refuses a path with no file: a mistyped --store is an
    error, not a fresh empty database. The verbs that make a store open it with `creates=True`."""
    from ..store import default_url, environment_for

    path = environment_for(url or default_url()).get("SQLITE_DBNAME")
    if path and not Path(path).exists():
        if not Path(path).is_absolute():
            fail(gettext("no store at {path} ({absolute}): three slashes (sqlite:///{path}) make a path relative to "
                         "this folder; an absolute path takes four (sqlite:////{path}). `rollbook run`, `rollbook import` "
                         "and `rollbook demo` create a store").format(path=path, absolute=Path(path).absolute()))
        fail(gettext("no store at {path} (is the --store or $ROLLBOOK_STORE mistyped? `rollbook run`, `rollbook import` "
                     "and `rollbook demo` create one)").format(path=path))


def chosen(campaign: str | None, store: str | None, *, needed: bool = True) -> Any:
    """The campaign named by -c, else $ROLLBOOK_CAMPAIGN (typer reads it), else `rollbook use`'s choice
    (for the store, or for the server the verb goes to)."""
    if campaign:
        return campaign
    server = remote_server(store)
    if server is not None:
        from .saved import default_campaign

        found = default_campaign(server)
        where = gettext("yours on {server}").format(server=server)
    else:
        from ..store import default_url
        from ..store.defaults import read_default_campaign

        found, where = read_default_campaign(store or settings.store or default_url()), gettext("them")
    if found is None and needed:
        fail(gettext("no campaign: give -c C, set ROLLBOOK_CAMPAIGN, or choose one with `rollbook use C` "
                     "(`rollbook campaigns` lists {where})").format(where=where))
    return found


def reader_for(url: str | None, *, runs_commands: bool = True) -> Any:
    """The store's projections, caught up.

    A verb that only reads (`runs_commands=False`) logs nothing, so unless -v it does not
    configure structlog: importing it is a fifth of `rollbook sheet`'s start-up.
    """
    from ..projections.queries import Reader

    if runs_commands or settings.verbose:
        configure_logging(writing=False)
    reader = Reader(open_store(url))
    reader.catch_up()
    warn_unshown(reader)
    return reader


def warn_unshown(reader: Any) -> None:
    """Name every aggregate the projections could not show; the rest are shown as usual."""
    for failure in reader.projector.failures:
        say(gettext("rollbook: warning: {failure}").format(failure=failure), err=True)
