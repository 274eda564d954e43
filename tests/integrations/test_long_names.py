"""Issue 46, 3: a name a Discord choice cannot carry whole (over 100 characters; names of up to 200 were always
taken, so records keep them) is offered by the character's id, read back as the name when the move is posted
and when `verify --discord-key` holds the record to the signed interaction. Before, the choice held the name cut
to 100 characters, which named nobody."""

from rollbook.domain.ids import member_id
from rollbook.integrations.provenance import check_discord
from rollbook.integrations.words import CHOICE_LIMIT

from .support import MEMBERS, PUBLIC_KEY, Interaction, move, option
from .test_interactions import content
from tests.server.conftest import ANNA

LONG = "Anna " + "the Unsinkable, " * 9 + "of Tortuga"  # 150 characters
TWIN = LONG[:-1] + "!"  # the same first 149: cut to 100, the two were one choice


def choices(thread, member, typed=""):
    asked = Interaction("pirates-move", [option("character", typed, focused=True)], member=member, kind=4)
    answer = thread.send(asked)
    assert answer.status_code == 200, answer.text
    return answer.json()["data"]["choices"]


def test_a_long_name_is_offered_by_its_id_and_posted_under_the_whole_name(thread):
    table = thread.table
    for name, player in ((LONG, "anna"), (TWIN, "bo")):
        assert table.post("gm1", {**ANNA, "name": name, "player": player}).status_code == 201
    offered = choices(thread, MEMBERS["anna"])
    assert all(len(c["name"]) <= CHOICE_LIMIT and len(c["value"]) <= CHOICE_LIMIT for c in offered)
    by_value = {c["value"]: c["name"] for c in offered}
    long_id = "id:" + member_id("bs", "character", LONG).hex
    assert list(by_value) == ["Anna", long_id] and by_value[long_id].startswith("Anna the Unsinkable")
    gm_values = [c["value"] for c in choices(thread, MEMBERS["gm1"], "unsinkable")]
    assert gm_values == [long_id, "id:" + member_id("bs", "character", TWIN).hex]

    posted = content(thread.send(move("pirates-move", character=long_id, stat="guile")))
    assert "`anna-1`" in posted
    [roll] = [r for r in table.get("gm1", "/campaigns/bs/rolls").json() if r.get("character") == LONG]
    assert roll["character"] == LONG
    # Bo's player cannot reach Anna's long-named pirate through the id either.
    refused = content(thread.send(move("pirates-move", member=MEMBERS["bo"], character=long_id, stat="guile")))
    assert refused.startswith("Refused") and "player:bo cannot act for" in refused
    checked = check_discord(table.state.store, "bs", ["bs"], PUBLIC_KEY)
    assert checked.checked == 1 and checked.findings == []
    assert table.post("gm1", {"type": "end_chapter"}).status_code == 201  # the seed revealed: the roll recomputed
    verified = table.get("gm1", "/campaigns/bs/verify").json()["bs"]
    assert verified["findings"] == [] and verified["rolls_checked"] >= 1, verified
