"""Writing a long campaign with the engine itself as the referee (`Ruleset.generator`).

A generator may keep its own model of the sheets; one for a rule system with many rules (health
tracks, wound levels, aces, initiative) had better propose commands and let Rollbook decide: every command is applied to an in-memory store first
and kept only if the rules accept it. The dice of each kept command are the faces it
actually rolled, written into its `dice` (typed in, as from the forum's roller), so the
real run makes exactly the same decisions and the file applies without a refusal.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from rollbook.bootstrap import open_store, service_for
from rollbook.commands.parse import CommandError, parse_command
from rollbook.domain.campaign import Campaign
from rollbook.domain.errors import CommandRejected
from rollbook.testing.generated import Campaign as GeneratedCampaign


class _Recording:
    """Faces from a seeded random source, remembered in the order the rules consume them."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.faces: list[int] = []

    def face(self, sides: int) -> int:
        value = self.rng.randint(1, sides)
        self.faces.append(value)
        return value


class _Supply:
    def __init__(self, rng: random.Random) -> None:
        self.source = _Recording(rng)

    def source_for(self, campaign: Campaign) -> tuple[_Recording, dict[str, Any]]:
        return self.source, {"source": "typed"}

    def finish(self) -> None:
        """Every face drawn was used: nothing to refuse."""


class Oracle:
    """An in-memory campaign that takes a proposed command only if the rules accept it."""

    def __init__(self, campaign: str, size: int, seed: int) -> None:
        self.campaign = campaign
        self.size = size
        self.rng = random.Random(seed)
        self._dice_rng = random.Random(seed * 7919 + 1)
        self.commands: list[dict[str, Any]] = []
        self.clock = datetime(2019, 1, 1, 20, 0, tzinfo=UTC)
        self.store = open_store("memory://")
        self._supply: _Supply | None = None
        self.service = service_for(self.store, dice_for=self._dice)

    def _dice(self, command: Any) -> _Supply:
        self._supply = _Supply(self._dice_rng)
        return self._supply

    @property
    def full(self) -> bool:
        return len(self.commands) >= self.size

    def offer(self, type_: str, **fields: Any) -> bool:
        """Apply the command if the rules accept it and keep it; False if refused (nothing kept)."""
        if self.full:
            return False
        at = self.clock + timedelta(minutes=self.rng.randint(3, 600))
        data = {"type": type_, "campaign": self.campaign, "id": f"post-{len(self.commands) + 1}", **fields}
        self._supply = None
        try:
            command = parse_command({**data, "at": at.isoformat()}, ruleset_of=self.service.ruleset_of)
            self.service.execute(command)
        except (CommandError, CommandRejected):
            return False
        if self._supply is not None and self._supply.source.faces:
            data["dice"] = self._supply.source.faces
        data["at"] = at.isoformat()
        self.clock = at
        self.commands.append(data)
        return True

    def first(self, *candidates: tuple[str, dict[str, Any]]) -> bool:
        """Offer candidates in order until one is accepted."""
        return any(self.offer(type_, **fields) for type_, fields in candidates)

    def get(self, cls: Any, name: str) -> Any:
        """A member's aggregate as the rules now see it (None if unknown)."""
        return self.service.load(cls.id_for(self.campaign, name))

    def campaign_state(self) -> Any:
        """The campaign aggregate as the rules now see it (its initiative, its page)."""
        return self.service.load(Campaign.create_id(self.service.key_for(self.campaign)))

    def actor_of(self, member: Any) -> str:
        """Who posts for a member: its player, or the GM for one without."""
        return f"player:{member.player}" if member.player else "gm"

    def play(self, stretch: Callable[[int], None], generator: str) -> list[dict[str, Any]]:
        """Play stretches (a story, a day: `stretch(number)`) until the campaign is full; its commands.

        A stretch the rules refused whole would repeat for ever: that is the generator's bug, said.
        """
        number = 0
        try:
            while not self.full:
                number += 1
                before = len(self.commands)
                stretch(number)
                if len(self.commands) == before:
                    raise RuntimeError(f"the {generator} generator is stuck: the rules refused every command it proposed")
        finally:
            self.close()
        return self.commands

    def close(self) -> None:
        self.store.close()


class OracleWriter:
    """What a generator that proposes commands to an `Oracle` starts with: the game, its random
    numbers, and its characters (aggregates of `member`) as the rules now see them."""

    def __init__(self, ruleset: str, size: int, seed: int, member: type, *, cast: int = 0) -> None:
        self.ruleset, self.member = ruleset, member
        self.game = Oracle(f"bench-{ruleset}", size, seed)
        self.rng = self.game.rng
        #: The characters it plays now (a team, a troupe, a crew), `cast_size` at the most: a new one joins and the
        #: one longest in it leaves (retired, moved away: still on the roster).
        self.cast: list[str] = []
        self.cast_size = cast
        self.numbers: Counter[str] = Counter()

    def numbered(self, kind: str) -> int:
        """The next number for a new character of `kind` (`Hero` 1, 2, ...): every name it makes is new."""
        self.numbers[kind] += 1
        return self.numbers[kind]

    def enlist(self, name: str, **sheet: Any) -> None:
        """Offer a new character for the cast: created, he joins it, and past `cast_size` the first in it leaves."""
        if self.game.offer("create_character", name=name, **sheet):
            self.cast.append(name)
            if len(self.cast) > self.cast_size:
                self.cast.pop(0)

    def play_with_cast(self, join: Callable[[], None], stretch: Callable[[int], None],
                       generator: str) -> list[dict[str, Any]]:
        """Make the cast (`join` once for each of it), then play stretch after stretch (`Oracle.play`); its commands.
        A cast the rules refused whole is the generator's bug, said."""
        for _ in range(self.cast_size):
            join()
        if not self.cast:
            raise RuntimeError(f"the {generator} generator's characters were refused by the rules")
        return self.game.play(stretch, generator)

    def write(self) -> list[dict[str, Any]]:
        """The commands of the whole campaign: each generator's own."""
        raise NotImplementedError

    def campaign(self, *, sheet: str, rolled_by: str) -> GeneratedCampaign:
        """The campaign it writes, as the benchmarks and the tests take it (`Campaign.played`)."""
        return GeneratedCampaign.played(self.ruleset, self.write(), sheet=sheet, rolled_by=rolled_by)

    def who(self, name: str) -> Any:
        return self.game.get(self.member, name)

    def actor(self, name: str) -> str:
        return self.game.actor_of(self.who(name))

