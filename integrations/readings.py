"""What `/rb sheet`, `/rb rolls`, `/rb odds` and `/rb verify` say, and what autocomplete offers, in Discord's words.

Read from the same projections and checks as `rollbook sheet`, `rolls`, `odds` and `verify`; a
character's sheet in the game's own sections (`Ruleset.sheets`, `projections/sheets.py`), as the terminal and the web show it.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from babel.numbers import format_percent

from ..language import gettext, ngettext, spoken
from ..projections.campaign_logs import roll_text
from ..projections.narration import outcome_words, words
from ..projections.sheets import sections
from ..commands.catalogue import commands_for
from .style import DISCORD_STYLE, Style
from .markup import escape_markdown, markdown_code
from .slash import MAX_CHOICES, TRAITS, _plain, book_label, move_named
from .words import CHOICE_LIMIT, Asked, member_choice, with_names

#: How a sheet's name appears when the live sheet has none.
UNNAMED = "?"


def _fit(text: str) -> str:
    return DISCORD_STYLE.fit(text)


def sheet_text(ruleset: str, kind: str, sheet: dict[str, Any], style: Style = DISCORD_STYLE) -> str:
    esc = style.escape
    head = f"{style.bold(esc(str(sheet.get('name', UNNAMED))))} · {gettext(kind)}"
    if sheet.get("player"):
        head += " · " + gettext("played by {player}").format(player=esc(str(sheet["player"])))
    lines = [head]
    for title, rows in sections(ruleset, kind, sheet):
        lines.append(f"{style.heading(esc(title))}: " + " · ".join(
            f"{esc(str(name))} {esc(str(value))}" for name, value in rows))
    return style.fit("\n".join(lines))


def rolls_text(campaign: str, rolls: list[dict[str, Any]]) -> str:
    if not rolls:
        return gettext("No rolls in {campaign} yet.").format(campaign=escape_markdown(campaign))
    lines = [ngettext("The last {count} roll of {campaign}:", "The last {count} rolls of {campaign}:", len(rolls))
             .format(count=len(rolls), campaign=escape_markdown(campaign))]
    for roll in rolls:
        source = (gettext("nonce {nonce}").format(nonce=roll["nonce"]) if roll.get("source") == "hmac"
                  else gettext(str(roll.get("source", ""))))
        who = escape_markdown(str(roll.get("character") or roll.get("actor")))
        outcome = outcome_words(None, roll) if roll.get("outcome") else roll.get("outcome")
        lines.append(f"{markdown_code(str(roll['id']))} {who}: "
                     f"{escape_markdown(_roll_said(roll))} → **{outcome}** ({source})")
    return _fit("\n".join(lines))


def _roll_said(roll: dict[str, Any]) -> str:
    """A roll's text in the reader's language, made again from its parts: the dice and the sum as rolled (numbers),
    each later change's outcome in words; a change's reason is shown as recorded."""
    original = (roll.get("original") or {}).get("text")
    if not original or not roll.get("changes"):
        return str(roll.get("text", ""))
    return roll_text(original, roll["changes"], lambda outcome: gettext(str(outcome).replace("_", " ")))


def odds_text(body: dict[str, Any], odds: dict[str, Any], style: Style = DISCORD_STYLE) -> str:
    esc = style.escape
    shown = " ".join(f"{k}={v}" for k, v in body.items() if k not in ("type", "actor"))
    lines = [gettext("Odds of {command}:").format(command=f"{esc(str(body['type']))} {esc(shown)}".rstrip())]
    for outcome, fraction in odds.get("fractions", {}).items():
        chance = format_percent(float(Fraction(fraction)), "#0.0%", locale=spoken())
        lines.append(f"- {gettext(words(outcome))}: {style.bold(chance)} ({fraction})")
    if odds.get("compare"):
        compared = odds["compare"]
        if "refused" in compared:
            lines.append(gettext("With {fields}: refused, {reason}").format(
                fields=esc(str(compared["fields"])), reason=esc(str(compared["refused"]))))
    lines.append(style.small(gettext("exact, as the rules would decide it now; nothing is rolled or written")))
    return style.fit("\n".join(lines))


def verify_text(campaign: str, report: Any, discord: Any | None) -> str:
    head = gettext("**{campaign}**: {commands} commands chained (head `{head}…`), {rolls} rolls recomputed from "
                   "{seeds} revealed seeds, {unverifiable} rolls not verifiable yet: ").format(
        campaign=escape_markdown(campaign), commands=report.commands, head=report.head[:16],
        rolls=report.rolls_checked, seeds=report.seeds_revealed, unverifiable=len(report.unverifiable))
    found = ngettext("**{count} finding**", "**{count} findings**", len(report.findings)).format(
        count=len(report.findings))
    lines = [head + (gettext("**verified, no findings**") if report.ok else found)]
    lines += [f"- {escape_markdown(str(finding))}" for finding in report.findings[:5]]
    if discord is not None:
        lines.append(gettext("{count} commands posted through Discord, each signed by Discord for the member it "
                             "names").format(count=discord.checked) if not discord.findings else
                     ngettext("Discord-posted commands: **{count} finding**", "Discord-posted commands: **{count} "
                              "findings**", len(discord.findings)).format(count=len(discord.findings)))
        lines += [f"- {escape_markdown(str(finding))}" for finding in discord.findings[:5]]
    return _fit("\n".join(lines))


# --- autocomplete -------------------------------------------------------------------------


def _choices(pairs: list[tuple[str, str]], typed: str) -> list[dict[str, str]]:
    """The pairs (label, value) whose label or value holds what is typed; a label too long is cut (it is only
    shown), a value too long is not offered (cut, it would name nothing: `member_choice` gives a long name's id)."""
    wanted = typed.casefold()
    found = [(label, value) for label, value in pairs
             if (wanted in label.casefold() or wanted in value.casefold()) and len(value) <= CHOICE_LIMIT]
    return [{"name": label if len(label) <= CHOICE_LIMIT else label[: CHOICE_LIMIT - 1] + "…", "value": value}
            for label, value in found[:MAX_CHOICES]]


def suggestions(request: Asked, campaign: str, role: str, user: str, doc: dict[str, Any],
                sheets: dict[str, dict[str, Any]], commands: list[dict[str, Any]]) -> list[dict[str, str]]:
    """What to offer for the focused option: names from the roster, moves, traits, recent commands."""
    focused = request.focused or ""
    typed = str(request.options.get(focused) or "")
    ruleset = doc["ruleset"]
    members = doc.get("members", {})
    everyone = [(f"{name} ({gettext(entry['kind'])})", member_choice(campaign, entry["kind"], name))
                for name, entry in members.items()]
    if request.name == "rb":
        if focused == "command":  # /rb undo: the latest commands first
            return _choices([(f"{c['id']} · {c['type']} · {c['actor']}", str(c["id"])) for c in reversed(commands)],
                            typed)
        return _choices(everyone, typed)
    move = move_named(request.name)
    if move is None or move.ruleset != ruleset:
        return []
    schema = commands_for(ruleset)[move.command_type][0].model_json_schema()["properties"].get(focused, {})
    plain = _plain(schema)
    if schema.get("x-choices"):  # a book of moves, say: its names as the command's schema lists them
        book = schema["x-choices"]
        return _choices([(book_label(ruleset, key, label), key) for key, label in book.items()], typed)
    if plain.get("enum"):
        return _choices([(gettext(words(str(v))), str(v)) for v in plain["enum"]], typed)
    if focused in TRAITS:
        given = with_names(request.options, campaign, members)
        owner = next((given[o] for o in TRAITS[focused] if given.get(o)), None)
        sheet = sheets.get(str(owner), {})
        traits = [name for part in ("abilities", "talents", "powers") for name in (sheet.get(part) or {})]
        return _choices([(t, t) for t in traits], typed)
    if schema.get("x-owned") and role == "player":  # a player acts only for his own
        own = [name for name, entry in members.items() if entry.get("player") == user]
        return _choices([(f"{name} ({gettext(members[name]['kind'])})", member_choice(campaign, members[name]["kind"], name))
                         for name in own], typed)
    return _choices(everyone, typed)
