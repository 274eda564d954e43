"""The start-up floor (bench/floor.py) mirrors the aggregates a post writes, and runs none of Rollbook's code."""

import dataclasses
import importlib.util
import json
import subprocess
import sys

from typer.testing import CliRunner

from bench import floor
from bench.generate import generate
from bench.measures import _a_post, _after
from rollbook.cli import app


def _posted(tmp_path):
    """A generated pirate campaign, one post on it; the store's URL and its head before the post."""
    campaign = generate("pirates", 200)
    url = f"sqlite:///{tmp_path / 'store.db'}"
    runner = CliRunner()
    assert runner.invoke(app, ["-q", "run", str(campaign.write(tmp_path / "c.jsonl")), "--store", url]).exit_code == 0
    before = floor.head(url)
    post = ["-q", "post", *_a_post(campaign), "--campaign", campaign.campaign, "--store", url,
            "--id", "floor", "--at", _after(campaign, minutes=1)]
    assert runner.invoke(app, post).exit_code == 0
    return url, before


def test_the_model_defines_the_same_event_classes_with_the_same_fields(tmp_path, monkeypatch):
    url, before = _posted(tmp_path)
    mirrored = floor.prepare(tmp_path / "model", url, before)
    assert {real.__name__ for real in mirrored.values()} >= {"PiratesCampaign", "Campaign", "Ship", "CommandClaim"}

    spec = importlib.util.spec_from_file_location(floor.MODEL, tmp_path / "model" / f"{floor.MODEL}.py")
    model = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, floor.MODEL, model)  # the library looks its aggregates' module up by name
    spec.loader.exec_module(model)
    for name, real in mirrored.items():
        theirs, ours = floor.event_classes(real), floor.event_classes(getattr(model, name))
        assert sorted(ours) == sorted(theirs), name
        for event in theirs:
            assert [f.name for f in dataclasses.fields(ours[event])] == [f.name for f in dataclasses.fields(theirs[event])]


def test_the_floor_process_imports_no_rollbook_module_but_the_aggregates_base(tmp_path):
    url, before = _posted(tmp_path)
    floor.prepare(tmp_path / "model", url, before)
    model_dir = str(tmp_path / "model")
    probe = (
        f"import json, runpy, sys; sys.argv = ['floor', {model_dir!r}]; "
        f"runpy.run_path({floor.__file__!r}, run_name='__main__'); "
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith(('rollbook', 'bench', 'floor')))))"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert json.loads(done.stdout) == ["floor_model", "rollbook", "rollbook.domain", "rollbook.domain.aggregate"]
