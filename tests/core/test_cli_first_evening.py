"""The command line's first evening on a store of one's own (issue 45): what a ruling did to a roll's faces,
an undo worded as an undo, `verify` listing each roll it cannot check once, real defaults in `post --help`,
and a rolls table at 80 columns that gives the dice the room. (Over `--server`: tests/server/test_cli_evening.py.)"""

import json
import re

from typer.testing import CliRunner

from rollbook.cli import app

STATS = '{"audacity": 2, "guile": 1, "foresight": 0, "reputation": -1}'
LONG_ID = "6ca25b6b85e334603285b36caf9866e4"  # a web post's key as ids were before (issue 45, item 6)


class Terminal:
    def __init__(self, tmp_path) -> None:
        self.url = f"sqlite:///{tmp_path / 'evening.db'}"

    def __call__(self, *words: str, ok: bool = True, columns: int = 80) -> str:
        result = CliRunner().invoke(app, [*words, "--store", self.url], env={"COLUMNS": str(columns)})
        assert result.exit_code == (0 if ok else 1), result.output
        return result.stdout if ok else result.stderr


def pirates(tmp_path) -> Terminal:
    """A pirate campaign `bs` with Red (player red) and Bo (player bo), a chapter open: its seeded dice roll."""
    rollbook = Terminal(tmp_path)
    rollbook("post", "create_campaign", "campaign=bs", "ruleset=pirates")
    for name in ("Red", "Bo"):
        rollbook("post", "create_character", f"name={name}", f"player={name.lower()}", f"stats={STATS}", "luck=1",
                 "-c", "bs")
    rollbook("post", "start_chapter", "-c", "bs")
    return rollbook


def test_post_help_shows_the_default_a_factory_makes_never_pydantic_undefined(tmp_path) -> None:
    rollbook = Terminal(tmp_path)
    rollbook("post", "create_campaign", "campaign=capes", "ruleset=heroes")
    shown = rollbook("post", "--help", "create_character", "-c", "capes")
    assert "Undefined" not in shown
    assert "talents  (default {})" in shown and "perks  (default [])" in shown
    assert "salt  (default null)" in shown and "\nvia " not in shown and "  via  (" not in shown  # the server's


def test_a_reroll_shows_the_old_faces_and_the_new_with_the_campaigns_own_dice_then_verifies(tmp_path) -> None:
    rollbook = pirates(tmp_path)
    rollbook("post", "roll_move", "character=Red", "stat=audacity", "--id", "r1", "-c", "bs")  # seeded dice
    [rolled] = json.loads(rollbook("rolls", "-c", "bs", "--json"))
    before = f"{rolled['faces']} = {rolled['total']}"
    dry = rollbook("dispute", "r1", "--reroll", "--reason", "cocked die", "-c", "bs", "--dry-run")
    assert re.search(rf"^roll r1: {re.escape(before)}, [a-z ]+ would be \[\d, \d\] = \d+", dry, re.M), dry
    ruled = json.loads(rollbook("dispute", "r1", "--reroll", "--reason", "cocked die", "-c", "bs", "--json"))
    assert ruled["rolled"]["before"]["faces"] == rolled["faces"]  # added to --json; every older key kept
    assert {"dispute", "roll", "revision", "applied", "rerun", "differences", "not_applied"} <= set(ruled)
    [rerolled] = json.loads(rollbook("rolls", "-c", "bs", "--json"))
    assert ruled["rolled"]["after"] == {k: rerolled[k] for k in ("faces", "total", "outcome", "text")}
    rollbook("post", "end_chapter", "-c", "bs")
    rollbook("verify", "-c", "bs")


def test_undo_dry_run_is_worded_as_an_undo_and_a_player_cannot_undo_anothers_command(tmp_path) -> None:
    rollbook = pirates(tmp_path)
    rollbook("post", "take_damage", "character=Red", "harm=1", "--id", "typo", "-c", "bs")
    shown = rollbook("undo", "typo", "--dry-run", "--reason", "meant Bo", "-c", "bs")
    assert "Undo of typo: what would change" in shown
    assert shown.splitlines()[-1].startswith("undo of typo: the campaign would be ")
    assert "cannot apply" not in shown and "dispute-" not in shown
    refused = rollbook("undo", "typo", "--actor", "player:bo", "--reason", "mine?", "-c", "bs", ok=False)
    assert "player:bo may undo only his own commands" in refused
    done = rollbook("undo", "typo", "--reason", "meant Bo", "-c", "bs")
    assert re.search(r"^undo of typo \(dispute-\w+\): the campaign is now revision 2, ", done, re.M), done


def test_verify_lists_each_roll_it_cannot_check_yet_once_however_many_revisions_keep_it(tmp_path) -> None:
    rollbook = pirates(tmp_path)
    rollbook("post", "roll_move", "character=Red", "stat=audacity", "--id", "secret", "-c", "bs")  # seeded, unrevealed
    rollbook("post", "roll_move", "character=Bo", "stat=guile", "dice=[1,1]", "--id", "typed", "-c", "bs")
    for faces in ("2,2", "3,3"):  # two rulings: three revisions, each keeps the seeded roll
        rollbook("dispute", "typed", "--faces", faces, "--reason", "misread", "-c", "bs")
    said = rollbook("verify", "-c", "bs")
    assert said.count("not verifiable: roll secret") == 1 and said.count("(the 1 listed above)") == 2, said


def test_the_rolls_table_sheet_and_dispute_title_cut_a_long_id_and_dispute_takes_it_as_shown(tmp_path) -> None:
    rollbook = pirates(tmp_path)
    rollbook("post", "roll_move", "character=Red", "stat=audacity", "dice=[2,3]", "--id", LONG_ID, "-c", "bs")
    rollbook("post", "roll_move", "character=Bo", "stat=guile", "dice=[4,4]", "-c", "bs")  # a salted id: short
    table = rollbook("rolls", "-c", "bs")
    assert max(map(len, table.splitlines())) <= 80 and LONG_ID not in table
    [row] = [line for line in table.splitlines() if "6ca25b6b85e3…" in line]
    assert "Audacity: 2d6 [2, 3] +2" in row  # the dice on one line
    assert "cut short" in table
    assert "│ open move      │ 6ca25b6b85e3…: audacity = 7, partial success" in rollbook("sheet", "Red", "-c", "bs")
    titled = rollbook("dispute", "6ca25b6b85e3…", "--faces", "1,1", "--reason", "misread", "-c", "bs", "--dry-run")
    assert "Dispute of 6ca25b6b85e3…: what would change" in titled
    ruled = json.loads(rollbook("dispute", "6ca25b6b85e3…", "--faces", "1,1", "--reason", "misread", "-c", "bs",
                                "--json"))
    assert ruled["roll"] == LONG_ID and ruled["rolled"]["after"]["faces"] == [1, 1]
    nothing = rollbook("dispute", "zz…", "--faces", "1,1", "--reason", "x", "-c", "bs", ok=False)
    assert "'zz…' begins no roll in bs" in nothing


def test_if_match_is_for_a_server_and_refused_locally_in_one_line(tmp_path) -> None:
    rollbook = pirates(tmp_path)
    refused = rollbook("post", "take_damage", "character=Red", "harm=1", "--if-match", "r1.4", "-c", "bs", ok=False)
    assert refused.startswith("rollbook: --if-match applies with --server") and len(refused.splitlines()) == 1
