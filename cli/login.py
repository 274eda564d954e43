"""Signing in once: `rollbook login URL`, `rollbook logout`, `rollbook whoami`.

`login` asks for the token (hidden) or reads it from `--token-file`, checks it with the server
(`GET /whoami`) and keeps server and token in the user's config directory (`saved.py`, 0600), so
every later verb goes to that server without --server and --token. `--store`/$ROLLBOOK_STORE
still open a store, and --server/--token (or $ROLLBOOK_SERVER/$ROLLBOOK_TOKEN) still win.
"""

from __future__ import annotations

from typing import Annotated, Any

import typer

from . import N_, gettext, JsonOption, app, fail, guarded, print_json, retries_said, say, settings
from .opening import remote_client, remote_server


@app.command()
@guarded
def login(
    server: Annotated[str, typer.Argument(help=N_("The `rollbook serve` URL, e.g. https://rollbook.example.org."))],
    token_file: Annotated[str | None, typer.Option(
        "--token-file", help=N_("Read the token from this file (- for standard input) instead of asking for it."))] = None,
) -> None:
    """Sign in to a server once: later verbs go there, signed in with this token (kept 0600 in your config folder)."""
    from .remote import Remote
    from .saved import keep_login

    if not server.startswith(("http://", "https://")):
        fail(gettext("server: {server} is not a URL: give it as https://HOST (or http://127.0.0.1:PORT)").format(
            server=repr(server)))
    token = _token_from(token_file)
    who = _whoami(Remote(server, token, say_retry=retries_said()))
    kept = keep_login(server.rstrip("/"), token, who["user"])
    say(gettext("signed in to {server} as {user} (kept in {kept}); `rollbook logout` forgets it").format(
        server=server.rstrip("/"), user=who["user"], kept=kept))


def _token_from(token_file: str | None) -> str:
    import sys

    from .files import read_file

    if token_file == "-":
        token = sys.stdin.readline()
    elif token_file is not None:
        token = read_file(token_file).decode("utf-8", "replace")
    else:
        token = typer.prompt(gettext("Token (from your GM: `rollbook users add NAME`)"), hide_input=True, default="",
                             show_default=False)
    token = token.strip()
    if not token:
        fail(gettext("token: none given; paste the token your GM gave you, or use --token-file FILE"))
    return token


def _whoami(remote: Any) -> dict[str, Any]:
    return dict(remote.get("/whoami").json())


@app.command()
@guarded
def logout() -> None:
    """Forget the server and token `rollbook login` kept (the token itself still works until the GM revokes it)."""
    from .saved import forget_login, login_file

    was = forget_login()
    if not was:
        say(gettext("not signed in: nothing kept in {file}").format(file=login_file()))
        return
    say(gettext("signed out of {server}: removed {file}").format(server=was["server"], file=login_file()))


@app.command()
@guarded
def whoami(as_json: JsonOption = False) -> None:
    """Who the server knows you as, which server, and your role in each campaign."""
    from .saved import login_file, same_server, saved_login

    server = remote_server()
    if server is None:
        fail(gettext("not signed in: `rollbook login URL` (or give --server and --token)"))
    saved = saved_login()
    source = "--server/ROLLBOOK_SERVER" if settings.server else f"`rollbook login` ({login_file()})"
    if settings.token:
        source += ", token from --token/ROLLBOOK_TOKEN"
    elif not (saved and same_server(saved["server"], server)):
        source += ", no token"
    who = _whoami(remote_client())
    if as_json:
        print_json({"user": who["user"], "server": server.rstrip("/"), "campaigns": who["campaigns"]})
        return
    say(gettext("{user} on {server} (from {source})").format(user=who["user"], server=server.rstrip("/"), source=source))
    for membership in who["campaigns"]:
        say(f"  {membership['campaign']}: {gettext(membership['role'])}")
    if not who["campaigns"]:
        from ..domain.rulesets import available

        say("  " + gettext("no campaign yet. To run one: `rollbook post create_campaign campaign=ID ruleset=RULESET "
                           "title=TITLE` (RULESET one of {rulesets}; its fields: `rollbook post --help "
                           "create_campaign`); to play in one, ask its GM to grant you a role").format(
            rulesets=", ".join(available())))
