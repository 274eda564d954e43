"""C2SP tlog-tiles paths (https://c2sp.org/tlog-tiles): where a log's checkpoint and tiles are read over HTTP.

    <prefix>/checkpoint                 the latest checkpoint (a signed note)
    <prefix>/tile/<L>/<N>[.p/<W>]       the tile at level L (0-63), index N; `.p/W`: its first W hashes (1-255)

N is written in groups of three digits, each but the last one prefixed with `x` (1234067 is
`x001/x234/067`); W has no leading zeroes. A tile at level L holds the hashes of the complete
subtrees of height 8L at indexes 256N … 256N+255, concatenated: a full tile never changes, so
it may be cached for good; a partial one is the prefix of what the full one will be.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

TILE_HEIGHT = 8
TILE_WIDTH = 1 << TILE_HEIGHT
MAX_LEVEL = 63
_GROUP = re.compile(r"x[0-9]{3}")
_LAST = re.compile(r"[0-9]{3}")
_WIDTH = re.compile(r"[1-9][0-9]{0,2}")


@dataclass(frozen=True)
class Tile:
    """A tile's coordinates: `width` is None for the full tile."""

    level: int
    index: int
    width: int | None = None

    @property
    def path(self) -> str:
        """Its path under the log's prefix, as the spec writes it."""
        n, groups = self.index, [f"{self.index % 1000:03d}"]
        while n >= 1000:
            n //= 1000
            groups.insert(0, f"x{n % 1000:03d}")
        partial = f".p/{self.width}" if self.width is not None else ""
        return f"tile/{self.level}/{'/'.join(groups)}{partial}"


def parse_tile_path(path: str) -> Tile | None:
    """The tile a path (`tile/L/N[.p/W]`) names, or None unless it is one written as the spec writes it."""
    parts = path.split("/")
    if len(parts) < 3 or parts[0] != "tile" or not re.fullmatch(r"0|[1-9][0-9]?", parts[1]):
        return None
    level, groups, width = int(parts[1]), parts[2:], None
    if len(groups) >= 2 and groups[-2].endswith(".p"):
        if not _WIDTH.fullmatch(groups[-1]):
            return None
        width, groups = int(groups[-1]), groups[:-2] + [groups[-2][:-2]]
    if level > MAX_LEVEL or (width is not None and width >= TILE_WIDTH):
        return None
    if not _LAST.fullmatch(groups[-1]) or not all(_GROUP.fullmatch(g) for g in groups[:-1]):
        return None
    index = int("".join(g.lstrip("x") for g in groups))
    tile = Tile(level, index, width)
    return tile if tile.path == path else None  # one spelling per tile: no `x000/` in front
