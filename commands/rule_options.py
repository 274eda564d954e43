"""Rule-option validation for a new campaign: the options its creator chose, against those its ruleset
declares and those every table may set."""

from __future__ import annotations

from typing import Any

from ..domain.errors import CommandRejected
from ..domain.options import LANGUAGES
from ..domain.rulesets import Ruleset

#: Options every campaign may set whatever its rules (the table's, not the game's), with their types or
#: their values.
TABLE_OPTIONS: dict[str, type | tuple[str, ...]] = {
    "require_salt": bool, "players_undo_rolls": bool, "language": LANGUAGES,
}
#: What each table option does, as `rollbook schema` says it (CreateCampaign's `options`).
TABLE_OPTIONS_SAID: dict[str, str] = {
    "require_salt": "true: a player's roll of the campaign's dice without a salt is refused.",
    "players_undo_rolls": "true: a player may undo his own command that rolled the campaign's dice (undone, "
    "its next post rolls anew); by default only the GM (or an auditor) may.",
    "language": "\"en\" or \"ru\", default \"en\": the language of the lines its group reads together, "
    "`rollbook line`, the mirror, webhooks.",
}


def refuse_unknown_options(rules: Ruleset, options: dict[str, Any]) -> None:
    """Refuse an option neither the ruleset nor the table knows, and a table option of the wrong type."""
    unknown = set(options) - set(rules.default_options) - set(TABLE_OPTIONS)
    if unknown:
        raise CommandRejected(
            "unknown rule options {unknown} for {ruleset} (known: {known})", field="options",
            unknown=sorted(unknown), ruleset=rules.name, known=sorted({*rules.default_options, *TABLE_OPTIONS}) or "none",
        )
    for name, kind in TABLE_OPTIONS.items():
        if name not in options:
            continue
        if isinstance(kind, tuple) and options[name] not in kind:
            raise CommandRejected("option {name} is one of {kinds}, not {value!r}", field="options", name=name,
                                  kinds=", ".join(kind), value=options[name])
        if isinstance(kind, type) and not isinstance(options[name], kind):
            raise CommandRejected("option {name} is {kind}, not {value!r}", field="options", name=name,
                                  kind=kind.__name__, value=options[name])


def chosen_options(rules: Ruleset, options: dict[str, Any]) -> dict[str, Any]:
    """The campaign's options: the ruleset's defaults with the chosen ones over them, checked by its rules."""
    chosen = {**rules.default_options, **options}
    rules.options.check(chosen)
    return chosen
