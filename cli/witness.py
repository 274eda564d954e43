"""`rollbook witness`: a player's own witness of the campaign's log (replay/witness.py), on his machine."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from .. import settings as rollbook_settings
from . import N_, CampaignOption, JsonOption, StoreOption, app, fail, gettext, guarded, print_json, refused, say, settings
from .opening import chosen, open_store

witness_app = typer.Typer(help=N_("A witness: co-sign each checkpoint that extends the last one you co-signed, and "
                                  "refuse (keeping both heads as evidence) any that does not."), no_args_is_help=True)
app.add_typer(witness_app, name="witness")

StateOption = Annotated[Path | None, typer.Option(
    "--state", envvar=rollbook_settings.variable("witness_state"),
    help=N_("The witness's own SQLite file (its key beside it, FILE.key); default witness.db in $ROLLBOOK_STATE or the user data folder."))]


def _state(path: Path | None) -> Path:
    from ..replay.witness_file import default_state

    return path or default_state()


@witness_app.command("add")
@guarded
def add(
    name: Annotated[str, typer.Option("--name", help=N_("The witness's name, a key name (e.g. alice.example/witness)."))],
    source: Annotated[str | None, typer.Argument(
        help=N_("Where the checkpoints come from: a `rollbook serve` URL, or a store URL (none with --origin)."))] = None,
    campaign: CampaignOption = None,
    log_vkey: Annotated[str | None, typer.Option(
        "--log-vkey", help=N_("The campaign's vkey as the GM published it (default: the one the source names now)."))] = None,
    origin: Annotated[str | None, typer.Option(
        "--origin", help=N_("Instead of a source: a log that sends its checkpoints to `witness serve` (any C2SP log; "
                            "a Rollbook campaign's is `[HOST/]rollbook/CAMPAIGN`), trusted by --log-vkey."))] = None,
    state: StateOption = None,
    as_json: JsonOption = False,
) -> None:
    """Watch a campaign at a source, or take a log's checkpoints by origin (`witness serve`): the witness (made on first use, with its own key) pins the log's key and prints its own vkey, for `verify --witness`."""
    from ..replay.witness import add as add_source
    from ..replay.witness import add_log

    if origin is not None:
        if source is not None or log_vkey is None:
            fail(gettext("--origin takes the log's --log-vkey and no SOURCE (the log sends its checkpoints to "
                         "`witness serve`)"))
        witness = add_log(_state(state), origin, log_vkey, name)
        shown = {"witness": witness.name, "vkey": witness.verifier.vkey, "origin": origin, "log_vkey": log_vkey,
                 "state": str(witness.path)}
        if as_json:
            print_json(shown)
            return
        say(gettext("witness {witness} takes the checkpoints of {origin} at `rollbook witness serve`, trusting {vkey}")
            .format(witness=witness.name, origin=origin, vkey=log_vkey))
        say(gettext("its vkey (give it to the log and the players, for `rollbook verify --witness`): {vkey}")
            .format(vkey=witness.verifier.vkey))
        return
    if source is None:
        fail(gettext("give the SOURCE the checkpoints come from (a `rollbook serve` URL or a store URL), or --origin"))
    campaign = chosen(campaign, None)
    witness, vkey = add_source(_state(state), source, campaign, name, token=settings.token, log_vkey=log_vkey)
    shown = {"witness": witness.name, "vkey": witness.verifier.vkey, "campaign": campaign, "source": source,
             "log_vkey": vkey, "state": str(witness.path)}
    if as_json:
        print_json(shown)
        return
    say(gettext("witness {witness} watches {campaign} at {source}, trusting the log key {vkey}").format(
        witness=witness.name, campaign=campaign, source=source, vkey=vkey))
    say(gettext("its vkey (give it to the players, for `rollbook verify --witness`): {vkey}").format(
        vkey=witness.verifier.vkey))


#: A check's outcomes that are not a fork or a failure (replay/witness.py's `status`, kept as it is in --json), in words.
STATUSES = {"cosigned": N_("cosigned"), "unchanged": N_("unchanged")}


@witness_app.command("check")
@guarded
def check(
    campaign: Annotated[str | None, typer.Option("--campaign", "-c", help=N_("Only this campaign (default: every one watched)."))] = None,
    state: StateOption = None,
    as_json: JsonOption = False,
) -> None:
    """Fetch each watched log's latest checkpoint, check it extends the last one co-signed (a consistency proof), co-sign it and send the cosignature back; refuse a fork, printing both heads. Exit 1 on a fork or a failure."""
    from ..replay.witness import check as run_check

    outcomes = run_check(_state(state), campaign, token=settings.token)
    if as_json:
        print_json([o.as_dict() for o in outcomes])
    else:
        for outcome in outcomes:
            where = gettext("{log} at {size} commands").format(log=outcome.origin or outcome.campaign,
                                                                size=outcome.size) \
                if outcome.size is not None else outcome.campaign
            if outcome.status == "fork":
                say(gettext("FORK: {where} ({source}): {reason}").format(
                    where=where, source=outcome.source, reason=_reason(outcome)))
                say(gettext("the checkpoint this witness co-signed:"))
                say(outcome.evidence[0].rstrip("\n"))
                say(gettext("the checkpoint offered now:"))
                say(outcome.evidence[1].rstrip("\n"))
            elif outcome.status == "failed":
                say(gettext("failed: {where} ({source}): {reason}").format(
                    where=where, source=outcome.source, reason=_reason(outcome)))
            else:
                reason = _reason(outcome)
                delivered = ((gettext("delivered ({reason})").format(reason=reason) if reason
                              else gettext("delivered")) if outcome.delivered
                             else (reason or gettext("not delivered")))
                status = gettext(STATUSES.get(outcome.status, outcome.status))
                say(f"{status}: {where} ({outcome.source}), {delivered}")
    if any(o.status in ("fork", "failed") for o in outcomes):
        fail(gettext("{forks} fork(s), {failures} failure(s)").format(
            forks=sum(o.status == "fork" for o in outcomes), failures=sum(o.status == "failed" for o in outcomes)))


def _reason(outcome: Any) -> str:
    """A check's reason in the reader's language where the witness said it itself (a source's words and a malformed
    note's stay as they came); in English, its `reason` (the --json's) byte for byte."""
    return refused(outcome.said) if outcome.said is not None else outcome.reason


@witness_app.command("evidence")
@guarded
def evidence(state: StateOption = None, as_json: JsonOption = False) -> None:
    """Every fork the witness refused, with both heads."""
    import sqlite3
    from contextlib import closing

    path = _state(state)
    if not path.exists():
        fail(gettext("no witness at {path}").format(path=path))
    with closing(sqlite3.connect(path)) as connection:
        connection.row_factory = sqlite3.Row
        rows = [dict(r) for r in connection.execute("SELECT * FROM evidence ORDER BY id")]
    if as_json:
        print_json(rows)
        return
    for row in rows:
        # The reasons kept are the witness's own English messages (N_): said in the reader's language.
        say(f"{row['origin']} ({row['source']}): {gettext(row['reason'])}")
        say(row["cosigned"].rstrip("\n"))
        say(row["offered"].rstrip("\n"))
    if not rows:
        say(gettext("no fork found"))


@witness_app.command("serve")
@guarded
def serve(
    state: StateOption = None,
    host: Annotated[str, typer.Option(
        "--host", help=N_("Address to listen on (loopback: put a TLS proxy in front)."))] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help=N_("Port to listen on."))] = 8422,
) -> None:
    """Answer C2SP tlog-witness's `POST /add-checkpoint` for every log this witness watches or was added by --origin: 200 and the cosignature of a checkpoint that extends the last one co-signed; 400, 403, 404, 409 (with its size) or 422 otherwise."""
    import uvicorn

    from ..bootstrap import witness_app

    api = witness_app(_state(state))
    name = api.title.removeprefix("Rollbook witness ")
    say(gettext("witness {witness} answers add-checkpoint at {url}").format(
        witness=name, url=f"http://{host}:{port}/add-checkpoint"))
    uvicorn.run(api, host=host, port=port, log_level="warning")


@witness_app.command("ask")
@guarded
def ask(
    url: Annotated[str, typer.Argument(help=N_("The witness's URL: its tlog-witness API (`URL/add-checkpoint`)."))],
    vkey: Annotated[str, typer.Option("--vkey", help=N_("The witness's vkey (a cosignature key, type 0x04)."))],
    campaign: CampaignOption = None,
    store: StoreOption = None,
    as_json: JsonOption = False,
) -> None:
    """The campaign names an external witness (C2SP tlog-witness): each `rollbook checkpoint` sends it the checkpoint with the consistency proof from the size it co-signed last, and keeps its cosignature."""
    from ..replay.witnessing import name_witness

    campaign = chosen(campaign, store)
    opened = open_store(store)
    witness = name_witness(opened, campaign, url, vkey)
    if as_json:
        print_json({"campaign": campaign, "url": url.rstrip("/"), "witness": witness.name, "vkey": witness.vkey})
        return
    say(gettext("{campaign} sends its checkpoints to the witness {witness} at {url}").format(
        campaign=campaign, witness=witness.name, url=url.rstrip("/")))
