"""What the reliability tests share: the CLI, a store's audit, exact dumps, command files."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from rollbook.commands.lines import derived_id
from rollbook.domain.campaign import Campaign
from rollbook.store import Store
from rollbook.testing.plugin import postgres_url

EXAMPLE = Path(__file__).parents[2] / "examples" / "pirates.jsonl"
CAMPAIGN = "black-sails"

#: A pirate campaign up to an open battle: Anna (luck 1), Bo (luck 2), the ship Chaika (hull 4).
#: Written out here, not read from the example, which its authors extend as they like.
PIRATE_BASE: list[str] = [
    '{"type": "create_campaign", "campaign": "black-sails", "ruleset": "pirates", "title": "Black Sails", "at": "2026-03-01T20:00:00+00:00"}',
    '{"type": "create_character", "campaign": "black-sails", "name": "Anna", "player": "anna", "stats": {"audacity": 2, "guile": 1, "foresight": 1, "reputation": -1}, "luck": 1, "at": "2026-03-01T20:05:00+00:00"}',
    '{"type": "create_character", "campaign": "black-sails", "name": "Bo", "player": "bo", "stats": {"audacity": 1, "guile": 2, "foresight": 0, "reputation": 0}, "luck": 2, "at": "2026-03-01T20:06:00+00:00"}',
    '{"type": "create_ship", "campaign": "black-sails", "name": "Chaika", "navigation": 2, "firepower": 1, "displacement": 1, "hull": 4, "secrets": ["X1", "X2"], "at": "2026-03-01T20:07:00+00:00"}',
    '{"type": "start_chapter", "campaign": "black-sails", "title": "The Silver Fleet", "at": "2026-03-02T19:00:00+00:00"}',
    '{"type": "start_scene", "campaign": "black-sails", "title": "Off Nassau", "enemy": "Man-o\'-war", "at": "2026-03-02T19:01:00+00:00"}',
    '{"type": "start_battle", "campaign": "black-sails", "title": "Broadsides", "at": "2026-03-02T19:02:00+00:00"}',
]
APPLIED_TOPIC_SUFFIX = ":Campaign.CommandApplied"


def cli(
    *args: str, store: str | None = None, env: dict[str, str] | None = None, timeout: float = 120, **kwargs: Any
) -> subprocess.CompletedProcess[str]:
    """`rollbook ARGS --store STORE` in a fresh process, as a user runs it."""
    command = [sys.executable, "-m", "rollbook.cli", *args]
    if store is not None:
        command += ["--store", store]
    return subprocess.run(
        command, capture_output=True, text=True, timeout=timeout, env={**os.environ, **(env or {})}, **kwargs
    )


def lines_of(commands: Iterable[dict[str, Any]]) -> str:
    return "".join(json.dumps(c, ensure_ascii=False) + "\n" for c in commands)


def file_ids(text: str, path: Path | None = None) -> list[str]:
    """The id of every command of a file, as `rollbook run PATH` gives or derives it (in-process: no path)."""
    ids, previous = [], "" if path is None else str(path.resolve())
    for line in text.splitlines():
        if not line.strip():
            continue
        given = json.loads(line).get("id")
        previous = given or derived_id(previous, line)
        ids.append(previous)
    return ids


def long_pirate_file(moves: int, *, campaign: str = CAMPAIGN) -> str:
    """A campaign of `moves` rolled moves, scenes and battles opening and closing around them.

    Every command is valid in order, whatever came before; about half carry an id, the
    rest get derived ones.
    """
    commands: list[dict[str, Any]] = [json.loads(line) for line in PIRATE_BASE[:4]]
    for c in commands:
        c["campaign"] = campaign
    faces = [(3, 4), (6, 2), (1, 1), (5, 5), (2, 6), (4, 3)]
    for n in range(moves):
        if n % 50 == 0:
            commands.append({"type": "start_chapter", "campaign": campaign, "title": f"Chapter {n // 50 + 1}"})
        if n % 10 == 0:
            commands += [{"type": "start_scene", "campaign": campaign, "title": f"Scene {n // 10 + 1}"},
                         {"type": "start_battle", "campaign": campaign}]
        who, stat = (("Anna", "audacity"), ("Bo", "guile"))[n % 2]
        command = {"type": "roll_move", "campaign": campaign, "character": who, "stat": stat,
                   "dice": list(faces[n % len(faces)])}
        commands.append({**command, "id": f"m{n}"} if n % 2 else command)
        if n % 10 == 9:
            commands += [{"type": "end_battle", "campaign": campaign}, {"type": "end_scene", "campaign": campaign}]
        if n % 50 == 49:
            commands.append({"type": "end_chapter", "campaign": campaign})
    return lines_of(commands)


# --- auditing a store -----------------------------------------------------------------


def notifications(app: Any) -> list[Any]:
    found, position = [], 0
    while True:
        batch = app.recorder.select_notifications(position, 1000, inclusive_of_start=False)
        if not batch:
            return found
        found += batch
        position = batch[-1].id


def audit(store_url: str) -> list[str]:
    """Check that the store holds whole commands only; return their ids in the order applied.

    Every event must be a `CommandApplied` or one of the writes a `CommandApplied` lists, and
    every listed write must exist: a command is in the store with all its events or not at all.
    """
    store = Store.open(store_url)
    try:
        app = store.app
        stored = notifications(app)
        present = {(n.originator_id.hex, n.originator_version) for n in stored}
        claimed: dict[tuple[str, int], str] = {}
        applied: list[tuple[int, str]] = []
        for n in stored:
            if not n.topic.endswith(APPLIED_TOPIC_SUFFIX):
                continue
            event = app.mapper.to_domain_event(n)
            claimed[(n.originator_id.hex, n.originator_version)] = event.command_id
            for write in event.writes:
                key = (str(write[0]), int(write[1]))
                assert key in present, f"command {event.command_id} lists {key}, which is not stored"
                assert key not in claimed, f"{key} is claimed by {claimed[key]} and {event.command_id}"
                claimed[key] = event.command_id
            applied.append((n.id, event.command_id))
        orphans = present - set(claimed)
        assert not orphans, f"{len(orphans)} events belong to no recorded command, e.g. {sorted(orphans)[:3]}"
        ids = [command_id for _, command_id in sorted(applied)]
        assert len(ids) == len(set(ids)), f"a command was applied twice: {[i for i in ids if ids.count(i) > 1][:3]}"
        return ids
    finally:
        store.close()


def campaign_seq(store_url: str, campaign: str = CAMPAIGN) -> int:
    from rollbook.domain.ids import campaign_id

    store = Store.open(store_url)
    try:
        found = store.app.repository.get(campaign_id(campaign))
        assert isinstance(found, Campaign)
        return int(found.seq)
    finally:
        store.close()


# --- exact contents ---------------------------------------------------------------------


def sqlite_dump(path: Path) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table of a SQLite file, for "exactly as before"."""
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
        return {t: sorted(db.execute(f'SELECT * FROM "{t}"').fetchall(), key=repr) for t in tables}
    finally:
        db.close()


def postgres_dump(url: str) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table of the URL's schema."""
    import psycopg


    schema = url.split("schema=")[1]
    with psycopg.connect(postgres_url().split("?")[0]) as db:
        tables = [r[0] for r in db.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = %s ORDER BY 1", (schema,)
        )]
        return {t: sorted(db.execute(f'SELECT * FROM "{schema}"."{t}"').fetchall(), key=repr) for t in tables}


def dump(url: str) -> dict[str, list[tuple[Any, ...]]]:
    if url.startswith("sqlite:///"):
        return sqlite_dump(Path(url.removeprefix("sqlite:///")))
    return postgres_dump(url)


def json_lines(text: str) -> list[dict[str, Any]]:
    """The JSON log lines of a process's standard error (other lines ignored)."""
    found = []
    for line in text.splitlines():
        if line.startswith("{"):
            found.append(json.loads(line))
    return found


def kinds(events: Sequence[dict[str, Any]], name: str) -> list[dict[str, Any]]:
    return [e for e in events if e.get("event") == name]


