"""An independent verifier (issue 51): a Go program kept beside this test (`goverify/`), built offline with Debian's
golang-go and golang-golang-x-mod-dev, checks a served campaign with Go's reference implementation — every
checkpoint opened by `note.Open`, every leaf's inclusion (`tlog.CheckRecord`) and consistency with earlier sizes
(`tlog.CheckTree`) from the tlog-tiles the server serves and from its JSON proofs, chain hashes and leaves recomputed
from the records — and, as a third-party witness on 127.0.0.1, co-signs the campaign through `rollbook checkpoint`.

Skipped where Go or the x/mod sources are missing; under CI=true that is a failure (`.ci/run` installs them)."""

import json
import os
import shutil
import subprocess
from pathlib import Path

import httpx
import pytest
from typer.testing import CliRunner

from rollbook.cli import app
from rollbook.domain.rulesets.pirates.generator import generate
from rollbook.domain.transparency.note import Verifier
from rollbook.testing.serving import prepare, serving

SOURCE = Path(__file__).parent / "goverify"
X_MOD = Path("/usr/share/gocode/src/golang.org/x/mod")
SIZE, LATER = 300, 310
SEED = "42" * 32


@pytest.fixture(scope="module")
def goverify(tmp_path_factory):
    needed = (("go", shutil.which("go")), ("golang-golang-x-mod-dev", X_MOD.is_dir()))
    missing = [what for what, there in needed if not there]
    if missing:
        if os.environ.get("CI") == "true":
            pytest.fail(f"the Go verifier needs {', '.join(missing)} in CI (.ci/run installs them)")
        pytest.skip(f"the Go verifier needs {', '.join(missing)}")
    folder = tmp_path_factory.mktemp("go")
    binary = folder / "goverify"
    env = {**os.environ, "GOPROXY": "off", "GOFLAGS": "-mod=mod", "GOCACHE": str(folder / "cache"),
           "GOPATH": str(folder / "path"), "GO111MODULE": "on"}
    built = subprocess.run(["go", "build", "-o", str(binary), "."], cwd=SOURCE, env=env, capture_output=True, text=True,
                           timeout=600)
    assert built.returncode == 0, built.stderr
    return binary


@pytest.fixture
def go_witness(goverify):
    """The Go program as a witness: started, its vkey and URL read from its first two lines."""
    processes = []

    def start(log_vkey):
        process = subprocess.Popen([str(goverify), "witness", "-name", "go.example/w", "-seed", SEED,
                                    "-log-vkey", log_vkey], stdout=subprocess.PIPE, text=True)
        processes.append(process)
        said = dict(process.stdout.readline().strip().split(" ", 1) for _ in range(2))
        assert set(said) == {"vkey", "url"}, said
        return said["vkey"], said["url"]

    yield start
    for process in processes:
        process.kill()
        process.wait(timeout=30)


def rollbook_cli(*args):
    result = CliRunner().invoke(app, ["-q", *args])
    assert result.exit_code == 0, result.output
    return result.stdout


@pytest.mark.slow
def test_go_checks_the_served_log_and_co_signs_it_through_rollbook_checkpoint(rollbook_store, goverify, go_witness,
                                                                              tmp_path):
    if rollbook_store.startswith("memory"):
        pytest.skip("a server process needs a store of its own: SQLite or PostgreSQL")
    generated = generate(LATER, 11)
    campaign = generated.campaign
    tokens = prepare(rollbook_store, campaign, generated.commands[:SIZE], ["p0"])
    log_vkey = rollbook_cli("checkpoint", "-c", campaign, "--store", rollbook_store, "--vkey").strip()
    witness_vkey, witness_url = go_witness(log_vkey)
    rollbook_cli("witness", "ask", witness_url, "--vkey", witness_vkey, "-c", campaign, "--store", rollbook_store)
    first = json.loads(rollbook_cli("checkpoint", "-c", campaign, "--store", rollbook_store, "--json"))
    assert first["size"] == SIZE and first["witnesses"][0]["status"] == "cosigned", first["witnesses"]
    # The log grows: Go's witness checks the consistency proof from 300 to 310 with tlog.CheckTree and co-signs.
    later = tmp_path / "later.jsonl"
    later.write_text("".join(json.dumps(c) + "\n" for c in generated.commands[SIZE:]))
    rollbook_cli("run", str(later), "--store", rollbook_store)
    second = json.loads(rollbook_cli("checkpoint", "-c", campaign, "--store", rollbook_store, "--json"))
    assert second["size"] == LATER and second["witnesses"][0]["status"] == "cosigned", second["witnesses"]
    # Go's witness holds to what it co-signed: an old size that is not its own is 409 with its size.
    stale = httpx.post(f"{witness_url}/add-checkpoint", content=f"old 0\n\n{first['note']}".encode(), timeout=30)
    assert (stale.status_code, stale.text, stale.headers["content-type"]) == (409, f"{LATER}\n", "text/x.tlog.size")
    # Rollbook accepts the cosignature Go made.
    (tmp_path / "published.txt").write_text(second["note"])
    rollbook_cli("verify", "-c", campaign, "--store", rollbook_store, "--checkpoint", str(tmp_path / "published.txt"),
                 "--witness", witness_vkey)
    # A ruling makes revision 2, a log of its own signed under its origin: Go's witness opens it with the
    # campaign's key under that name, and co-signs it from size 0.
    rollbook_cli("dispute", generated.early_rolls[0], "-c", campaign, "--store", rollbook_store, "--drop",
                 "--reason", "the forum roller misfired")
    ruled = json.loads(rollbook_cli("checkpoint", "-c", campaign, "--store", rollbook_store, "--json"))
    assert ruled["origin"] == f"rollbook/{campaign}/r2" and ruled["witnesses"][0]["status"] == "cosigned", ruled
    records = ["post-1", "post-10", generated.early_rolls[0], "post-150", f"post-{LATER}"]
    with serving(rollbook_store, tmp_path) as (server,):
        checked = subprocess.run([str(goverify), "check", "-base", server.url, "-campaign", campaign,
                                  "-token", tokens["p0"], "-vkey", log_vkey, "-witness", witness_vkey,
                                  *[arg for record in records for arg in ("-record", record)]],
                                 capture_output=True, text=True, timeout=600)
    assert checked.returncode == 0, checked.stderr
    report = json.loads(checked.stdout)
    size = json.loads(rollbook_cli("checkpoint", "-c", campaign, "--store", rollbook_store, "--revision", "1",
                                   "--json"))["size"]  # revision 1's log went on with the ruling
    assert size == LATER + 1 and report == {**report, "origin": f"rollbook/{campaign}", "size": size,
                                            "inclusion": size, "consistency": 7, "records": len(records),
                                            "cosigned": ["go.example/w"]}
    print(f"\ngoverify on {rollbook_store.split(':')[0]}: {report}")


@pytest.mark.slow
def test_go_refuses_a_checkpoint_not_signed_by_the_campaign(goverify, go_witness, tmp_path):
    """The Go check is not a rubber stamp: another key's vkey fails note.Open, and says so."""
    url = f"sqlite:///{tmp_path / 'rollbook.db'}"
    generated = generate(20, 3)
    tokens = prepare(url, generated.campaign, generated.commands, ["p0"])
    name = rollbook_cli("checkpoint", "-c", generated.campaign, "--store", url, "--vkey").split("+")[0]
    stranger = Verifier(name, 0x01, bytes(range(32))).vkey  # the campaign's key name, another key
    with serving(url, tmp_path) as (server,):
        checked = subprocess.run([str(goverify), "check", "-base", server.url, "-campaign", generated.campaign,
                                  "-token", tokens["p0"], "-vkey", stranger],
                                 capture_output=True, text=True, timeout=600)
    assert checked.returncode == 1 and "note.Open: note has no verifiable signatures" in checked.stderr, checked.stderr
