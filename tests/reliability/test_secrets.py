"""Files and secrets (issue 15): ids that cannot escape the store's folder, seed files nobody else can read,
a seed checked against its commitment at every use, a lost seed abandoned on the record, and import reading
files by the same rules as run. Through the CLI as a user meets them, through the files as an attacker does."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import stat
from pathlib import Path

import pytest

from rollbook.domain.errors import DiceError
from rollbook.store.seeds import FileSeedKeeper

from .support import cli, lines_of
from .test_store_failures import tiny_filesystem

PIRATE = {"type": "create_character", "campaign": "c", "name": "Anna", "player": "anna", "luck": 1,
          "stats": {"audacity": 1, "guile": 0, "foresight": 0, "reputation": 0}}
ROLL = {"type": "roll_move", "campaign": "c", "character": "Anna", "stat": "audacity"}


def _events(database: Path) -> int:
    with sqlite3.connect(database) as db:
        return db.execute("SELECT count(*) FROM stored_events").fetchone()[0]


def _campaign(tmp_path: Path, *more: dict) -> tuple[str, Path]:
    database = tmp_path / "c.db"
    url = f"sqlite:///{database}"
    done = cli("-q", "run", "-", store=url, input=lines_of([
        {"type": "create_campaign", "campaign": "c", "ruleset": "pirates"}, PIRATE, *more]))
    assert done.returncode == 0, done.stderr
    return url, database


def _seed_files(database: Path) -> list[Path]:
    return sorted((database.parent / f"{database.name}.secrets" / "c").glob("*.seed"))


@pytest.mark.slow
@pytest.mark.parametrize("campaign", [".", "..", "a/b", "..\\x", "bl\u0430ck-sails", "\uff42lack", "x\u200by", "x\x1by"])
def test_an_id_that_is_a_path_or_looks_like_another_is_refused(tmp_path: Path, campaign: str) -> None:
    url = f"sqlite:///{tmp_path / 'store' / 'c.db'}"
    (tmp_path / "store").mkdir()
    refused = cli("run", "-", store=url, input=lines_of([{"type": "create_campaign", "campaign": campaign,
                                                          "ruleset": "pirates"}]))
    assert refused.returncode == 1 and "Traceback" not in refused.stderr
    assert "line 1 create_campaign: campaign: cannot be an id" in refused.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["store"]  # no seed folder landed beside it
    command_id = cli("run", "-", store=url, input=lines_of([{"type": "create_campaign", "campaign": "c",
                                                             "ruleset": "pirates", "id": campaign}]))
    assert command_id.returncode == 1 and "id: cannot be an id" in command_id.stderr


@pytest.mark.slow
def test_an_export_of_a_campaign_named_as_a_path_is_refused(tmp_path: Path) -> None:
    url, _ = _campaign(tmp_path)
    export = cli("export", "-c", "c", store=url).stdout.splitlines()
    export[0] = json.dumps({**json.loads(export[0]), "campaign": ".."})
    (tmp_path / "e.jsonl").write_text("\n".join(export) + "\n")
    target = tmp_path / "t.db"
    refused = cli("import", str(tmp_path / "e.jsonl"), store=f"sqlite:///{target}")
    assert refused.returncode == 1 and "line 1: campaign: '..' cannot be an id" in refused.stderr
    assert not (tmp_path / "t.db.secrets").exists() and _events(target) == 0


@pytest.mark.slow
def test_seed_files_are_made_private_as_they_are_created_whatever_the_umask(tmp_path: Path) -> None:
    database = tmp_path / "c.db"
    made = cli("-q", "run", "-", store=f"sqlite:///{database}", preexec_fn=lambda: os.umask(0),
               input=lines_of([{"type": "create_campaign", "campaign": "c", "ruleset": "pirates"}]))
    assert made.returncode == 0, made.stderr
    (seed,) = _seed_files(database)
    assert stat.S_IMODE(seed.stat().st_mode) == 0o600
    for folder in (seed.parent, seed.parent.parent):
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700


def test_a_seed_file_is_opened_exclusively_and_private_never_chmod_ed_after(tmp_path: Path, monkeypatch) -> None:
    opened = []
    real_open = os.open

    def spy(path, flags, mode=0o777, **kwargs):
        opened.append((str(path), flags, mode))
        return real_open(path, flags, mode, **kwargs)

    monkeypatch.setattr(os, "open", spy)
    real_chmod = os.chmod

    def no_late_chmod(path, mode, **kwargs):
        assert not str(path).endswith((".seed", ".tmp")), "a seed file's mode is set when it is created"
        real_chmod(path, mode, **kwargs)

    monkeypatch.setattr(os, "chmod", no_late_chmod)
    FileSeedKeeper(tmp_path / "secrets").new_seed("c")
    (path, flags, mode), = [o for o in opened if "secrets" in o[0]]
    assert flags & os.O_CREAT and flags & os.O_EXCL and mode == 0o600


@pytest.mark.slow
def test_a_swapped_seed_file_rolls_nothing_and_says_why(tmp_path: Path) -> None:
    url, database = _campaign(tmp_path)
    (seed,) = _seed_files(database)
    seed.write_text(os.urandom(32).hex())  # someone's own seed, whose faces he knows
    before = _events(database)
    refused = cli("run", "-", store=url, input=lines_of([ROLL]))
    assert refused.returncode == 1 and "Traceback" not in refused.stderr
    assert "does not match the campaign's commitment" in refused.stderr and "replaced or damaged" in refused.stderr
    assert _events(database) == before


def test_a_seed_file_is_read_once_and_again_when_it_is_replaced(tmp_path: Path, monkeypatch) -> None:
    keeper = FileSeedKeeper(tmp_path / "secrets")
    commitment = keeper.new_seed("c")
    reads: list[Path] = []
    read_text = Path.read_text
    monkeypatch.setattr(Path, "read_text", lambda self, *a, **k: reads.append(self) or read_text(self, *a, **k))
    first = keeper.seed("c", commitment)
    assert keeper.seed("c", commitment) == first and len(reads) == 1  # the second roll reads no file
    (path,) = (tmp_path / "secrets" / "c").glob("*.seed")
    swapped = path.with_name("swapped")
    swapped.write_text(os.urandom(32).hex())
    swapped.replace(path)
    with pytest.raises(DiceError, match="does not match the campaign's commitment"):
        keeper.seed("c", commitment)


@pytest.mark.slow
def test_a_lost_seed_is_abandoned_on_the_record_and_verify_lists_its_rolls(tmp_path: Path) -> None:
    url, database = _campaign(tmp_path, {**ROLL, "id": "r1"}, {**ROLL, "id": "r2"})
    for seed in _seed_files(database):
        seed.unlink()  # the secrets folder lost
    stuck = cli("run", "-", store=url, input=lines_of([{**ROLL, "id": "r3"}]))
    assert stuck.returncode == 1 and "abandon_seed" in stuck.stderr
    player = cli("run", "-", store=url, input=lines_of([{"type": "abandon_seed", "campaign": "c",
                                                         "actor": "player:anna", "reason": "lost"}]))
    assert player.returncode == 1 and "only the GM may abandon_seed" in player.stderr
    went_on = cli("-q", "run", "-", store=url, input=lines_of([
        {"type": "abandon_seed", "campaign": "c", "reason": "the laptop with the secrets folder was stolen"},
        {**ROLL, "id": "r3"}, {"type": "start_chapter", "campaign": "c"}, {"type": "end_chapter", "campaign": "c"},
    ]))
    assert went_on.returncode == 0, went_on.stderr
    checked = cli("verify", "-c", "c", "--json", store=url)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    (report,) = json.loads(checked.stdout).values()
    assert [(u["roll"], u["reason"]) for u in report["unverifiable_rolls"]] == [
        ("r1", "its seed was abandoned, lost unrevealed (abandon_seed)"),
        ("r2", "its seed was abandoned, lost unrevealed (abandon_seed)"),
    ]
    assert report["rolls_checked"] == 1 and report["findings"] == []
    assert "not verifiable: roll r1 (its seed was abandoned" in cli("verify", "-c", "c", store=url).stdout


@pytest.mark.slow
def test_a_seed_that_cannot_be_written_on_a_full_disk_is_a_clear_refusal(tmp_path: Path) -> None:
    url, database = _campaign(tmp_path)
    secrets = database.parent / f"{database.name}.secrets"
    kept = secrets.rename(tmp_path / "kept")
    with tiny_filesystem(secrets, "64k") as filesystem:  # the secrets' own disk, full
        if filesystem is None:
            pytest.skip("mounting a small filesystem needs root")
        shutil.copytree(kept, secrets, dirs_exist_ok=True)
        descriptor = os.open(secrets / "filler", os.O_WRONLY | os.O_CREAT)
        try:
            while os.write(descriptor, b"\0" * 4096):
                pass
        except OSError:  # no space left
            pass
        finally:
            os.close(descriptor)
        before = _events(database)
        refused = cli("run", "-", store=url, input=lines_of([{"type": "rotate_seed", "campaign": "c"}]))
        assert refused.returncode == 1 and "Traceback" not in refused.stderr, refused.stderr
        assert "cannot keep the campaign's new secret seed" in refused.stderr and "No space left" in refused.stderr
        assert _events(database) == before
        assert sorted(p.name for p in (secrets / "c").iterdir()) == sorted(p.name for p in (kept / "c").iterdir())


def _export(tmp_path: Path) -> list[str]:
    url, _ = _campaign(tmp_path, {**ROLL, "dice": [3, 4]})
    return cli("export", "-c", "c", store=url).stdout.splitlines()


@pytest.mark.slow
@pytest.mark.parametrize(("edit", "says"), [
    (lambda line: line.replace('"ruleset": "pirates"', '"ruleset": ' + "[" * 100_000 + "]" * 100_000),
     "line 2: is not JSON (nested too deeply)"),
    (lambda line: line.replace('"ruleset": "pirates"', '"ruleset": 1' + "0" * 5000),
     "line 2: is not JSON (a number too long to read"),
])
@pytest.mark.parametrize("reexecute", [False, True])
def test_import_refuses_what_run_refuses_by_line_and_writes_nothing(tmp_path: Path, edit, says, reexecute) -> None:
    lines = _export(tmp_path)
    lines[1] = edit(lines[1])
    (tmp_path / "e.jsonl").write_text("\n".join(lines) + "\n")
    target = tmp_path / "t.db"
    refused = cli("import", str(tmp_path / "e.jsonl"), *(["--reexecute"] if reexecute else []),
                  store=f"sqlite:///{target}")
    assert refused.returncode == 1 and "Traceback" not in refused.stderr, refused.stderr[-3000:]
    assert says in refused.stderr and "nothing was imported" in refused.stderr
    assert _events(target) == 0


def _forged(lines: list[str], topic_suffix: str, extra: str) -> tuple[list[str], int]:
    """The export with one event's bytes given a field `extra` (JSON text), by a forger who computes hashes too:
    its digest, every command's chain and the trailer's head refitted. The number of the event's line."""
    from rollbook.domain.chain import GENESIS_CHAIN, chain_hash, event_digest

    lines, previous, forged = list(lines), GENESIS_CHAIN, 0
    for number, line in enumerate(lines):
        entry = json.loads(line) if line.startswith('{"kind": "command"') else None
        if entry is None:
            continue
        for index, (_, _, topic) in enumerate(entry["events"]):
            if not forged and topic.endswith(topic_suffix):
                forged = number + 1 + index
                lines[forged] = lines[forged].replace('{"timestamp":', '{"x":' + extra + ',"timestamp":', 1)
                state = type("Stored", (), {"topic": topic, "state": lines[forged].encode()})
                entry["writes"][index][2] = event_digest(state)
        entry["chain"] = previous = chain_hash(previous, entry["command"], entry["writes"])
        closing = number + len(entry["events"])
        applied = json.loads(lines[closing])
        lines[closing] = json.dumps({**applied, "writes": entry["writes"], "chain": previous}, separators=(",", ":"))
        lines[number] = json.dumps(entry, ensure_ascii=False)
    lines[-1] = json.dumps({**json.loads(lines[-1]), "head": previous})
    assert forged, f"no {topic_suffix} in the export"
    return lines, forged + 1


@pytest.mark.slow
@pytest.mark.parametrize("topic", ["Pirate.Created", "CommandClaim.Recorded"])
@pytest.mark.parametrize(("extra", "says"), [
    ("[" * 100_000 + "]" * 100_000, "is not JSON (nested too deeply)"),
    # Decoded by the check, but near where a reader that encodes it again deeper in the stack gives up.
    ("[" * 900 + "]" * 900, "nests more than 100 levels deep, which no Rollbook store writes"),
    ("1" + "0" * 5000, "is not JSON (a number too long to read"),
], ids=["nested too deeply", "nested near the decoder's limit", "a number too long"])
def test_import_refuses_a_forged_event_line_run_would_refuse_by_its_line_and_writes_nothing(
    tmp_path: Path, topic: str, extra: str, says: str
) -> None:
    lines, line = _forged(_export(tmp_path), topic, extra)
    (tmp_path / "e.jsonl").write_text("\n".join(lines) + "\n")
    target = tmp_path / "t.db"
    refused = cli("import", str(tmp_path / "e.jsonl"), store=f"sqlite:///{target}")
    assert refused.returncode == 1 and "Traceback" not in refused.stderr, refused.stderr[-3000:]
    message = " ".join(refused.stderr.split())
    assert f"its event on line {line} ({topic.split('.')[-1]} v" in message and says in message, message
    assert "nothing was imported" in message
    assert _events(target) == 0


@pytest.mark.slow
def test_a_history_record_cannot_be_re_executed_and_nothing_is_written(tmp_path: Path) -> None:
    from rollbook.replay.export import export_lines
    from rollbook.testing import new_campaign, pirates

    campaign = new_campaign("pirates", store=f"sqlite:///{tmp_path / 'h.db'}")
    campaign.given(pirates.created("Anna", luck=1), pirates.wounded("Anna", "light", 1))
    (tmp_path / "e.jsonl").write_text("\n".join(export_lines(campaign.store, campaign.name)) + "\n")
    target = tmp_path / "t.db"
    refused = cli("import", str(tmp_path / "e.jsonl"), "--reexecute", store=f"sqlite:///{target}")
    assert refused.returncode == 1 and "Traceback" not in refused.stderr, refused.stderr[-3000:]
    assert "command.type: a `history` record" in refused.stderr and "import the file without --reexecute" in refused.stderr
    assert _events(target) == 0
    assert cli("-q", "import", str(tmp_path / "e.jsonl"), store=f"sqlite:///{target}").returncode == 0


@pytest.mark.slow
def test_a_byte_order_mark_is_read_past_by_run_and_by_import(tmp_path: Path) -> None:
    bom = b"\xef\xbb\xbf"
    (tmp_path / "c.jsonl").write_bytes(bom + lines_of([
        {"type": "create_campaign", "campaign": "c", "ruleset": "pirates"}, PIRATE]).encode())
    url = f"sqlite:///{tmp_path / 'c.db'}"
    assert cli("-q", "run", str(tmp_path / "c.jsonl"), store=url).returncode == 0
    again = cli("run", str(tmp_path / "c.jsonl"), "--json", store=url)
    assert json.loads(again.stdout)["applied"] == 0  # the same ids: the mark is not part of line 1
    (tmp_path / "e.jsonl").write_bytes(bom + cli("export", "-c", "c", store=url).stdout.encode())
    assert cli("-q", "import", str(tmp_path / "e.jsonl"), store=f"sqlite:///{tmp_path / 't.db'}").returncode == 0
