"""A salted roll bound to the campaign as its poster saw it (issue 36, item 5).

The attack: the seed holder sees a player's salt arrive, computes the faces at the next few nonces, and
slips 0–3 rolls of his own in first to move the player's roll to the nonce he likes. With `seen` (which
`rollbook post` fills), the player's command applies only to the campaign as he saw it: a roll slipped
in first gets the post refused, in words; applied, its faces are the ones his view fixed. `verify` finds
a command recorded after more commands than it saw.
"""

import json

from hypothesis import example, given, settings
from hypothesis import strategies as st

from rollbook.commands.parse import parse_command
from rollbook.commands.service import Rollbook
from rollbook.domain.dice import recompute_faces
from rollbook.domain.errors import CommandRejected
from rollbook.projections.queries import Reader
from rollbook.store import Store

from .conftest import HISTORY, rollbook


def table():
    store = Store.open("memory://")
    service = Rollbook(store)
    for line in HISTORY[:7]:  # the campaign, Anna and Bo, a chapter, a scene and a battle open
        service.execute(parse_command({"campaign": "audit", **line}, ruleset_of=service.ruleset_of))
    return store, service


def post(service, **fields):
    return service.execute(parse_command({"campaign": "audit", "type": "roll_move", **fields},
                                         ruleset_of=service.ruleset_of))


@settings(max_examples=100, deadline=None)
@given(slipped_in=st.integers(min_value=0, max_value=3), salt=st.text(st.characters(min_codepoint=32, max_codepoint=0x2FFF), min_size=1, max_size=40))
@example(slipped_in=0, salt="post 1041 lantern rope")
@example(slipped_in=1, salt="post 1041 lantern rope")
def test_rolls_slipped_in_before_a_salted_roll_move_nothing_the_post_is_refused(slipped_in, salt):
    store, service = table()
    campaign = service.campaign("audit")
    seen, nonce, commitment = campaign.seq, campaign.nonce, campaign.commitment
    for n in range(slipped_in):  # the seed holder's own unsalted rolls, after the salt arrived
        post(service, character="Bo", stat="guile", id=f"gm-{n}")
    try:
        applied = post(service, character="Anna", stat="guile", actor="player:anna", salt=salt, seen=seen, id="anna")
    except CommandRejected as refused:
        assert slipped_in > 0 and refused.field == "seen" and f"{slipped_in} came first" in refused.message
        return
    assert slipped_in == 0 and applied.status == "applied"
    seed = store.seeds.seed("audit", commitment)
    reader = Reader(store)
    reader.catch_up()
    roll = next(r for r in reader.rolls("audit") if r["id"] == "anna")
    assert roll["nonce"] == nonce and roll["faces"] == recompute_faces(seed, "audit", nonce, [6, 6], salt)


def test_rollbook_post_binds_its_salt_to_the_campaign_it_saw(tmp_path):
    url = f"sqlite:///{tmp_path / 'bound.db'}"
    lines = tmp_path / "history.jsonl"
    lines.write_text("\n".join(json.dumps({"campaign": "audit", **c}) for c in HISTORY[:7]) + "\n")
    rollbook("run", str(lines), store=url)
    posted = json.loads(rollbook("post", "roll_move", "character=Anna", "stat=guile", "--actor", "player:anna",
                                 "-c", "audit", "--json", store=url).stdout)
    logged = json.loads(rollbook("log", "-c", "audit", "--json", store=url).stdout)
    applied = next(e["data"] for e in logged if e["type"] == "CommandApplied" and e["data"]["command_id"] == posted["id"])
    assert applied["command"]["seen"] == 7 and applied["seq"] == 8
    late = rollbook("post", "roll_move", "character=Anna", "stat=guile", "seen=7", "--actor", "player:anna",
                    "-c", "audit", store=url, check=False)
    assert late.returncode == 1 and "seen: the campaign holds 8 commands, not the 7" in " ".join(late.stderr.split())
    assert rollbook("verify", "-c", "audit", store=url, check=False).returncode == 0
