"""Export and import: a version-2 export is copied byte for byte, checked first, or refused whole.

The copy path writes the exported events themselves, so these tests compare the stored
rows of the source and the copy directly, edit exports the way a tamperer or a damaged
disk would and check that nothing at all is written, and check that the snapshots a long
campaign needs for time travel are there after the copy.

One module over 400 lines on purpose: every check edits the same exports of the same stores, made once here.
"""

import json
import sqlite3

import pytest
from rollbook.bench.generate import generate

#: It starts processes (the CLI, servers or a database server): not in the fast tier.
pytestmark = pytest.mark.slow


def rows(path, table="stored_events"):
    """(aggregate, version, topic, state) of every stored row: events in the order stored, snapshots by aggregate.

    The copy's own record of its import (begun, finished) is left out: the source has none.
    """
    with sqlite3.connect(path) as db:
        exists = db.execute("SELECT 1 FROM sqlite_master WHERE name = ?", (table,)).fetchone()
        if not exists:
            return []
        order = "rowid" if table == "stored_events" else "originator_id, originator_version"
        found = db.execute(f"SELECT originator_id, originator_version, topic, state FROM {table} ORDER BY {order}").fetchall()
        return [row for row in found if ":ImportRecord." not in row[2]]


def export(cli, store, tmp_path, name="history.jsonl"):
    """The export file, and its entries with each event as [aggregate, version, topic, state text]."""
    text = cli.run("export", "-c", "audit", store=store).stdout
    path = tmp_path / name
    path.write_text(text)
    lines = iter(text.splitlines())
    entries = []
    for line in lines:
        entry = json.loads(line)
        for event in entry.get("events", []):
            event.append(next(lines))  # the event's stored bytes, on the line after
        entries.append(entry)
    return path, entries


def write(path, entries):
    """Write entries back as an export; the line number of each entry."""
    lines, numbers = [], []
    for entry in entries:
        numbers.append(len(lines) + 1)
        events = entry.get("events")
        named = {**entry, "events": [e[:3] for e in events]} if events is not None else entry
        lines.append(json.dumps(named, ensure_ascii=False))
        lines += [e[3] for e in events or []]
    path.write_text("\n".join(lines) + "\n")
    return numbers


def test_a_version_2_import_stores_the_very_same_events(audited, tmp_path, cli):
    store, source = audited
    history, entries = export(cli, store, tmp_path)
    assert entries[0]["version"] == 3
    assert all(len(e["events"]) == len(e["writes"]) + 1 for e in entries[1:-1])
    target = tmp_path / "copy.db"
    summary = json.loads(cli.run("import", str(history), "--json", store=f"sqlite:///{target}").stdout)
    assert summary["method"] == "copied" and summary["commands"] == 17
    assert rows(target) == rows(source)
    copy = f"sqlite:///{target}"
    assert cli.json("sheet", "Anna", "-c", "audit", store=copy) == cli.json("sheet", "Anna", "-c", "audit", store=store)
    assert cli.json("verify", "-c", "audit", store=copy)["audit"]["findings"] == []
    assert cli.json("replay", "-c", "audit", "--verify", store=copy)["identical"]
    again = cli.run("import", str(history), store=copy, check=False)
    assert again.returncode == 1 and "already exists" in again.stderr
    assert rows(target) == rows(source)


def _edit_state(entries, topic_suffix, change):
    for entry in entries[1:]:
        for event in entry["events"]:
            if event[2].endswith(topic_suffix):
                data = json.loads(event[3])
                change(data)
                event[3] = json.dumps(data, separators=(",", ":"))
                return entries.index(entry), event
    raise AssertionError(f"no {topic_suffix} in the export")


def _refit_digest(entries, index, event):
    """A cleverer tamperer: also rewrites the digest its command recorded, in the line and in its CommandApplied."""
    from rollbook.domain.chain import event_digest

    class Stored:
        topic, state = event[2], event[3].encode()

    entry = entries[index]
    for write in entry["writes"]:
        if write[:2] == event[:2]:
            write[2] = event_digest(Stored)
    closing = entry["events"][-1]
    applied = json.loads(closing[3])
    applied["writes"] = entry["writes"]
    closing[3] = json.dumps(applied, separators=(",", ":"))


def _damage(kind, entries):
    """Edit an export; the entry whose line a refusal must name, and words it must say."""
    if kind == "edited event":
        index, _ = _edit_state(entries, "Pirate.LuckSpent", lambda data: data.update(amount=0))
        return index, "was edited"
    if kind == "edited event and its digest":
        index, event = _edit_state(entries, "Pirate.Wounded", lambda data: data.update(harm=0))
        _refit_digest(entries, index, event)
        return index, "hash chain is broken"
    if kind == "removed event":
        entries[9]["events"].pop(0)
        return 9, "carries"
    if kind == "edited command":
        entries[12]["command"]["harm"] = 0
        return 12, "does not record the line's command"
    if kind == "command left out":
        del entries[5]
        return 5, "expected command seq 5"
    if kind == "foreign topic":
        entries[3]["events"][0][2] = "os:system"
        _refit_digest(entries, 3, entries[3]["events"][0])
        return 3, "not a Rollbook domain event"
    raise AssertionError(kind)


@pytest.mark.parametrize("kind", ["edited event", "edited event and its digest", "removed event", "edited command",
                                  "command left out", "foreign topic"])
def test_a_damaged_export_is_refused_naming_the_line_and_nothing_is_written(audited, tmp_path, cli, kind):
    store, _ = audited
    _, entries = export(cli, store, tmp_path)
    index, words = _damage(kind, entries)
    damaged = tmp_path / "damaged.jsonl"
    line = write(damaged, entries)[index]
    target = tmp_path / "copy.db"
    # One command per transaction: had the check not come first, the lines before would be stored.
    result = cli.run("import", str(damaged), "--batch-size", "1", store=f"sqlite:///{target}", check=False)
    assert result.returncode == 1
    assert f"line {line}" in result.stderr and words in result.stderr, result.stderr
    assert "nothing was imported" in result.stderr
    assert rows(target) == [] and rows(target, "stored_snapshots") == []


def test_a_malformed_last_line_is_refused_and_nothing_is_written(audited, tmp_path, cli):
    store, _ = audited
    history, _ = export(cli, store, tmp_path)
    text = history.read_text()
    cut = text.splitlines()[5]
    history.write_text(text + cut[: len(cut) // 2] + "\n")  # a line cut short, as by a full disk
    target = tmp_path / "copy.db"
    result = cli.run("import", str(history), "--batch-size", "1", store=f"sqlite:///{target}", check=False)
    assert result.returncode == 1 and f"line {len(text.splitlines()) + 1}" in result.stderr
    assert "is not JSON" in result.stderr
    assert rows(target) == []


def test_a_version_1_export_is_still_imported_by_re_executing_it(audited, tmp_path, cli):
    store, _ = audited
    cli.run("dispute", "r3", "-c", "audit", "--reason", "dice fell off the table", "--reroll", store=store)
    _, entries = export(cli, store, tmp_path)
    entries[0]["version"] = 1
    for entry in entries[1:]:
        entry.pop("events", None)
    old = tmp_path / "v1.jsonl"
    write(old, entries)
    copy = f"sqlite:///{tmp_path / 'copy.db'}"
    summary = json.loads(cli.run("import", str(old), "--json", store=copy).stdout)
    assert (summary["method"], summary["commands"], summary["disputes"]) == ("re-executed", 17, 1)
    for name in ("Anna", "Bo", "Chaika"):
        assert cli.json("sheet", name, "-c", "audit", store=copy) == cli.json("sheet", name, "-c", "audit", store=store)
    assert all(not r["findings"] for r in cli.json("verify", "-c", "audit", store=copy).values())


@pytest.mark.parametrize("how", ["copy", "--reexecute"])
def test_commands_played_after_a_ruling_are_exported_and_imported(audited, tmp_path, cli, how):
    store, _ = audited
    cli.run("dispute", "r3", "-c", "audit", "--reason", "dice fell off the table", "--faces", "6,6", store=store)
    later = tmp_path / "later.jsonl"
    later.write_text("\n".join(json.dumps({**c, "campaign": "audit"}) for c in [
        {"type": "take_damage", "id": "late-harm", "character": "Bo", "harm": 1, "at": "2026-03-05T19:00:00Z"},
        {"type": "roll_move", "id": "late-roll", "character": "Anna", "stat": "guile", "dice": [5, 4],
         "at": "2026-03-05T19:10:00Z"},
    ]) + "\n")
    cli.run("run", str(later), store=store)
    history, entries = export(cli, store, tmp_path)
    played = [e for e in entries if e.get("kind") == "command" and "revision" in e]
    assert [(e["revision"], e["command"]["id"]) for e in played] == [(2, "late-harm"), (2, "late-roll")]
    copy = f"sqlite:///{tmp_path / 'copy.db'}"
    cli.run("import", str(history), *([how] if how != "copy" else []), store=copy)
    for name in ("Anna", "Bo", "Chaika"):
        assert cli.json("sheet", name, "-c", "audit", store=copy) == cli.json("sheet", name, "-c", "audit", store=store)
    rolls = {r["id"]: r["faces"] for r in cli.json("rolls", "-c", "audit", store=copy)}
    assert rolls["late-roll"] == [5, 4] and rolls["r3"] == [6, 6]
    assert all(not r["findings"] for r in cli.json("verify", "-c", "audit", store=copy).values())


def test_reexecute_decides_a_version_2_export_again(audited, tmp_path, cli):
    store, source = audited
    history, _ = export(cli, store, tmp_path)
    target = tmp_path / "copy.db"
    summary = json.loads(cli.run("import", str(history), "--reexecute", "--json", store=f"sqlite:///{target}").stdout)
    assert summary["method"] == "re-executed"
    assert rows(target) == rows(source)  # recorded dice and times: the same events again


def test_a_long_campaign_is_copied_with_its_snapshots_for_time_travel(tmp_path, cli):
    campaign = generate("pirates", 400)
    commands = tmp_path / "commands.jsonl"
    commands.write_bytes(campaign.jsonl())
    source = tmp_path / "source.db"
    cli.run("run", str(commands), store=f"sqlite:///{source}")
    lines = cli.run("export", "-c", campaign.campaign, store=f"sqlite:///{source}").stdout
    history = tmp_path / "history.jsonl"
    history.write_text(lines)
    target = tmp_path / "copy.db"
    cli.run("import", str(history), "--batch-size", "50", store=f"sqlite:///{target}")
    assert rows(target) == rows(source)
    snapshots = [(originator, version) for originator, version, _, _ in rows(target, "stored_snapshots")]
    assert len(snapshots) >= 2 and all(version >= 200 for _, version in snapshots)
    # Taken after the same commands as the store takes them.
    assert sorted(snapshots) == sorted((o, v) for o, v, _, _ in rows(source, "stored_snapshots"))
    copy, original = f"sqlite:///{target}", f"sqlite:///{source}"
    # Points named by command, and no positions compared: the copy's follow its import record's, one later.
    commands = [json.loads(line)["command"]["id"] for line in lines.splitlines() if '"kind": "command"' in line]

    def timeline(point, store):
        shown = cli.json("timeline", "-c", campaign.campaign, "--at", point, store=store)
        return [{k: v for k, v in e.items() if k not in ("start", "end")} for e in shown["timeline"]], shown["commands"]

    for point in (commands[50], commands[200], commands[350]):
        assert timeline(point, copy) == timeline(point, original)


def test_play_goes_on_after_a_copy_from_the_aggregates_it_left_in_the_cache():
    from rollbook.commands.parse import parse_command
    from rollbook.commands.runner import run_file
    from rollbook.commands.service import Rollbook
    from rollbook.domain.ids import campaign_id
    from rollbook.replay.export import export_lines
    from rollbook.replay.transfer import import_lines
    from rollbook.replay.verify import verify
    from rollbook.store import Store

    campaign = generate("pirates", 300)
    source, target = Store.open("memory://"), Store.open("memory://")
    assert run_file(Rollbook(source), campaign.jsonl()).error is None
    summary = import_lines(target, export_lines(source, campaign.campaign, with_secrets=True), batch_size=64)
    assert summary["method"] == "copied"
    key = campaign_id(campaign.campaign)
    cached = target.app.repository.cache.get(key)
    assert cached.version == source.app.repository.get(key).version and cached.sheet() == source.app.repository.get(key).sheet()
    newcomer = {"type": "create_character", "campaign": campaign.campaign, "id": "after-import", "name": "Zed",
                "player": "zed", "luck": 1, "stats": {"audacity": 1, "guile": 1, "foresight": 0, "reputation": 0}}
    for store in (source, target):
        service = Rollbook(store)
        service.execute(parse_command(dict(newcomer), ruleset_of=service.ruleset_of))
    assert verify(target.app, campaign.campaign).ok
    assert target.app.repository.get(key).sheet() == source.app.repository.get(key).sheet()


def test_an_export_cut_short_inside_a_command_is_refused_and_nothing_is_written(audited, tmp_path, cli):
    store, _ = audited
    history, _ = export(cli, store, tmp_path)
    lines = history.read_text().splitlines()
    history.write_text("\n".join(lines[:-2]) + "\n")  # the trailer, and the last command's CommandApplied, are gone
    target = tmp_path / "copy.db"
    result = cli.run("import", str(history), "--batch-size", "1", store=f"sqlite:///{target}", check=False)
    assert result.returncode == 1 and "the file ends before their lines" in result.stderr
    assert rows(target) == []


def test_an_export_piped_into_import_on_standard_input_is_copied(audited, tmp_path):
    import subprocess
    import sys

    store, source = audited
    target = tmp_path / "copy.db"
    exported = subprocess.run([sys.executable, "-m", "rollbook.cli", "export", "-c", "audit", "--store", store],
                              capture_output=True, check=True)
    imported = subprocess.run([sys.executable, "-m", "rollbook.cli", "-q", "import", "-",
                               "--store", f"sqlite:///{target}"], input=exported.stdout, capture_output=True, check=False)
    assert imported.returncode == 0, imported.stderr
    assert rows(target) == rows(source)


def test_an_export_read_from_a_pipe_named_by_a_path_is_copied(audited, tmp_path, cli):
    """`rollbook import /dev/stdin` or `<(…)`: a pipe gives its lines once, and import reads twice."""
    import os
    import subprocess
    import sys
    import threading

    store, source = audited
    history, _ = export(cli, store, tmp_path)
    fifo = tmp_path / "piped"
    os.mkfifo(fifo)

    def feed() -> None:
        with open(fifo, "wb") as pipe:  # blocks until import opens the other end
            pipe.write(history.read_bytes())

    feeder = threading.Thread(target=feed, daemon=True)
    feeder.start()
    target = tmp_path / "copy.db"
    # A time limit: reading the pipe a second time would wait for a writer that never comes.
    result = subprocess.run([sys.executable, "-m", "rollbook.cli", "-q", "import", str(fifo),
                             "--store", f"sqlite:///{target}"], capture_output=True, text=True, timeout=120)
    feeder.join(timeout=10)
    assert result.returncode == 0, result.stderr
    assert rows(target) == rows(source)


# --- the trailer: a file cut short, even at a command boundary, is refused --------------------------


def imported(cli, path, target, *args):
    return cli.run("import", str(path), "--batch-size", "1", *args, store=f"sqlite:///{target}", check=False)


def test_an_export_ends_with_the_count_the_head_and_the_rulings(audited, tmp_path, cli):
    store, _ = audited
    cli.run("dispute", "r3", "-c", "audit", "--reason", "fell off", "--faces", "6,6", store=store)
    _, entries = export(cli, store, tmp_path)
    trailer = entries[-1]
    commands = [e for e in entries if e.get("kind") == "command"]
    [ruling] = [e for e in entries if e.get("kind") == "dispute"]
    assert trailer == {"kind": "trailer", "commands": len(commands), "head": trailer["head"],
                       "rulings": [ruling["dispute"]]}
    root = cli.json("log", "-c", "audit", "--revision", "1", store=store)
    assert trailer["head"] == [e for e in root if e["type"] == "CommandApplied"][-1]["data"]["chain"]


@pytest.mark.parametrize("how", ["copy", "--reexecute"])
def test_a_file_with_rulings_imports_to_the_trailers_head(audited, tmp_path, cli, how):
    store, _ = audited
    cli.run("dispute", "r3", "-c", "audit", "--reason", "fell off", "--reroll", store=store)
    history, entries = export(cli, store, tmp_path)
    target = tmp_path / "copy.db"
    result = imported(cli, history, target, *([how] if how != "copy" else []))
    assert result.returncode == 0, result.stderr
    assert json.loads(cli.run("export", "-c", "audit", store=f"sqlite:///{target}").stdout.splitlines()[-1]) == \
        {k: v for k, v in entries[-1].items()}


@pytest.mark.parametrize("how", ["copy", "--reexecute"])
def test_a_ruled_revision_imported_where_the_signing_key_is_not_kept_holds_to_its_checkpoint(audited, tmp_path, cli,
                                                                                            how):
    """Issue 36, item 10: the revision a ruling re-makes signs its chapter's end again; the export carries
    what it signed, so a store without the campaign's key (beside the original) re-makes it alike."""
    store, _ = audited
    cli.run("dispute", "r1", "-c", "audit", "--reason", "misfire", "--faces", "1,1", store=store)
    kept = tmp_path / "revision-2.txt"
    kept.write_text(cli.run("checkpoint", "-c", "audit", "--revision", "2", store=store).stdout)
    history, entries = export(cli, store, tmp_path)
    # A chapter's end no longer records the old checkpoint note (issue 44: one format, C2SP's, published from the
    # log): the ruling has none to sign again, and revision 2's C2SP checkpoint still holds the copy below.
    assert [len(e["checkpoints"]) for e in entries if e.get("kind") == "dispute"] == [0]
    target = tmp_path / "elsewhere" / "copy.db"
    target.parent.mkdir()
    assert imported(cli, history, target, *([how] if how != "copy" else [])).returncode == 0
    checked = cli.run("verify", "-c", "audit", "--checkpoint", str(kept), store=f"sqlite:///{target}", check=False)
    assert checked.returncode == 0, checked.stdout


@pytest.mark.parametrize("how", ["copy", "--reexecute"])
def test_an_export_whose_rolls_were_edited_is_refused_naming_the_line_and_leaves_nothing(audited, tmp_path, cli, how):
    """Issue 36, item 11: a copy keeps the events, so an edited `rolls` would be dropped silently; a re-execution
    would store the forged faces and refuse only at the end. Both refuse before writing anything."""
    store, _ = audited
    history, _ = export(cli, store, tmp_path)
    lines = history.read_text().splitlines()
    at = next(i for i, line in enumerate(lines) if '"kind": "command"' in line and '"id": "r2"' in line)
    entry = json.loads(lines[at])
    entry["rolls"][0]["faces"] = [6, 6]
    lines[at] = json.dumps(entry)
    history.write_text("\n".join(lines) + "\n")
    target = tmp_path / "copy.db"
    result = imported(cli, history, target, *([how] if how != "copy" else []))
    assert result.returncode == 1
    said = " ".join(result.stderr.split())
    assert f"line {at + 1} (command 'r2', seq 10)" in said and "nothing was imported" in said
    assert ("its rolls are not what its events record" in said) if how == "copy" else ("rolls, seeds or command were "
                                                                                       "edited" in said)
    shown = cli.run("rolls", "-c", "audit", store=f"sqlite:///{target}", check=False)
    assert shown.returncode == 1 and "no campaign 'audit'" in shown.stderr
    assert imported(cli, export(cli, store, tmp_path, "honest.jsonl")[0], target,
                    *([how] if how != "copy" else [])).returncode == 0  # the honest file then imports whole


@pytest.mark.parametrize("how", ["copy", "--reexecute"])
def test_an_export_cut_at_a_command_boundary_is_refused(audited, tmp_path, cli, how):
    store, _ = audited
    _, entries = export(cli, store, tmp_path)
    cut = tmp_path / "cut.jsonl"
    write(cut, entries[:-3] + entries[-1:])  # the last two commands dropped, the trailer kept
    target = tmp_path / "copy.db"
    result = imported(cli, cut, target, *([how] if how != "copy" else []))
    assert result.returncode == 1
    assert f"the trailer counts {entries[-1]['commands']} commands, the file holds {entries[-1]['commands'] - 2}" \
        in " ".join(result.stderr.split())
    assert rows(target) == []


@pytest.mark.parametrize("how", ["copy", "--reexecute"])
def test_an_export_without_its_trailer_is_refused(audited, tmp_path, cli, how):
    store, _ = audited
    _, entries = export(cli, store, tmp_path)
    cut = tmp_path / "cut.jsonl"
    write(cut, entries[:-3])  # cut at a command boundary, the trailer with the rest
    target = tmp_path / "copy.db"
    result = imported(cli, cut, target, *([how] if how != "copy" else []))
    assert result.returncode == 1 and "the file ends without its trailer" in " ".join(result.stderr.split())
    assert rows(target) == []


def test_a_trailer_naming_another_head_is_refused(audited, tmp_path, cli):
    store, _ = audited
    _, entries = export(cli, store, tmp_path)
    entries[-1]["head"] = "0" * 64
    edited = tmp_path / "edited.jsonl"
    write(edited, entries)
    target = tmp_path / "copy.db"
    result = imported(cli, edited, target)
    assert result.returncode == 1 and "the trailer's head is 0000000000000000" in " ".join(result.stderr.split())
    assert rows(target) == []


# --- an import stopped half-way: a fragment never passes as whole, and a rerun finishes it ----------


#: Where the import is stopped: in its third batch of commands, or once its rulings are stored and only
#: the record saying it finished is left (the copy then holds more than the file's commands: a rerun
#: must read the store, not the state the file's commands leave).
STOPS = {
    "while copying": lambda events, batches: len(batches) == 2,
    "after its rulings": lambda events, batches: any(e.topic.endswith(":ImportRecord.ImportFinished") for e in events),
}


@pytest.mark.parametrize("stop", STOPS)
def test_an_import_stopped_half_way_fails_verify_and_the_same_import_finishes_it(audited, tmp_path, cli, monkeypatch,
                                                                                 stop):
    from rollbook.replay.transfer import import_history
    from rollbook.store import Store

    store, source = audited
    cli.run("dispute", "r3", "-c", "audit", "--reason", "fell off", "--faces", "6,6", store=store)
    history, entries = export(cli, store, tmp_path)
    target = tmp_path / "copy.db"
    copy = f"sqlite:///{target}"
    opened = Store.open(copy)
    insert, batches = opened.app.recorder.insert_events, []

    def dies_there(events, **kwargs):
        if STOPS[stop](events, batches):
            raise KeyboardInterrupt("the process is killed")
        batches.append(len(events))
        return insert(events, **kwargs)

    monkeypatch.setattr(opened.app.recorder, "insert_events", dies_there)
    with pytest.raises(KeyboardInterrupt):
        import_history(opened, lambda: iter(history.read_bytes().splitlines(keepends=True)), batch_size=3)
    opened.close()
    assert rows(target)  # a fragment is stored ...
    verified = cli.run("verify", "-c", "audit", store=copy, check=False)
    assert verified.returncode == 1 and "the import of this campaign is unfinished" in " ".join(verified.stdout.split())  # ... says so
    if stop == "while copying":
        assert f"6 commands stored of the {entries[-1]['commands']} its export counts" in " ".join(verified.stdout.split())
    again = cli.run("import", str(history), "--batch-size", "3", store=copy, check=False)
    assert again.returncode == 0, again.stderr
    assert all(not r["findings"] for r in cli.json("verify", "-c", "audit", store=copy).values())
    assert cli.run("export", "-c", "audit", store=copy).stdout.splitlines()[-1] == history.read_text().splitlines()[-1]
    for name in ("Anna", "Bo", "Chaika"):
        assert cli.json("sheet", name, "-c", "audit", store=copy) == cli.json("sheet", name, "-c", "audit", store=store)


# --- progress: the bars of import and dispute have their totals (issue 18) -------------------------


def test_import_and_dispute_tell_their_progress_with_its_total():
    from rollbook.commands.runner import run_file
    from rollbook.commands.service import Rollbook
    from rollbook.replay.dispute import Ruling, dispute
    from rollbook.replay.history import recorded_commands
    from rollbook.replay.export import export_lines
    from rollbook.replay.transfer import import_history
    from rollbook.store import Store

    campaign = generate("pirates", 120)
    source = Store.open("memory://")
    assert run_file(Rollbook(source), campaign.jsonl()).error is None
    lines = [line.encode() for line in export_lines(source, campaign.campaign, with_secrets=True)]
    commands = json.loads(lines[-1])["commands"]
    for reexecute, phases in ((False, {"checking", "copying"}), (True, {"re-executing"})):
        told = []
        import_history(Store.open("memory://"), lambda: iter(lines), batch_size=16, reexecute=reexecute,
                       progress=lambda *call: told.append(call))
        assert {phase for phase, _, _ in told} == phases
        assert all(total == commands for _, _, total in told), told
        assert told[-1][1] == commands
    dropped = list(recorded_commands(source.app, campaign.campaign))[-3].id
    told = []
    dispute(source, campaign.campaign, Ruling(roll=dropped, reason="a typo", actor="gm", drop=True), dry_run=False,
            progress=lambda *call: told.append(call))
    assert told == [(n, commands) for n in range(commands + 1)]
