"""Do the rules roll what the odds say? A chi-square test of rolled outcomes against `odds`.

A rules author rolls the real command many times with the campaign's seeded dice and compares
the outcomes counted with the chances `campaign.odds(...)` gives (Pearson's chi-square goodness
of fit, scipy). The seeds are deterministic, so a test that passes once passes always; a failure
means the rules and the odds disagree.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from fractions import Fraction
from typing import Any

from scipy.stats import chisquare

#: Outcomes expected fewer times than this are pooled into one cell (Pearson's approximation is poor below it).
SMALLEST_EXPECTED = 5
#: Outcomes this far from the chances would be seen less than once in a thousand runs.
SIGNIFICANCE = 0.001


def p_value(observed: Iterable[object], chances: Mapping[object, float | Fraction | str]) -> float:
    """How often fair dice under these chances would land at least this far from them.

    `chances` may be the floats of `odds()["outcomes"]` or its `fractions` ("10/36"). An outcome
    seen that the odds call impossible gives 0.
    """
    counts = Counter(observed)
    total = sum(counts.values())
    expected = {name: float(Fraction(p)) * total for name, p in chances.items()}
    if any(expected.get(name, 0.0) == 0.0 for name in counts):
        return 0.0
    seen, wanted, pooled_seen, pooled_wanted = [], [], 0, 0.0
    for name, expect in expected.items():
        if expect < SMALLEST_EXPECTED:
            pooled_seen, pooled_wanted = pooled_seen + counts.get(name, 0), pooled_wanted + expect
        elif expect > 0:
            seen.append(counts.get(name, 0))
            wanted.append(expect)
    if pooled_wanted > 0:
        seen.append(pooled_seen)
        wanted.append(pooled_wanted)
    if len(seen) < 2:
        return 1.0  # one cell: nothing to compare
    return float(chisquare(seen, wanted, sum_check=False).pvalue) if _sums_match(seen, wanted) else 0.0


def _sums_match(seen: list[int], wanted: list[float]) -> bool:
    return abs(sum(seen) - sum(wanted)) <= 1e-6 * max(1.0, sum(seen))


def agrees(observed: Iterable[object], chances: Mapping[object, float | Fraction | str]) -> bool:
    """True unless outcomes this far from the chances would be seen less than once in a thousand runs."""
    return p_value(observed, chances) >= SIGNIFICANCE


#: How often `rolled_many` gives a command: enough for `agrees` to tell a wrong table from luck.
ROLLS = 600


def rolled_many(campaign: Any, command: Any, times: int = ROLLS) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A command's odds, then the rolls it made when given `times` over with the campaign's seeded dice:
    what a test holds to `agrees`."""
    odds = campaign.odds(command)
    before = len(campaign.rolls())
    for _ in range(times):
        campaign.given(command)
    return odds, campaign.rolls()[before:]
