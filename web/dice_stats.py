"""Are these dice fair? Face counts per roller and per chapter, against the fair expectation.

Every face a die showed counts, dropped and exploded ones included: each was a fair throw of
that die. Typed faces (rolled elsewhere, by the forum's roller) and the campaign's own dice are
tallied apart, since only the latter are Rollbook's to answer for. The test is Pearson's
chi-square goodness of fit against the uniform die (scipy), and its p-value is put in words:
a small p says the counts would be surprising from fair dice, not that anyone cheated.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from scipy.stats import chisquare

from ..language import N_, gettext

# Pearson's approximation is poor when a face is expected fewer than five times.
MIN_EXPECTED_PER_FACE = 5
SURPRISING_P = 0.01
#: The groupings, as the page's headings say them ("By roller"; «По признаку: кто бросал»).
GROUPINGS = (N_("roller"), N_("chapter"))
# The timeline scope of what a GM calls a session: the chapter, which some games call an issue.
CHAPTER_SCOPES = {"chapter"}


@dataclass
class Tally:
    """How often each face of one die size came up, in one group of rolls."""

    sides: int
    counts: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.counts:
            self.counts = [0] * self.sides

    def add(self, face: int) -> None:
        self.counts[face - 1] += 1

    @property
    def throws(self) -> int:
        return sum(self.counts)

    @property
    def expected(self) -> float:
        return self.throws / self.sides

    def p_value(self) -> float | None:
        """Chi-square p-value against a fair die; None while the counts are too few to tell."""
        if self.expected < MIN_EXPECTED_PER_FACE:
            return None
        return float(chisquare(self.counts).pvalue)

    def verdict(self) -> str:
        p = self.p_value()
        if p is None:
            need = MIN_EXPECTED_PER_FACE * self.sides
            return gettext("too few throws to tell ({throws}; about {need} are needed)").format(
                throws=self.throws, need=need)
        if p < SURPRISING_P:
            return gettext("p = {p}: counts this uneven would come from fair dice less than once in {tries} tries — "
                           "worth a look, not proof of anything").format(p=f"{p:.3f}", tries=round(1 / SURPRISING_P))
        if p >= 0.05:
            return gettext("p = {p}: as even as fair dice usually are").format(p=f"{p:.2f}")
        return gettext("p = {p}: a little uneven, as fair dice are now and then (one time in {tries})").format(
            p=f"{p:.3f}", tries=round(1 / p))

    def as_dict(self) -> dict[str, Any]:
        return {"sides": self.sides, "counts": self.counts, "throws": self.throws,
                "expected": self.expected, "p_value": self.p_value(), "verdict": self.verdict()}


def chapter_of(position: int, chapters: list[dict[str, Any]]) -> str:
    """The chapter (or issue, or story part) a roll's position falls in, by the timeline."""
    for entry in chapters:
        end = entry.get("end")
        if entry["start"] <= position and (end is None or position <= end):
            return f"{entry['label']} {entry['number']}"
    return OUTSIDE


#: A roll before the first chapter: a filter's value (the same in every language); the page says it in words.
OUTSIDE = N_("outside any chapter")


def _draws(roll: dict[str, Any]) -> list[tuple[int, int]]:
    """Every face the roll drew, with its die's sides: its draws as recorded (`sides`, `faces`), which are
    1..sides whatever a face counts for (a die drawn as a d3 may read -1, 0, +1 in its `dice`); a roll given
    without them, by its dice."""
    if "sides" in roll and "faces" in roll:
        return list(zip(roll["sides"], roll["faces"], strict=True))
    return [(die["sides"], face) for die in roll.get("dice", []) for face in die["faces"]]


def dice_statistics(rolls: Iterable[dict[str, Any]], timeline: list[dict[str, Any]]) -> dict[str, Any]:
    """Tallies keyed by (typed | campaign) → grouping → group → die size.

    Groupings: `roller` (the character, or the actor where no character rolled) and `chapter`.
    """
    chapters = [e for e in timeline if e["scope"] in CHAPTER_SCOPES]
    tallies: dict[str, dict[str, dict[str, dict[int, Tally]]]] = defaultdict(
        lambda: {grouping: defaultdict(dict) for grouping in GROUPINGS}
    )
    for roll in rolls:
        source = "typed" if roll.get("source") == "typed" else "campaign"
        groups = {
            "roller": roll.get("character") or roll.get("actor") or "?",
            "chapter": chapter_of(roll.get("position", 0), chapters),
        }
        for sides, face in _draws(roll):
            for grouping, group in groups.items():
                tallies[source][grouping][group].setdefault(sides, Tally(sides)).add(face)
    return {
        source: {
            grouping: {group: [sizes[s] for s in sorted(sizes)] for group, sizes in sorted(groups.items())}
            for grouping, groups in by_grouping.items()
        }
        for source, by_grouping in sorted(tallies.items())
    }
