"""Do the rules roll what the odds say? A chi-square test of rolled outcomes against `odds`.

A rules author rolls the real command many times with the campaign's seeded dice and compares
the outcomes counted with the chances `campaign.odds(...)` gives. The seeds are deterministic,
so a test that passes once passes always; a failure means the rules and the odds disagree.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from fractions import Fraction

#: The chi-square value exceeded with probability 0.001, by degrees of freedom.
CRITICAL_0_001 = (10.83, 13.82, 16.27, 18.47, 20.52, 22.46, 24.32, 26.12, 27.88, 29.59,
                  31.26, 32.91, 34.53, 36.12, 37.70, 39.25, 40.79, 42.31, 43.82, 45.31)
#: Outcomes expected fewer times than this are pooled into one cell (the test's usual rule).
SMALLEST_EXPECTED = 5


def chi_square(observed: Iterable[object], chances: Mapping[object, float | Fraction | str]) -> tuple[float, int]:
    """(the statistic, its degrees of freedom) of outcomes seen against their chances.

    `chances` may be the floats of `odds()["outcomes"]` or its `fractions` ("10/36"). An outcome
    seen that the odds call impossible makes the statistic infinite.
    """
    counts = Counter(observed)
    total = sum(counts.values())
    expected = {name: float(Fraction(p)) * total for name, p in chances.items()}
    if any(expected.get(name, 0.0) == 0.0 for name in counts):
        return float("inf"), 1
    cells, pooled_seen, pooled_expected = [], 0, 0.0
    for name, expect in expected.items():
        if expect < SMALLEST_EXPECTED:
            pooled_seen, pooled_expected = pooled_seen + counts.get(name, 0), pooled_expected + expect
        else:
            cells.append((counts.get(name, 0), expect))
    if pooled_expected > 0:
        cells.append((pooled_seen, pooled_expected))
    statistic = sum((seen - expect) ** 2 / expect for seen, expect in cells if expect > 0)
    return statistic, max(1, len(cells) - 1)


def agrees(observed: Iterable[object], chances: Mapping[object, float | Fraction | str]) -> bool:
    """True unless outcomes this far from the chances would be seen less than once in a thousand runs."""
    statistic, freedom = chi_square(observed, chances)
    return statistic < CRITICAL_0_001[min(freedom, len(CRITICAL_0_001)) - 1]
