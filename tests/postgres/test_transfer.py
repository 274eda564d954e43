"""A campaign exported from SQLite and imported into PostgreSQL: the same sheets, and `verify` passes on the copy.

Every bundled example campaign (each ruleset's) is built on SQLite by `rollbook demo`,
exported, imported into a fresh PostgreSQL schema, and compared sheet by sheet.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rollbook.projections.queries import Reader
from rollbook.store import Store

from tests.reliability.support import cli


def sheets(url: str) -> dict[str, dict[str, dict[str, object]]]:
    store = Store.open(url)
    try:
        reader = Reader(store)
        reader.catch_up()
        return {c: {s["name"]: s for _, s in reader.sheets(c)} for c in reader.views.campaigns()}
    finally:
        store.close()


def ok(result) -> str:  # type: ignore[no-untyped-def]
    assert result.returncode == 0, f"{result.args}\n{result.stdout[-2000:]}\n{result.stderr[-2000:]}"
    return str(result.stdout)


@pytest.mark.slow
def test_export_from_sqlite_and_import_into_postgresql_gives_the_same_sheets(pg_store: str, tmp_path: Path) -> None:
    sqlite = f"sqlite:///{tmp_path / 'demo.db'}"
    built = json.loads(ok(cli("demo", "--json", store=sqlite)))
    assert len(built) >= 2
    originals = sheets(sqlite)
    for campaign in built:
        exported = tmp_path / f"{campaign}.jsonl"
        exported.write_text(ok(cli("export", "-c", campaign, "--with-secrets", store=sqlite)))
        ok(cli("import", str(exported), store=pg_store))
        ok(cli("verify", "-c", campaign, store=pg_store))
    assert sheets(pg_store) == originals
