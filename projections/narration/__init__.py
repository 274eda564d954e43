"""One line in words for every command applied, told from the events it stored.

`rollbook post` and `rollbook run` print it after each command, and the server returns it
as `summary`: who did what, the faces, the modifiers, the total and the outcome, and what
changed — `Red — Threaten Violence: 2d6 [5, 6] +2 audacity = 13, full success`,
`Red takes 1 harm: a light wound (slot 1)`.

The line is built only from what the command stored (its events and the `CommandApplied`
that records it), so it says what happened, not what was asked. Each ruleset names its own
module in its `Ruleset.narration` (a game keeps it in its own package, beside its commands), with the
phrases of its own events and the heading of its own commands; what every ruleset shares (rolls, the
timeline, creation) is said here once. An
event no phrase knows is still told, plainly, from its name and values: a line never hides
a change.

Every phrase is a message of the catalog (language/__init__.py): `said("…")`, `gettext("…")`, `ngettext(…)`, and the
game's words kept in tables with `N_`. The caller chooses the language (`speaking`); the user's text (names,
titles, reasons) fills the translated template as typed, and the format the line lands in escapes it after.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import import_module
from typing import Any

from ...language import gettext, ngettext, number


@dataclass(frozen=True)
class Happening:
    """One stored event as narration sees it: whose it is, its name and its fields."""

    whose: str  # a member's name ("Anna", "Revenge"), "campaign", or "scene 2"
    event: str  # the event's class name ("Wounded")
    data: Mapping[str, Any]


@dataclass
class Told:
    """What a phrase may know about the command besides its own event."""

    command: Mapping[str, Any]
    rolls: dict[str, Mapping[str, Any]] = field(default_factory=dict)
    #: The line opens with a heading that names the command's subject.
    headed: bool = False
    #: The ruleset's voice, for the phrases every ruleset shares (`outcome_words`).
    voice: Voice | None = None

    @property
    def subject(self) -> str | None:
        """The member the command is about, named by its usual field."""
        for key in ("character", "ship", "attacker", "negotiator", "name", "patient"):
            value = self.command.get(key)
            if isinstance(value, str):
                return value
        return None

    def who(self, happening: Happening) -> str:
        """The member's name as a prefix, unless the command's heading already said it."""
        return "" if self.headed and happening.whose == self.subject else f"{happening.whose} "


#: A phrase tells one event; None says nothing (bookkeeping the reader need not see).
Phrase = Callable[[Happening, Told], str | None]
#: A heading opens the line of a command whose events alone would not say what was done.
Heading = Callable[[Told], str | None]


@dataclass(frozen=True)
class Voice:
    """How one ruleset tells its commands: its events' phrases, its headings, its rolls."""

    phrases: Mapping[str, Phrase]
    headings: Mapping[str, Heading] = field(default_factory=dict)
    #: What a roll was for, in the game's words ("Cross Anchors"); None: said from its purpose.
    purpose: Callable[[Mapping[str, Any]], str | None] = lambda roll: None
    #: The roll's value, when the game counts something other than a total (successes).
    value: Callable[[Mapping[str, Any]], str | None] = lambda roll: None
    #: The roll's outcome, when the game writes one with a number in it ("3 damage"); None: said from its words.
    outcome: Callable[[Mapping[str, Any]], str | None] = lambda roll: None


def voice_of(ruleset: str) -> Voice:
    """The voice its `Ruleset.narration` module declares; a ruleset without one is told plainly."""
    from ...domain.rulesets import ruleset as ruleset_named

    module = ruleset_named(ruleset).narration
    return PLAIN if module is None else import_module(module).VOICE  # type: ignore[no-any-return]


def summarize(ruleset: str, happenings: Sequence[Happening]) -> str:
    """The line for one command, from the events it stored (its `CommandApplied` among them)."""
    voice = voice_of(ruleset)
    command: Mapping[str, Any] = next(
        (h.data["command"] for h in happenings if h.event == "CommandApplied"), {}
    )
    told = Told(command, {h.data["roll"]["id"]: h.data["roll"] for h in happenings if h.event == "DiceRolled"},
                voice=voice)
    heading_for = voice.headings.get(str(command.get("type")))
    heading = heading_for(told) if heading_for is not None else None
    told.headed = heading is not None
    rolled = [roll_line(voice, roll) for roll in told.rolls.values()]
    changes = [
        said for h in happenings if h.event != "DiceRolled"
        for said in [_phrase(voice, h, told)] if said
    ]
    if heading is not None:
        said = f"{heading}: {', '.join(changes)}" if changes else heading
        return "; ".join([*rolled, said])
    if rolled or changes:
        return "; ".join([*rolled, *changes])
    return gettext("{command}: nothing changed").format(command=words(str(command.get("type", "command"))))


def _phrase(voice: Voice, happening: Happening, told: Told) -> str | None:
    phrase = voice.phrases.get(happening.event) or COMMON.get(happening.event)
    if phrase is not None:
        return phrase(happening, told)
    return plainly(happening)


# --- rolls ----------------------------------------------------------------------------------


def dice_text(roll: Mapping[str, Any]) -> str:
    """The faces as rolled: an exploded die as 6!2, a dropped die in parentheses: [(2), 6, 5]."""
    shown = []
    for die in roll.get("dice") or [{"faces": [face], "kept": True} for face in roll.get("faces", [])]:
        faces = "!".join(str(face) for face in die["faces"])
        shown.append(faces if die.get("kept", True) else f"({faces})")
    return f"[{', '.join(shown)}]"


def modifiers_text(modifiers: Iterable[Mapping[str, Any]]) -> str:
    """Every modifier with where it comes from: `+2 audacity -1 light wounds` (a source the catalog
    knows, such as a stat, in the language spoken; one it does not, such as a helper's name, as recorded)."""
    return "".join(
        f" {'+' if m['value'] >= 0 else '-'}{abs(m['value'])} {gettext(m['source'])}" for m in modifiers if m["value"]
    )


def roll_line(voice: Voice, roll: Mapping[str, Any]) -> str:
    """`Anna — Cross Anchors: 2d6 [3, 4] +2 audacity +1 luck = 10, full success`."""
    who = roll.get("character") or roll.get("actor") or gettext("someone")
    what = voice.purpose(roll) or (gettext(words(str(roll["purpose"]))) if roll.get("purpose") else gettext("roll"))
    value = voice.value(roll) or str(roll.get("total"))
    line = f"{who} — {what}: {roll.get('notation', '')} {dice_text(roll)}{modifiers_text(roll.get('modifiers', []))} = {value}"
    outcome = roll.get("outcome")
    return f"{line}, {outcome_words(voice, roll)}" if outcome not in (None, "") else line


def outcome_words(voice: Voice | None, roll: Mapping[str, Any]) -> str:
    """A roll's outcome in the language spoken: the game's own way for one with a number in it, else by its words."""
    return (voice and voice.outcome(roll)) or gettext(words(str(roll["outcome"])))


# --- what every ruleset shares --------------------------------------------------------------


def words(name: str) -> str:
    """An identifier in words: `full_success` → `full success`, `move:cross_anchors` → `move cross anchors`."""
    return re.sub(r"[_:]+", " ", name).strip()


def event_words(name: str) -> str:
    """An event's class name in words: `LightWoundsHealed` → `light wounds healed`."""
    return re.sub(r"(?<!^)(?=[A-Z])", " ", name).lower()


def plainly(happening: Happening) -> str:
    """An event no phrase knows, told from its name and its simple values: the name and the fields' names in the
    language spoken (a game marks those of its events with `N_`), the values as recorded."""
    values = [
        f"{gettext(words(k))} {v}" for k, v in happening.data.items()
        if isinstance(v, str | int | float) and not isinstance(v, bool) and k not in ("campaign", "number")
    ]
    whose = "" if happening.whose == "campaign" else f"{happening.whose}: "
    return f"{whose}{gettext(event_words(happening.event))}" + (f" ({', '.join(values)})" if values else "")


def silent(_: Happening, __: Told) -> None:
    return None


def said(template: str) -> Phrase:
    """The phrase that fills `template`, translated, with the event's fields and `whose`:
    `said("{whose} is holed: hull {hull}")` (`pybabel extract` takes `said` for a gettext)."""
    return lambda h, _: gettext(template).format_map({**h.data, "whose": h.whose})


def scope(label: str) -> str:
    """A scope's label (chapter, scene, battle, page …) in the language spoken; each game marks its own with `N_`."""
    return gettext(label)


def _rolled_again(h: Happening, told: Told) -> str:
    outcome = f", {outcome_words(told.voice, h.data)}" if h.data.get("outcome") else ""
    return gettext("{roll} is now {total}{outcome} ({reason})").format(
        roll=h.data["roll"], total=h.data["total"], outcome=outcome, reason=h.data["reason"])


def _scope_started(h: Happening, _: Told) -> str:
    title = f": {h.data['title']}" if h.data.get("title") else ""
    return gettext("{scope} {number} begins{title}").format(scope=scope(h.data["label"]), number=h.data["number"],
                                                             title=title)


def _created(h: Happening, told: Told) -> str | None:
    if h.whose == "campaign":
        title = f" ({h.data['title']})" if h.data.get("title") else ""
        return gettext("campaign {campaign}{title} created, {ruleset} rules").format(
            campaign=h.data["campaign"], title=title, ruleset=h.data["ruleset"])
    if h.whose.startswith("scene "):
        return None  # ScopeStarted tells it
    player = gettext(", played by {player}").format(player=h.data["player"]) if h.data.get("player") else ""
    return gettext("{whose} joins{player}").format(whose=h.whose, player=player)


COMMON: dict[str, Phrase] = {
    "Created": _created,
    "RollModified": _rolled_again,
    "ScopeStarted": _scope_started,
    "ScopeEnded": lambda h, _: gettext("{scope} {number} ends").format(scope=scope(h.data["label"]),
                                                                       number=h.data["number"]),
    "Ticked": lambda h, _: f"{scope(h.data['label'])} {h.data['number']}",
    **dict.fromkeys(
        ("CommandApplied", "SeedCommitted", "SeedRevealed", "SigningKeyRecorded", "CheckpointSigned", "LimitUsed",
         "LimitsReleased", "MemberJoined",
         "MoveBegun", "Claimed", "Started", "Ended", "Recorded", "Disputed", "Ruled",
         "RevisionAdopted"),
        silent,
    ),
}


#: The voice of a ruleset that declares none: its events told by COMMON and `plainly`.
PLAIN = Voice(phrases={})


def counted(count: int, noun: str, plural: str | None = None) -> str:
    """`1 command`, `2 commands`: counts in good English (a line in words counts with `ngettext`)."""
    return f"{count} {noun if count == 1 else plural or noun + 's'}"


def count(singular: str, plural: str, counted_: int, /, **values: Any) -> str:
    """A counted message, `{count}` filled, in the form the language's plural rule gives the count:
    `count("{count} wound", "{count} wounds", 5)` is `5 wounds`, in Russian `5 ран`."""
    return ngettext(singular, plural, counted_).format(count=number(counted_), **values)

