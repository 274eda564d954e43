"""The testing kit as its users meet it: a test file run by pytest in a subprocess, with the plugin
found through its `pytest11` entry point (installed, not imported from a path)."""

import pytest

#: It starts processes (pytest in a subprocess): not in the fast tier.
pytestmark = pytest.mark.slow

WRONG_EXPECTATION = '''
from rollbook.testing import commands, events, pirates


def test_wrong(campaign):
    campaign.given(pirates.created("Anna", luck=1), pirates.wounded("Anna", "light", 2), commands.StartChapter())
    campaign.when(commands.EndChapter())
    campaign.then(
        events.LightWoundsHealed(character="Anna", count=3),
        events.ScopeEnded(scope="chapter", number=1),
        events.FateCalled(character="Anna"),
    )
'''


def test_a_wrong_expectation_prints_a_readable_diff(pytester):
    pytester.makepyfile(test_sample=WRONG_EXPECTATION)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--rollbook-stores=memory")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines([
        "*events differ*",
        "*expected 3 events, got 2:*",
        "*~ LightWoundsHealed:*",
        "*count: expected 3, got 2*",
        "*= events.ScopeEnded(scope='chapter', number=1)*",
        "*- events.FateCalled(character='Anna')*",
    ])


def test_the_plugin_runs_a_test_on_each_store_asked_for(pytester):
    pytester.makepyfile(test_sample='''
from rollbook.testing import events, pirates

def test_luck(campaign):
    campaign.given(pirates.created("Anna", luck=2))
    campaign.when({"type": "take_damage", "character": "Anna", "harm": 1, "absorb_with_luck": 1})
    campaign.then(events.LuckSpent(character="Anna", amount=1, purpose="avoid_wound"))
''')
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-v", "--rollbook-stores=memory,sqlite")
    result.assert_outcomes(passed=2)
    result.stdout.fnmatch_lines(["*test_luck?memory? PASSED*", "*test_luck?sqlite? PASSED*"])


def test_fed_faces_must_all_be_rolled_and_no_more(pytester):
    pytester.makepyfile(test_sample='''
from rollbook.testing import pirates

def test_too_few(campaign):
    campaign.given(pirates.created("Anna"))
    campaign.dice(3)
    campaign.when({"type": "roll_move", "character": "Anna", "stat": "guile"})
    campaign.then()

def test_too_many(campaign):
    campaign.given(pirates.created("Anna"))
    campaign.dice(3, 4, 5)
    campaign.when({"type": "roll_move", "character": "Anna", "stat": "guile"})
''')
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--rollbook-stores=memory")
    result.assert_outcomes(passed=1, failed=1, errors=1)
    output = result.stdout.str()
    assert "the test fed 1 faces with dice(...) and the command wants another (a d6)" in output
    assert "faces fed with dice(...) were never rolled: [5]" in output


def test_then_rejected_checks_the_message_and_that_nothing_was_written(campaign):
    campaign.of("pirates").given({"type": "create_character", "name": "Anna", "luck": 0,
                                  "stats": {"audacity": 0, "guile": 0, "foresight": 0, "reputation": 0}})
    campaign.when({"type": "spend_luck", "character": "Anna", "purpose": "roll_bonus"})
    campaign.then_rejected(match="no rolled move")
    with pytest.raises(AssertionError, match="does not match"):
        campaign.then_rejected(match="something else")


def test_events_is_the_stream_as_plain_dicts(campaign):
    campaign.at("2026-03-01T20:00:00Z").of("pirates")
    campaign.given({"type": "create_character", "name": "Anna", "luck": 1,
                    "stats": {"audacity": 1, "guile": 0, "foresight": 0, "reputation": 0}})
    assert [e["type"] for e in campaign.events()] == ["Created", "MemberJoined", "Created"]
    assert campaign.events()[1:] == [
        {"type": "MemberJoined", "name": "Anna", "kind": "character", "player": None},
        {"type": "Created", "character": "Anna", "campaign": "test-campaign", "name": "Anna", "player": None,
         "stats": {"audacity": 1, "guile": 0, "foresight": 0, "reputation": 0}, "luck": 1,
         "background": None, "position": None, "purse_piastres": 0, "fate_struck": []},
    ]


def test_at_teardown_the_seed_is_revealed_and_a_roll_verify_refuses_fails_the_test(pytester):
    pytester.makepyfile(test_sample='''
from rollbook.testing import pirates
from rollbook.testing.kit import History

def forged(table):
    campaign = table.campaign
    campaign.record_roll({"id": "forged", "source": "hmac", "nonce": 7, "commitment": campaign.commitment,
                          "sides": [6, 6], "faces": [1, 1], "total": 2, "outcome": None, "modifiers": []})

def test_a_seeded_roll_out_of_sequence(campaign):
    campaign.given(pirates.created("Anna"), History("pirates", "a roll with nonce 7, none before it", forged))

def test_the_campaigns_own_dice(campaign):
    campaign.given(pirates.created("Anna"))
    campaign.when({"type": "roll_move", "character": "Anna", "stat": "guile"})
''')
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--rollbook-stores=memory")
    result.assert_outcomes(passed=2, errors=1)
    output = result.stdout.str()
    assert "`rollbook verify` finds, once the seed is revealed: test-campaign:" in output
    assert "roll forged has nonce 7, expected 0" in output
