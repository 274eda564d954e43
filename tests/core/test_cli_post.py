"""A GM posts a whole small pirate session with `rollbook post` alone: no JSON typed, and after
every command one line in words that says what the stored events say."""

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from rollbook.cli import app

STATS = '{"audacity": 2, "guile": 1, "foresight": 0, "reputation": -1}'


class Table:
    """The GM's terminal: every verb on one SQLite store; events read back after each post."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.seen = 0

    def rollbook(self, *words: str, ok: bool = True) -> str:
        result = CliRunner().invoke(app, [*words, "--store", self.url])
        if ok:
            assert result.exit_code == 0, result.output
            return result.stdout
        assert result.exit_code == 1, result.output
        return result.stderr

    def post(self, *words: str) -> tuple[str, list[dict]]:
        """The line `post` printed, and the events the command stored."""
        line = self.rollbook("post", *words, "-c", "bs").strip()
        return line, self.new_events()

    def new_events(self) -> list[dict]:
        events = json.loads(self.rollbook("log", "-c", "bs", "--json"))
        new = [e for e in events if e["position"] > self.seen]
        self.seen = max((e["position"] for e in events), default=self.seen)
        return new


def of(events: list[dict], kind: str) -> list[dict]:
    return [e["data"] for e in events if e["type"] == kind]


def faces(roll: dict) -> str:
    return ", ".join(str(f) for f in roll["faces"])


@pytest.fixture
def table(tmp_path) -> Table:
    return Table(f"sqlite:///{tmp_path / 'session.db'}")


def test_a_pirate_session_posted_word_by_word_is_told_line_by_line(table: Table) -> None:
    line = table.rollbook("post", "create_campaign", "campaign=bs", "ruleset=pirates", "title=Black Sails").strip()
    assert line == "campaign bs (Black Sails) created, pirates rules"
    table.new_events()

    line, events = table.post("create_character", "name=Red", "player=red", f"stats={STATS}", "luck=2")
    assert of(events, "MemberJoined") == [{"name": "Red", "kind": "character", "player": "red"}]
    assert line == "Red joins, played by red"
    table.post("create_character", "name=Bo", "player=bo", f"stats={STATS}", "luck=1")

    line, events = table.post("start_chapter", "title=Tortuga")
    assert of(events, "ScopeStarted")[0]["number"] == 1
    assert line == "chapter 1 begins: Tortuga"

    # The campaign's own seeded dice: the line shows the faces and total the roll stored.
    line, events = table.post("roll_move", "character=Red", "stat=audacity", "move=threaten_violence",
                              "--actor", "player:red")
    [roll] = [e["roll"] for e in of(events, "DiceRolled")]
    assert roll["source"] == "hmac"
    outcome = roll["outcome"].replace("_", " ")
    assert line == f"Red — Threaten Violence: 2d6 [{faces(roll)}] +2 audacity = {roll['total']}, {outcome}"

    # Typed faces and a luck bonus declared before the roll.
    line, events = table.post("roll_move", "character=Red", "stat=guile", "luck_bonus=true", "dice=[6,2]",
                              "--id", "red-2", "--actor", "player:red")
    assert of(events, "LuckSpent") == [{"amount": 1, "purpose": "roll_bonus"}]
    assert of(events, "DiceRolled")[0]["roll"]["total"] == 10
    assert line == "Red — Guile: 2d6 [6, 2] +1 guile +1 luck = 10, full success; Red spends 1 luck (roll bonus)"

    line, events = table.post("spend_luck", "character=Bo", "purpose=help", "roll=red-2", "--actor", "player:bo")
    [modified] = of(events, "RollModified")
    assert (modified["total"], modified["outcome"]) == (11, "full_success")
    assert line == "Bo spends 1 luck (help); red-2 is now 11, full success (helped by Bo +1)"

    line, events = table.post("take_damage", "character=Red", "harm=1")
    assert of(events, "Wounded") == [{"slot": 0, "level": "light", "change": "filled"}]
    assert line == "Red takes 1 harm: a light wound (slot 1)"

    line, events = table.post("end_chapter")
    assert of(events, "LightWoundsHealed") == [{"count": 1}]
    assert line == "Red's 1 light wound heals; chapter 1 ends"


def test_a_player_posting_for_someone_elses_character_is_refused_and_nothing_is_written(table: Table) -> None:
    table.rollbook("post", "create_campaign", "campaign=bs", "ruleset=pirates")
    table.post("create_character", "name=Red", "player=red", f"stats={STATS}", "luck=2")
    table.post("start_chapter")
    refused = table.rollbook("post", "roll_move", "character=Red", "stat=guile", "dice=[3,3]", "-c", "bs",
                             "--actor", "player:bo", ok=False)
    assert "player:bo cannot act for 'Red', who belongs to player:red" in refused
    assert table.new_events() == []


def test_a_misspelt_field_is_named_as_unknown_not_the_right_one_as_missing(table: Table) -> None:
    table.rollbook("post", "create_campaign", "campaign=bs", "ruleset=pirates")
    refused = table.rollbook("post", "take_damage", "charcter=Red", "harm=1", "-c", "bs", ok=False)
    assert "charcter: unknown field for take_damage" in refused and "did you mean `character`?" in refused


def test_post_help_lists_a_commands_fields_with_their_rule_lines(table: Table) -> None:
    table.rollbook("post", "create_campaign", "campaign=bs", "ruleset=pirates")
    shown = table.rollbook("post", "--help", "take_damage", "-c", "bs")
    assert "take_damage (pirates)" in shown and "(heroes)" not in shown
    assert "harm  (required)" in shown and "handled in turn (§5)" in shown
    assert "absorb_with_luck  (default 0)" in shown


def test_post_as_json_gives_the_summary_with_the_outcome(table: Table) -> None:
    table.rollbook("post", "create_campaign", "campaign=bs", "ruleset=pirates")
    table.post("create_character", "name=Red", "player=red", f"stats={STATS}", "luck=2")
    shown = json.loads(table.rollbook("post", "take_damage", "character=Red", "harm=1", "--id", "ow", "-c", "bs",
                                      "--json"))
    assert shown | {"position": None} == {"id": "ow", "status": "applied", "events": 3, "rolls": [],
                                          "position": None, "summary": "Red takes 1 harm: a light wound (slot 1)"}
    again = json.loads(table.rollbook("post", "take_damage", "character=Red", "harm=1", "--id", "ow", "-c", "bs",
                                      "--json"))
    assert again["status"] == "skipped"


def test_run_tells_every_command_and_counts_in_good_english(table: Table, tmp_path) -> None:
    file = tmp_path / "turn.jsonl"
    file.write_text(
        '{"type": "create_campaign", "campaign": "bs", "ruleset": "pirates"}\n'
        f'{{"type": "create_character", "campaign": "bs", "name": "Red", "stats": {STATS}, "luck": 1}}\n'
    )
    assert table.rollbook("run", str(file)).splitlines() == [
        "campaign bs created, pirates rules", "Red joins", "applied 2 commands"]
    for quiet in ([], ["-q"]):  # a skip is said line by line, even with -q
        rerun = table.rollbook("run", str(file), *quiet).splitlines()
        assert rerun[-1] == "applied 0 commands, skipped 2 commands already recorded"
        assert [line.split(" (id ")[0] for line in rerun[:-1]] == ["line 1: create_campaign", "line 2: create_character"]
        assert "skipped: already recorded as command 2, position" in rerun[1]


def test_undo_takes_a_typo_back_as_a_ruling_that_drops_it_and_deletes_nothing(table: Table) -> None:
    table.rollbook("post", "create_campaign", "campaign=bs", "ruleset=pirates")
    table.post("create_character", "name=Red", "player=red", f"stats={STATS}", "luck=2")
    table.post("take_damage", "character=Red", "harm=2", "--id", "typo")
    said = table.rollbook("undo", "typo", "-c", "bs", "--reason", "meant 1 harm")
    assert "the campaign is now revision 2, " in said and "0 other commands no longer applied" in said
    red = json.loads(table.rollbook("sheet", "Red", "-c", "bs", "--json"))
    assert red["wounds"] == {"light": 0, "serious": 0, "terrible": 0}
    [_, ruling] = json.loads(table.rollbook("revisions", "-c", "bs", "--json"))
    assert (ruling["roll"], ruling["reason"], ruling["decision"]) == ("typo", "meant 1 harm", {"drop": True})
    first = json.loads(table.rollbook("log", "-c", "bs", "--revision", "1", "--json"))
    assert len(of(first, "Wounded")) == 2  # the first revision keeps what was posted


def test_dispute_help_says_drop_is_what_undo_does(table: Table) -> None:
    words = " ".join(w for w in table.rollbook("dispute", "--help").split() if w != "│")
    assert "`rollbook undo CMD` does the same" in words


def test_global_options_are_taken_after_the_verb_too(table: Table) -> None:
    table.rollbook("post", "create_campaign", "campaign=bs", "ruleset=pirates", "-q")
    result = CliRunner().invoke(app, ["post", "start_chapter", "-c", "bs", "--store", table.url, "-v",
                                      "--log-format", "json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stderr.splitlines()[-1])["event"] == "command.applied"
    assert result.stdout == "chapter 1 begins\n"
    assert CliRunner().invoke(app, ["--version"]).stdout.startswith("rollbook ")
    assert "Usage: rollbook" in CliRunner().invoke(app, ["-h"]).stdout


def test_the_default_campaign_comes_from_use_or_the_environment(table: Table, monkeypatch) -> None:
    table.rollbook("post", "create_campaign", "campaign=bs", "ruleset=pirates")
    table.rollbook("post", "create_campaign", "campaign=other", "ruleset=pirates")
    refused = table.rollbook("post", "start_chapter", ok=False)
    assert "no campaign: give -c C, set ROLLBOOK_CAMPAIGN, or choose one with `rollbook use C`" in refused
    assert table.rollbook("use", "bs").startswith("using bs")
    assert table.rollbook("post", "start_chapter") == "chapter 1 begins\n"
    monkeypatch.setenv("ROLLBOOK_CAMPAIGN", "other")
    assert table.rollbook("post", "start_chapter") == "chapter 1 begins\n"
    listed = {c["campaign"]: c["open"] for c in json.loads(table.rollbook("campaigns", "--json"))}
    assert listed == {"bs": ["chapter 1"], "other": ["chapter 1"]}
    assert "bs *" in table.rollbook("campaigns")
    refused = table.rollbook("use", "nowhere", ok=False)
    assert "no campaign 'nowhere'" in refused and "(known: bs, other)" in refused


def test_characters_lists_names_players_and_key_figures(table: Table) -> None:
    table.rollbook("post", "create_campaign", "campaign=bs", "ruleset=pirates")
    table.post("create_character", "name=Red", "player=red", f"stats={STATS}", "luck=2")
    table.post("take_damage", "character=Red", "harm=1")
    assert json.loads(table.rollbook("characters", "-c", "bs", "--json")) == [
        {"name": "Red", "player": "red", "kind": "character", "figures": {"luck": 2, "wounds": "1 light"}}]


def test_the_demo_prints_each_campaigns_id_and_what_to_try_next(tmp_path) -> None:
    url = f"sqlite:///{tmp_path / 'demo.db'}"
    shown = CliRunner().invoke(app, ["demo", "--store", url])
    assert shown.exit_code == 0, shown.output
    for campaign in ("black-sails", "silver-fleet", "null-hour", "neon-alley", "ludus-magnus"):
        assert f"campaign id: {campaign}" in shown.stdout
    assert f"export ROLLBOOK_STORE={url}" in shown.stdout and "rollbook use black-sails" in shown.stdout
    assert "rollbook post take_damage character=Anna harm=1" in shown.stdout


def test_a_command_spread_over_several_lines_is_told_to_be_one_line(table: Table, tmp_path) -> None:
    file = tmp_path / "pretty.jsonl"
    file.write_text('{"type": "create_campaign", "campaign": "bs", "ruleset": "pirates"}\n'
                    '{\n  "type": "start_chapter",\n  "campaign": "bs"\n}\n')
    refused = table.rollbook("run", str(file), ok=False)
    assert "line 2: broken JSON: " in refused and "each command must be on one line (JSON Lines)" in refused


def test_too_few_faces_are_refused_with_how_many_the_command_needs_in_all(tmp_path) -> None:
    """A heroes attack rolls the attacker's pool and the defender's: 6 + 3 dice here, not the 2 given."""
    url = f"sqlite:///{tmp_path / 'heroes.db'}"
    heroes = Path(__file__).parents[2] / "examples" / "heroes.jsonl"
    assert CliRunner().invoke(app, ["run", str(heroes), "--store", url, "-q"]).exit_code == 0
    refused = CliRunner().invoke(app, ["post", "attack", "attacker=Tempest", "target=Null Drones", "trait=Wind Gust",
                                       "dice=[1,2]", "-c", "null-hour", "--store", url])
    assert refused.exit_code == 1
    assert "dice: the command rolls 9 dice (more if one explodes), but 2 faces were given" in refused.stderr


def test_a_long_file_shows_no_progress_bar_when_stdout_is_not_a_terminal(table: Table, tmp_path) -> None:
    file = tmp_path / "long.jsonl"
    turns = [json.dumps({"type": "start_chapter" if n % 2 == 0 else "end_chapter", "campaign": "bs"})
             for n in range(250)]
    file.write_text("\n".join([json.dumps({"type": "create_campaign", "campaign": "bs", "ruleset": "pirates"}),
                               *turns]) + "\n")
    shown = table.rollbook("run", str(file))
    assert shown.splitlines()[-1] == "applied 251 commands"
    assert "running" not in shown and "\x1b[" not in shown and "━" not in shown


def test_a_roll_posted_without_faces_is_salted_by_the_poster_and_verifies_after_the_reveal(table: Table) -> None:
    """Issue 17: `post` fills a salt from the poster's own random source, so the seed holder cannot
    know the roll before it is posted; verify recomputes it once the chapter's seed is revealed."""
    table.rollbook("post", "create_campaign", "campaign=bs", "ruleset=pirates")
    table.post("create_character", "name=Red", "player=red", f"stats={STATS}", "luck=2")
    table.post("start_chapter")
    table.post("roll_move", "character=Red", "stat=audacity", "--actor", "player:red")
    table.post("roll_move", "character=Red", "stat=guile", "--actor", "player:red")
    salts = [roll["salt"] for roll in json.loads(table.rollbook("rolls", "-c", "bs", "--json"))]
    assert len(salts) == 2 and len(set(salts)) == 2 and all(len(s) == 32 for s in salts)
    table.post("end_chapter")
    assert table.rollbook("verify", "-c", "bs")  # exit 0: both salted rolls recomputed from the revealed seed
    # With an --id a rerun must be the very same command, so no fresh salt is added.
    table.post("roll_move", "character=Red", "stat=guile", "--actor", "player:red", "--id", "same")
    same = [r for r in json.loads(table.rollbook("rolls", "-c", "bs", "--json")) if r["id"] == "same"]
    assert same and not same[0].get("salt")
