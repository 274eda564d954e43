"""A remote player's command line against a real `rollbook serve`: sign in once, every verb with the
output it has on the store, verify on the client, undo one's own, retries that store nothing twice."""

import json
import stat
import threading
from abc import ABC, abstractmethod
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import httpx
import pytest
from rollbook.cli import app
from tests.battle import CAMPAIGN
from typer.testing import CliRunner

pytestmark = pytest.mark.slow


@pytest.fixture
def config(tmp_path, monkeypatch):
    """A config folder of the test's own, and no server or store named by the environment."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    for name in ("ROLLBOOK_SERVER", "ROLLBOOK_TOKEN", "ROLLBOOK_STORE", "ROLLBOOK_CAMPAIGN"):
        monkeypatch.delenv(name, raising=False)
    return tmp_path / "config" / "rollbook"


def cli(*words, env=None, input=None):
    return CliRunner().invoke(app, list(words), env=env, input=input, catch_exceptions=False)


def signed_in(served, user, tmp_path):
    token_file = tmp_path / f"{user}.token"
    token_file.write_text(served[2][user] + "\n")
    done = cli("login", served[1].url, "--token-file", str(token_file))
    assert done.exit_code == 0, done.output
    return done


def test_login_keeps_server_and_token_for_the_owner_only_and_whoami_names_the_roles(served, config, tmp_path):
    done = signed_in(served, "p0", tmp_path)
    assert done.stdout.startswith(f"signed in to {served[1].url} as p0 (kept in {config / 'login.json'})")
    assert stat.S_IMODE((config / "login.json").stat().st_mode) == 0o600
    assert stat.S_IMODE(config.stat().st_mode) == 0o700
    assert json.loads((config / "login.json").read_text())["server"] == served[1].url
    who = cli("whoami")
    assert who.exit_code == 0 and who.stdout.splitlines()[1:] == [f"  {CAMPAIGN}: player"], who.output
    assert who.stdout.startswith(f"p0 on {served[1].url}")
    assert json.loads(cli("whoami", "--json").stdout) == {
        "user": "p0", "server": served[1].url, "campaigns": [{"campaign": CAMPAIGN, "role": "player"}]}
    # The environment wins: another token for the same server signs in as its user.
    assert json.loads(cli("whoami", "--json", env={"ROLLBOOK_TOKEN": served[2]["gm"]}).stdout)["user"] == "gm"
    out = cli("logout")
    assert out.stdout == f"signed out of {served[1].url}: removed {config / 'login.json'}\n"
    assert not (config / "login.json").exists()
    assert "not signed in" in cli("whoami").output


def test_login_asks_for_the_token_and_keeps_nothing_when_the_server_refuses_it(served, config):
    asked = cli("login", served[1].url, input=served[2]["p1"] + "\n")
    assert asked.exit_code == 0 and "as p1" in asked.stdout and served[2]["p1"] not in asked.stdout
    cli("logout")
    refused = cli("login", served[1].url, input="rb_not-a-token\n")
    assert refused.exit_code == 1
    assert "this token is unknown, replaced or revoked" in refused.output
    assert not (config / "login.json").exists()


def test_a_saved_token_is_never_sent_to_another_server(served, config, tmp_path):
    heard = []

    class Recording(BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802 - the library's name
            heard.append(self.headers.get("Authorization"))
            self.send_response(401)
            self.end_headers()

        def log_message(self, *_):
            pass

    signed_in(served, "p0", tmp_path)
    other = ThreadingHTTPServer(("127.0.0.1", 0), Recording)
    threading.Thread(target=other.serve_forever, daemon=True).start()
    try:
        elsewhere = cli("rolls", "-c", CAMPAIGN, env={"ROLLBOOK_SERVER": f"http://127.0.0.1:{other.server_port}"})
    finally:
        other.shutdown()
    assert elsewhere.exit_code == 1 and "needs a token: `rollbook login" in elsewhere.output
    assert heard == []


def test_after_login_every_verb_prints_what_it_prints_on_the_store(served, config, tmp_path):
    url = served[0]
    signed_in(served, "p1", tmp_path)
    assert cli("post", "roll_move", "character=P1", "stat=audacity", "dice=[3,4]", "-c", CAMPAIGN).exit_code == 0
    used = cli("use", CAMPAIGN)
    assert used.stdout.startswith(f"using {CAMPAIGN} on {served[1].url}"), used.output
    for verb in (["characters"], ["sheet", "P0"], ["ship", "Chaika"], ["timeline"], ["limits"], ["rolls"], ["log"],
                 ["revisions"]):
        local = cli(*verb, "-c", CAMPAIGN, "--store", url, "--json")
        remote = cli(*verb, "--json")  # no -c: `use` chose it on the server; no --server: `login` did
        assert remote.exit_code == 0, (verb, remote.output)
        assert json.loads(remote.stdout) == json.loads(local.stdout), verb
        assert cli(*verb).stdout == cli(*verb, "-c", CAMPAIGN, "--store", url).stdout, verb
    listed = json.loads(cli("campaigns", "--json").stdout)
    local = json.loads(cli("campaigns", "--store", url, "--json").stdout)
    assert listed == [{**local[0], "role": "player"}]
    odds = cli("odds", "roll_move", "character=P1", "stat=guile", "--json")
    assert json.loads(odds.stdout)["fractions"] == json.loads(
        cli("odds", "roll_move", "character=P1", "stat=guile", "-c", CAMPAIGN, "--store", url, "--json").stdout
    )["fractions"]
    signed = json.loads(cli("checkpoint", "--json").stdout)
    assert signed["campaign"] == CAMPAIGN and len(signed["public_key"]) == 64
    pasted = cli("checkpoint")
    # The C2SP note: origin, size, root, revision; the same size signs to the same bytes on the server and the store.
    assert pasted.stdout.startswith(f"rollbook/{CAMPAIGN}\n") and "\nrevision 1\n" in pasted.stdout
    assert pasted.stdout == cli("checkpoint", "-c", CAMPAIGN, "--store", url).stdout


def test_verify_checks_the_servers_export_on_the_client(served, config, tmp_path):
    signed_in(served, "p0", tmp_path)
    checked = cli("verify", "-c", CAMPAIGN, "--json")
    assert checked.exit_code == 0, checked.output
    report = json.loads(checked.stdout)[CAMPAIGN]
    local = json.loads(cli("verify", "-c", CAMPAIGN, "--store", served[0], "--json").stdout)[CAMPAIGN]
    assert (report["commands"], report["head"], report["findings"]) == (local["commands"], local["head"], [])
    pasted = tmp_path / "checkpoint.txt"
    pasted.write_text(cli("checkpoint", "-c", CAMPAIGN).stdout)
    assert cli("verify", "-c", CAMPAIGN, "--checkpoint", str(pasted)).exit_code == 0
    # A server that edits a face in what it exports is caught here, whatever it says of itself.
    exported = httpx.get(f"{served[1].url}/campaigns/{CAMPAIGN}/export",
                         headers={"Authorization": f"Bearer {served[2]['p0']}"}).text
    assert '"audacity": 2' in exported
    forged = exported.replace('"audacity": 2', '"audacity": 3', 1)
    with fake_server({f"/campaigns/{CAMPAIGN}/export": forged}) as fake:
        caught = cli("verify", "-c", CAMPAIGN, env={"ROLLBOOK_SERVER": fake, "ROLLBOOK_TOKEN": "t"})
    assert caught.exit_code == 1 and f"the export {fake} gives of {CAMPAIGN} does not hold" in caught.output


def test_undo_takes_back_ones_own_last_command_and_a_player_never_anothers(served, config, tmp_path):
    signed_in(served, "p0", tmp_path)
    posted = json.loads(cli("post", "roll_move", "character=P0", "stat=guile", "dice=[1,2]", "-c", CAMPAIGN,
                            "--id", "p0-undo-me", "--json").stdout)
    assert posted["status"] == "applied"
    theirs = cli("undo", "p0-undo-me", "--reason", "not yours", "-c", CAMPAIGN,
                 env={"ROLLBOOK_TOKEN": served[2]["p1"]})
    assert theirs.exit_code == 1
    assert "player:p1 may undo only his own commands; p0-undo-me is player:p0's" in theirs.output
    mine = cli("undo", "--reason", "typo", "-c", CAMPAIGN, "--json")
    assert mine.exit_code == 0, mine.output
    assert (json.loads(mine.stdout)["roll"], json.loads(mine.stdout)["applied"]) == ("p0-undo-me", True)
    assert "p0-undo-me" not in [r["id"] for r in json.loads(cli("rolls", "-c", CAMPAIGN, "--json").stdout)]
    shown = " ".join(cli("rolls", "-c", CAMPAIGN).stdout.split())  # the table shows it struck (issue 44)
    assert "p0-undo-me" in shown and "STRUCK" in shown and "(typo)" in shown


def test_a_dry_run_dispute_on_the_server_logs_one_line_not_one_per_command(served, config):
    _, server, tokens = served
    gm = {"ROLLBOOK_TOKEN": tokens["gm"]}
    posted = cli("post", "roll_move", "character=P1", "stat=guile", "-c", CAMPAIGN, "--json", "--server", server.url,
                 env=gm)  # the campaign's own dice: a roll of its own, whatever the other tests posted
    assert posted.exit_code == 0, posted.output
    roll = json.loads(posted.stdout)["id"]
    before = [line["event"] for line in server.logs()]
    ruled = cli("dispute", roll, "--reason", "misfire", "--faces", "6,6", "--dry-run", "-c", CAMPAIGN,
                "--server", server.url, env={"ROLLBOOK_TOKEN": tokens["gm"]})
    assert ruled.exit_code == 0, ruled.output
    after = [line["event"] for line in server.logs()][len(before):]
    assert "command.applied" not in after and after.count("dispute.dry_run") == 1


class Quiet(BaseHTTPRequestHandler):
    def log_message(self, *_):
        pass


class loopback(ABC):
    """A server on loopback in a thread of its own, answering with `handler()`; entered, its URL."""

    @abstractmethod
    def handler(self) -> type[BaseHTTPRequestHandler]:
        """The request handler class each kind of loopback server answers with."""

    def __enter__(self):
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), self.handler())
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return f"http://127.0.0.1:{self.server.server_port}"

    def __exit__(self, *_):
        self.server.shutdown()


class fake_server(loopback):
    """Answers fixed bodies by path (200), for what a real server never sends."""

    def __init__(self, bodies):
        self.bodies = bodies

    def handler(self):
        bodies = self.bodies

        class Answering(Quiet):
            def do_GET(self):  # noqa: N802
                body = bodies.get(self.path.split("?")[0])
                self.send_response(200 if body is not None else 404)
                self.end_headers()
                self.wfile.write((body or '{"error": {"field": null, "reason": "no"}}').encode())

        return Answering


class flaky_proxy(loopback):
    """Forwards to the server, but loses the first answers: a dropped connection, then a 502 after the
    server has stored the post (its answer lost on the way back)."""

    def __init__(self, target):
        self.target, self.seen = target, []

    def handler(self):
        proxy = self

        class Forwarding(Quiet):
            protocol_version = "HTTP/1.1"

            def _forward(self):
                size = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(size) if size else None
                proxy.seen.append((self.command, self.path, self.headers.get("Idempotency-Key")))
                if len(proxy.seen) == 1:  # the connection drops before anything is forwarded
                    self.close_connection = True
                    self.connection.close()
                    return
                headers = {k: v for k, v in self.headers.items() if k.lower() not in ("host", "content-length")}
                answer = httpx.request(self.command, proxy.target + self.path, content=body, headers=headers)
                status = 502 if len(proxy.seen) == 2 else answer.status_code  # stored, but the answer is lost
                sent = answer.content if status == answer.status_code else b"bad gateway"
                self.send_response(status)
                for name in ("Idempotent-Replayed", "Content-Type", "ETag"):
                    if name in answer.headers:
                        self.send_header(name, answer.headers[name])
                self.send_header("Content-Length", str(len(sent)))
                self.end_headers()
                self.wfile.write(sent)

            do_GET = do_POST = _forward

        return Forwarding


def test_server_retries_connection_errors_and_502_and_the_key_makes_the_retried_post_safe(served, config):
    from rollbook.testing.serving import applied_ids

    _, server, tokens = served
    proxy = flaky_proxy(server.url)
    with proxy as through:
        posted = cli("post", "roll_move", "character=P1", "stat=audacity", "dice=[2,5]", "--id", "flaky-1",
                     "-c", CAMPAIGN, "--json", "--server", through, env={"ROLLBOOK_TOKEN": tokens["p1"]})
    assert posted.exit_code == 0, posted.output
    assert json.loads(posted.stdout)["status"] == "applied"  # its own first try stored it: not a skip
    assert [key for _, _, key in proxy.seen] == ["flaky-1"] * 3
    assert applied_ids(served[0]).count("flaky-1") == 1


def test_the_live_stream_starts_at_the_live_end_and_from_0_gives_everything(served):
    _, server, tokens = served
    headers = {"Authorization": f"Bearer {tokens['p0']}"}
    with httpx.Client(timeout=30) as http:
        log = http.get(f"{server.url}/campaigns/{CAMPAIGN}/log", headers=headers).json()
        with http.stream("GET", f"{server.url}/campaigns/{CAMPAIGN}/events?from=0", headers=headers) as stream:
            first = next(line for line in stream.iter_lines() if line.startswith("id:"))
        assert first == f"id: {log[0]['position']}"
        with http.stream("GET", f"{server.url}/campaigns/{CAMPAIGN}/events", headers=headers) as stream:
            lines = stream.iter_lines()
            posted = http.post(f"{server.url}/campaigns/{CAMPAIGN}/commands", headers={**headers, "Idempotency-Key": "live-end-1"},
                               json={"type": "roll_move", "character": "P0", "stat": "audacity", "dice": [4, 4]}).json()
            first = next(line for line in lines if line.startswith("id:"))
        assert first == f"id: {posted['events'][0]['position']}"  # nothing of the history before it


def test_a_remote_players_salted_roll_is_never_refused_for_someone_elses_post(served, config, tmp_path):
    """Over a server: `post` adds a salt but no `seen` (issue 45); a `seen` given by hand, however stale, is
    recorded and refuses nothing, a salted roll's faces being its salt's whatever came first (issue 44); a salt
    used again is refused, naming the command that used it."""
    signed_in(served, "p1", tmp_path)
    before = json.loads(cli("timeline", "-c", CAMPAIGN, "--json").stdout)["commands"]
    posted = cli("post", "roll_move", "character=P1", "stat=guile", "-c", CAMPAIGN, "--json")
    assert posted.exit_code == 0, posted.output
    logged = json.loads(cli("log", "-c", CAMPAIGN, "--json").stdout)
    applied = next(e["data"] for e in logged if e["type"] == "CommandApplied"
                   and e["data"]["command_id"] == json.loads(posted.stdout)["id"])
    assert "seen" not in applied["command"] and applied["seq"] == before + 1 and applied["command"]["salt"]
    late = cli("post", "roll_move", "character=P1", "stat=guile", f"seen={before}", "-c", CAMPAIGN)
    assert late.exit_code == 0, late.output
    salt = applied["command"]["salt"]
    again = cli("post", "roll_move", "character=P1", "stat=guile", f"salt={salt}", "-c", CAMPAIGN)
    assert again.exit_code == 1 and f"by command {json.loads(posted.stdout)['id']}" in " ".join(again.output.split())
