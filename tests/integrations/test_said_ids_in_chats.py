"""Ids a person can say for Discord's posts (issue 45): `anna-7`, the interaction kept in the command's `via`; and
commands recorded before `via`, under `discord-<interaction id>`, still verified, checked and answered."""

import copy
import dataclasses

from rollbook.commands.parse import parse_command
from rollbook.domain.integrations import SignedInteraction
from rollbook.integrations.provenance import check_discord
from rollbook.integrations.words import command_body
from rollbook.replay.verify import verify
from rollbook.hosting.posting import post_command
from rollbook.store.unit_of_work import StoringAlso

from .support import CHANNEL, MEMBERS, PUBLIC_KEY, move, rb, sign
from .test_interactions import content, ephemeral


def posted_before_via(state, user, interaction, key):
    """What the chat path stored before `via`: the command under the request's key as its id, what the chat delivered
    in its transaction (the code of then, kept here as it was: records it wrote must keep reading the same)."""
    headers = sign(interaction.body())
    signed = SignedInteraction(interaction_id=interaction.id, body=interaction.body().decode(),
                               signature=headers["X-Signature-Ed25519"], timestamp=headers["X-Signature-Timestamp"],
                               command_key="bs", command_id=key)
    with state.writing("bs"):
        service = copy.copy(state.service)
        service.unit = StoringAlso(state.service.unit, signed)
        post_command(dataclasses.replace(state, service=service), "bs", user, key, None, command_body(interaction.data()))


def commands(thread):
    return thread.table.state.caught_up().commands("bs")


def test_a_discord_post_gets_an_id_a_person_can_say_and_its_signed_interaction_still_proves_it(thread):
    first, second = (move("pirates-move", character="Anna", stat=stat) for stat in ("audacity", "guile"))
    assert "`anna-1`" in content(thread.send(first)) and "`anna-2`" in content(thread.send(second))
    assert "`gm1-1`" in content(thread.send(rb("post", command="take_damage character=Anna harm=1",
                                               member=MEMBERS["gm1"])))
    posted = {c["id"]: c.get("via") for c in commands(thread)}
    assert posted["anna-1"] == f"discord:{first.id}" and posted["anna-2"] == f"discord:{second.id}"
    assert all(via is None for name, via in posted.items() if name.startswith("k"))  # the GM's own posts: no via
    checked = check_discord(thread.table.state.store, "bs", ["bs"], PUBLIC_KEY)
    assert checked.checked == 3 and checked.findings == []
    assert thread.table.post("gm1", {"type": "end_chapter"}).status_code == 201  # reveals the seed
    report = verify(thread.table.state.store.app, "bs")
    assert report.ok and report.rolls_checked == 2


def test_a_refused_discord_post_spends_no_number(thread):
    said = ephemeral(thread.send(move("pirates-move", character="Bo", stat="guile")))
    assert said.startswith("Refused") and "player:bo" in said
    assert "`anna-1`" in content(thread.send(move("pirates-move", character="Anna", stat="guile")))


def test_a_command_recorded_before_via_still_verifies_checks_and_is_answered_as_before(thread):
    old = move("pirates-move", character="Anna", stat="audacity")
    posted_before_via(thread.table.state, "anna", old, f"discord-{old.id}")
    [record] = [c for c in commands(thread) if c["id"] == f"discord-{old.id}"]
    assert "via" not in record
    stored = thread.stored()
    # The mirror finds its interaction by its id (no `via`): its line is edited into the interaction, not posted.
    thread.fake.tokens.add(old.token)
    thread.app.state.mirror.grace = 0
    thread.mirror()
    assert f"`discord-{old.id}`" in thread.fake.originals[old.token] and thread.fake.channel(CHANNEL) == []
    # Discord delivers it again after the upgrade: the same command, nothing stored, no short id given.
    again = content(thread.send(old))
    assert f"`discord-{old.id}`" in again and thread.stored() == stored
    assert "`anna-1`" in content(thread.send(move("pirates-move", character="Anna", stat="guile")))
    checked = check_discord(thread.table.state.store, "bs", ["bs"], PUBLIC_KEY)
    assert checked.checked == 2 and checked.findings == []
    assert thread.table.post("gm1", {"type": "end_chapter"}).status_code == 201
    report = verify(thread.table.state.store.app, "bs")
    assert report.ok and report.rolls_checked == 2


def test_no_poster_says_a_command_came_from_a_chat(thread):
    before = thread.stored()
    answer = thread.table.post("anna", {"type": "roll_move", "character": "Anna", "stat": "guile",
                                        "via": "discord:1579000000000000000"})
    assert answer.status_code == 422 and answer.json()["error"]["field"] == "body.via", answer.text
    words = ephemeral(thread.send(rb("post", command="roll_move character=Anna stat=guile via=discord:1")))
    assert words.startswith("Refused") and "via" in words and "Discord gives this" in words
    assert thread.stored() == before


def test_two_commands_saying_they_came_from_one_interaction_are_caught(thread):
    roll = move("pirates-move", character="Anna", stat="guile")
    thread.send(roll)
    service = thread.table.state.service
    with thread.table.state.writing("bs"):  # the store's operator, writing a second command for the same interaction
        service.execute(parse_command({"type": "roll_move", "campaign": "bs", "id": "anna-2", "actor": "player:anna",
                                       "character": "Anna", "stat": "guile", "salt": "forged",
                                       "via": f"discord:{roll.id}"}, ruleset_of=service.ruleset_of))
    findings = check_discord(thread.table.state.store, "bs", ["bs"], PUBLIC_KEY).findings
    assert {f.command for f in findings} == {"anna-2"}
    assert f"interaction {roll.id}, which posted command anna-1" in findings[0].problem
