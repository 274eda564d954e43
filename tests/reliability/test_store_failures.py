"""A store that goes away, or cannot be written: a clear error, no partial command, a rerun finishes.

- PostgreSQL stopped (as in a crash) in the middle of `rollbook run`, then started again
  (a `rollbook follow` running all along says so, waits, and carries on);
- a SQLite file that is read-only;
- a full disk under a SQLite file.

Each time the run stops with exit status 1 and one line naming the command it was applying
and what the store said (no traceback), logs `command.failed` with the command id; the store
holds whole commands only; and the same file run again after recovery applies the rest,
each command once.
"""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from . import pgserver
from .support import CAMPAIGN, audit, cli, file_ids, json_lines, kinds, lines_of, long_pirate_file, sqlite_dump

#: It starts processes (the CLI, servers or a database server): not in the fast tier.
# Kills and races at chosen moments: one after another on one worker under xdist (tests/conftest.py).
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("timing")]


def assert_clear_failure(result: subprocess.CompletedProcess[str], *, says: tuple[str, ...]) -> dict[str, object]:
    """Exit status 1, one last line naming the line and command, the store's words; its log line."""
    assert result.returncode == 1, result.stderr[-2000:]
    assert "Traceback" not in result.stderr, result.stderr[-3000:]
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith("rollbook: line ") and "(id " in last and ": store: " in last, last
    assert any(s in last for s in says), last
    failed = kinds(json_lines(result.stderr), "command.failed")
    assert len(failed) == 1 and failed[0]["command_id"] and failed[0]["reason"], failed
    return failed[0]


def run_file(path: Path, url: str, **kwargs: object) -> subprocess.CompletedProcess[str]:
    return cli("--log-format", "json", "run", str(path), store=url, **kwargs)


def finish_after_recovery(path: Path, url: str, ids: list[str], failed_id: object) -> None:
    stored = audit(url)
    assert stored == ids[: len(stored)], "the store holds commands out of the file's order"
    assert failed_id not in stored[:-1], "the failed command is in the store, and commands after it"
    rerun = cli("-q", "run", str(path), store=url)
    assert rerun.returncode == 0, rerun.stderr[-2000:]
    assert f"applied {len(ids) - len(stored)} commands, skipped {len(stored)}" in rerun.stdout
    assert audit(url) == ids
    verified = cli("verify", "-c", CAMPAIGN, store=url)
    assert verified.returncode == 0, verified.stdout + verified.stderr


@pytest.fixture
def commands(tmp_path: Path) -> tuple[Path, list[str]]:
    text = long_pirate_file(60)
    path = tmp_path / "campaign.jsonl"
    path.write_text(text)
    return path, file_ids(text, path)


# --- PostgreSQL goes away ----------------------------------------------------------------


@pytest.mark.slow
def test_postgresql_stopped_in_the_middle_of_a_run(
    private_postgres: pgserver.PrivateServer, commands: tuple[Path, list[str]], tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("ROLLBOOK_SECRETS", str(tmp_path / "secrets"))
    path, ids = commands
    url = private_postgres.url
    follower = subprocess.Popen(  # a follower of the projections, which must live through the outage
        [sys.executable, "-m", "rollbook.cli", "--log-format", "json", "follow", "--store", url],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    run = subprocess.Popen(
        [sys.executable, "-m", "rollbook.cli", "--log-format", "json", "run", str(path), "--store", url],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    lines: list[str] = []
    twenty = threading.Event()

    def read() -> None:  # keeps the pipe drained; notes when twenty commands are in
        assert run.stderr is not None
        applied = 0
        for line in run.stderr:
            lines.append(line)
            applied += '"command.applied"' in line
            if applied == 20:
                twenty.set()

    reader = threading.Thread(target=read)
    reader.start()
    assert twenty.wait(60), "".join(lines[-5:])
    private_postgres.stop("immediate")  # the server goes away under the running commands
    try:
        run.wait(timeout=60)
        reader.join()
        assert run.stdout is not None
        out = run.stdout.read()
        result = subprocess.CompletedProcess(run.args, run.returncode, out, "".join(lines))
        failed = assert_clear_failure(result, says=("connection", "server", "terminat"))
        unreachable = cli("sheet", "Anna", "-c", CAMPAIGN, store=url)
        assert unreachable.returncode == 1 and "Traceback" not in unreachable.stderr
        assert unreachable.stderr.startswith("rollbook: cannot open the store"), unreachable.stderr
    finally:
        private_postgres.start()
    finish_after_recovery(path, url, ids, failed["command_id"])
    try:
        write_more_without_catching_up(url)
        followed = wait_until_projected(url, follower)
    finally:
        follower.send_signal(signal.SIGTERM)
        _, logs = follower.communicate(timeout=30)
    assert follower.returncode == 0, logs[-2000:]
    outage = kinds(json_lines(logs), "follow.store_failed")
    assert outage and all(line["reason"] for line in outage), logs[-2000:]
    assert followed


def write_more_without_catching_up(url: str) -> None:
    from rollbook.commands.runner import run_file
    from rollbook.commands.service import Rollbook
    from rollbook.store import Store

    more = [{"type": "roll_move", "campaign": CAMPAIGN, "id": f"after-{n}", "character": "Bo", "stat": "guile",
             "dice": [4, 4]} for n in range(3)]
    store = Store.open(url)
    try:
        assert run_file(Rollbook(store), lines_of(more).encode()).error is None
    finally:
        store.close()


def wait_until_projected(url: str, follower: subprocess.Popen[str], seconds: float = 60) -> bool:
    """Whether the follower brought the projections to the last event (it alone catches up here)."""
    from rollbook.projections.queries import Reader
    from rollbook.store import Store

    deadline = time.monotonic() + seconds
    store = Store.open(url)
    try:
        last = store.app.recorder.max_notification_id()
        while time.monotonic() < deadline and follower.poll() is None:
            if Reader(store).views.position() == last:
                return True
            time.sleep(0.1)
        return False
    finally:
        store.close()


# --- SQLite that cannot be written ---------------------------------------------------------


class TinyFilesystem:
    """A small tmpfs mounted for one test (root only): fill it up, make it read-only, grow it."""

    def __init__(self, where: Path, size: str) -> None:
        self.where = where
        where.mkdir()
        subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)], check=True,
                       capture_output=True)

    def remount(self, options: str) -> None:
        subprocess.run(["mount", "-o", f"remount,{options}", str(self.where)], check=True, capture_output=True)

    def close(self) -> None:
        subprocess.run(["umount", str(self.where)], check=True, capture_output=True)


@contextmanager
def tiny_filesystem(where: Path, size: str) -> Iterator[TinyFilesystem | None]:
    """A tmpfs of `size` at `where`, or None where mounting is not allowed."""
    try:
        filesystem = TinyFilesystem(where, size) if os.geteuid() == 0 else None
    except (subprocess.CalledProcessError, FileNotFoundError):
        filesystem = None
    try:
        yield filesystem
    finally:
        if filesystem is not None:
            filesystem.close()


def test_a_read_only_sqlite_file_is_refused_clearly_and_left_as_it_was(
    commands: tuple[Path, list[str]], tmp_path: Path
) -> None:
    path, ids = commands
    # The file's first half, then the whole file: a longer version of the same file (its derived ids match).
    whole = path.read_text()
    path.write_text("".join(whole.splitlines(keepends=True)[: len(ids) // 2]))
    with tiny_filesystem(tmp_path / "fs", "16m") as filesystem:
        folder = filesystem.where if filesystem else tmp_path / "fs"
        folder.mkdir(exist_ok=True)
        database = folder / "campaign.db"
        url = f"sqlite:///{database}"
        assert cli("-q", "run", str(path), store=url).returncode == 0
        path.write_text(whole)
        before = sqlite_dump(database)
        if filesystem is not None:
            filesystem.remount("ro")
        elif os.geteuid() != 0:
            database.chmod(0o444)
            folder.chmod(0o555)
        else:
            pytest.skip("root ignores file modes, and mounting a read-only filesystem is not allowed here")
        try:
            refused = run_file(path, url)
            assert refused.returncode == 1 and "Traceback" not in refused.stderr, refused.stderr[-2000:]
            last = refused.stderr.strip().splitlines()[-1]
            # Refused when opening, or at the first command the run writes, depending on the files SQLite keeps.
            assert last.startswith(("rollbook: cannot open the store", f"rollbook: line {len(ids) // 2 + 1} ")), last
            assert "read-only" in last or "readonly" in last, last
        finally:
            if filesystem is not None:
                filesystem.remount("rw")
            else:
                folder.chmod(0o755)
                database.chmod(0o644)
        assert sqlite_dump(database) == before
        finish_after_recovery(path, url, ids, None)


def _file_size_limit() -> None:
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails, as on a full disk
    resource.setrlimit(resource.RLIMIT_FSIZE, (256 * 1024, 256 * 1024))


def test_a_full_disk_stops_the_run_between_whole_commands(commands: tuple[Path, list[str]], tmp_path: Path) -> None:
    path, ids = commands
    with tiny_filesystem(tmp_path / "fs", "256k") as filesystem:
        folder = filesystem.where if filesystem else tmp_path
        url = f"sqlite:///{folder / 'campaign.db'}"
        if filesystem is not None:  # a real full disk
            failed = assert_clear_failure(run_file(path, url), says=("disk is full",))
            filesystem.remount("size=64m")  # space freed
        else:  # a file size limit: writes past it fail as on a full disk
            failed = assert_clear_failure(run_file(path, url, preexec_fn=_file_size_limit), says=("disk",))
        finish_after_recovery(path, url, ids, failed["command_id"])
