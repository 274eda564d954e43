"""Discord's interactions, signed with a test key standing in for Discord's, sent through the ASGI app:
PING, each slash command, autocomplete; and every refusal ephemeral, in words, writing nothing."""

import json
import time

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from rollbook.domain.dice import recompute_roll
from rollbook.domain.integrations import SignedInteraction, signed_interaction_id
from rollbook.integrations.members import Members

from .support import MEMBERS, Interaction, move, option, rb, sign

EPHEMERAL = 64


def content(answer):
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert body["type"] == 4, body
    return body["data"]["content"]


def ephemeral(answer):
    assert answer.json()["data"].get("flags") == EPHEMERAL, answer.json()
    return content(answer)


def test_a_ping_is_answered_with_a_pong(thread):
    answer = thread.send(Interaction("", kind=1))
    assert answer.status_code == 200 and answer.json() == {"type": 1}


def test_a_bad_signature_is_401_and_writes_nothing(thread):
    before = thread.stored()
    roll = move("pirates-move", character="Anna", stat="audacity")
    body = roll.body()
    forged = sign(body, key=Ed25519PrivateKey.from_private_bytes(bytes(32)))
    edited = sign(body)
    tampered = body.replace(b"audacity", b"guile   ")
    for raw, headers in ((body, forged), (tampered, edited), (body, {"Content-Type": "application/json"}),
                         (body, {**edited, "X-Signature-Ed25519": "zz"})):
        answer = thread.send(raw, headers)
        assert answer.status_code == 401, answer.text
        assert "signature" in answer.json()["error"]["reason"]
    assert thread.stored() == before


def test_a_timestamp_older_than_five_minutes_is_401_and_writes_nothing(thread):
    before = thread.stored()
    body = move("pirates-move", character="Anna", stat="audacity").body()
    for stamp in (str(int(time.time()) - 302), str(int(time.time()) + 400), "yesterday"):
        answer = thread.send(body, sign(body, timestamp=stamp))
        assert answer.status_code == 401 and "5 minutes" in answer.json()["error"]["reason"]
    assert thread.send(body, sign(body, timestamp=str(int(time.time()) - 250))).status_code == 200  # within: taken
    assert thread.stored() > before


def test_an_unlinked_member_is_told_how_to_link_and_nothing_is_written(thread):
    before = thread.stored()
    said = ephemeral(thread.send(move("pirates-move", member=MEMBERS["stranger"], character="Anna", stat="guile")))
    assert "not linked" in said and "rollbook users link-code" in said and MEMBERS["stranger"] in said
    assert thread.stored() == before


def test_an_unbound_channel_is_told_how_to_bind_and_nothing_is_written(thread):
    before = thread.stored()
    said = ephemeral(thread.send(rb("post", command="take_damage character=Anna harm=1", member=MEMBERS["gm1"],
                                    channel="1399999999999999999")))
    assert "not bound" in said and "rollbook discord bind CAMPAIGN --channel 1399999999999999999" in said
    assert thread.stored() == before


def test_a_player_acting_for_anothers_character_is_refused_and_nothing_is_written(thread):
    before = thread.stored()
    for interaction in (move("pirates-move", character="Bo", stat="guile"),
                        rb("post", command="roll_move character=Bo stat=guile"),
                        move("pirates-luck", character="Bo", purpose="roll_bonus")):
        said = ephemeral(thread.send(interaction))
        assert said.startswith("Refused") and "Bo" in said and "player:bo" in said
    assert thread.stored() == before


def test_a_member_without_a_role_in_the_campaign_is_refused(thread):
    Members(thread.table.state.store).link("carl", "1400000000000000005", by="test")
    said = ephemeral(thread.send(move("pirates-move", member="1400000000000000005", character="Anna", stat="guile")))
    assert "carl is not a member of bs" in said


def test_the_same_interaction_twice_is_answered_the_same_and_applied_once(thread):
    roll = move("pirates-move", character="Anna", stat="audacity", move="threaten_violence")
    first = content(thread.send(roll))
    stored = thread.stored()
    again = content(thread.send(roll))
    assert again == first and thread.stored() == stored and "`anna-1`" in again
    rolls = thread.table.get("gm1", "/campaigns/bs/rolls").json()
    assert [r["id"] for r in rolls].count("anna-1") == 1
    commands = thread.table.state.caught_up().commands("bs")
    assert [(c["id"], c["via"]) for c in commands if "via" in c] == [("anna-1", f"discord:{roll.id}")]


def test_gm_only_commands_and_fields_are_refused_to_a_player(thread):
    before = thread.stored()
    assert "Only the GM or an auditor" in ephemeral(thread.send(rb("undo", command="k4", reason="typo")))
    assert "Only the GM signs" in ephemeral(thread.send(rb("checkpoint")))
    said = ephemeral(thread.send(move("pirates-move", character="Anna", stat="audacity", disadvantage=True)))
    assert said.startswith("Refused") and "disadvantage" in said
    assert thread.stored() == before


def test_a_roll_is_salted_with_the_interaction_id_and_rolls_the_campaigns_own_dice(thread):
    roll = move("pirates-move", character="Anna", stat="guile")
    said = content(thread.send(roll))
    assert f"salt `{roll.id}`" in said and "campaign dice" in said
    [made] = [r for r in thread.table.get("anna", "/campaigns/bs/rolls").json() if r["id"] == "anna-1"]
    assert made["source"] == "hmac" and made["salt"] == roll.id
    seed = thread.table.state.store.seeds.seed("bs", made["commitment"])
    assert made["derivation"] == "salt+place" and recompute_roll(seed, "bs", made) == made["faces"]
    own = move("pirates-move", character="Anna", stat="guile", salt="my post 12")
    assert "salt `my post 12`" in content(thread.send(own))


def test_post_takes_the_words_of_rollbook_post(thread):
    said = content(thread.send(rb("post", command='take_damage character=Anna harm=2', member=MEMBERS["gm1"])))
    assert "Anna takes 2 harm" in said and "-# gm" in said
    quoted = content(thread.send(rb("post", member=MEMBERS["gm1"],
                                    command='start_scene "title=The long night" enemy=Navy')))
    assert "scene" in quoted
    for words, reason in (('roll_move "character=Anna', "do not split"), ("roll_move actor=gm character=Anna",
                                                                           "Discord gives this"), ("", "give the command")):
        assert reason in ephemeral(thread.send(rb("post", command=words)))


def test_sheet_rolls_odds_for_the_member_alone_unless_shown(thread):
    thread.send(move("pirates-move", character="Anna", stat="audacity"))
    sheet = thread.send(rb("sheet"))
    assert "**Anna** · character · played by anna" in ephemeral(sheet) and "audacity +2" in content(sheet)
    shown = thread.send(rb("sheet", character="Bo", show=True))
    assert "flags" not in shown.json()["data"] and "**Bo**" in content(shown)
    assert "Name the character" in ephemeral(thread.send(rb("sheet", member=MEMBERS["gm1"])))
    assert "`anna-1`" in ephemeral(thread.send(rb("rolls", count=5)))
    odds = ephemeral(thread.send(rb("odds", command="roll_move character=Anna stat=audacity")))
    assert "full success" in odds and "%" in odds
    assert "Refused" in ephemeral(thread.send(rb("odds", command="roll_move character=Bo stat=guile")))


def test_verify_answers_at_once_or_deferred_and_edited_in(thread):
    thread.send(move("pirates-move", character="Anna", stat="audacity"))
    assert "verified, no findings" in content(thread.send(rb("verify")))
    thread.app.state.discord.defer_after = 0  # work that takes longer than Discord waits
    check = rb("verify")
    answer = thread.send(check)
    assert answer.json() == {"type": 5}
    deadline = time.monotonic() + 20
    while check.token not in thread.fake.originals and time.monotonic() < deadline:
        time.sleep(0.05)
    said = thread.fake.originals[check.token]
    assert "verified, no findings" in said and "1 commands posted through Discord, each signed by Discord" in said


def test_undo_by_the_gm_is_a_ruling_edited_into_its_answer(thread):
    roll = move("pirates-move", character="Anna", stat="audacity")
    thread.send(roll)
    thread.mirror()
    thread.app.state.discord.defer_after = 0  # a ruling re-executes the history: it may take longer than Discord waits
    undo = rb("undo", command="anna-1", reason="wrong stat", member=MEMBERS["gm1"])
    assert thread.send(undo).json() == {"type": 5}
    deadline = time.monotonic() + 30
    while undo.token not in thread.fake.originals and time.monotonic() < deadline:
        thread.mirror()
        time.sleep(0.05)
    assert "revision 2" in thread.fake.originals[undo.token]
    assert thread.fake.channel("1300000000000000001") == []  # answered, each in its own interaction: not twice


def test_checkpoint_by_the_gm_is_a_c2sp_checkpoint_in_the_thread(thread):
    from rollbook.domain.checkpoint import TreeHead, parse

    said = content(thread.send(rb("checkpoint", member=MEMBERS["gm1"])))
    note = parse(said, where="the thread")
    root = thread.table.state.service.campaign("bs")
    assert isinstance(note, TreeHead) and "rollbook checkpoint" not in said  # issue 44: the old form no more
    assert note.campaign == "bs" and note.origin == "rollbook/bs" and note.signed_by(root.public_key)
    assert said == f"{said.split(chr(96) * 3)[0]}```\n{thread.table.get('gm1', '/campaigns/bs/log/checkpoint').text}```"


def test_a_member_links_himself_with_a_one_time_code(thread):
    members = Members(thread.table.state.store)
    code, _ = members.new_code("carl", by="test")
    carl = "1400000000000000007"
    assert "**carl**" in ephemeral(thread.send(rb("link", code=code, member=carl)))
    assert members.user_of(carl) == "carl"
    assert "used already" in ephemeral(thread.send(rb("link", code=code, member="1400000000000000008")))
    assert "not one Rollbook gave" in ephemeral(thread.send(rb("link", code="AAAA-BBBB-CCCC", member=carl)))


def test_the_signed_interaction_is_kept_with_its_command_and_a_refused_one_nowhere(thread):
    roll = move("pirates-move", character="Anna", stat="audacity")
    body = roll.body()
    thread.send(body, sign(body))
    app = thread.table.state.store.app
    [received] = app.events.get(signed_interaction_id(roll.id))
    assert isinstance(received, SignedInteraction.Received)
    assert received.body.encode() == body and received.command_id == "anna-1"
    refused = move("pirates-move", character="Bo", stat="audacity")
    thread.send(refused)
    assert list(app.events.get(signed_interaction_id(refused.id))) == []


def test_a_slow_command_is_deferred_and_the_mirror_edits_its_line_in(thread):
    thread.app.state.discord.defer_after = 0
    roll = move("pirates-move", character="Anna", stat="audacity")
    assert thread.send(roll).json() == {"type": 5}
    deadline = time.monotonic() + 20
    while roll.token not in thread.fake.originals and time.monotonic() < deadline:
        thread.mirror()
        time.sleep(0.05)
    assert "`anna-1`" in thread.fake.originals[roll.token]
    assert thread.fake.channel("1300000000000000001") == []


def autocomplete(thread, interaction):
    interaction.kind = 4
    answer = thread.send(interaction)
    assert answer.status_code == 200 and answer.json()["type"] == 8, answer.text
    return [c["value"] for c in answer.json()["data"]["choices"]]


def test_autocomplete_offers_a_player_his_own_characters_and_the_gm_everyone(thread):
    own = Interaction("pirates-move", [option("character", "", focused=True)])
    assert autocomplete(thread, own) == ["Anna"]
    everyone = Interaction("pirates-move", [option("character", "", focused=True)], member=MEMBERS["gm1"])
    assert autocomplete(thread, everyone) == ["Anna", "Bo"]
    moves = Interaction("pirates-move", [option("character", "Anna"), option("move", "threat", focused=True)])
    assert autocomplete(thread, moves) == ["threaten_violence"]
    sheets = Interaction("rb", [option("character", "b", focused=True)], sub="sheet")
    assert autocomplete(thread, sheets) == ["Bo"]
    recent = Interaction("rb", [option("command", "k", focused=True)], sub="undo", member=MEMBERS["gm1"])
    assert autocomplete(thread, recent)[:2] == ["k4", "k3"]
    stranger = Interaction("pirates-move", [option("character", "", focused=True)], member=MEMBERS["stranger"])
    assert autocomplete(thread, stranger) == []


def test_a_body_that_is_not_an_interaction_is_refused_in_words(thread):
    body = b"[1, 2]"
    assert thread.send(body, sign(body)).status_code == 400
    body = json.dumps({"type": 3, "id": "1"}).encode()
    assert ephemeral(thread.send(body, sign(body))).startswith("Rollbook answers")


def test_a_member_posting_too_fast_is_told_to_wait_and_nothing_is_written(thread):
    from rollbook.hosting.limits import RateLimit

    thread.table.state.rate_limit = RateLimit(per_minute=60, burst=1)
    assert "`anna-1`" in content(thread.send(move("pirates-move", character="Anna", stat="guile")))
    before = thread.stored()
    said = ephemeral(thread.send(move("pirates-move", character="Anna", stat="guile")))
    assert "more than 60 times a minute" in said and thread.stored() == before


def test_a_witness_named_with_markup_cannot_close_the_checkpoints_code_block(thread):
    """A cosignature is anyone's to send (a member's witness, named as the spec allows: backticks, brackets); the
    store publishes it, the thread's copy leaves its line out rather than let it end the block."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    from rollbook.domain.transparency.note import Verifier, cosign_with, parse_note

    key, name = Ed25519PrivateKey.from_private_bytes(bytes(range(32))), "w```@everyone[/code]"
    note = parse_note(thread.table.get("anna", "/campaigns/bs/log/checkpoint").text)
    sent = note.with_signatures([cosign_with(key, name, note.text, 1_790_000_000)])
    vkey = Verifier(name, 0x04, key.public_key().public_bytes_raw()).vkey
    taken = thread.table.client.post("/campaigns/bs/checkpoint/cosignatures", content=f"witness {vkey}\n\n{sent}",
                                     headers={**thread.table.headers("anna"), "Content-Type": "text/plain"})
    assert taken.status_code == 200 and name in thread.table.get("anna", "/campaigns/bs/log/checkpoint").text
    said = content(thread.send(rb("checkpoint", member=MEMBERS["gm1"])))
    assert name not in said and said.count("```") == 2 and "— rollbook/bs " in said
