"""Every verb of the command line on PostgreSQL, by `--store postgresql://…` and by `ROLLBOOK_STORE`."""

from __future__ import annotations

import json
from pathlib import Path

import typer

from tests.reliability.support import CAMPAIGN, EXAMPLE, cli

#: Verbs that take no store, the follower (tests/postgres/test_follow.py) and the server
#: (two `rollbook serve` processes on PostgreSQL: tests/server/test_serving.py).
#: `login`, `logout` and `whoami` keep a server's session in the user's config, never a store
#: (tests/server/test_remote_player.py).
ELSEWHERE = {"schema", "moves", "follow", "serve", "login", "logout", "whoami"}

#: Read verbs, each run with --store and with ROLLBOOK_STORE: the answers must be the same.
READS = [
    ("sheet", "Anna", "--json"), ("sheet", "Anna", "--at", "anna-1", "--json"), ("ship", "Chaika", "--json"),
    ("timeline", "--json"), ("limits", "--json"), ("rolls", "--json"), ("log", "--json"), ("revisions", "--json"),
    ("verify", "--json"), ("replay", "--verify", "--json"), ("export",),
]


def ok(result) -> str:  # type: ignore[no-untyped-def]
    assert result.returncode == 0, f"{result.args}\n{result.stdout[-2000:]}\n{result.stderr[-2000:]}"
    assert "Traceback" not in result.stderr
    return str(result.stdout)


def test_every_verb_works_on_postgresql(pg_store: str, tmp_path: Path) -> None:
    from rollbook.cli import app

    verbs = {command.name for command in typer.main.get_command(app).commands.values()} - ELSEWHERE  # type: ignore[attr-defined]
    used: set[str] = set()

    def both(*args: str) -> str:
        used.add(args[0])
        by_option = ok(cli(*args, "-c", CAMPAIGN, store=pg_store))
        by_environment = ok(cli(*args, "-c", CAMPAIGN, env={"ROLLBOOK_STORE": pg_store}))
        assert by_option == by_environment, args
        return by_option

    used.add("run")
    commands = len([line for line in EXAMPLE.read_text().splitlines() if line.strip() and not line.startswith("//")])
    assert f"applied {commands} commands" in ok(cli("run", str(EXAMPLE), env={"ROLLBOOK_STORE": pg_store}))
    answers = {args: both(*args) for args in READS}
    assert json.loads(answers[("sheet", "Anna", "--json")])["luck"] == 0
    assert json.loads(answers[("sheet", "Anna", "--at", "anna-1", "--json")])["luck"] == 0

    used.add("rebuild")
    ok(cli("rebuild", store=pg_store))
    assert both("sheet", "Anna", "--json") == answers[("sheet", "Anna", "--json")]

    used.add("dispute")
    ok(cli("dispute", "anna-2", "-c", CAMPAIGN, "--reason", "typed wrong", "--faces", "1,1", "--dry-run", store=pg_store))
    ok(cli("dispute", "anna-2", "-c", CAMPAIGN, "--reason", "typed wrong", "--faces", "1,1",
           env={"ROLLBOOK_STORE": pg_store}))
    assert len(json.loads(both("revisions", "--json"))) == 2
    both("verify", "--json")

    used |= {"export", "import"}
    exported = tmp_path / "export.jsonl"
    exported.write_text(ok(cli("export", "-c", CAMPAIGN, store=pg_store)))
    copy = f"sqlite:///{tmp_path / 'copy.db'}"
    ok(cli("import", str(exported), store=copy))
    assert ok(cli("sheet", "Bo", "-c", CAMPAIGN, "--json", store=copy)) == both("sheet", "Bo", "--json")

    used |= {"campaigns", "characters", "checkpoint", "odds"}
    assert CAMPAIGN in {row["campaign"] for row in json.loads(ok(cli("campaigns", "--json", store=pg_store)))}
    assert "Bo" in both("characters", "--json")
    signed = json.loads(ok(cli("checkpoint", "-c", CAMPAIGN, "--json", store=pg_store)))  # its time is now's
    assert signed["campaign"] == CAMPAIGN and signed["signature"]
    used |= {"prove", "check-proof", "witness"}
    (tmp_path / "proof.json").write_text(ok(cli("prove", "anna-1", "-c", CAMPAIGN, "--json", store=pg_store)))
    vkey = ok(cli("checkpoint", "-c", CAMPAIGN, "--vkey", store=pg_store)).strip()
    ok(cli("check-proof", str(tmp_path / "proof.json"), "--vkey", vkey))
    witness = ["--state", str(tmp_path / "witness.db")]
    ok(cli("witness", "add", pg_store, "-c", CAMPAIGN, "--name", "pat.example/w", *witness))
    assert "cosigned" in ok(cli("witness", "check", *witness))
    odds = ok(cli("odds", "roll_move", "character=Anna", "stat=guile", "-c", CAMPAIGN, "--json", store=pg_store))
    assert set(json.loads(odds)["outcomes"]) == {"full_success", "partial_success", "miss"}

    used |= {"post", "undo", "use", "users", "grant"}
    posted = json.loads(ok(cli("post", "take_damage", "character=Bo", "harm=1", "-c", CAMPAIGN, "--json",
                               store=pg_store)))
    ok(cli("undo", posted["id"], "-c", CAMPAIGN, "--reason", "a typo", store=pg_store))
    state = {"ROLLBOOK_STATE": str(tmp_path / "state")}
    ok(cli("use", CAMPAIGN, store=pg_store, env=state))
    assert json.loads(ok(cli("timeline", "--json", store=pg_store, env=state)))["revision"] == 3  # no -c: the chosen one
    assert json.loads(ok(cli("users", "add", "pat", "--json", store=pg_store)))["user"] == "pat"
    ok(cli("grant", "-c", CAMPAIGN, "pat", "player", store=pg_store))

    used |= {"line", "webhook", "discord"}
    assert "anna-1" in both("line", "anna-1", "--format", "markdown")
    secret = tmp_path / "hook.secret"
    secret.write_text("a-test-secret-of-the-hook")
    ok(cli("webhook", "add", "-c", CAMPAIGN, "--url", "http://127.0.0.1:9/hook", "--secret-file", str(secret),
           "--allow-webhook-network", "127.0.0.0/8", store=pg_store))
    assert "127.0.0.1:9/hook" in both("webhook", "list", "--json")
    token = tmp_path / "bot.token"
    token.write_text("a-test-bot-token")
    ok(cli("discord", "setup", "--application-id", "1234", "--public-key", "ab" * 32, "--bot-token-file", str(token),
           store=pg_store))
    ok(cli("discord", "bind", CAMPAIGN, "--channel", "5678", store=pg_store))
    assert "5678" in ok(cli("discord", "status", "-c", CAMPAIGN, "--json", store=pg_store))
    used.add("telegram")
    ok(cli("telegram", "setup", "--bot-token-file", str(token), store=pg_store))
    ok(cli("telegram", "bind", CAMPAIGN, "--chat", "-1001234567890", "--topic", "7", store=pg_store))
    assert "-1001234567890" in ok(cli("telegram", "status", "-c", CAMPAIGN, "--json", store=pg_store))

    used.add("demo")
    ok(cli("demo", "--json", store=pg_store))
    assert verbs <= used, f"verbs without a PostgreSQL check here: {sorted(verbs - used)}"
