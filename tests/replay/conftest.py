"""A small pirate campaign on a SQLite file, driven through the CLI, for the audit tests."""

import json
import sqlite3
import subprocess
import sys

import pytest

HISTORY = [
    {"type": "create_campaign", "ruleset": "pirates", "title": "Audit", "at": "2026-03-01T20:00:00Z"},
    {"type": "create_character", "name": "Anna", "player": "anna", "luck": 1,
     "stats": {"audacity": 2, "guile": 1, "foresight": 1, "reputation": -1}, "at": "2026-03-01T20:01:00Z"},
    {"type": "create_character", "name": "Bo", "player": "bo", "luck": 2,
     "stats": {"audacity": 0, "guile": 0, "foresight": 0, "reputation": 0}, "at": "2026-03-01T20:02:00Z"},
    {"type": "create_ship", "name": "Chaika", "navigation": 2, "firepower": 1, "displacement": 1, "hull": 4,
     "at": "2026-03-01T20:03:00Z"},
    {"type": "start_chapter", "id": "ch1", "at": "2026-03-02T19:00:00Z"},
    {"type": "start_scene", "at": "2026-03-02T19:01:00Z"},
    {"type": "start_battle", "at": "2026-03-02T19:02:00Z"},
    {"type": "roll_move", "id": "r1", "character": "Anna", "stat": "audacity", "luck_bonus": True, "at": "2026-03-02T19:10:00Z"},
    {"type": "take_damage", "id": "h1", "character": "Anna", "harm": 1, "at": "2026-03-02T19:12:00Z"},
    {"type": "roll_move", "id": "r2", "character": "Anna", "stat": "guile", "dice": [6, 2], "at": "2026-03-02T19:20:00Z"},
    {"type": "spend_luck", "id": "help", "character": "Bo", "purpose": "help", "roll": "r2", "at": "2026-03-02T19:21:00Z"},
    {"type": "take_damage", "id": "h2", "character": "Anna", "harm": 1, "at": "2026-03-02T19:30:00Z"},
    {"type": "take_hole", "ship": "Chaika", "at": "2026-03-02T19:31:00Z"},
    {"type": "roll_move", "id": "r3", "character": "Bo", "stat": "guile", "at": "2026-03-02T19:40:00Z"},
    {"type": "end_chapter", "id": "ch1-end", "at": "2026-03-03T21:00:00Z"},
    {"type": "start_chapter", "at": "2026-03-04T19:00:00Z"},
    {"type": "roll_move", "id": "r4", "character": "Anna", "stat": "foresight", "at": "2026-03-04T19:10:00Z"},
]


def rollbook(*args, store, check=True):
    result = subprocess.run(
        [sys.executable, "-m", "rollbook.cli", "-q", *args, "--store", store], capture_output=True, text=True
    )
    if check and result.returncode != 0:
        raise AssertionError(f"rollbook {' '.join(args)}: {result.stdout}{result.stderr}")
    return result


def plain(*args):
    """`rollbook` without a store option (the witness verbs name theirs)."""
    return subprocess.run([sys.executable, "-m", "rollbook.cli", "-q", *args], capture_output=True, text=True)


def read_json(*args, store):
    return json.loads(rollbook(*args, "--json", store=store).stdout)


class Cli:
    run = staticmethod(rollbook)
    json = staticmethod(read_json)


@pytest.fixture
def cli():
    """The `rollbook` command as a user runs it: cli.run(...) and cli.json(...)."""
    return Cli()


@pytest.fixture
def audited(tmp_path):
    """(store URL, db path) of a campaign `audit` built from HISTORY through `rollbook run`."""
    path = tmp_path / "audit.db"
    commands = tmp_path / "history.jsonl"
    commands.write_text("\n".join(json.dumps({"campaign": "audit", **c}) for c in HISTORY) + "\n")
    rollbook("run", str(commands), store=f"sqlite:///{path}")
    return f"sqlite:///{path}", path


class Tamper:
    """SQL on the store's own tables, as a writer with access to the database would run it."""

    def __init__(self, url, path=None):
        from rollbook.store import Store

        self.url, self.path = url, path
        store = Store.open(url)
        self.events = store.app.recorder.events_table_name
        self.snapshots = store.app.snapshots.recorder.events_table_name
        store.close()
        self.postgres = url.startswith("postgresql")

    def sql(self, statement, *params):
        """Run one statement (`?` placeholders); the rows it returns, if any."""
        if not self.postgres:
            with sqlite3.connect(self.path) as db:
                return db.execute(statement.format(events=self.events, snapshots=self.snapshots), params).fetchall()
        import psycopg

        base, _, query = self.url.partition("?schema=")
        with psycopg.connect(base, autocommit=True) as db:
            db.execute(f'SET search_path TO "{query}"')
            statement = statement.format(events=self.events, snapshots=self.snapshots)
            cursor = db.execute(statement.replace("%", "%%").replace("?", "%s"), params) if params else db.execute(statement)
            return cursor.fetchall() if cursor.description else []

    def uuid(self, aggregate_id):
        """An aggregate id as this backend stores it."""
        return aggregate_id if self.postgres else aggregate_id.hex

    def position(self):
        return "notification_id" if self.postgres else "rowid"


@pytest.fixture(params=["sqlite", "postgres"])
def tampered(request, tmp_path):
    """(store URL, Tamper) of the campaign `audit` (HISTORY), built in-process, projections caught up."""
    from rollbook.commands.runner import run_file
    from rollbook.commands.service import Rollbook
    from rollbook.projections.queries import Reader
    from rollbook.store import Store
    from rollbook.testing.plugin import postgres_schema

    def build(url, path=None):
        store = Store.open(url)
        raw = "\n".join(json.dumps({"campaign": "audit", **c}) for c in HISTORY).encode()
        assert run_file(Rollbook(store), raw).error is None
        Reader(store).catch_up()
        store.close()
        return url, Tamper(url, path)

    if request.param == "sqlite":
        yield build(f"sqlite:///{tmp_path / 'audit.db'}", tmp_path / "audit.db")
    else:
        with postgres_schema() as url:
            yield build(url)


@pytest.fixture
def tamper_of():
    """Tamper(url, path) for a store a test built itself."""
    return Tamper
