"""How a Coin character's sheet reads (C1, C4): the coins left, and whose he is. Named by `Ruleset.sheets`:
the terminal, the pages and the forum lines show it in these sections, and list his coins."""

from __future__ import annotations

from typing import Any

from rollbook.domain.sheet_layout import Layouts, Sheet, fields

LAYOUTS: Layouts = {"character": ([("Coins", fields("coins")), ("Who", fields("player"))], {"name"})}


def key_figures(kind: str, sheet: Sheet) -> dict[str, Any]:
    return {"coins": sheet["coins"]}
