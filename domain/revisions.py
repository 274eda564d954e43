"""A campaign's revisions as stored keys (`tortuga`, `tortuga@r2`): names only, so a reader that
names a revision does not import the Campaign aggregate and its event classes."""

from __future__ import annotations

REVISION_MARK = "@r"


def revision_key(campaign: str, revision: int) -> str:
    """Where revision N of a campaign is stored: the name itself for the first."""
    return campaign if revision == 1 else f"{campaign}{REVISION_MARK}{revision}"


def revision_of(key: str) -> int:
    """The revision a stored key holds (`revision_key` read back)."""
    _, mark, number = key.partition(REVISION_MARK)
    return int(number) if mark else 1


def spoken(key: str) -> str:
    """A stored key as the user is told it: `tortuga@r2` is "revision 2 of tortuga", the first is its name."""
    root, mark, number = key.partition(REVISION_MARK)
    return f"revision {number} of {root}" if mark else key
