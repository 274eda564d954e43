"""How Fate's commands read in a line, in the language spoken: Rollbook tells its events plainly (their names and
fields through `gettext`), and this voice says what a roll was for and a consequence's severity, words a plain
telling leaves as recorded. The Russian is this package's own catalog (`locale/ru/LC_MESSAGES/rollbook_fate.po`,
named by `Ruleset.catalog`); the English reads as Fate's lines always did."""

from __future__ import annotations

from typing import Any

from rollbook.language import gettext
from rollbook.projections.narration import Happening, Told, Voice


def _purpose(roll: Any) -> str | None:
    """`act:fight` → `act fight`: the action and its skill, each in the language spoken."""
    kind, _, skill = str(roll.get("purpose", "")).partition(":")
    if kind != "act":
        return None
    return gettext("act {skill}").format(skill=gettext(skill))


def _with_severity(template: str) -> Any:
    def phrase(happening: Happening, _: Told) -> str:
        return gettext(template).format(whose=happening.whose, severity=gettext(happening.data["severity"]),
                                        shifts=happening.data.get("shifts"))
    return phrase


VOICE = Voice(
    phrases={
        "ConsequenceTaken": _with_severity("{whose}: consequence taken (severity {severity}, shifts {shifts})"),
        "ConsequenceCleared": _with_severity("{whose}: consequence cleared (severity {severity})"),
    },
    purpose=_purpose,
)
