"""The campaign's log as C2SP tlog-tiles (https://c2sp.org/tlog-tiles): a client fetches the checkpoint and the
tiles, and builds any proof itself (`domain/transparency/tiles.py` names the paths).

    GET /campaigns/{c}/log/checkpoint              revision 1's log (origin `[HOST/]rollbook/C`)
    GET /campaigns/{c}/log/tile/L/N[.p/W]
    GET /campaigns/{c}/log/rN/checkpoint           revision N's log (origin `[HOST/]rollbook/C/rN`), N >= 2
    GET /campaigns/{c}/log/rN/tile/L/N[.p/W]

One prefix per log, as its origin names it: a ruling's revision is a log of its own, so a full tile, which never
changes, is cached for good under its path. For whoever may read the campaign, like every read.
"""

from __future__ import annotations

import re
from typing import Annotated

from fastapi import APIRouter, Depends, Path, Request
from fastapi.responses import PlainTextResponse, Response

from ..domain.errors import UnknownName
from ..domain.transparency.tiles import TILE_WIDTH, parse_tile_path
from ..store.tlog import HASH
from ..hosting.accounts import Membership
from ..hosting.refusals import Refusal
from .transparency import member_of

router = APIRouter(prefix="/campaigns/{campaign}/log", tags=["transparency log"])
#: Full tiles never change; a partial tile of a given width neither (it is the prefix the full one grows from).
FOREVER = "private, max-age=31536000, immutable"
_REVISION = re.compile(r"r([1-9][0-9]{0,5})")
ANSWERS = {
    200: {"description": "`checkpoint`: the C2SP checkpoint now, text. A tile: its hashes, 32 bytes each, "
                         "application/octet-stream (`Cache-Control: immutable`).",
          "content": {"text/plain": {"schema": {"type": "string"}},
                      "application/octet-stream": {"schema": {"type": "string", "format": "binary"}}}},
    404: {"description": "not a path of the spec, a revision the campaign does not have, or a tile (of that "
                         "width) the log does not hold yet"},
}


@router.get("/{path:path}", responses=ANSWERS)
def log_path(request: Request, path: Annotated[str, Path(description="`checkpoint`, `tile/L/N[.p/W]`, or either "
                                                                     "after `rN/` for revision N's log")],
             member: Membership = Depends(member_of)) -> Response:
    """A path of C2SP tlog-tiles under the log's prefix: its checkpoint (with every cosignature witnesses sent),
    or a tile (full, or partial with `.p/W`). A client builds inclusion and consistency proofs from them."""
    from ..replay.transparency import open_log, published

    revision, rest = 1, path
    first, _, after = path.partition("/")
    if _REVISION.fullmatch(first) and int(first[1:]) >= 2:
        revision, rest = int(first[1:]), after
    store = request.app.state.rollbook.store
    try:
        if rest == "checkpoint":
            return PlainTextResponse(str(published(store, member.campaign, revision=revision).note),
                                     headers={"Cache-Control": "no-cache"})
        tile = parse_tile_path(rest)
        if tile is None:
            raise Refusal("not_found", "path", f"{path!r} is not a tlog-tiles path (checkpoint, tile/L/N[.p/W])")
        data = open_log(store, member.campaign, revision).tree.tile(tile.level, tile.index)
    except UnknownName as error:
        raise Refusal("not_found", error.field, error.message) from None
    width = TILE_WIDTH if tile.width is None else tile.width
    if len(data) < width * HASH:
        raise Refusal("not_found", "path", f"the log holds {len(data) // HASH} hashes of tile {tile.level}/{tile.index}, "
                                     f"not {width}")
    return Response(data[:width * HASH], media_type="application/octet-stream", headers={"Cache-Control": FOREVER})
