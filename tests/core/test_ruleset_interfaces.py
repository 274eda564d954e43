"""What the interfaces show of a game comes from its `Ruleset`: its place in listings, its common moves
(Discord's `/<ruleset>-<short>`), its book of moves (`rollbook moves`) and its builders for the testing kit.
No interface names a built-in game, so a ruleset of its own package gets the same."""

from __future__ import annotations

import json
from importlib.metadata import EntryPoint

import pytest
from typer.testing import CliRunner

import rollbook.testing
from rollbook.cli import app
from rollbook.domain import rulesets
from rollbook.domain.campaign import Campaign
from rollbook.domain.options import Option, Options
from rollbook.domain.rulesets import GROUP, Ruleset
from rollbook.integrations.slash import Move, moves
from rollbook.testing.generated import Campaign as Generated

BOOK = {"basic": {"peek": {"en": "Peek", "ru": "Подсмотреть", "line": "L1"}}}
#: A ruleset of the tests' own: first in every listing, a common move it has and one it lacks, a book.
RULESET = Ruleset(
    name="dicebag", campaign_class=Campaign, limits=(), boundaries=("scene",), commands=(), listed=0,
    common_moves=(("scene", "start_scene"), ("nothing", "no_such_command")), move_book=lambda: BOOK,
    generator=__name__,
)
#: Its generator is this module: the command types it writes, and the campaign of `size` commands.
REQUIRES = {"create_campaign", "start_scene", "end_scene"}


def generate(size: int, seed: int) -> Generated:
    scenes = [{"type": "start_scene"}, {"type": "end_scene"}] * size
    return Generated("dicebag", f"bag-{seed}", [{"type": "create_campaign", "ruleset": "dicebag"}, *scenes][:size], "-")
#: One that declares nothing of the kind, listed after the built-in games, but has a Trait Limit of its own.
PLAIN = Ruleset(name="aardvark", campaign_class=Campaign, limits=(), boundaries=("scene",), commands=(),
                options=Options(trait_limit=Option(4, range(1, 9), "the GM's Trait Limit, L27")))


@pytest.fixture
def installed(monkeypatch):
    """The two rulesets above installed beside the built-in ones; the registry read afresh, and again after."""
    found = rulesets.entry_points(group=GROUP)
    extra = [EntryPoint(name="dicebag", value=f"{__name__}:RULESET", group=GROUP),
             EntryPoint(name="aardvark", value=f"{__name__}:PLAIN", group=GROUP)]
    monkeypatch.setattr(rulesets, "entry_points", lambda group: [*found, *extra] if group == GROUP else [])
    _forget()
    yield
    _forget()


def _forget() -> None:
    for cached in (rulesets._points, rulesets._named, rulesets._registry):
        cached.cache_clear()


def test_listings_follow_each_ruleset_s_place_then_its_name(installed):
    assert rulesets.available() == ("dicebag", "pirates", "heroes", "implant", "gladiators", "aardvark")


def test_a_ruleset_s_common_moves_are_slash_commands_of_their_own(installed):
    ours = [move for move in moves() if move.ruleset == "dicebag"]
    assert ours == [Move("dicebag-scene", "dicebag", "start_scene")]  # the command it lacks is left out
    assert not [move for move in moves() if move.ruleset == "aardvark"]
    assert {move.name for move in moves()} >= {"pirates-move", "heroes-check", "implant-benny", "gladiators-turn"}


def test_rollbook_moves_lists_the_book_of_the_ruleset_asked_for(installed):
    runner = CliRunner()
    ours = runner.invoke(app, ["moves", "--ruleset", "dicebag", "--json"])
    assert ours.exit_code == 0 and json.loads(ours.stdout) == BOOK
    first = runner.invoke(app, ["moves", "--json"])  # the first listed with a book
    assert json.loads(first.stdout) == BOOK


def test_rollbook_moves_by_default_lists_the_first_book_installed():
    listed = CliRunner().invoke(app, ["moves", "--json"])
    assert listed.exit_code == 0 and "threaten_violence" in json.dumps(json.loads(listed.stdout))


@pytest.mark.parametrize(("asked", "said"), [
    ("aardvark", "ruleset 'aardvark' has no book of moves (those that have one: dicebag, pirates)"),
    ("nope", "unknown ruleset 'nope' (available: dicebag, pirates, heroes, implant, gladiators, aardvark)"),
])
def test_rollbook_moves_refuses_a_ruleset_without_a_book_naming_those_with_one(installed, asked, said):
    refused = CliRunner().invoke(app, ["moves", "--ruleset", asked])
    assert refused.exit_code == 1 and said in refused.output


def test_a_ruleset_s_given_builders_are_imported_by_its_name():
    from rollbook.testing import pirates

    assert pirates.created("Anna").ruleset == "pirates"
    with pytest.raises(ImportError):
        from rollbook.testing import heroes  # noqa: F401  (declares no builders)
    with pytest.raises(AttributeError):
        rollbook.testing.no_such_ruleset  # noqa: B018


def test_the_schema_names_the_rulesets_whose_option_the_top_level_trait_limit_is(installed):
    from rollbook.commands.common import CreateCampaign

    said = CreateCampaign.model_json_schema()["properties"]["trait_limit"]["description"]
    assert said == "The GM's Trait Limit (heroes, aardvark, L27); the same as options.trait_limit."


def test_the_bench_generates_a_ruleset_s_campaign_with_the_generator_it_declares(installed):
    from bench.generate import available, generate

    assert available() == ["dicebag", "pirates", "heroes", "implant", "gladiators"]  # aardvark declares none
    assert [c["type"] for c in generate("dicebag", 3, seed=1).commands] == ["create_campaign", "start_scene", "end_scene"]
    with pytest.raises(ValueError, match="ruleset 'aardvark' has no generator"):
        generate("aardvark", 3)
