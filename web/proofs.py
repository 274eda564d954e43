"""A roll's proof badge: recomputed from its revealed seed, pending until its chapter ends, or typed elsewhere.

The same recomputation `rollbook verify` makes, for one roll, so the roll log can say beside
each roll whether anyone can check it yet.
"""

from __future__ import annotations

from typing import Any

from ..domain.revisions import REVISION_MARK
from ..domain.dice import SALTED, recompute_roll
from ..language import N_, gettext

#: The badges' states, said in words on the pages (the state itself is the class the page styles).
STATES = (N_("verified"), N_("mismatch"), N_("pending"), N_("unverifiable"), N_("typed"))


def proof_of(roll: dict[str, Any], campaign: str, revealed: dict[str, str]) -> dict[str, str]:
    """`state` (verified, mismatch, pending, unverifiable, typed) and the words the badge shows."""
    source = roll.get("source")
    if source == "typed":
        return {"state": "typed", "words": gettext("typed: rolled elsewhere (the forum's roller)")}
    if source != "hmac":
        return {"state": "unverifiable",
                "words": gettext("from {source}: no seed to check it against").format(source=source)}
    if roll.get("abandoned"):
        return {"state": "unverifiable", "words": gettext("its seed was lost and abandoned: it can never be checked")}
    seed_hex = revealed.get(roll.get("commitment", ""))
    if seed_hex is None:
        return {"state": "pending",
                "words": gettext("campaign dice: checkable once the chapter ends and its seed is revealed")}
    root = campaign.split(REVISION_MARK, 1)[0]
    expected = recompute_roll(bytes.fromhex(seed_hex), root, roll)
    if expected != roll["faces"]:
        return {"state": "mismatch",
                "words": gettext("does NOT match its seed, which gives {expected}").format(expected=expected)}
    drawn = (gettext("its salt, roll {place} of its command").format(place=roll.get("place"))
             if roll.get("derivation") == SALTED else gettext("nonce {nonce}").format(nonce=roll["nonce"]))
    return {"state": "verified", "words": gettext("recomputed from the revealed seed ({drawn})").format(drawn=drawn)}
