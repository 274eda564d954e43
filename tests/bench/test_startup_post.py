"""The start-up row's one-command post is legal however far a generated campaign's clock has run."""

from dataclasses import replace
from datetime import datetime, timedelta

from typer.testing import CliRunner

from bench.generate import generate
from bench.measures import _a_post, _after
from rollbook.cli import app


def test_the_post_is_timed_after_a_campaign_whose_clock_ran_past_today(tmp_path):
    """At 100k commands the generated clock reaches 2076: a post stamped now is refused as earlier than the
    command before it (the start-up row failed so), so the measure posts just after the campaign's last command."""
    campaign = generate("pirates", 300)
    decades = timedelta(days=365 * 60)
    ahead = replace(campaign, commands=[
        {**c, "at": (datetime.fromisoformat(c["at"]) + decades).isoformat()} for c in campaign.commands])
    url = f"sqlite:///{tmp_path / 'store.db'}"
    runner = CliRunner()
    assert runner.invoke(app, ["-q", "run", str(ahead.write(tmp_path / "c.jsonl")), "--store", url,
                               "--allow-future"]).exit_code == 0
    post = ["-q", "post", *_a_post(ahead), "--campaign", ahead.campaign, "--store", url]
    refused = runner.invoke(app, [*post, "--id", "now"])
    assert refused.exit_code != 0 and "earlier than the campaign's last command" in refused.output
    for run in range(2):
        done = runner.invoke(app, [*post, "--id", f"bench-post-{run}", "--at", _after(ahead, minutes=run + 1),
                                   "--allow-future"])
        assert done.exit_code == 0, done.output
