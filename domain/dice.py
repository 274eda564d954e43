"""Dice, shared by every rule system; a roll plan (`RollPlan`) lets a ruleset bring a kind of its own.

A roll is a small tree of typed results in which nothing is lost: dropped dice stay in
it marked as dropped, an exploded die keeps every face it showed (`6!6!2`). It prints the
way a forum roller would, e.g. ``2d6+2 = [5, 3] + 2 = 10``.

Faces come from a `FaceSource` that is always injected, never from the global `random`:

- `TypedFaces`: faces the players typed in from the forum's roller (a command's `dice`);
- `HmacFaces`: the campaign's provably fair source, HMAC-SHA256(seed, "campaign:nonce:cursor"),
  or, for a roll the player salted, "campaign:salted:place:cursor:salt" (`SALTED`: the roll's place in
  its command, never its nonce, so no roll made before it moves its faces), with rejection sampling,
  so anyone holding the revealed seed (and the recorded salt) can recompute every face;
- `SeededFaces`: a seeded pseudo-random source for tests and generated campaigns.

Order in which a command consumes faces, the one rule for every ruleset: the dice of a
pool first, then the re-rolls of its exploded dice round by round; a trait die (with its
aces) before the wild die (with its aces); the attacker's roll before the defender's;
damage dice in the order written.
"""

from __future__ import annotations

import hashlib
import hmac
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from .errors import Count, DiceError

if TYPE_CHECKING:
    import icepool


class FaceSource(Protocol):
    def face(self, sides: int) -> int:
        """The next face of a die with `sides` sides, 1..sides."""
        ...


class TypedFaces:
    """Faces given in a command, consumed in order; checked against each die."""

    def __init__(self, faces: Sequence[int], *, count_missing: bool = False) -> None:
        self.faces = list(faces)
        self.used = 0
        #: Go on rolling 1s past the faces given, to say at the end how many the command needs in all
        #: (an opposed attack needs the attacker's and the defender's): `check_all_used` then refuses.
        self.count_missing = count_missing

    @property
    def short(self) -> bool:
        return self.used > len(self.faces)

    def face(self, sides: int) -> int:
        if self.used >= len(self.faces):
            if self.count_missing:
                self.used += 1
                return 1  # the lowest face: it never explodes, so the count is the fewest needed
            raise DiceError(
                "the command rolls more dice than the {faces} faces given (face {used}, a d{sides}, is missing)",
                faces=len(self.faces), used=self.used + 1, sides=sides,
            )
        value = self.faces[self.used]
        if not 1 <= value <= sides:
            raise DiceError(
                "face {used} is {value}, impossible on a d{sides} (1..{sides})",
                used=self.used + 1, value=value, sides=sides,
            )
        self.used += 1
        return value

    def check_all_used(self) -> None:
        if self.short:
            raise DiceError(
                "the command rolls {used} dice (more if one explodes), but {given} given; give every face in the "
                "documented order (README, Dice order)",
                used=self.used, given=Count(len(self.faces), "{count} face was", "{count} faces were"),
            )
        if self.used != len(self.faces):
            raise DiceError(
                "{faces} faces given but the command rolled {used}", faces=len(self.faces), used=self.used
            )


class SeededFaces:
    """A reproducible pseudo-random source (tests, generated campaigns)."""

    def __init__(self, seed: int | str = 0) -> None:
        self.random = random.Random(seed)

    def face(self, sides: int) -> int:
        return self.random.randint(1, sides)


#: The longest salt a player may give a roll (README, "Verifiable dice").
MAX_SALT = 200


#: How a salted roll's faces are drawn, recorded with it as its `derivation`: from the seed, the campaign, the
#: salt and the roll's `place` in its command (1, 2, ...) alone, so nothing done before the roll lands (a roll
#: slipped in, a roll made and undone) moves them (issue 44). A roll recorded without it keeps the derivation
#: it was made with: its nonce ends the message, and the salt after it if it had one.
SALTED = "salt+place"


def _uniform_face(seed: bytes, message: Callable[[int], str], cursor: int, sides: int) -> tuple[int, int]:
    """One face from the HMAC blocks of `message(cursor)`, cursor after cursor; returns (face, next cursor).

    Each HMAC block gives a 64-bit number; numbers in the incomplete last bucket are
    rejected and the cursor moves on, so every face is exactly uniform (no modulo bias).
    """
    bound = (1 << 64) - (1 << 64) % sides
    while True:
        block = hmac.new(seed, message(cursor).encode(), hashlib.sha256).digest()
        cursor += 1
        number = int.from_bytes(block[:8], "big")
        if number < bound:
            return number % sides + 1, cursor


def hmac_face(
    seed: bytes, campaign: str, nonce: int, cursor: int, sides: int, salt: str | None = None,
) -> tuple[int, int]:
    """One face of a roll drawn at its nonce; returns (face, next cursor).

    A salt (the player's, unknown when the seed was committed) ends the message; an
    unsalted roll's message is the one it always was, so old stores recompute alike.
    """
    suffix = "" if salt is None else f":{salt}"
    return _uniform_face(seed, lambda cursor: f"{campaign}:{nonce}:{cursor}{suffix}", cursor, sides)


def salted_face(seed: bytes, campaign: str, place: int, cursor: int, sides: int, salt: str) -> tuple[int, int]:
    """One face of a salted roll (`SALTED`): the salt last, after numbers only, so no two salts share a message."""
    return _uniform_face(seed, lambda cursor: f"{campaign}:salted:{place}:{cursor}:{salt}", cursor, sides)


class HmacFaces:
    """The faces of one roll from the campaign's committed seed: at its nonce, or, salted and given its
    `place` in its command, by the salt alone (`SALTED`)."""

    def __init__(
        self, seed: bytes, campaign: str, nonce: int, salt: str | None = None, place: int | None = None,
    ) -> None:
        self.seed, self.campaign, self.nonce, self.salt, self.place = seed, campaign, nonce, salt, place
        self.cursor = 0

    def face(self, sides: int) -> int:
        if self.place is not None and self.salt is not None:
            value, self.cursor = salted_face(self.seed, self.campaign, self.place, self.cursor, sides, self.salt)
        else:
            value, self.cursor = hmac_face(self.seed, self.campaign, self.nonce, self.cursor, sides, self.salt)
        return value


def recompute_faces(
    seed: bytes, campaign: str, nonce: int, sides: Sequence[int], salt: str | None = None, place: int | None = None,
) -> list[int]:
    """The faces a roll of dice of the given sizes must have shown under `seed` (and its salt, and its place)."""
    source = HmacFaces(seed, campaign, nonce, salt, place)
    return [source.face(s) for s in sides]


def recompute_roll(seed: bytes, campaign: str, roll: Mapping[str, Any]) -> list[int]:
    """The faces a recorded roll of the campaign's dice must show, by the derivation it was recorded with (a
    record whose marker, place or salt was edited gives other faces: a finding, never a crash)."""
    place = roll.get("place") if roll.get("derivation") == SALTED else None
    return recompute_faces(seed, campaign, roll["nonce"], roll["sides"], roll.get("salt"), place)


@dataclass(frozen=True)
class Die:
    """One die of a roll; an exploded die keeps every face it showed."""

    sides: int
    faces: tuple[int, ...]
    kept: bool = True

    @property
    def total(self) -> int:
        return sum(self.faces)

    def __str__(self) -> str:
        text = "!".join(str(f) for f in self.faces)
        return text if self.kept else f"~~{text}~~"


@dataclass(frozen=True)
class Modifier:
    """A named number added to a roll (a stat, a wound, luck, a helper...)."""

    source: str
    value: int

    def as_dict(self) -> dict[str, int | str]:
        return {"source": self.source, "value": self.value}


@dataclass(frozen=True)
class Roll:
    """A finished roll: its dice (dropped and exploded ones included), modifiers and total.

    `dice_value` is what the dice count for: their kept sum for most rolls, the number of
    successes for a success pool, the better of trait and wild die for a trait check.
    """

    notation: str
    dice: tuple[Die, ...]
    dice_value: int
    modifiers: tuple[Modifier, ...] = field(default_factory=tuple)

    @property
    def total(self) -> int:
        return self.dice_value + sum(m.value for m in self.modifiers)

    def __str__(self) -> str:
        dice = ", ".join(str(d) for d in self.dice)
        mods = "".join(
            f" {'+' if m.value >= 0 else '-'} {abs(m.value)}" for m in self.modifiers if m.value
        )
        return f"{self.notation} = [{dice}]{mods} = {self.total}"


def roll_pool(source: FaceSource, count: int, sides: int, *, explode: bool = False) -> list[Die]:
    """Roll `count` dice; exploding dice re-roll their maximum round by round."""
    faces = [[source.face(sides)] for _ in range(count)]
    if explode:
        live = [i for i in range(count) if faces[i][-1] == sides]
        while live:
            for i in live:
                faces[i].append(source.face(sides))
            live = [i for i in live if faces[i][-1] == sides]
    return [Die(sides, tuple(f)) for f in faces]


def keep(dice: Sequence[Die], count: int, *, highest: bool) -> list[Die]:
    """Mark all but the `count` highest (or lowest) dice as dropped; order is kept."""
    ranked = sorted(range(len(dice)), key=lambda i: dice[i].total, reverse=highest)
    kept = set(ranked[:count])
    return [Die(d.sides, d.faces, i in kept) for i, d in enumerate(dice)]


@dataclass(frozen=True)
class SumDice:
    """What a sum roll will throw, decided before any die is cast: NdX (keep K) + modifiers.

    The rules roll it (`roll`) and the odds enumerate it (`totals`), so the chance a player
    is shown is the chance of the very roll the rules would make, modifiers and all.
    """

    count: int
    sides: int
    modifiers: tuple[Modifier, ...] = ()
    keep_highest: int | None = None
    keep_lowest: int | None = None

    def roll(self, source: FaceSource) -> Roll:
        return sum_roll(
            source, self.count, self.sides, self.modifiers,
            keep_highest=self.keep_highest, keep_lowest=self.keep_lowest,
        )

    @property
    def notation(self) -> str:
        keep = f"kh{self.keep_highest}" if self.keep_highest is not None else (
            f"kl{self.keep_lowest}" if self.keep_lowest is not None else "")
        return f"{self.count}d{self.sides}{keep}"

    @property
    def bonus(self) -> int:
        return sum(m.value for m in self.modifiers)

    def totals(self) -> icepool.Die:
        """The total's distribution: NdX keep K, plus the modifiers."""
        import icepool  # only the odds enumerate: a command that rolls does not load it

        if self.count == 0:
            return icepool.Die([self.bonus])
        pool = icepool.d(self.sides).pool(self.count)
        if self.keep_highest is not None:
            kept = pool.highest(self.keep_highest)
        elif self.keep_lowest is not None:
            kept = pool.lowest(self.keep_lowest)
        else:
            kept = pool
        return kept.sum() + self.bonus


class RollPlan(Protocol):
    """What a roll will throw, decided before any die is cast: any dice kind, NdX (`SumDice`) or not
    (a ruleset's own, declared in its package: 4dF, say).

    The rules roll it (`roll`) and the odds enumerate it (`totals`, domain/odds.py), so the chance shown
    is the chance of the very roll made. Its faces come from the `FaceSource` alone, each a face 1..sides
    of a die of `sides` sides (what a face counts for is the plan's: a die drawn as a d3 may read -1, 0, +1),
    so the draws a roll records replay it (`TypedFaces`) and `rollbook verify` recomputes them from the
    revealed seed, whatever the kind.
    """

    @property
    def notation(self) -> str: ...

    @property
    def modifiers(self) -> tuple[Modifier, ...]: ...

    def roll(self, source: FaceSource) -> Roll: ...

    def totals(self) -> icepool.Die: ...


@dataclass(frozen=True)
class Judged:
    """A roll and how the rules read its total: `judge` names the outcome, one of `outcomes`."""

    dice: RollPlan
    judge: Callable[[int], str]
    outcomes: tuple[str, ...]


def sum_roll(
    source: FaceSource,
    count: int,
    sides: int,
    modifiers: Sequence[Modifier] = (),
    *,
    keep_highest: int | None = None,
    keep_lowest: int | None = None,
    explode: bool = False,
) -> Roll:
    """NdX (keep highest/lowest K) plus modifiers: the sum of the kept dice."""
    dice = roll_pool(source, count, sides, explode=explode)
    notation = f"{count}d{sides}{'!' if explode else ''}"
    if keep_highest is not None:
        dice, notation = keep(dice, keep_highest, highest=True), f"{notation}kh{keep_highest}"
    elif keep_lowest is not None:
        dice, notation = keep(dice, keep_lowest, highest=False), f"{notation}kl{keep_lowest}"
    return Roll(notation, tuple(dice), sum(d.total for d in dice if d.kept), tuple(modifiers))
