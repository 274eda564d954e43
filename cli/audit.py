"""Verbs of replay and audit: replay, disputes, revisions, verification and checkpoints (export and import:
transfer.py)."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from . import (N_, gettext, ngettext,
    say, CampaignOption, JsonOption, RevisionOption, StoreOption, app, configure_logging, fail, guarded, print_json,
)
from .files import read_file
from .opening import chosen, open_store, reader_for, remote_client, serving
from .printing import cell, phased_bar, progress_bar, say_wrapped, show_table, when

# --- replay and audit -----------------------------------------------------------------------


@app.command()
@guarded
def replay(
    campaign: CampaignOption = None,
    store: StoreOption = None,
    until: Annotated[str | None, typer.Option("--until", help=N_("Stop after this point (as --at)."))] = None,
    verify: Annotated[bool, typer.Option("--verify", help=N_("Check the re-executed stream is identical to the stored one."))] = False,
    revision: RevisionOption = None,
    as_json: JsonOption = False,
) -> None:
    """Re-execute the campaign's recorded commands, with their recorded dice, in memory (nothing is written)."""
    campaign = chosen(campaign, store)
    from ..domain.revisions import spoken

    if serving(store):  # the server re-executes its own store: `verify` is the check that trusts no server
        shown = remote_client(store).campaign_get(campaign, "/replay", revision=revision, until=until,
                                                 verify=verify or None).json()
        if as_json:
            print_json(shown)
        elif shown.get("difference") is None:
            checked = gettext(", {count} events identical to the store").format(count=shown["events_compared"]) \
                if verify else ""
            say_wrapped(gettext("replayed {count} commands of {campaign} on the server").format(
                count=shown["commands"], campaign=spoken(shown["campaign"])) + checked)
        if shown.get("difference") is not None:
            fail(gettext("replay differs at position {position}: {difference}").format(
                position=shown["position"], difference=shown["difference"]))
        return
    from ..replay.replayer import replay as run_replay
    from ..replay.timetravel import key_of, resolve_point

    reader = reader_for(store)
    key = key_of(reader, campaign, revision)
    until_seq = None
    if until is not None:
        position = resolve_point(reader, key, until)
        done = [c["seq"] for c in reader.views.all(key, "command") if c["position"] <= position]
        until_seq = max(done) if done else 0
    total = until_seq if until_seq is not None else int(reader.campaign(key)["commands"])
    with progress_bar(gettext("replaying {campaign}").format(campaign=spoken(key)), 0 if as_json else total) as done:
        report = run_replay(reader.store, key, until_seq=until_seq, verify=verify,
                            on_command=lambda recorded: done(recorded.seq))
    if as_json:
        print_json(report.as_dict())
    elif report.difference is None:
        checked = gettext(", {count} events identical to the store").format(count=report.events_compared) if verify else ""
        say_wrapped(gettext("replayed {count} commands of {campaign}").format(count=report.commands, campaign=spoken(key))
                    + checked)
    if report.difference is not None:
        fail(gettext("replay differs at position {position}: {difference}").format(
            position=report.position, difference=report.difference))


@app.command()
@guarded
def dispute(
    roll: Annotated[str, typer.Argument(help=N_("The roll's id (see `rollbook rolls`)."))],
    reason: Annotated[str, typer.Option("--reason", help=N_("Why the roll is disputed."))],
    campaign: CampaignOption = None,
    actor: Annotated[str, typer.Option("--actor", help=N_("gm or auditor:NAME."))] = "gm",
    reroll: Annotated[bool, typer.Option("--reroll", help=N_("Roll it again from a fresh, published seed."))] = False,
    faces: Annotated[str | None, typer.Option("--faces", help=N_("The faces the auditor rules, e.g. 3,4."))] = None,
    drop: Annotated[bool, typer.Option("--drop", help=(
        N_("The command that made the roll (or the command named) did not happen; `rollbook undo CMD` does the same.")))] = False,
    and_drop: Annotated[list[str] | None, typer.Option("--and-drop", help=N_("Also strike this command (repeatable)."))] = None,
    dry_run: Annotated[bool, typer.Option("--dry-run", help=N_("Show what would change; write nothing."))] = False,
    store: StoreOption = None,
    as_json: JsonOption = False,
) -> None:
    """Dispute a roll: recompute everything it caused, then make the corrected history the current revision.

    Re-executing the history logs nothing per command (-v shows it); one summary line says what the ruling did.
    """
    campaign = chosen(campaign, store)
    from ..domain.errors import CommandRejected
    from ..replay.dispute import Ruling
    from ..replay.dispute import dispute as run_dispute
    from ..domain.ids import shown_id
    from .read import whole_id

    configure_logging(writing=False)
    roll = whole_id(store, campaign, roll)
    try:
        parsed_faces = [int(f) for f in faces.split(",")] if faces is not None else None
    except ValueError:
        raise CommandRejected("--faces takes numbers separated by commas, not {faces!r}", field="faces",
                              faces=faces) from None
    if serving(store):  # the server rules as the token's user: its role says gm or auditor:NAME
        from .remote import dispute as dispute_remotely

        shown = dispute_remotely(remote_client(store), campaign, {
            "roll": roll, "reason": reason, "reroll": reroll, "faces": parsed_faces, "drop": drop,
            "and_drop": list(and_drop or []), "dry_run": dry_run})
    else:
        ruling = Ruling(roll=roll, reason=reason, actor=actor, reroll=reroll, faces=parsed_faces, drop=drop,
                        also_drop=list(and_drop or []))
        with phased_bar(not as_json) as done:
            shown = run_dispute(open_store(store), campaign, ruling, dry_run=dry_run,
                                progress=lambda n, total: done("re-executing", n, total)).as_dict()
    if as_json:
        print_json(shown)
        return
    show_ruling(gettext("Dispute of {roll}").format(roll=shown_id(roll)), shown, dry_run=dry_run)


def show_ruling(title: str, shown: dict[str, Any], *, dry_run: bool, undo: bool = False) -> None:
    """What a ruling changed (its `--json`, from the store or a server), then one line that sums it up.
    `undo`: the ruling is `rollbook undo`'s, said as an undo of its command, which it takes back."""
    from ..replay.reexecute import STRUCK

    if shown.get("rerun"):  # the same ruling made the current revision already: nothing was written
        typer.echo(gettext("{dispute} made revision {revision} with this very ruling already; nothing written").format(
            dispute=shown["dispute"], revision=shown["revision"]))
        return
    if shown.get("rolled"):  # a reroll's new faces may change nothing a sheet keeps
        say(rolled_line(shown["roll"], shown["rolled"], gone=gettext("taken back") if undo else gettext("struck"),
                        dry_run=dry_run))
    heading = (gettext("{title}: what would change") if dry_run
               else gettext("{title}: what changed (now revision {revision})"))
    show_table(heading.format(title=title, revision=shown["revision"]), ["what", "path", "before", "after"],
               shown["differences"])
    struck = [row for row in shown["not_applied"] if row["reason"] == STRUCK]
    refused = [row for row in shown["not_applied"] if row["reason"] != STRUCK]
    if refused:
        show_table(gettext("Commands the corrected history cannot apply"), ["seq", "id", "type", "reason"], refused)
    named = shown["dispute"] if not undo else (
        gettext("undo of {roll}").format(roll=shown["roll"]) + ("" if dry_run else f" ({shown['dispute']})"))
    gone = "" if undo or not struck else ngettext(
        ", {count} command struck", ", {count} commands struck", len(struck)).format(count=len(struck))
    others = (ngettext("{count} other command", "{count} other commands", len(refused)) if undo
              else ngettext("{count} command", "{count} commands", len(refused))).format(count=len(refused))
    values = ngettext("{count} value", "{count} values", len(shown["differences"])).format(count=len(shown["differences"]))
    summary = (gettext("{named}: the campaign would be {values} changed{gone}, {others} no longer applied") if dry_run
               else gettext("{named}: the campaign is now revision {revision}, {values} changed{gone}, {others} no longer "
                            "applied"))
    say(summary.format(named=named, revision=shown["revision"], values=values, gone=gone, others=others))


def rolled_line(roll: str, rolled: dict[str, Any], *, gone: str, dry_run: bool) -> str:
    """The ruled roll before → after: `roll r7: [2, 3] = 7, partial success → [2, 1] = 5, miss`."""
    def faces(shown: dict[str, Any]) -> str:
        outcome = f", {str(shown['outcome']).replace('_', ' ')}" if shown.get("outcome") else ""
        return f"{shown['faces']} = {shown['total']}{outcome}"

    after = faces(rolled["after"]) if rolled["after"] is not None else gone
    said = gettext("roll {roll}: {before} would be {after}") if dry_run else gettext("roll {roll}: {before} → {after}")
    return said.format(roll=roll, before=faces(rolled["before"]), after=after)


@app.command()
@guarded
def revisions(campaign: CampaignOption = None, store: StoreOption = None, as_json: JsonOption = False) -> None:
    """Every revision of a campaign, with the dispute that made it."""
    campaign = chosen(campaign, store)
    if serving(store):
        rows = list(remote_client(store).campaign_get(campaign, "/revisions").json())
    else:
        from ..replay.revisions import revisions as list_revisions

        reader = reader_for(store)
        reader.campaign(campaign)
        rows = list_revisions(reader.store, campaign)
    if as_json:
        print_json(rows)
        return
    show_revisions(campaign, rows)


def show_revisions(campaign: str, rows: list[dict[str, Any]], *, out: Any = None) -> None:
    """In 80 columns: the ruling in words, its time to the minute (`--json` has it whole, and the dispute's id)."""
    shown = [{**r, "at": when(r.get("at")),
              "ruling": gettext("{ruling} by {actor}").format(ruling=_decided(r["decision"]), actor=r["actor"])
              if r.get("dispute") else ""} for r in rows]
    show_table(gettext("Revisions of {campaign}").format(campaign=campaign), ["revision", "roll", "ruling", "reason", "at"], shown, out=out)


def _decided(decision: dict[str, Any]) -> str:
    """A ruling in words: `drop`, `faces 5, 2`, `reroll`."""
    return ", ".join(key if value is True else f"{key} {cell(value)}" for key, value in decision.items()
                     if value not in (None, False, []))


@app.command()
@guarded
def verify(
    campaign: CampaignOption = None,
    store: StoreOption = None,
    revision: RevisionOption = None,
    checkpoint: Annotated[list[str] | None, typer.Option(
        "--checkpoint", help=N_("A file of checkpoints (as pasted: every one in it counts; or JSON) the store must hold to; repeatable."))] = None,
    witness: Annotated[list[str] | None, typer.Option(
        "--witness", help=N_("A witness's vkey: one of the checkpoints given must be co-signed by it; repeatable."))] = None,
    discord_key: Annotated[str | None, typer.Option(
        "--discord-key", help=N_("The Discord application's public key (hex): each Discord-posted command must be "
                                 "signed by Discord for the member it names."))] = None,
    as_json: JsonOption = False,
) -> None:
    """Recompute the hash chain, snapshots, every revealed seed's rolls and the nonces, and hold every stored event of the campaign to a recorded command (and its history to the checkpoints given); exit 1 on any finding. Only reads."""
    campaign = chosen(campaign, store)
    from ..domain.revisions import spoken
    from ..domain.checkpoint import parse_all
    from ..replay.verify_campaign import verified

    published = []
    for file in checkpoint or []:
        found = parse_all(read_file(file).decode("utf-8", "replace"), where=file)
        published += [(file if len(found) == 1 else gettext("{file} (the {n}. of {total})").format(
            file=file, n=n, total=len(found)), c) for n, c in enumerate(found, 1)]
    if witness and not checkpoint:
        fail(gettext("--witness needs the checkpoints to find its cosignature on: give --checkpoint FILE"))
    if serving(store):
        from .remote import exported_copy

        configure_logging(writing=False)  # importing the export applies its revisions' commands: not news
        opened = exported_copy(remote_client(store), campaign)
    else:
        opened = open_store(store, to_read=True)
    try:
        reports = verified(opened, campaign, revision, published)
        if discord_key is not None:  # integrations/provenance.py: Discord's signatures on the commands it carried
            from ..integrations.provenance import check_discord

            signed = check_discord(opened, campaign, reports, discord_key)
    finally:
        opened.close()
    if as_json:
        print_json({key: r.as_dict() | ({"discord": signed.as_dict()} if discord_key and key == list(reports)[-1] else {})
                    for key, r in reports.items()})
    else:
        listed: set[tuple[str, str]] = set()  # a roll every revision keeps is listed under the first only
        for key, r in reports.items():
            say_wrapped(gettext("{campaign}: {commands} commands chained (head {head}…), {rolls} rolls recomputed from "
                                "{seeds} revealed seeds, {unverifiable} rolls not verifiable yet, {findings} findings").format(
                campaign=spoken(key), commands=r.commands, head=r.head[:16], rolls=r.rolls_checked,
                seeds=r.seeds_revealed, unverifiable=len(r.unverifiable), findings=len(r.findings)))
            for finding in r.findings:
                say_wrapped(f"  {finding}", indent="    ")
            unlisted = [roll for roll in r.unverifiable if (roll.roll, roll.reason) not in listed]
            for roll in unlisted:
                say_wrapped("  " + gettext("not verifiable: roll {roll} ({reason})").format(
                    roll=roll.roll, reason=roll.reason), indent="    ")
            if len(unlisted) < len(r.unverifiable):
                above = gettext("and {count} listed above") if unlisted else gettext("the {count} listed above")
                say(f"  ({above.format(count=len(r.unverifiable) - len(unlisted))})")
            listed.update((roll.roll, roll.reason) for roll in r.unverifiable)
        if discord_key is not None:
            say(gettext("Discord: {checked} commands posted through Discord, {findings} findings").format(
                checked=signed.checked, findings=len(signed.findings)))
            for found in signed.findings:
                say_wrapped(f"  {found}", indent="    ")
    if discord_key is not None and signed.findings:
        fail(gettext("verification failed; Discord: {finding}").format(finding=signed.findings[0]))
    if any(not r.ok for r in reports.values()):
        first = min((f for r in reports.values() for f in r.findings), key=lambda f: f.position or 0)
        fail(gettext("verification failed; first finding at {finding}").format(finding=first))
    if witness:
        from ..replay.transparency import witness_problems

        unwitnessed = witness_problems([c for _, c in published], witness)
        if unwitnessed:
            fail(gettext("verification failed: {problems}").format(problems="; ".join(unwitnessed)))
        say(ngettext("co-signed by {count} witness: {names}", "co-signed by {count} witnesses: {names}",
                     len(witness)).format(count=len(witness), names=", ".join(w.split("+", 1)[0] for w in witness)),
            err=as_json)


@app.command(name="checkpoint")
@guarded
def checkpoint_(
    campaign: CampaignOption = None,
    store: StoreOption = None,
    vkey: Annotated[bool, typer.Option("--vkey", help=N_("Print the campaign's verifier key (NAME+KEYID+KEY), for check-proof and witnesses."))] = False,
    size: Annotated[int | None, typer.Option("--size", min=0, help=N_("The checkpoint at this many commands (default: now)."))] = None,
    cosigned: Annotated[bool, typer.Option("--cosigned", help=N_("The latest checkpoint a witness co-signed, with its cosignatures."))] = False,
    revision: RevisionOption = None,
    as_json: JsonOption = False,
) -> None:
    """Sign the campaign's Merkle tree head now: a C2SP checkpoint to paste into the thread, with every witness's cosignature kept for it (`verify --checkpoint` holds the store to it, `check-proof` a proof).

    With --server, the server's published checkpoint."""
    campaign = chosen(campaign, store)
    if serving(store):  # what the server publishes: its checkpoint, with every cosignature it holds
        remote = remote_client(store)
        if as_json and not (vkey or size is not None or cosigned or revision is not None):
            print_json(remote.campaign_get(campaign, "/checkpoint").json())
            return
        path = remote.campaign_path(campaign, "/checkpoint/vkey" if vkey else "/checkpoint/note")
        say(remote.get(path, size=size, revision=revision, cosigned=cosigned or None).text.rstrip("\n"))
        return
    from ..replay.transparency import checkpoint_now, open_log, published
    from ..replay.witnessing import named_witnesses, send_to_witnesses

    now = not (vkey or size is not None or cosigned or revision is not None)
    opened = open_store(store, to_read=True)
    if now and named_witnesses(opened, campaign):
        # The checkpoint goes to the witnesses the campaign names, whose cosignatures are kept: a store to write.
        opened.close()
        opened = open_store(store)
    try:
        if vkey:
            log = open_log(opened, campaign, revision)
            say((log.verifier if revision is None else log.revision_verifier).vkey)
            return
        if now:
            asked = send_to_witnesses(opened, campaign)
            shown = {**checkpoint_now(opened, campaign), "witnesses": [a.as_dict() for a in asked]}
        else:
            head = published(opened, campaign, revision=revision, size=size, cosigned=cosigned)
            shown = {"campaign": campaign, "revision": head.revision, **head.as_dict()}
    finally:
        opened.close()
    if as_json:
        print_json(shown)
        return
    say(shown["note"].rstrip("\n"))
    for answer in shown.get("witnesses", []):
        if answer["status"] not in ("cosigned", "unchanged"):
            say(gettext("witness {witness} ({url}) did not co-sign: {reason}").format(
                witness=answer["witness"], url=answer["url"], reason=answer["reason"]), err=True)
