"""Rollbook's slash commands, as Discord's application commands API takes them, and back into commands.

`/rb` holds the verbs every game shares (subcommands): `post` (the words of `rollbook post`),
`sheet`, `odds`, `rolls`, `undo`, `verify`, `checkpoint` and `link`. Beside it, each ruleset's
common moves (`Ruleset.common_moves`) are commands of their own (`/<ruleset>-<short>`), made from the
move's command model: its fields are the options, a field with a few values offers them as choices, one
with more than Discord's 25 (a book of moves, a character's traits) and every character a
command names are completed as one types (autocomplete, from the live sheet: a player is offered
his own characters only). Options are typed as the model's fields are (a number as INTEGER, a flag
as BOOLEAN), so what Discord sends is the command's body as `rollbook post` would make it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..commands.catalogue import commands_for
from ..domain.rulesets import available, ruleset
from ..domain.options import ENGLISH, LANGUAGES
from ..language import N_, gettext, speaking, spoken
from ..projections.narration import words

# Discord's application command option types (application-commands#application-command-object).
SUB_COMMAND, STRING, INTEGER, BOOLEAN, NUMBER = 1, 3, 4, 5, 10
#: Chat input: a slash command.
CHAT_INPUT = 1
#: Installed in a server, used in its channels (not in direct messages).
GUILD_INSTALL, GUILD_CONTEXT = 0, 0
MAX_CHOICES = 25
MAX_OPTIONS = 25
#: Discord's limits on names, descriptions and a command's combined characters.
NAME_LENGTH, DESCRIPTION_LENGTH, COMBINED_LENGTH = 32, 100, 4000

#: Fields every command has that a slash command does not offer: the interaction gives them.
LEFT_OUT = {"type", "campaign", "actor", "id", "at", "dice"}
#: Fields naming one of the campaign's characters, ships or enemies: completed from the roster.
NAMES = {"character", "attacker", "helper", "target", "enemy", "opponent", "to", "ship", "patient", "healer"}
#: Fields naming a trait of a character another option names: completed from that character's sheet.
TRAITS = {"trait": ("character", "attacker", "helper"), "defence_trait": ("target",), "opponent_trait": ("opponent",)}


@dataclass(frozen=True)
class Move:
    """A ruleset's move as a slash command."""

    name: str
    ruleset: str
    command_type: str


def _first_line(text: str | None, default: str) -> str:
    return (text or default).strip().split("\n", 1)[0].strip() or default


def _short(text: str | None, default: str) -> str:
    first = _first_line(text, default)
    return first if len(first) <= DESCRIPTION_LENGTH else first[: DESCRIPTION_LENGTH - 1] + "…"


def localized(english: str, key: str = "description_localizations", prefix: str = "") -> dict[str, dict[str, str]]:
    """Discord's localizations of a name or description (`{key: {"ru": …}}`, Discord's locale for Russian): its
    translation where the catalog has one, cut to Discord's limit; nothing where it has none (Discord then shows
    the English to everyone)."""
    said = {}
    for language in LANGUAGES:
        if language != ENGLISH:
            with speaking(language):
                translated = gettext(english)
            if translated != english:
                said[language] = _short(prefix + translated, english)
    return {key: said} if said else {}


def moves() -> list[Move]:
    """Every installed ruleset's common moves (a command its ruleset lacks is left out)."""
    return [Move(f"{name}-{short}", name, command_type)
            for name in available() for short, command_type in ruleset(name).common_moves
            if command_type in commands_for(name)]


def book_label(ruleset_name: str, key: str, label: str) -> str:
    """A move of the game's book as the language spoken names it: the book's own words (`Ruleset.move_book`,
    the original's for Russian), else `label`."""
    if spoken() == ENGLISH:  # the label as the command's schema gives it, as it always read
        return label
    game = ruleset(ruleset_name)
    entry = next((entries[key] for entries in (game.move_book() if game.move_book else {}).values()
                  if key in entries), {})
    return str(entry.get(spoken()) or label)


def move_named(name: str) -> Move | None:
    return next((m for m in moves() if m.name == name), None)


def _plain(schema: dict[str, Any]) -> dict[str, Any]:
    """A field's schema without its `null` alternative (an optional field)."""
    options = [s for s in schema.get("anyOf", []) if s.get("type") != "null"]
    return {**schema, **options[0]} if options else schema


def move_options(move: Move) -> list[dict[str, Any]]:
    model = commands_for(move.ruleset)[move.command_type][0]
    schema = model.model_json_schema()
    required = set(schema.get("required", []))
    options: list[dict[str, Any]] = []
    for name, field in schema["properties"].items():
        if name in LEFT_OUT:
            continue
        plain = _plain(field)
        kind = {"string": STRING, "integer": INTEGER, "boolean": BOOLEAN, "number": NUMBER}.get(plain.get("type", ""))
        if kind is None:
            continue  # a list or an object: `/rb post` takes those as JSON words
        option: dict[str, Any] = {"type": kind, "name": name, "description": _short(field.get("description"), name),
                                  **localized(field.get("description") or name), "required": name in required}
        if kind == STRING:
            enum = plain.get("enum")
            if enum and len(enum) <= MAX_CHOICES:
                option["choices"] = [{"name": words(str(value)), "value": value,
                                      **localized(words(str(value)), "name_localizations")} for value in enum]
            elif enum or name in NAMES or name in TRAITS or "x-choices" in field:
                option["autocomplete"] = True
            if "maxLength" in plain and "choices" not in option:
                option["max_length"] = plain["maxLength"]
        elif kind in (INTEGER, NUMBER):
            for bound, key in (("minimum", "min_value"), ("maximum", "max_value")):
                if bound in plain:
                    option[key] = plain[bound]
        options.append(option)
    options.sort(key=lambda o: not o["required"])  # Discord wants the required options first
    return options[:MAX_OPTIONS]


def _string(name: str, description: str, *, required: bool = False, **more: Any) -> dict[str, Any]:
    return {"type": STRING, "name": name, "description": _short(description, name), **localized(description),
            "required": required, **more}


def _sub(name: str, description: str, *options: dict[str, Any]) -> dict[str, Any]:
    return {"type": SUB_COMMAND, "name": name, "description": description, **localized(description),
            "options": list(options)}


def _optional(kind: int, name: str, description: str, **more: Any) -> dict[str, Any]:
    return {"type": kind, "name": name, "description": description, **localized(description), "required": False,
            **more}


WORDS = N_("The command as `rollbook post` takes it: TYPE FIELD=VALUE … (roll_move character=Anna stat=audacity)")


def rb_subcommands() -> list[dict[str, Any]]:
    """`/rb`'s subcommands: the descriptions in English, and in each other language the catalog has them in."""
    return [
        _sub("post", N_("Post a command, in the words of `rollbook post`"),
             _string("command", WORDS, required=True, max_length=2000)),
        _sub("sheet", N_("A character's sheet (yours, if you leave it out)"),
             _string("character", N_("Whose sheet"), autocomplete=True),
             _optional(BOOLEAN, "show", N_("Show it in the thread, not only to you"))),
        _sub("odds", N_("The chance of each outcome of a command, before you post it"),
             _string("command", WORDS, required=True, max_length=2000)),
        _sub("rolls", N_("The campaign's last rolls"),
             _string("character", N_("Only this character's rolls"), autocomplete=True),
             _optional(INTEGER, "count", N_("How many (10 unless given)"), min_value=1, max_value=25)),
        _sub("undo", N_("Take a command back (GM or auditor): a ruling that drops it"),
             _string("command", N_("The command's id"), required=True, autocomplete=True),
             _string("reason", N_("Why it is taken back"), required=True, max_length=2000)),
        _sub("verify", N_("Check the campaign's record: its chain, its dice, every stored event")),
        _sub("checkpoint", N_("Sign the campaign's log now (a C2SP checkpoint), into the thread (GM)")),
        _sub("link", N_("Link your Discord account to your Rollbook user with a code the GM gave you"),
             _string("code", N_("The one-time code (`rollbook users link-code NAME`)"), required=True, max_length=40)),
    ]


RB = N_("Rollbook: post, read and check the campaign bound to this thread")


def application_commands() -> list[dict[str, Any]]:
    """Every slash command, as `PUT /applications/{id}/commands` takes them (bulk overwrite), with Discord's
    `description_localizations` (and a choice's `name_localizations`) where the catalog says them in Russian."""
    common = {"type": CHAT_INPUT, "contexts": [GUILD_CONTEXT], "integration_types": [GUILD_INSTALL]}
    commands = [{"name": "rb", "description": RB, **localized(RB), "options": rb_subcommands(), **common}]
    for move in moves():
        model = commands_for(move.ruleset)[move.command_type][0]
        doc = _first_line(model.__doc__, move.name)
        # The catalog holds the whole docstring (its N_ message); its translation's first line is the description.
        commands.append({"name": move.name, "description": _short(f"{move.ruleset}: {doc}", move.name),
                         **localized(model.__doc__ or move.name, prefix=f"{move.ruleset}: "),
                         "options": move_options(move), **common})
    return commands


def combined_length(command: dict[str, Any], locale: str | None = None) -> int:
    """What Discord counts against a command's 4,000 characters: names, descriptions, choices; in `locale`, each
    as that locale's localization gives it (Discord holds the largest locale's count to the limit)."""
    def said(node: dict[str, Any], key: str) -> str:
        return str(node.get(f"{key}_localizations", {}).get(locale) or node.get(key, ""))

    total = len(said(command, "name")) + len(said(command, "description"))
    for option in command.get("options", []):
        total += combined_length(option, locale)
        total += sum(len(said(c, "name")) + len(str(c["value"])) for c in option.get("choices", []))
    return total


def body_of(move: Move, options: list[dict[str, Any]]) -> dict[str, Any]:
    """The command a move's options make: its type, and each option given as the field of its name."""
    return {"type": move.command_type, **{o["name"]: o["value"] for o in options if "value" in o}}
