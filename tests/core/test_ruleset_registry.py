"""A rule system registers in one place, its `Ruleset`, found through the entry-point group
`rollbook.rulesets`; one that is listed but cannot be loaded is an error that names it."""

from __future__ import annotations

import copy
import os
import pickle
import subprocess
import sys
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest

from rollbook.commands import catalogue
from rollbook.domain import rulesets
from rollbook.domain.campaign import Campaign
from rollbook.domain.rulesets import GROUP, Ruleset, RulesetUnavailable
from rollbook.domain.timeline import COMMON_SCOPES, Scope

BUILT_IN = ("pirates", "heroes", "implant", "gladiators")


@pytest.fixture
def listed(monkeypatch):
    """Lists extra entry points beside the installed ones; the registry is read afresh, and again after."""
    installed = rulesets.entry_points(group=GROUP)
    extra: list[EntryPoint] = []
    monkeypatch.setattr(rulesets, "entry_points", lambda group: [*installed, *extra] if group == GROUP else [])
    _forget_the_registry()
    yield extra
    _forget_the_registry()


def _forget_the_registry() -> None:
    for cached in (rulesets._points, rulesets._named, rulesets._registry):
        cached.cache_clear()


def test_the_four_games_register_through_the_entry_point_group_in_their_order():
    assert rulesets.available()[:4] == BUILT_IN
    assert {point.name for point in rulesets.entry_points(group=GROUP)} >= set(BUILT_IN)


def test_a_listed_ruleset_that_fails_to_load_is_an_error_naming_it(listed):
    listed.append(EntryPoint(name="broken", value="rollbook_no_such_module:RULESET", group=GROUP))
    with pytest.raises(RulesetUnavailable, match=r"ruleset 'broken' \(rollbook_no_such_module:RULESET.*cannot be loaded"):
        rulesets.available()


def test_an_entry_point_that_is_not_a_ruleset_is_an_error_naming_it(listed):
    listed.append(EntryPoint(name="odd", value="rollbook.domain.rulesets:GROUP", group=GROUP))
    with pytest.raises(RulesetUnavailable, match="ruleset 'odd' .* is a str, not a Ruleset"):
        rulesets.available()
    with pytest.raises(RulesetUnavailable, match="ruleset 'odd' .* is a str, not a Ruleset"):
        rulesets.ruleset("odd")


def test_a_campaign_s_ruleset_is_loaded_alone(listed):
    """Another listed ruleset that cannot be loaded is not imported for a campaign of the pirates' rules."""
    listed.append(EntryPoint(name="broken", value="rollbook_no_such_module:RULESET", group=GROUP))
    assert rulesets.ruleset("pirates").name == "pirates"


def test_an_entry_point_and_its_ruleset_must_agree_on_the_name(listed):
    listed.append(EntryPoint(name="corsairs", value="rollbook.domain.rulesets.pirates:RULESET", group=GROUP))
    with pytest.raises(RulesetUnavailable, match="'corsairs' .* is named 'pirates'"):
        rulesets.available()


def test_a_ruleset_names_only_boundaries_the_timeline_has():
    with pytest.raises(ValueError, match="unknown boundaries round"):
        Ruleset(name="x", campaign_class=Campaign, limits=(), boundaries=("scene", "round"), commands=())


CONFLICT = Scope.inside(Scope.SCENE, "conflict")


def test_a_ruleset_declares_a_scope_of_its_own_and_names_it_among_its_boundaries():
    fate = Ruleset(name="x", campaign_class=Campaign, limits=(), boundaries=("scene", "conflict"), commands=(),
                   scopes=(CONFLICT,))
    assert fate.boundary_scope("conflict") is CONFLICT
    assert fate.boundary_scope("issue") is Scope.CHAPTER
    with pytest.raises(ValueError, match=r"unknown boundaries round \(known: .*scene, battle, conflict\)"):
        Ruleset(name="x", campaign_class=Campaign, limits=(), boundaries=("round",), commands=(), scopes=(CONFLICT,))


def test_a_rulesets_own_scope_cannot_take_a_common_name():
    with pytest.raises(ValueError, match="its own scopes scene are named as common ones"):
        Ruleset(name="x", campaign_class=Campaign, limits=(), boundaries=(), commands=(),
                scopes=(Scope.inside(Scope.CHAPTER, "scene"),))


def test_a_scope_inside_a_common_one_ends_with_it_and_ends_what_it_holds():
    assert Scope.BATTLE.rank < CONFLICT.rank < Scope.SCENE.rank
    assert CONFLICT == "conflict" and CONFLICT.value == "conflict" and not CONFLICT.lasting


def test_a_scope_keeps_its_rank_through_a_copy_and_a_pickle():
    for again in (copy.deepcopy(CONFLICT), pickle.loads(pickle.dumps(CONFLICT))):
        assert (again, again.rank, again.lasting) == (CONFLICT, CONFLICT.rank, CONFLICT.lasting)


def test_the_pirates_ship_is_their_own_scope_not_the_cores():
    assert "ship" not in COMMON_SCOPES
    assert [scope.value for scope in rulesets.ruleset("pirates").scopes] == ["ship"]
    assert rulesets.ruleset("pirates").scopes[0].lasting


@pytest.mark.parametrize("name", BUILT_IN)
def test_the_common_boundary_commands_follow_each_games_vocabulary(name):
    offered = set(catalogue.commands_for(name))
    for boundary in rulesets.BOUNDARIES:
        own = {f"start_{boundary}", f"end_{boundary}"} <= set(catalogue.HANDLERS.get(name, {}))
        has = boundary in rulesets.ruleset(name).boundaries
        assert ({f"start_{boundary}", f"end_{boundary}"} <= offered) == (has or own), boundary


def test_a_ruleset_of_chapters_alone_gets_start_chapter_and_no_scene_or_battle(monkeypatch):
    chapters = Ruleset(name="chapters", campaign_class=Campaign, limits=(), boundaries=("chapter",), commands=())
    monkeypatch.setattr(catalogue, "ruleset_named", lambda name: chapters)
    offered = set(catalogue.commands_for.__wrapped__("chapters"))
    assert {"create_campaign", "rotate_seed", "start_chapter", "end_chapter"} <= offered
    assert not offered & {"end_issue", "start_scene", "end_scene", "start_battle", "end_battle", "start_story"}


@pytest.mark.slow
def test_the_command_line_names_a_broken_ruleset_in_one_line(tmp_path: Path):
    """A package that lists a ruleset it cannot load: `rollbook schema` says which, exit 2, no traceback."""
    info = tmp_path / "rollbook_broken-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: rollbook-broken\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(f"[{GROUP}]\nbroken = rollbook_broken_missing:RULESET\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run(
        [sys.executable, "-m", "rollbook.cli", "schema"], env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 2, done.stderr
    assert "ruleset 'broken' (rollbook_broken_missing:RULESET" in done.stderr
    assert "Traceback" not in done.stderr
