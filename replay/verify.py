"""`rollbook verify`: is the stored history the history that was recorded?

Three checks, each reporting the first position where it fails:

1. the hash chain — every command's hash is recomputed over the command as recorded and
   the stored bytes of every event it wrote, chained to the previous command's hash; an
   edited payload, a removed event or an edited command breaks it;
2. the dice — every roll from the campaign's seeded source is recomputed from the seed,
   once that seed is revealed (its SHA-256 must be the commitment recorded before the
   rolls); a forged face does not match;
3. the nonces — the seeded rolls of a campaign take strictly consecutive nonces, so no
   roll can have been made and then left out.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from eventsourcing.application import Application

from ..domain.chain import GENESIS_CHAIN, chain_hash, event_digest
from ..domain.campaign import REVISION_MARK
from ..domain.dice import recompute_faces
from ..domain.ids import campaign_id
from .history import applied_version, recorded_commands
from .positions import position_of


@dataclass
class Finding:
    position: int | None
    command: str | None
    problem: str

    def __str__(self) -> str:
        where = f"position {self.position}" if self.position is not None else "position unknown"
        what = f" (command {self.command})" if self.command else ""
        return f"{where}{what}: {self.problem}"

    def as_dict(self) -> dict[str, Any]:
        return {"position": self.position, "command": self.command, "problem": self.problem}


@dataclass
class Report:
    commands: int
    rolls_checked: int
    seeds_revealed: int
    findings: list[Finding]

    @property
    def ok(self) -> bool:
        return not self.findings


def verify(app: Application, key: str) -> Report:
    findings: list[Finding] = []
    previous = GENESIS_CHAIN
    expected_seq = 1
    commands = 0
    revision_one = REVISION_MARK not in key
    next_nonce = 0
    seeded: list[tuple[dict[str, Any], int | None, str]] = []
    revealed: dict[str, bytes] = {}
    campaign_uuid = campaign_id(key)
    campaign_version = 0

    for recorded in recorded_commands(app, key):
        commands += 1
        campaign_version = applied_version(recorded, campaign_uuid, campaign_version)
        here = position_of(app, campaign_uuid, campaign_version)
        if recorded.seq != expected_seq:
            findings.append(Finding(here, recorded.id, f"command {expected_seq} is missing (next recorded is {recorded.seq})"))
        expected_seq = recorded.seq + 1

        for originator, version, digest in recorded.writes:
            found = app.recorder.select_events(UUID(originator), gt=version - 1, lte=version)
            if not found:
                findings.append(Finding(here, recorded.id, f"an event it wrote is gone ({originator[:8]}… v{version})"))
            elif event_digest(found[0]) != digest:
                name = found[0].topic.rsplit(".", 1)[-1]
                findings.append(Finding(
                    position_of(app, UUID(originator), version), recorded.id,
                    f"event {name} v{version} of {originator[:8]}… was edited",
                ))
        if chain_hash(previous, recorded.command, recorded.writes) != recorded.chain:
            findings.append(Finding(here, recorded.id, "the command record was edited (hash chain broken)"))
        previous = recorded.chain

        for roll in recorded.rolls:
            if roll.get("source") != "hmac":
                continue
            if revision_one:
                if roll["nonce"] != next_nonce:
                    findings.append(Finding(here, recorded.id, f"roll {roll['id']} has nonce {roll['nonce']}, expected {next_nonce}"))
                next_nonce = roll["nonce"] + 1
            seeded.append((roll, here, recorded.id))
        for commitment, seed_hex in recorded.reveals.items():
            seed = bytes.fromhex(seed_hex)
            if hashlib.sha256(seed).hexdigest() != commitment:
                findings.append(Finding(here, recorded.id, f"revealed seed does not match its commitment {commitment[:12]}…"))
            else:
                revealed[commitment] = seed

    root = key.split(REVISION_MARK, 1)[0]
    checked = 0
    for roll, here, command in seeded:
        seed = revealed.get(roll["commitment"])
        if seed is None:
            continue
        checked += 1
        expected = recompute_faces(seed, root, roll["nonce"], roll["sides"])
        if expected != roll["faces"]:
            findings.append(Finding(here, command, f"roll {roll['id']} shows {roll['faces']}, but its seed gives {expected}"))
    findings.sort(key=lambda f: (f.position is None, f.position or 0))
    return Report(commands=commands, rolls_checked=checked, seeds_revealed=len(revealed), findings=findings)
