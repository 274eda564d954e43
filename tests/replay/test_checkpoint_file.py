"""`verify --checkpoint FILE` holds the store to every checkpoint in the file (issue 36, item 2).

A thread pasted as a file holds the checkpoint of an early chapter, then a later one. After the
last 20 commands are cut and the projections rebuilt, only the later checkpoint can tell: it
was read, or the file was not trusted at all. A text with no checkpoint in it is an error.
"""

import json

from typer.testing import CliRunner

from rollbook.cli import app
from rollbook.domain.checkpoint import Checkpoint

FIRST, LATER = 25, 45


def rollbook(*args, input=None):
    return CliRunner().invoke(app, ["-q", *args], input=input)


def commands(start, end):
    lines = [{"type": "create_campaign", "ruleset": "pirates", "title": "Thread"},
             {"type": "create_ship", "name": "Chaika", "navigation": 2, "firepower": 1, "displacement": 1, "hull": 4}]
    lines += [{"type": "gain_money", "to": "Chaika", "chests": 1, "reason": f"loot {n}"} for n in range(LATER)]
    return "".join(json.dumps({"campaign": "thread", "id": f"c{n}", **c}) + "\n" for n, c in enumerate(lines[start:end], start))


def old_form(url):
    """The checkpoint as `rollbook checkpoint` pasted it before (its fields are in `--json` either way)."""
    fields = json.loads(rollbook("checkpoint", "-c", "thread", "--json", "--store", url).stdout)
    public_key = json.loads(rollbook("verify", "-c", "thread", "--json", "--store", url).stdout)["thread"]["public_key"]
    signed = Checkpoint(*(fields[k] for k in ("campaign", "revision", "commands", "head", "time", "signature")))
    return signed.text(public_key)


def findings_of(output):
    """Each finding of verify's report as one line: the report wraps a finding at 80 columns."""
    findings = []
    for line in output.splitlines():
        if line.startswith("    ") and findings:
            findings[-1] += " " + line.strip()
        elif line.startswith("  ") and not line.startswith("   "):
            findings.append(line.strip())
    return findings


def cut_after(tamper, commands_kept):
    """Everything stored after the record of command `commands_kept`, gone; the projections rebuilt."""
    position = tamper.position()
    cut = tamper.sql(f"SELECT {position} FROM {{events}} WHERE topic LIKE '%CommandApplied' "
                     f"ORDER BY {position} LIMIT 1 OFFSET {commands_kept - 1}")[0][0]
    tamper.sql(f"DELETE FROM {{events}} WHERE {position} > ?", cut)
    assert rollbook("rebuild", "--store", tamper.url).exit_code == 0


def thread(tmp_path, url, form):
    """A campaign of LATER + 2 commands; a thread holding its checkpoints at FIRST and at LATER + 2 commands."""
    assert rollbook("run", "-", "--store", url, input=commands(0, FIRST)).exit_code == 0
    early = form(url)
    assert rollbook("run", "-", "--store", url, input=commands(FIRST, LATER + 2)).exit_code == 0
    later = form(url)
    pasted = tmp_path / "thread.txt"
    pasted.write_text(f"GM, chapter 3 is over:\n\n{early}\n> nice\n\nGM, end of chapter 4:\n{later}\nsee you\n")
    return pasted


def test_a_cut_that_only_the_later_checkpoint_of_a_thread_catches_is_caught(tmp_path, tamper_of):
    url = f"sqlite:///{tmp_path / 'thread.db'}"
    pasted = thread(tmp_path, url, old_form)
    assert rollbook("verify", "-c", "thread", "--store", url, "--checkpoint", str(pasted)).exit_code == 0
    cut_after(tamper_of(url, tmp_path / "thread.db"), LATER + 2 - 20)
    assert rollbook("verify", "-c", "thread", "--store", url).exit_code == 0  # the store alone cannot tell
    result = rollbook("verify", "-c", "thread", "--store", url, "--checkpoint", str(pasted))
    assert result.exit_code == 1, result.output
    assert f"it was signed at {LATER + 2} commands, the store holds {LATER + 2 - 20}: the history was cut" in result.output


def test_the_same_with_the_merkle_checkpoints_and_with_both_forms_in_one_thread(tmp_path, tamper_of):
    url = f"sqlite:///{tmp_path / 'thread.db'}"

    def both(store):
        new = rollbook("checkpoint", "-c", "thread", "--store", store).stdout
        return f"{new}\n{old_form(store)}"

    pasted = thread(tmp_path, url, both)
    assert rollbook("verify", "-c", "thread", "--store", url, "--checkpoint", str(pasted)).exit_code == 0
    cut_after(tamper_of(url, tmp_path / "thread.db"), LATER + 2 - 20)
    result = rollbook("verify", "-c", "thread", "--store", url, "--checkpoint", str(pasted))
    assert result.exit_code == 1
    # Both later checkpoints catch it, each named by its place in the file; the two early ones hold.
    findings = [finding for finding in findings_of(result.output) if "checkpoint" in finding]
    assert len(findings) == 2 and all(f"signed at {LATER + 2} commands, the store holds {LATER + 2 - 20}" in f
                                      for f in findings)
    assert "(the 3. of 4)" in findings[0] and "(the 4. of 4)" in findings[1]


def test_a_text_with_no_checkpoint_in_it_is_an_error_not_a_pass(tmp_path):
    url = f"sqlite:///{tmp_path / 'thread.db'}"
    assert rollbook("run", "-", "--store", url, input=commands(0, 5)).exit_code == 0
    chatter = tmp_path / "chatter.txt"
    chatter.write_text("GM: next session on Friday.\nAnna: ok!\n")
    result = rollbook("verify", "-c", "thread", "--store", url, "--checkpoint", str(chatter))
    assert result.exit_code == 1 and "no checkpoint in it" in result.output
    assert not isinstance(result.exception, Exception) or isinstance(result.exception, SystemExit)
