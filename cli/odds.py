"""`rollbook odds`: the chance of each outcome of a command, before it is posted."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from . import N_, gettext, ngettext, say, CampaignOption, JsonOption, StoreOption, app, configure_logging, guarded, print_json, fail
from .opening import chosen, open_store, remote_client, serving


@app.command()
@guarded
def odds(
    type: Annotated[str, typer.Argument(help=N_("The command's type, as `rollbook schema` lists it (roll_move, attack …)."))],
    words: Annotated[list[str] | None, typer.Argument(help=N_("The command's fields as FIELD=VALUE words (character=Anna stat=audacity)."))] = None,
    campaign: CampaignOption = None,
    compare: Annotated[
        list[str] | None,
        typer.Option("--compare", help=N_("FIELD=VALUE: a second column with this field changed (repeatable).")),
    ] = None,
    actor: Annotated[str | None, typer.Option(
        "--actor", help=N_("Ask as this actor (gm, player:NAME, auditor:NAME): a GM sees a player's odds as the "
                           "player would, refusals included. With --server, the signed-in user."))] = None,
    store: StoreOption = None,
    as_json: JsonOption = False,
) -> None:
    """The exact chance of each outcome of a command as the rules would decide it now; nothing is rolled or written.

    Takes the command as `rollbook post` does. A command the rules would refuse (not enough
    luck, out of turn, another player's character) is refused here, with exit status 1.
    """
    from ..bootstrap import service_for
    from ..commands.field_values import parse_field_values

    body = {**parse_field_values(words or []), "type": type}
    if actor is not None:
        if "actor" in body:
            fail(gettext("actor is given twice: as --actor and as actor="))
        body["actor"] = actor
    changed = parse_field_values(compare) if compare else None
    if serving(store):  # the server decides as the token's user (POST /campaigns/{c}/odds)
        shown = _remote_odds(remote_client(store), chosen(campaign, store), body, changed)
    else:
        configure_logging(writing=False)
        shown = service_for(open_store(store)).odds(chosen(campaign, store), body, compare=changed)
    if as_json:
        print_json(shown)
    else:
        _show(gettext("Odds of {type}").format(type=type), shown)


def _remote_odds(remote: Any, campaign: str, body: dict[str, Any], compare: dict[str, Any] | None) -> dict[str, Any]:
    from .remote import refusal

    # Asking the odds writes nothing: no Idempotency-Key.
    answer = remote.request("POST", remote.campaign_path(campaign, "/odds"), body={"command": body, "compare": compare})
    if answer.status_code >= 400:
        raise refusal(answer)
    shown: dict[str, Any] = answer.json()
    return shown


#: Values of a distribution rarer than this are left out of the table (`--json` has them all).
SHOWN_AT_LEAST = 0.0005


def changed_fields(fields: dict[str, Any]) -> str:
    """`--compare luck_bonus=true harm=2` in words: "luck bonus: yes, harm: 2"."""
    from ..domain.sheet_layout import said

    return ", ".join(f"{words(name)}: {gettext(said(value))}" for name, value in fields.items())


def words(name: str) -> str:
    return name.replace("_", " ")


def percent(chance: float) -> str:
    """A chance as the reader writes it: `12.5%` in English, as it always was; by CLDR otherwise (`12,5 %`)."""
    from . import settings

    if settings.language == "en":
        return f"{chance:.1%}"
    from babel import Locale
    from babel.numbers import format_percent

    # The language's own percent pattern (`#,##0 %` in Russian), to one decimal as the English.
    pattern = Locale.parse(settings.language).percent_formats[None].pattern.replace("0", "0.0", 1)
    return format_percent(chance, pattern, locale=settings.language)


def decimal(value: float, *, signed: bool = False) -> str:
    """An expected number to two decimals, as the reader writes it (`1.25` in English, `1,25` in Russian)."""
    from . import settings

    if settings.language == "en":
        return f"{value:+.2f}" if signed else f"{value:.2f}"
    from babel.numbers import format_decimal

    return format_decimal(value, "+#,##0.00;-#,##0.00" if signed else "#,##0.00", locale=settings.language)


def _show(title: str, shown: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    other = shown.get("compare")
    table = Table(title=title)
    table.add_column(gettext("outcome"))
    table.add_column(gettext("chance"), justify="right")
    table.add_column(gettext("fraction"), justify="right")
    if other is not None:
        table.add_column(gettext("with {fields}").format(fields=changed_fields(other["fields"])), justify="right")
    refused = other.get("refused") if other is not None else None
    for name, chance in shown["outcomes"].items():
        row = [gettext(words(name)), percent(chance), shown["fractions"][name]]
        if other is not None:
            row.append(gettext("refused") if refused else percent(other["outcomes"].get(name, 0.0)))
        table.add_row(*row)
    console.print(table)
    if refused:  # once, under the table, not in every row
        say(gettext("with {fields}: refused: {reason}").format(fields=changed_fields(other["fields"]), reason=refused))
    if "tactics" in shown:
        tactics = Table(title=gettext("every tactic (best: {tactic})").format(tactic=gettext(shown["best_tactic"])))
        for column in ("tactic", "hit", "breached", "expected dealt", "expected taken", "expected net"):
            tactics.add_column(gettext(column), justify="left" if column == "tactic" else "right")
        for tactic, odds in shown["tactics"].items():
            tactics.add_row(gettext(tactic), percent(odds["hit"]), percent(odds["breached"]), decimal(odds["expected_dealt"]),
                            decimal(odds["expected_taken"]), decimal(odds["expected_net"], signed=True))
        console.print(tactics)
    modifiers = shown.get("modifiers")
    if isinstance(modifiers, dict):
        modifiers = [dict(m, source=f"{side}: {m['source']}") for side, listed in modifiers.items() for m in listed]
    if modifiers:
        say(gettext("modifiers: ") + ", ".join(f"{gettext(m['source'])} {m['value']:+d}" for m in modifiers))
    for pool in shown.get("pools", []):
        parts = ", ".join(f"{source} {dice:+d}" for source, dice in pool["pool"])
        pool_said = ngettext("{count} dice", "{count} dice", pool["count"]).format(count=pool["count"]) + (
            gettext(" exploding") if pool["explode"] else "")
        say(f"{pool['character']} ({gettext(pool['role'])}): {pool_said} ({parts})")
    for name, values in shown["distribution"].items():
        common = [f"{value}: {percent(chance)}" for value, chance in values.items() if chance >= SHOWN_AT_LEAST]
        rare = "" if len(common) == len(values) else gettext(", … (rarer ones in --json)")
        say(f"{gettext(name)}: " + ", ".join(common) + rare)
