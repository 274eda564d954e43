"""What `/rb sheet`, `/rb rolls`, `/rb odds` and `/rb verify` say, and what autocomplete offers, in Discord's words.

Read from the same projections and checks as `rollbook sheet`, `rolls`, `odds` and `verify`; a
character's sheet in the game's own sections (`Ruleset.sheets`, `projections/sheets.py`), as the terminal and the web show it.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from ..projections.sheets import sections
from ..commands.catalogue import commands_for
from .style import DISCORD_STYLE, Style
from .markup import escape_markdown, markdown_code
from .slash import MAX_CHOICES, TRAITS, _plain, move_named
from .words import CHOICE_LIMIT, Asked, member_choice, with_names

#: How a sheet's name appears when the live sheet has none.
UNNAMED = "?"


def _fit(text: str) -> str:
    return DISCORD_STYLE.fit(text)


def sheet_text(ruleset: str, kind: str, sheet: dict[str, Any], style: Style = DISCORD_STYLE) -> str:
    esc = style.escape
    head = f"{style.bold(esc(str(sheet.get('name', UNNAMED))))} · {kind}"
    if sheet.get("player"):
        head += f" · played by {esc(str(sheet['player']))}"
    lines = [head]
    for title, rows in sections(ruleset, kind, sheet):
        lines.append(f"{style.heading(esc(title))}: " + " · ".join(
            f"{esc(str(name))} {esc(str(value))}" for name, value in rows))
    return style.fit("\n".join(lines))


def rolls_text(campaign: str, rolls: list[dict[str, Any]]) -> str:
    if not rolls:
        return f"No rolls in {escape_markdown(campaign)} yet."
    lines = [f"The last {len(rolls)} rolls of {escape_markdown(campaign)}:"]
    for roll in rolls:
        source = f"nonce {roll['nonce']}" if roll.get("source") == "hmac" else str(roll.get("source", ""))
        who = escape_markdown(str(roll.get("character") or roll.get("actor")))
        lines.append(f"{markdown_code(str(roll['id']))} {who}: "
                     f"{escape_markdown(str(roll.get('text', '')))} → **{roll.get('outcome')}** ({source})")
    return _fit("\n".join(lines))


def odds_text(body: dict[str, Any], odds: dict[str, Any], style: Style = DISCORD_STYLE) -> str:
    esc = style.escape
    shown = " ".join(f"{k}={v}" for k, v in body.items() if k not in ("type", "actor"))
    lines = [f"Odds of {esc(str(body['type']))} {esc(shown)}".rstrip() + ":"]
    for outcome, fraction in odds.get("fractions", {}).items():
        lines.append(f"- {outcome.replace('_', ' ')}: {style.bold(f'{float(Fraction(fraction)):.1%}')} ({fraction})")
    if odds.get("compare"):
        compared = odds["compare"]
        if "refused" in compared:
            lines.append(f"With {esc(str(compared['fields']))}: refused, {esc(str(compared['refused']))}")
    lines.append(style.small("exact, as the rules would decide it now; nothing is rolled or written"))
    return style.fit("\n".join(lines))


def verify_text(campaign: str, report: Any, discord: Any | None) -> str:
    head = (f"**{escape_markdown(campaign)}**: {report.commands} commands chained (head `{report.head[:16]}…`), "
            f"{report.rolls_checked} rolls recomputed from {report.seeds_revealed} revealed seeds, "
            f"{len(report.unverifiable)} rolls not verifiable yet: ")
    lines = [head + ("**verified, no findings**" if report.ok else f"**{len(report.findings)} findings**")]
    lines += [f"- {escape_markdown(str(finding))}" for finding in report.findings[:5]]
    if discord is not None:
        lines.append(f"{discord.checked} commands posted through Discord, each signed by Discord for the member it "
                     "names" if not discord.findings else
                     f"Discord-posted commands: **{len(discord.findings)} findings**")
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
    everyone = [(f"{name} ({entry['kind']})", member_choice(campaign, entry["kind"], name))
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
        return _choices([(label, key) for key, label in schema["x-choices"].items()], typed)
    if plain.get("enum"):
        return _choices([(str(v).replace("_", " "), str(v)) for v in plain["enum"]], typed)
    if focused in TRAITS:
        given = with_names(request.options, campaign, members)
        owner = next((given[o] for o in TRAITS[focused] if given.get(o)), None)
        sheet = sheets.get(str(owner), {})
        traits = [name for part in ("abilities", "talents", "powers") for name in (sheet.get(part) or {})]
        return _choices([(t, t) for t in traits], typed)
    if schema.get("x-owned") and role == "player":  # a player acts only for his own
        own = [name for name, entry in members.items() if entry.get("player") == user]
        return _choices([(f"{name} ({members[name]['kind']})", member_choice(campaign, members[name]["kind"], name))
                         for name in own], typed)
    return _choices(everyone, typed)
