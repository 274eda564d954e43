"""`rollbook run --group-commit N`: N commands per transaction, the run's outcome as without grouping.

A generated pirates campaign (typed and the campaign's own seeded dice), with repeated lines
and a refusal dropped in at random, is run once a command per transaction and once in
groups of a random N, each into a fresh store of the kind under test with the same
deterministic seeds and keys. Both must store the same events at the same positions (the
same bytes, so the same fingerprints), report the same summary, and verify and replay clean.
"""

from __future__ import annotations

import contextlib
import json
import random
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from rollbook.bench.generate import generate
from rollbook.cli import app as cli_app
from rollbook.commands.parse import parse_command
from rollbook.commands.runner import RunReport, run_file
from rollbook.commands.service import Rollbook
from rollbook.replay.replayer import replay
from rollbook.replay.verify import verify
from rollbook.store import Store
from rollbook.store.keys import MemorySigningKeys
from rollbook.store.seeds import MemorySeedKeeper
from rollbook.testing.plugin import postgres_schema

#: The file's derived ids belong to its path: both runs are given the same one.
SOURCE = "/campaigns/grouped.jsonl"


@contextmanager
def fresh_store(kind_of: str, folder: Path, name: str) -> Iterator[Store]:
    """A new, empty store of the same kind as the URL `kind_of`, with deterministic seeds and keys."""
    with ExitStack() as stack:
        if kind_of.startswith("memory"):
            url = "memory://"
        elif kind_of.startswith("sqlite"):
            url = f"sqlite:///{folder / f'{name}.db'}"
        else:
            url = stack.enter_context(postgres_schema())
        store = Store.open(url, seeds=MemorySeedKeeper("deterministic"), keys=MemorySigningKeys("deterministic"))
        stack.callback(store.close)
        yield store


def campaign_file(rng: random.Random, size: int) -> tuple[bytes, str]:
    """A generated campaign with repeated lines (near and far) and, half the time, one refused line."""
    made = generate("pirates", size, seed=rng.randrange(10**6))
    lines = [json.dumps(c) for c in made.commands]
    for _ in range(rng.randint(1, 6)):
        at = rng.randrange(2, len(lines))
        lines.insert(at, lines[rng.randrange(at)])  # an earlier line again: already recorded
    if rng.random() < 0.5:
        at = rng.randrange(2, len(lines))
        when = json.loads(lines[at - 1])["at"]
        refused = rng.choice([
            {"type": "take_damage", "campaign": made.campaign, "character": "Nobody", "harm": 1, "at": when},
            {**json.loads(lines[1]), "luck": 9},  # a recorded id given another command
        ])
        lines.insert(at, json.dumps(refused))
    return ("\n".join(lines) + "\n").encode(), made.campaign


def prizes_file(campaign: str, count: int) -> tuple[list[dict[str, Any]], bytes]:
    """A new pirates campaign, its ship, and `count` prizes for it, all at one time: its lines and file."""
    at = "2020-05-01T12:00:00+00:00"
    lines = [{"type": "create_campaign", "campaign": campaign, "ruleset": "pirates", "id": "new", "at": at},
             {"type": "create_ship", "campaign": campaign, "id": "ship", "name": "Chaika", "navigation": 1,
              "firepower": 1, "displacement": 1, "hull": 5, "at": at}]
    lines += [{"type": "gain_money", "campaign": campaign, "id": f"loot-{n}", "to": "Chaika", "chests": 1,
               "reason": "a prize", "at": at} for n in range(count)]
    return lines, "".join(json.dumps(c) + "\n" for c in lines).encode()


def refused_at(made: Any, line: int) -> bytes:
    """A generated campaign's file with a refused command (harm to nobody) as line `line`."""
    lines = [json.dumps(c) for c in made.commands]
    lines.insert(line - 1, json.dumps({"type": "take_damage", "campaign": made.campaign, "character": "Nobody",
                                       "harm": 1, "at": made.commands[line - 2]["at"]}))
    return ("\n".join(lines) + "\n").encode()


def summary(report: RunReport) -> dict[str, Any]:
    return {
        "applied": report.applied, "skips": [s.as_dict() for s in report.skipped],
        "error": report.error.as_dict() if report.error else None, "checkpoints": report.checkpoints,
    }


def stored_events(store: Store) -> list[tuple[int, str, int, str, bytes]]:
    """Every event in store order: position, aggregate, version, topic and the stored bytes."""
    return [(n.id, n.originator_id.hex, n.originator_version, n.topic, n.state)
            for n in store.app.recorder.select_notifications(1, 10**6)]


def run_into(store: Store, text: bytes, group_commit: int) -> dict[str, Any]:
    return summary(run_file(Rollbook(store), text, source=SOURCE, group_commit=group_commit))


@pytest.mark.parametrize("case", range(4))
def test_grouped_and_ungrouped_runs_store_and_report_the_same(rollbook_store: str, tmp_path: Path, case: int) -> None:
    rng = random.Random(2200 + case)
    text, campaign = campaign_file(rng, rng.randint(60, 160))
    group = rng.randint(2, 40)
    with fresh_store(rollbook_store, tmp_path, "alone") as alone, fresh_store(rollbook_store, tmp_path, "grouped") as grouped:
        expected = run_into(alone, text, 1)
        assert expected["skips"], "the file repeats lines: some must be skipped"
        assert run_into(grouped, text, group) == expected, f"groups of {group}"
        assert stored_events(grouped) == stored_events(alone), f"groups of {group}"
        assert verify(grouped.app, campaign).findings == []
        assert replay(grouped, campaign, verify=True).difference is None
        # A rerun of the file, grouped, skips every stored command as a rerun without grouping does.
        again = run_into(grouped, text, group)
        assert again == run_into(alone, text, 1)
        assert again["applied"] == 0


def test_a_group_keeps_the_commands_before_a_refusal_and_the_rerun_is_skipped(rollbook_store: str, tmp_path: Path) -> None:
    made = generate("pirates", 30, seed=11)
    text = refused_at(made, 13)
    with fresh_store(rollbook_store, tmp_path, "refused") as store:
        first = run_into(store, text, 50)
        assert first["applied"] == 12 and first["error"]["line"] == 13
        assert run_into(store, text, 50)["skips"][-1]["line"] == 12


def test_a_repeat_inside_the_open_group_names_where_it_is_recorded(rollbook_store: str, tmp_path: Path) -> None:
    made = generate("pirates", 10, seed=3)
    lines = [json.dumps(c) for c in made.commands]
    text = ("\n".join([*lines[:5], lines[3], *lines[5:]]) + "\n").encode()
    with fresh_store(rollbook_store, tmp_path, "repeat") as store:
        (skip,) = run_into(store, text, 100)["skips"]
    assert skip["line"] == 6 and skip["id"] == made.commands[3]["id"]
    assert skip["seq"] == 4 and skip["position"] is not None


@pytest.mark.parametrize("given", ["0", "-3", "ten", "2.5"])
def test_a_bad_group_size_is_refused_in_one_line_and_nothing_is_written(tmp_path: Path, given: str) -> None:
    commands = tmp_path / "c.jsonl"
    commands.write_bytes(generate("pirates", 5).jsonl())
    url = f"sqlite:///{tmp_path / 'never.db'}"
    result = CliRunner().invoke(cli_app, ["run", str(commands), "--store", url, "--group-commit", given])
    assert result.exit_code == 1
    (said,) = result.stderr.strip().splitlines()
    assert said.startswith("rollbook: --group-commit:") and repr(given) in said
    assert not (tmp_path / "never.db").exists()


def test_group_commit_with_a_server_is_refused_not_ignored(tmp_path: Path) -> None:
    commands = tmp_path / "c.jsonl"
    commands.write_bytes(generate("pirates", 5).jsonl())
    result = CliRunner().invoke(cli_app, ["--server", "http://127.0.0.1:9", "run", str(commands), "--group-commit", "10"])
    assert result.exit_code == 1
    (said,) = result.stderr.strip().splitlines()
    assert "--group-commit" in said and "--server" in said


def test_a_group_overtaken_by_another_writer_is_applied_again_one_command_at_a_time(
    rollbook_store: str, tmp_path: Path,
) -> None:
    campaign = "overtaken"
    lines, text = prizes_file(campaign, 12)
    if rollbook_store.startswith("memory"):
        pytest.skip("another writer opens the store as another process would: a memory store is the process's own")

    with fresh_store(rollbook_store, tmp_path, "overtaken") as store, ExitStack() as closing:
        # Its own application, as another process has: nothing cached is shared with the run.
        other = Rollbook(closing.enter_context(contextlib.closing(Store.open(store.url))))
        overtaken: list[str] = []

        class Overtaken(Rollbook):
            """Another writer stores a prize of the campaign while each group is open, before it commits."""

            @contextmanager
            def batch(self, *, claims_enforced: bool = False) -> Iterator[Rollbook]:
                with super().batch(claims_enforced=claims_enforced) as batched:
                    yield batched
                    if other.campaign(campaign) is not None:
                        overtaken.append(f"other-{len(overtaken)}")
                        other.execute(parse_command({**lines[-1], "id": overtaken[-1]}, ruleset_of=other.ruleset_of))

        report = run_file(Overtaken(store), text, source=SOURCE, group_commit=5)
        assert report.error is None and report.applied == len(lines)
        assert len(overtaken) >= 2
        # Read afresh: the file's commands and every prize of the other writer, each once, in one chain.
        stored = closing.enter_context(contextlib.closing(Store.open(store.url)))
        assert Rollbook(stored).campaign(campaign).seq == len(lines) + len(overtaken)
        assert verify(stored.app, campaign).findings == []


def test_each_line_in_words_is_told_once_its_group_is_stored_as_without_grouping(
    rollbook_store: str, tmp_path: Path,
) -> None:
    from rollbook.cli.posting import told

    text = generate("pirates", 80, seed=5).jsonl()

    def in_words(store: Store, group_commit: int) -> list[tuple[int, str]]:
        service, said = Rollbook(store), []
        run_file(service, text, source=SOURCE, group_commit=group_commit,
                 on_command=lambda line, command, outcome: said.append((line, told(service, command.campaign, outcome.command_id, "en"))))
        return said

    with fresh_store(rollbook_store, tmp_path, "alone") as alone, fresh_store(rollbook_store, tmp_path, "grouped") as grouped:
        expected = in_words(alone, 1)
        assert len(expected) == 80
        assert in_words(grouped, 16) == expected


def test_a_stored_command_the_rules_accept_again_is_skipped_as_without_grouping(rollbook_store: str, tmp_path: Path) -> None:
    """Once a group of new commands is stored, nobody looks for ids before deciding: a later line
    repeating a stored prize (at the same time, so the rules would apply it again) fails its group's
    commit on the claim's key, and the group is applied again one command at a time, skipping it."""
    made = generate("pirates", 30, seed=7)
    ship = next(c["name"] for c in made.commands if c["type"] == "create_ship")
    at = made.commands[-1]["at"]
    prizes = [{"type": "gain_money", "campaign": made.campaign, "id": f"prize-{n}", "to": ship, "chests": 1,
               "reason": "a prize", "at": at} for n in range(25)]
    lines = [*made.commands, *prizes, prizes[0], *prizes[1:3]]
    text = "".join(json.dumps(c) + "\n" for c in lines).encode()
    with fresh_store(rollbook_store, tmp_path, "alone") as alone, fresh_store(rollbook_store, tmp_path, "grouped") as grouped:
        expected = run_into(alone, text, 1)
        assert [s["id"] for s in expected["skips"]] == ["prize-0", "prize-1", "prize-2"]
        assert run_into(grouped, text, 10) == expected
        # The same events in the same order; PostgreSQL's positions skip the numbers a failed commit
        # took (a command's alone, the whole group's grouped), so only the order is compared there.
        assert [e[1:] for e in stored_events(grouped)] == [e[1:] for e in stored_events(alone)]
        if not grouped.url.startswith("postgresql"):
            assert stored_events(grouped) == stored_events(alone)
        assert verify(grouped.app, made.campaign).findings == []


def test_a_stored_command_the_rules_refuse_again_is_skipped_as_without_grouping(rollbook_store: str, tmp_path: Path) -> None:
    """Nobody looking for ids, a repeated line the rules now refuse (a ship created twice) is not a
    refusal: as without grouping, it is found recorded and skipped, and the run goes on."""
    made = generate("pirates", 30, seed=7)
    creation = next(c for c in made.commands if c["type"] == "create_ship")
    at = made.commands[-1]["at"]
    prizes = [{"type": "gain_money", "campaign": made.campaign, "id": f"prize-{n}", "to": creation["name"],
               "chests": 1, "reason": "a prize", "at": at} for n in range(25)]
    lines = [*made.commands, *prizes, creation, *prizes[3:5], {**prizes[5], "id": "prize-new"}]
    text = "".join(json.dumps(c) + "\n" for c in lines).encode()
    with fresh_store(rollbook_store, tmp_path, "alone") as alone, fresh_store(rollbook_store, tmp_path, "grouped") as grouped:
        expected = run_into(alone, text, 1)
        assert expected["error"] is None
        assert [s["id"] for s in expected["skips"]] == [creation["id"], "prize-3", "prize-4"]
        assert run_into(grouped, text, 10) == expected
        # The repeated prizes fail their group's commit (see above): on PostgreSQL the order is compared.
        assert [e[1:] for e in stored_events(grouped)] == [e[1:] for e in stored_events(alone)]
        if not grouped.url.startswith("postgresql"):
            assert stored_events(grouped) == stored_events(alone)
        assert verify(grouped.app, made.campaign).findings == []
