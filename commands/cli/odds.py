"""`rollbook odds`: the chance of each outcome of a command, before it is posted."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from . import CampaignOption, JsonOption, StoreOption, app, configure_logging, guarded, open_store, print_json


@app.command()
@guarded
def odds(
    type: Annotated[str, typer.Argument(help="The command's type, as `rollbook schema` lists it (roll_move, attack …).")],
    campaign: CampaignOption,
    words: Annotated[list[str] | None, typer.Argument(help="The command's fields as FIELD=VALUE words (character=Anna stat=audacity).")] = None,
    compare: Annotated[
        list[str] | None,
        typer.Option("--compare", help="FIELD=VALUE: a second column with this field changed (repeatable)."),
    ] = None,
    store: StoreOption = None,
    as_json: JsonOption = False,
) -> None:
    """The exact chance of each outcome of a command as the rules would decide it now; nothing is rolled or written.

    Takes the command as `rollbook post` does. A command the rules would refuse (not enough
    luck, out of turn, another player's character) is refused here, with exit status 1.
    """
    from ..service import Rollbook
    from .fields import parse_field_values

    configure_logging(writing=False)
    body = {**parse_field_values(words or []), "type": type}
    changed = parse_field_values(compare) if compare else None
    shown = Rollbook(open_store(store)).odds(campaign, body, compare=changed)
    if as_json:
        print_json(shown)
    else:
        _show(f"Odds of {type}", shown)


def _show(title: str, shown: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.table import Table

    other = shown.get("compare")
    table = Table(title=title)
    table.add_column("outcome")
    table.add_column("chance", justify="right")
    table.add_column("fraction", justify="right")
    if other is not None:
        table.add_column(" ".join(f"{k}={v}" for k, v in other["fields"].items()), justify="right")
    for name, chance in shown["outcomes"].items():
        row = [name, f"{chance:.1%}", shown["fractions"][name]]
        if other is not None:
            row.append(other.get("refused") or f"{other['outcomes'].get(name, 0.0):.1%}")
        table.add_row(*row)
    Console().print(table)
    for name, values in shown["distribution"].items():
        typer.echo(f"{name}: " + ", ".join(f"{value}: {chance:.1%}" for value, chance in values.items()))
