"""Fate brings its own Russian (its package's catalog, named by `Ruleset.catalog`): a campaign whose language is
`ru` reads its lines in Rollbook's Russian and Fate's own words, and an English one reads as it always did."""

from __future__ import annotations

import json

import pytest

from rollbook.commands.runner import run_file
from rollbook.commands.service import Rollbook
from rollbook.integrations.lines import render, told_by_id
from rollbook.language import gettext, speaking
from rollbook.store import Store


def played(language: str) -> Store:
    lines = [{"type": "create_campaign", "ruleset": "fate", "options": {"language": language}},
             {"type": "create_character", "name": "Ada", "player": "ada", "skills": {"fight": 3}},
             {"type": "start_scene", "title": "The rope bridge"},
             {"type": "start_conflict", "title": "Bandits"},
             {"id": "act", "type": "act", "actor": "player:ada", "character": "Ada", "skill": "fight",
              "difficulty": 4, "invoke": True, "dice": [2, 3, 1, 2]},
             {"id": "hit", "type": "take_hit", "actor": "player:ada", "character": "Ada", "shifts": 2,
              "consequence": "mild"}]
    store = Store.open("memory://")
    report = run_file(Rollbook(store), "".join(json.dumps({"campaign": "c", **line}) + "\n" for line in lines).encode())
    assert report.error is None, report.error
    return store


@pytest.mark.parametrize(("language", "act", "hit"), [
    ("ru", "Ada — действие (драка): 4dF [0, 1, -1, 0] +3 драка +2 призванный аспект = 5, успех; "
           "Ada: потрачен пункт судьбы",
     "Ada: получено последствие (лёгкое, сдвигов: 2)"),
    ("en", "Ada — act fight: 4dF [0, 1, -1, 0] +3 fight +2 invoked aspect = 5, success; Ada: fate point spent",
     "Ada: consequence taken (severity mild, shifts 2)"),
])
def test_a_campaigns_lines_are_in_its_language_with_fates_own_words(language, act, hit):
    store = played(language)
    try:
        assert told_by_id(store, "c", "act", None).summary == act
        assert told_by_id(store, "c", "hit", None).summary == hit
        assert render(told_by_id(store, "c", "act", None), "bbcode").startswith(f"[b]{act}[/b]")
    finally:
        store.close()


def test_rollbooks_catalog_comes_first_and_fates_fills_in_what_it_lacks():
    with speaking("ru"):
        assert gettext("success") == "успех"  # Rollbook's own word
        assert gettext("fate point spent") == "потрачен пункт судьбы"  # Fate's
        assert gettext("no such message anywhere") == "no such message anywhere"
