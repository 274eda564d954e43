"""The README's testing-kit example, exactly as a user writes it (the plugin is installed, not imported)."""

from rollbook.testing import commands, events, pirates


def test_light_wounds_heal_at_chapter_end(campaign):
    campaign.given(
        pirates.created("Anna", luck=1), pirates.wounded("Anna", "light", 2), commands.StartChapter()
    )
    campaign.when(commands.EndChapter())
    campaign.then(
        events.LightWoundsHealed(character="Anna", count=2),
        events.ScopeEnded(scope="chapter", number=1),
    )
    assert campaign.sheet("Anna")["wounds"]["light"] == 0
