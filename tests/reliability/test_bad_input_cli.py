"""The fuzz cases through the real command line: `rollbook --log-format json run FILE` on a SQLite file.

Fewer cases than in process (each is a process of its own), drawn from every kind: exit
status 1, the last line of standard error names the line (and the field where there is
one), no traceback, exactly one `command.refused` log line with the command's id and the
reason, and every table of the SQLite file — events, snapshots, projections, tracking —
exactly as before.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from .badinput import BASE_LINES, STRATEGIES, TEMPLATES, Case
from .support import cli, json_lines, kinds, sqlite_dump

CASES = 25
#: The base's first line, skipped in every case file: with its own id, since a derived id
#: belongs to the file it came from (in another file the same line would be a new command).
FIRST = json.dumps({**json.loads(BASE_LINES[0]), "id": "base-created"})


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, list[tuple[object, ...]]]]:
    folder = tmp_path_factory.mktemp("cli-fuzz")
    database = folder / "base.db"
    lines = folder / "base.jsonl"
    lines.write_text("\n".join([FIRST, *BASE_LINES[1:]]) + "\n")
    assert cli("-q", "run", str(lines), store=f"sqlite:///{database}").returncode == 0
    return database, sqlite_dump(database)


@pytest.mark.slow
def test_bad_lines_through_the_cli_exit_1_log_the_refusal_and_change_nothing(
    base: tuple[Path, dict[str, list[tuple[object, ...]]]], tmp_path_factory: pytest.TempPathFactory
) -> None:
    database, before = base
    folder = tmp_path_factory.mktemp("cases")
    ran = []

    @settings(max_examples=CASES, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(case=st.one_of(*STRATEGIES.values()))
    def refused(case: Case) -> None:
        ran.append(case.kind)
        path = folder / f"case-{len(ran)}.jsonl"
        path.write_bytes(b"\n".join([FIRST.encode(), case.line, json.dumps(TEMPLATES[1]).encode()]))
        result = cli("--log-format", "json", "run", str(path), store=f"sqlite:///{database}")
        assert result.returncode == 1, (case, result.stdout, result.stderr[-1000:])
        assert "Traceback" not in result.stderr, result.stderr[-3000:]
        last = result.stderr.strip().splitlines()[-1]
        assert last.startswith("rollbook: line 2"), (case, last)
        if case.field is not None:
            assert f"{case.field.split('.')[0][:40]}" in last, (case, last)
        refusals = kinds(json_lines(result.stderr), "command.refused")
        assert len(refusals) == 1 and refusals[0]["command_id"] and refusals[0]["reason"], (case, refusals)
        assert sqlite_dump(database) == before, f"{case.kind} changed the store"

    refused()
    assert len(ran) >= CASES
    print(f"\n{len(ran)} bad command files through the CLI: {sorted(set(ran))}")
