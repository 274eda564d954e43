"""Interactions as Discord signs them, with a test key standing in for Discord's, sent through the ASGI app."""

from __future__ import annotations

import itertools
import json
import time
from dataclasses import dataclass, field
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from rollbook.integrations.words import DISCORD_EPOCH_MS

#: Discord's key in these tests (a fixed one: failures are reproducible).
DISCORD_KEY = Ed25519PrivateKey.from_private_bytes(bytes(range(32)))
PUBLIC_KEY = DISCORD_KEY.public_key().public_bytes_raw().hex()
APPLICATION = "1100000000000000001"
GUILD = "1200000000000000001"
CHANNEL = "1300000000000000001"
#: Discord members: anna's, bo's and the GM's accounts, and one nobody linked.
MEMBERS = {"anna": "1400000000000000001", "bo": "1400000000000000002", "gm1": "1400000000000000003",
           "aud": "1400000000000000004", "stranger": "1400000000000000009"}
_sequence = itertools.count(1)


def snowflake(at: float | None = None) -> str:
    """An id as Discord makes one now (its time in the top bits), unique in the run."""
    millis = int((time.time() if at is None else at) * 1000) - DISCORD_EPOCH_MS
    return str((millis << 22) | (next(_sequence) & 0x3FFFFF))


def sign(body: bytes, timestamp: str | None = None, key: Ed25519PrivateKey = DISCORD_KEY) -> dict[str, str]:
    stamp = timestamp or str(int(time.time()))
    return {"X-Signature-Ed25519": key.sign(stamp.encode() + body).hex(), "X-Signature-Timestamp": stamp,
            "Content-Type": "application/json"}


def option(name: str, value: Any, focused: bool = False) -> dict[str, Any]:
    kind = 5 if isinstance(value, bool) else 4 if isinstance(value, int) else 3
    return {"type": kind, "name": name, "value": value, **({"focused": True} if focused else {})}


@dataclass
class Interaction:
    name: str
    options: list[dict[str, Any]] = field(default_factory=list)
    sub: str | None = None
    member: str = MEMBERS["anna"]
    channel: str = CHANNEL
    kind: int = 2
    id: str = field(default_factory=snowflake)
    #: The member's Discord language (`en-US`, `ru`), as Discord sends it with every interaction but a PING.
    locale: str | None = None

    @property
    def token(self) -> str:
        return f"token-{self.id}"

    def data(self) -> dict[str, Any]:
        options = [{"type": 1, "name": self.sub, "options": self.options}] if self.sub else self.options
        return {"id": self.id, "application_id": APPLICATION, "type": self.kind, "token": self.token, "version": 1,
                "guild_id": GUILD, "channel_id": self.channel, "channel": {"id": self.channel, "type": 11},
                "member": {"user": {"id": self.member, "username": f"user{self.member[-2:]}"}, "roles": []},
                "data": {"id": "1500000000000000001", "name": self.name, "type": 1, "options": options},
                **({"locale": self.locale} if self.locale else {})}

    def body(self) -> bytes:
        return json.dumps(self.data(), separators=(",", ":")).encode()


def rb(sub: str, **options: Any) -> Interaction:
    member = options.pop("member", MEMBERS["anna"])
    channel = options.pop("channel", CHANNEL)
    return Interaction("rb", [option(k, v) for k, v in options.items()], sub=sub, member=member, channel=channel)


def move(name: str, member: str = MEMBERS["anna"], **options: Any) -> Interaction:
    return Interaction(name, [option(k, v) for k, v in options.items()], member=member)


def send(client: Any, interaction: Interaction | bytes, headers: dict[str, str] | None = None) -> Any:
    body = interaction.body() if isinstance(interaction, Interaction) else interaction
    return client.post("/discord/interactions", content=body, headers=headers or sign(body))


#: A character of each ruleset but the pirates', as its `create_character` takes him (the player given apart).
HEROES_SPARK = {"type": "create_character", "name": "Spark", "role": "hero",
                "abilities": {"strength": 4, "agility": 5, "stamina": 5, "intellect": 3, "perception": 4, "will": 3},
                "powers": {"Energy Blast": {"rank": 7, "uses": ["attack"], "lethal": True}}}
IMPLANT_VERA = {"type": "create_character", "name": "Vera",
                "skills": {"fighting": "d4", "shooting": "d4", "driving": "d4", "healing": "d4", "research": "d4",
                           "notice": "d6", "hacking": "d6", "cybernetics": "d6"}}
GLADIATORS_MARCUS = {"type": "create_character", "name": "Marcus",
                     "attributes": {"Strength": "very_good", "Agility": "very_good", "Endurance": "good"},
                     "main_skill": "Fencing", "style": "offensive",
                     "signature_moves": {"Lunge": "attack", "Parry": "defence", "Pommel strike": "attack",
                                         "Sidestep": "defence"},
                     "skills": {"Wrestling": "expert", "Riding": "expert"},
                     "class_skill": {"name": "Shield", "applies_to": "defence"}, "motivation": 4}


def russian_pirates(table) -> None:
    """A pirate campaign `ru` whose group reads Russian (its option `language`), with Anna, anna's pirate."""
    assert table.post("gm1", {"type": "create_campaign", "ruleset": "pirates", "options": {"language": "ru"}},
                      campaign="ru").status_code == 201
    assert table.client.put("/campaigns/ru/members/anna", json={"role": "player"},
                            headers=table.headers("gm1")).status_code == 200
    assert table.post("gm1", {"type": "create_character", "name": "Anna", "player": "anna", "luck": 1,
                              "stats": {"audacity": 2, "guile": 1, "foresight": 0, "reputation": 0}},
                      campaign="ru").status_code == 201
