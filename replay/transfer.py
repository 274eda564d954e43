"""Moving a campaign between stores: `rollbook export` and `rollbook import`.

The export is JSON Lines: a header, then every recorded command of the campaign's first
revision with the dice it rolled (faces and provenance), the seed commitments it made and
the seeds it revealed, then every dispute ruling. Importing re-executes that history in the
target store — batched, many commands per transaction — and then re-applies each ruling,
so the copy has the same revisions, the same sheets, and passes `rollbook verify`.

Seeds not yet revealed stay secret: they are exported only with `--with-secrets` (for the
GM moving their own campaign), otherwise the copy cannot roll from the current seed until
the chapter's end reveals it — it can still be read, verified and played with typed dice.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import asdict
from typing import Any

from ..commands.service import Rollbook
from ..domain.errors import CommandRejected
from ..store import Store
from .dispute import Ruling, dispute, revisions
from .history import RecordedCommand, recorded_commands
from .reexecute import RecordedSeeds, RecordedSupply

FORMAT = "rollbook-export"
VERSION = 1


def export_lines(store: Store, campaign: str, *, with_secrets: bool = False) -> Iterator[str]:
    yield json.dumps({"format": FORMAT, "version": VERSION, "campaign": campaign})
    pending: set[str] = set()
    for recorded in recorded_commands(store.app, campaign):
        if recorded.type == "dispute":
            continue
        pending.update(recorded.commitments)
        pending.difference_update(recorded.reveals)
        yield json.dumps({"kind": "command", **asdict(recorded)}, ensure_ascii=False)
    for entry in revisions(store, campaign)[1:]:
        yield json.dumps({"kind": "dispute", **entry}, ensure_ascii=False)
    if with_secrets:
        for commitment in sorted(pending):
            yield json.dumps({"kind": "secret", "commitment": commitment,
                              "seed": store.seeds.seed(campaign, commitment).hex()})


def import_lines(
    store: Store, lines: Iterator[str], *, batch_size: int = 500, progress: Callable[[int], None] | None = None
) -> dict[str, Any]:
    header = json.loads(next(lines))
    if header.get("format") != FORMAT:
        raise CommandRejected("not a rollbook export (its first line has no format header)", field="format")
    campaign = header["campaign"]
    seeds = RecordedSeeds(store.seeds)
    supply: dict[str, RecordedSupply] = {}
    service = Rollbook(store, dice_for=lambda c: supply.pop(c.id or "", RecordedSupply([])), seeds=seeds)
    from ..commands.parse import parse_command

    imported, rulings, pending = 0, [], []

    def flush() -> None:
        nonlocal imported
        with service.batch():
            for recorded in pending:
                seeds.expect(recorded)
                supply[recorded.id] = RecordedSupply(recorded.rolls)
                service.execute(parse_command(dict(recorded.command), ruleset_of=service.ruleset_of))
        imported += len(pending)
        pending.clear()
        if progress is not None:
            progress(imported)

    for number, line in enumerate(lines, start=2):
        entry = json.loads(line)
        kind = entry.pop("kind", None)
        if kind == "command":
            pending.append(RecordedCommand(**entry))
            if len(pending) >= batch_size:
                flush()
        elif kind == "dispute":
            rulings.append(entry)
        elif kind == "secret":
            _keep_secret(store, campaign, entry)
        else:
            raise CommandRejected(f"line {number}: unknown entry kind {kind!r}", field="kind")
    flush()
    for entry in rulings:
        decision = entry["decision"]
        ruling = Ruling(
            roll=entry["roll"], reason=entry["reason"], actor=entry["actor"],
            reroll=bool(decision.get("reroll")), faces=decision.get("faces"), drop=bool(decision.get("drop")),
            also_drop=list(decision.get("also_drop", [])),
        )
        dispute(store, campaign, ruling, dry_run=False, dispute_id=entry["dispute"], seed=decision.get("seed"))
    return {"campaign": campaign, "commands": imported, "disputes": len(rulings)}


def _keep_secret(store: Store, campaign: str, entry: dict[str, Any]) -> None:
    keep = getattr(store.seeds, "keep", None)
    if keep is None:
        raise CommandRejected("this store cannot keep imported secret seeds", field="seed")
    keep(campaign, bytes.fromhex(entry["seed"]))
