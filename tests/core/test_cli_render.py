"""What a GM sees at 80 columns, pinned: sheets as the game's sheet, tables that keep ids,
names and outcomes whole, no markdown, no colour without a terminal."""

import io
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from rollbook.cli import app
from rollbook.cli.printing import show_sheet
from rollbook.cli.audit import show_revisions
from rollbook.cli.listing import campaign_rows, show_campaigns
from rollbook.cli.read import show_limits, show_moves, show_rolls
from rollbook.domain.rulesets.pirates.rules import move_book
from rollbook.projections.queries import Reader
from rollbook.replay.revisions import revisions
from rollbook.store import Store

EXAMPLE = Path(__file__).parents[2] / "examples" / "pirates.jsonl"


@pytest.fixture(scope="module")
def reader(tmp_path_factory) -> Reader:
    url = f"sqlite:///{tmp_path_factory.mktemp('render') / 'render.db'}"
    for words in (["run", str(EXAMPLE)], ["dispute", "anna-2", "-c", "black-sails", "--reason", "typed 6 for 5",
                                          "--faces", "5,2"]):
        result = CliRunner().invoke(app, [*words, "--store", url, "-q"])
        assert result.exit_code == 0, result.output
    reader = Reader(Store.open(url))
    reader.catch_up()
    return reader


def at_80(show) -> str:
    out = Console(width=80, record=True, color_system=None, file=io.StringIO())
    show(out)
    text = out.export_text()
    assert max(len(line) for line in text.splitlines()) <= 80
    return "\n".join(line.rstrip() for line in text.splitlines())


def test_a_sheet_reads_as_the_games_sheet(reader: Reader) -> None:
    kind, anna = reader.sheet("black-sails@r2", "Anna")
    assert at_80(lambda out: show_sheet(kind, anna, ruleset="pirates", out=out)) == ANNA.rstrip("\n")
    kind, chaika = reader.sheet("black-sails@r2", "Chaika")
    assert at_80(lambda out: show_sheet(kind, chaika, ruleset="pirates", out=out)) == CHAIKA.rstrip("\n")


def test_a_wound_modifier_is_explained_by_where_it_comes_from() -> None:
    from rollbook.projections.sheets import sections

    sheet = {"name": "Red", "stats": {}, "luck": 0, "purse_piastres": 0, "slots": ["light", "serious", "terrible"],
             "pending_light": 1, "modifier": -4}
    wounds = dict(dict(sections("pirates", "character", sheet))["Wounds"])
    assert wounds["modifier"] == "-4 (-1 light wounds, once; -1 serious wound; -2 terrible wound)"


def test_rolls_keep_ids_and_outcomes_whole_and_show_dropped_dice_without_markdown(reader: Reader) -> None:
    assert at_80(lambda out: show_rolls("black-sails", "pirates", reader.rolls("black-sails@r2"), out=out)) == (
        ROLLS.rstrip("\n"))
    dropped = [{"id": "x", "character": "Vera", "purpose": "soak", "notation": "d4! + wild d6!", "total": 7,
                "dice": [{"sides": 4, "faces": [4, 3], "kept": True}, {"sides": 6, "faces": [2], "kept": False}],
                "modifiers": [], "outcome": "success", "source": "hmac"}]
    shown = at_80(lambda out: show_rolls("c", "implant", dropped, out=out))
    assert "[4!3, (2)]" in shown and "~~" not in shown


def test_limits_campaigns_revisions_and_moves_fit_80_columns(reader: Reader) -> None:
    assert at_80(lambda out: show_limits("black-sails", reader.limits("black-sails@r2"), out=out)) == (
        LIMITS.rstrip("\n"))
    assert at_80(lambda out: show_campaigns(campaign_rows(reader), default=None, out=out)) == CAMPAIGNS.rstrip("\n")
    ruled = [{**r, **({"at": "2026-03-04T10:00:00+00:00", "dispute": "dispute-1"} if r.get("at") else {})}
             for r in revisions(reader.store, "black-sails")]
    assert at_80(lambda out: show_revisions("black-sails", ruled, out=out)) == REVISIONS.rstrip("\n")
    assert at_80(lambda out: show_moves(move_book(), out=out)).startswith(MOVES.rstrip("\n"))


def test_a_ruleset_is_never_cut_in_the_campaigns_list() -> None:
    demo = [("black-sails", "pirates", "Black Sails", ["chapter 2"]),
            ("ludus-magnus", "gladiators", "Ludus Magnus: the Emperor's guard", ["turn 3"]),
            ("neon-alley", "implant", "Implant: Neon Alley", ["round 2"]),
            ("null-hour", "heroes", "We Can Be Heroes: Null Hour", ["story 1", "issue 2", "page 2"]),
            ("silver-fleet", "pirates", "The Silver Fleet", [])]
    rows = [{"campaign": c, "ruleset": r, "title": t, "commands": 10, "revision": 1,
             "last": "2026-04-10T19:50:00+00:00", "open": o} for c, r, t, o in demo]
    shown = at_80(lambda out: show_campaigns(rows, default="black-sails", out=out))
    assert "gladiators" in shown


def test_no_colour_when_stdout_is_not_a_terminal(reader: Reader, tmp_path) -> None:
    shown = CliRunner().invoke(app, ["rolls", "-c", "black-sails", "--store", reader.store.url])
    assert shown.exit_code == 0 and "\x1b[" not in shown.stdout and "partial success" in shown.stdout


ANNA = """\
                    character: Anna
┌────────────────┬────────────────────────────────────┐
│ Stats          │                                    │
│ audacity       │ +2                                 │
│ guile          │ +1                                 │
│ foresight      │ +1                                 │
│ reputation     │ -1                                 │
├────────────────┼────────────────────────────────────┤
│ Luck and purse │                                    │
│ luck           │ 0                                  │
│ purse          │ 0 piastres                         │
│ ambush tokens  │ —                                  │
├────────────────┼────────────────────────────────────┤
│ Wounds         │                                    │
│ slots          │ 1: empty, 2: empty, 3: empty       │
│ modifier       │ 0                                  │
├────────────────┼────────────────────────────────────┤
│ Move           │                                    │
│ open move      │ anna-2: guile = 8, partial success │
├────────────────┼────────────────────────────────────┤
│ Who            │                                    │
│ player         │ anna                               │
│ background     │ —                                  │
│ position       │ —                                  │
└────────────────┴────────────────────────────────────┘
"""

CHAIKA = """\
        ship: Chaika
┌──────────────┬────────────┐
│ Stats        │            │
│ navigation   │ 1          │
│ firepower    │ 1          │
│ displacement │ 1          │
├──────────────┼────────────┤
│ Hull         │            │
│ hull         │ 3 of 4     │
│ breakdown    │ torn sails │
├──────────────┼────────────┤
│ Crew         │            │
│ chances      │ 0          │
│ GM's chances │ 0          │
│ treasury     │ 0 piastres │
│ in port      │ no         │
│ plan         │ —          │
├──────────────┼────────────┤
│ Development  │            │
│ developments │ —          │
│ ship moves   │ —          │
│ rigging      │ —          │
│ conditions   │ —          │
│ secrets      │ X1, X2     │
└──────────────┴────────────┘
"""

ROLLS = """\
                              Rolls of black-sails
┏━━━━━━━━┳━━━━━━┳━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━┳━━━━━━━━━━━━━━━━━┓
┃ id     ┃ who  ┃ dice                               ┃ total ┃ outcome         ┃
┡━━━━━━━━╇━━━━━━╇━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━╇━━━━━━━━━━━━━━━━━┩
│ anna-1 │ Anna │ Cross Anchors: 2d6 [3, 4] +2       │ 10    │ full success    │
│        │      │ audacity +1 luck (typed)           │       │                 │
│ anna-2 │ Anna │ Guile: 2d6 [5, 2] +1 guile -1      │ 8     │ partial success │
│        │      │ light wounds +1 helped by Bo       │       │                 │
└────────┴──────┴────────────────────────────────────┴───────┴─────────────────┘
"""

LIMITS = """\
                             Limits of black-sails
┏━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━┳━━━━━━━━┳━━━━━━━━┳━━━━━━━━━━━━━━━━━┓
┃ limit                     ┃ scope        ┃ holder ┃ used   ┃ rule            ┃
┡━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━╇━━━━━━━━╇━━━━━━━━╇━━━━━━━━━━━━━━━━━┩
│ luck_roll_bonus           │ move         │        │ 0 of 1 │ L45             │
│ luck_help_or_hinder       │ move: anna-2 │ Bo     │ 1 of 1 │ L46; P-7        │
│ breakdown_instead_of_hole │ battle       │        │ 0 of 1 │ L140            │
│ tall_tale                 │ campaign     │        │ 0 of 1 │ L52 (HB)        │
│ sea_repair_hole           │ ship         │        │ 0 of 1 │ L146-L147; P-21 │
│ development_option        │ ship         │        │ 0 of 1 │ L166            │
│ fate_option               │ campaign     │        │ 0 of 1 │ L87             │
└───────────────────────────┴──────────────┴────────┴────────┴─────────────────┘
"""

CAMPAIGNS = """\
                                  Campaigns
┏━━━━━━━━━━━━━━┳━━━━━━━━━┳━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━┳━━━━━━━━━━━━━┳━━━━━━┓
┃ campaign     ┃ ruleset ┃ title            ┃ commands ┃ last        ┃ open ┃
┡━━━━━━━━━━━━━━╇━━━━━━━━━╇━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━╇━━━━━━━━━━━━━╇━━━━━━┩
│ black-sails  │ pirates │ Black Sails      │ 16       │ 03-03 21:00 │ —    │
│ silver-fleet │ pirates │ The Silver Fleet │ 59       │ 04-02 01:53 │ —    │
└──────────────┴─────────┴──────────────────┴──────────┴─────────────┴──────┘
"""

REVISIONS = """\
                       Revisions of black-sails
┏━━━━━━━━━━┳━━━━━━━━┳━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━┓
┃ revision ┃ roll   ┃ ruling           ┃ reason        ┃ at          ┃
┡━━━━━━━━━━╇━━━━━━━━╇━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━┩
│ 1        │        │                  │               │             │
│ 2        │ anna-2 │ faces 5, 2 by gm │ typed 6 for 5 │ 03-04 10:00 │
└──────────┴────────┴──────────────────┴───────────────┴─────────────┘
"""

MOVES = """\
                            Moves (roll_move move=…)
┏━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┓
┃ kind            ┃ move                     ┃ name                            ┃
┡━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┩
│ basic           │ wriggle_out              │ Wriggle Out — Выкрутиться (L23) │
│ basic           │ lie_low                  │ Lie Low — Затаиться (L25)       │
│ basic           │ figure_it_out            │ Figure It Out — Смекнуть (L27)  │
│ basic           │ cross_anchors            │ Cross Anchors — Сойтись якорями │
│                 │                          │ (L29)                           │
│ basic           │ get_along                │ Get Along — Поладить (L31)      │
│ basic           │ threaten_violence        │ Threaten Violence — Угрожать    │
│                 │                          │ насилием (L33)                  │
"""
