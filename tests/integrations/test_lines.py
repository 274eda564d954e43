"""`rollbook line`: a command's line with its faces, outcome, nonce and proof link, for any forum.

Golden files (tests/integrations/golden/RULESET.FORMAT) hold each ruleset's lines in each format,
from a campaign played with fixed times, typed faces and the deterministic seed of the testing
kit's keeper (so a seeded roll's faces, nonce and seed are the same every run). Regenerate them
after a deliberate change with ROLLBOOK_UPDATE_GOLDEN=1, and read the diff.
"""

import json
import os
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from typer.testing import CliRunner

from rollbook.cli import app as cli
from rollbook.commands.runner import run_file
from rollbook.commands.service import Rollbook
from rollbook.integrations.lines import FORMATS, escape_bbcode, render, told_by_id
from rollbook.store import Store
from rollbook.store.keys import MemorySigningKeys
from rollbook.store.seeds import MemorySeedKeeper

from .support import GLADIATORS_MARCUS, HEROES_SPARK, IMPLANT_VERA

GOLDEN = Path(__file__).parent / "golden"
PUBLIC = "https://rollbook.example.org"
START = datetime(2026, 3, 2, 19, 0, tzinfo=UTC)
PIRATE = {"stats": {"audacity": 2, "guile": 1, "foresight": 1, "reputation": -1}, "luck": 1}

#: Each ruleset's campaign, and the commands whose lines are golden.
PLAYED = {
    "pirates": ([
        {"type": "create_campaign", "ruleset": "pirates", "title": "Black Sails"},
        {"type": "create_character", "name": "Anna", "player": "anna", **PIRATE},
        {"type": "start_chapter"},
        {"id": "typed", "type": "roll_move", "actor": "player:anna", "character": "Anna", "stat": "audacity",
         "move": "threaten_violence", "luck_bonus": True, "dice": [3, 4]},
        {"id": "seeded", "type": "roll_move", "actor": "player:anna", "character": "Anna", "stat": "guile",
         "salt": "post 1234 by anna"},
        {"id": "harm", "type": "take_damage", "character": "Anna", "harm": 1},
        {"id": "end", "type": "end_chapter"},
    ], ["typed", "seeded", "harm", "end"]),
    "heroes": ([
        {"type": "create_campaign", "ruleset": "heroes", "title": "Spark"},
        {**HEROES_SPARK, "player": "ann"},
        {"type": "start_story", "title": "The Brute Affair"}, {"type": "start_issue"},
        {"id": "check", "type": "roll_check", "actor": "player:ann", "character": "Spark", "trait": "agility",
         "difficulty": 2, "dice": [6, 4, 1, 3, 2]},
        {"id": "seeded", "type": "roll_check", "actor": "player:ann", "character": "Spark", "trait": "perception",
         "salt": "post 77"},
    ], ["check", "seeded"]),
    "implant": ([
        {"type": "create_campaign", "ruleset": "implant", "title": "Alley"},
        {**IMPLANT_VERA, "player": "vera"},
        {"type": "start_scene", "title": "The alley"},
        {"id": "notice", "type": "trait_check", "actor": "player:vera", "character": "Vera", "trait": "notice",
         "dice": [5, 3]},
        {"id": "seeded", "type": "trait_check", "actor": "player:vera", "character": "Vera", "trait": "hacking",
         "salt": "post 9"},
    ], ["notice", "seeded"]),
    "gladiators": ([
        {"type": "create_campaign", "ruleset": "gladiators", "title": "Arena"},
        {**GLADIATORS_MARCUS, "player": "marcus"},
        {"type": "create_enemy", "name": "Barbarians", "health": 8, "members": 3},
        {"type": "start_battle", "title": "The barbarian squad"},
        {"id": "turn", "type": "combat_turn", "actor": "player:marcus", "character": "Marcus", "enemy": "Barbarians",
         "tactic": "strong_attack", "attack_move": "Lunge", "defence_move": "Parry", "attack_related": ["Strength"],
         "defence_related": ["Agility"], "gm_attack": 17, "gm_defence": 14, "dice": [4, 5, 3], "standing": 2},
        {"id": "seeded", "type": "combat_turn", "actor": "player:marcus", "character": "Marcus", "enemy": "Barbarians",
         "tactic": "total_defence", "gm_attack": 12, "gm_defence": 12, "salt": "post 31"},
    ], ["turn", "seeded"]),
}


def played(ruleset, url="memory://"):
    """The ruleset's campaign `c`, each command a minute after the one before, in a store of fixed seeds and keys."""
    commands, _ = PLAYED[ruleset]
    lines = [{"campaign": "c", "id": f"{ruleset}-{n}", **c, "at": (START + timedelta(minutes=n)).isoformat()}
             for n, c in enumerate(commands)]
    store = Store.open(url, seeds=MemorySeedKeeper("deterministic"), keys=MemorySigningKeys("deterministic"))
    report = run_file(Rollbook(store), "".join(json.dumps(line) + "\n" for line in lines).encode())
    assert report.error is None, report.error
    return store


def golden(ruleset, form):
    store = played(ruleset)
    try:
        return "\n".join(render(told_by_id(store, "c", command, PUBLIC), form) for command in PLAYED[ruleset][1])
    finally:
        store.close()


@pytest.mark.parametrize("form", FORMATS)
@pytest.mark.parametrize("ruleset", sorted(PLAYED))
def test_each_rulesets_lines_in_each_format_are_the_golden_ones(ruleset, form):
    made = golden(ruleset, form)
    path = GOLDEN / f"{ruleset}.{ {'text': 'txt', 'markdown': 'md', 'bbcode': 'bbcode'}[form] }"
    if os.environ.get("ROLLBOOK_UPDATE_GOLDEN") == "1":
        path.parent.mkdir(exist_ok=True)
        path.write_text(made)
    assert made == path.read_text()


def test_a_seeded_line_names_its_nonce_salt_seed_and_proof():
    text = golden("pirates", "text")
    assert 'nonce 0 · salt "post 1234 by anna" · seed ' in text
    assert f"proof: {PUBLIC}/campaigns/c/rolls#roll-seeded" in text
    assert "rollbook/c\n6\n" in text and "rollbook checkpoint" not in text  # the chapter's end: a C2SP checkpoint


def test_a_chapters_end_is_told_with_the_c2sp_checkpoint_of_the_commands_before_it():
    """Issue 44 (two checkpoint formats): the mirror's and `rollbook line`'s chapter end carry the C2SP checkpoint,
    signed by the campaign's key and of the log's root at that size; nothing of the old form is recorded now."""
    from rollbook.domain.checkpoint import TreeHead
    from rollbook.domain.transparency.note import parse_note
    from rollbook.replay.transparency import open_log

    store = played("pirates")
    try:
        told = told_by_id(store, "c", "end", None)
        log = open_log(store, "c")
        head = TreeHead.from_note(parse_note(told.checkpoint))
        assert head.signed_by(log.public_key) and (head.size, head.root) == (6, log.tree.root(6).hex())
        assert told_by_id(store, "c", "harm", None).checkpoint is None
        events = [type(e).__name__ for e in store.app.events.get(log.current.id)]
        assert "ScopeEnded" in events and "CheckpointSigned" not in events
    finally:
        store.close()


def test_names_are_shown_as_written_never_as_markup():
    sly = "**Bo** [url=http://evil.example]x[/url] <b>"
    store = Store.open("memory://")
    lines = [{"type": "create_campaign", "campaign": "c", "ruleset": "pirates"},
             {"type": "create_character", "campaign": "c", "name": sly, **PIRATE},
             {"type": "start_chapter", "campaign": "c"},
             {"type": "roll_move", "campaign": "c", "id": "r", "character": sly, "stat": "guile", "dice": [1, 2]}]
    assert run_file(Rollbook(store), "".join(json.dumps(line) + "\n" for line in lines).encode()).error is None
    told = told_by_id(store, "c", "r", None)
    bbcode, markdown = render(told, "bbcode"), render(told, "markdown")
    assert "[url=http" not in bbcode and "[[b][/b]url=http:[b][/b]//evil.[b][/b]example]x[[b][/b]/url]" in bbcode
    assert "\\*\\*Bo\\*\\* \\[url=http\\://evil\\.example\\]x\\[/url\\] \\<b\\>" in markdown
    assert escape_bbcode("[6, 2]") == "[6, 2]"  # faces stay as they are


def test_the_line_verb_prints_each_format_and_refuses_an_unknown_id(tmp_path):
    url = f"sqlite:///{tmp_path / 'lines.db'}"
    played("pirates", url).close()
    runner = CliRunner()
    for form in FORMATS:
        shown = runner.invoke(cli, ["line", "seeded", "-c", "c", "--store", url, "--format", form,
                                    "--public-url", PUBLIC + "/"])
        assert shown.exit_code == 0, shown.output
        assert f"{PUBLIC}/campaigns/c/rolls#roll-seeded" in shown.output and "nonce 0" in shown.output
    unknown = runner.invoke(cli, ["line", "nope", "-c", "c", "--store", url])
    assert unknown.exit_code == 1 and "no command 'nope'" in unknown.output
    bad = runner.invoke(cli, ["line", "seeded", "-c", "c", "--store", url, "--format", "html"])
    assert bad.exit_code == 1 and "--format is one of text, markdown, bbcode" in bad.output
