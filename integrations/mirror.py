"""The mirror: every command and checkpoint of a bound campaign, posted into its thread (and to its webhooks).

`rollbook serve` runs one `Mirror` on a thread of its own. Its outbox is the store's log: each
command's `CommandApplied` (and the checkpoint its chapter's end signed), written in the
command's own transaction by whatever made it (the CLI, the web, the API, Discord). For each
lane (a target and a campaign, `store/outbox.py`) it reads the entries after the lane's cursor, in
order, and sends them one at a time; a failure stops the lane there, to be tried again after a
backoff (doubling to `max_backoff`), or after the `retry_after` of Discord's 429 (a global one
pauses every Discord lane). Nothing is skipped, so a thread reads the campaign in order.

What is not sent: the copies a dispute re-executes into its new revision (already sent, in the
revision they were played in; the ruling itself is sent), and what came before a lane's binding.
A command posted through Discord is the interaction's answer: answered at once, it is not sent
again; deferred, or not known to be answered (the server stopped in between), its answer is
edited in (`PATCH …/messages/@original`, which cannot make a second message), and only if that
is refused (the interaction's token expired) is it posted as a message.

A message may reach a target twice only if the process stops between sending it and recording
it: the ledger's `sending` says so when the lane is taken up again, the message is sent again,
and counted (`resent`); Discord's `enforce_nonce` drops such a repeat within a few minutes.
"""

from __future__ import annotations

import json
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from eventsourcing.utils import get_topic

from ..domain.campaign import Campaign
from ..domain.revisions import revision_key
from ..domain.ids import campaign_id
from ..domain.integrations import interaction_of, signed_interaction_id
from ..store import Store
from ..store.logs import Log
from ..store.outbox import Lane, Outbox, outbox_for
from ..store.port import position_of
from ..store.reads import events_of, latest_first, logged
from .config import Keeper, Settings, keeper_for
from .discord_api import DiscordAPI, DiscordError, RateLimited
from .lines import Told, discord_message, told
from .members import Bindings, Members
from .outbound import Reach
from .telegram import TELEGRAM
from .telegram.bot import TelegramTarget, Unsent
from .telegram.config import telegram_keeper
from .webhook import WebhookError, WebhookTarget

log = Log("rollbook.mirror")
APPLIED = get_topic(Campaign.CommandApplied)
ADOPTED = get_topic(Campaign.RevisionAdopted)
DISCORD = "discord"
TELEGRAM_TARGET = "telegram"
#: How long a command posted through Discord may wait for its interaction's answer to be recorded.
ANSWER_GRACE_SECONDS = 10.0
#: Entries read from the log at a time.
PAGE = 200
#: The revisions a record is looked for in (a campaign disputed more often than this is not mirrored past it).
MAX_REVISIONS = 10_000


class Stop(Exception):
    """The lane cannot go on now (a failure, a wait): the next pass takes it up again."""


@dataclass
class Mirror:
    store: Store
    keeper: Keeper
    wake: Callable[[int, float], int] | None = None
    #: Where webhooks may send (`outbound.py`): checked again at every delivery.
    reach: Reach = field(default_factory=Reach)
    backoff: float = 1.0
    max_backoff: float = 300.0
    lease: float = 15.0
    poll: float = 1.0
    grace: float = ANSWER_GRACE_SECONDS
    owner: str = field(default_factory=lambda: f"mirror-{secrets.token_hex(6)}")
    outbox: Outbox = field(init=False)
    _paused_until: float = field(default=0.0, init=False)
    _thread: threading.Thread | None = field(default=None, init=False)
    _stopping: threading.Event = field(default_factory=threading.Event, init=False)
    _keys: dict[Any, tuple[str | None, int]] = field(default_factory=dict, init=False)
    _adoptions: dict[tuple[str, int], int] = field(default_factory=dict, init=False)
    #: Sheets' key figures by (aggregate, version), kept from one message to the next (`lines.told`).
    _figures: dict[Any, Any] = field(default_factory=dict, init=False)

    def __post_init__(self) -> None:
        self.outbox = outbox_for(self.store, self.store.kind)
        self.members = Members(self.store)
        self._bindings = Bindings()
        self.telegram = Members(self.store, TELEGRAM)
        self._telegram_bindings = Bindings()
        self.telegram_keeper = telegram_keeper(self.store)
        self._apis: dict[tuple[str, str | None], DiscordAPI] = {}

    # --- the thread -------------------------------------------------------------------------

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="rollbook-mirror", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stopping.set()
        if self._thread is not None:
            self._thread.join(timeout=30)
        for api in self._apis.values():
            api.close()

    def _run(self) -> None:
        seen = 0
        while not self._stopping.is_set():
            try:
                busy = self.run_once()
            except Exception as error:  # noqa: BLE001 - the store went away: said, and tried again
                log.error("mirror.failed", problem=f"{type(error).__name__}: {error}")
                busy = False
            if busy:
                continue
            if self.wake is not None:
                seen = self.wake(seen, self.poll)
            else:
                self._stopping.wait(self.poll)

    # --- one pass ---------------------------------------------------------------------------

    def lanes(self, settings: Settings) -> list[tuple[Lane, Callable[[Told, Lane], bool]]]:
        """Every lane to deliver now: each bound campaign's thread (Discord) and chat (Telegram), each webhook; made
        where new."""
        found = []
        for binding in self.members.bindings(self._bindings).values():
            found.append((self._bound_lane(DISCORD, binding), self._to_discord(settings, binding.channel)))
        telegram = self.telegram_keeper.load()
        if telegram.bot_token:
            for binding in self.telegram.bindings(self._telegram_bindings).values():
                target = TelegramTarget(telegram, binding.channel)
                found.append((self._bound_lane(TELEGRAM_TARGET, binding), target.send))
        for webhook in settings.webhooks:
            target = WebhookTarget(webhook, self.reach)
            found.append((self.outbox.lane(f"webhook:{webhook.id}", webhook.campaign, webhook.since), target.send))
        return found

    def _bound_lane(self, target: str, binding: Any) -> Lane:
        lane = self.outbox.lane(target, binding.campaign, binding.since)
        if lane.cursor < binding.since:  # bound again, or elsewhere: what came before is not mirrored
            lane = self.outbox.update(lane, cursor=binding.since, sending=None, attempts=0, next_at=0.0)
        return lane

    def run_once(self) -> bool:
        """Deliver what each lane can now; whether anything was delivered (then look again at once)."""
        settings = self.keeper.load()
        delivered = False
        now = time.time()
        for lane, send in self.lanes(settings):
            if lane.next_at > now or (lane.target == DISCORD and self._paused_until > now):
                continue
            if not self.outbox.claim(lane, self.owner, now, self.lease):
                continue  # another server delivers it
            delivered |= self._deliver(lane, send, settings)
        return delivered

    def _deliver(self, lane: Lane, send: Callable[[Told, Lane], bool], settings: Settings) -> bool:
        """Send the lane's entries in order until one fails; whether any was sent. `send` says whether it made a
        new message (an answer edited in cannot make a second one, so sending it again is no repeat)."""
        delivered = False
        deadline = time.monotonic() + self.lease / 2  # keep within the lease taken
        head = self.store.head()
        for position, key, record in self.entries(lane.campaign, lane.cursor):
            if time.monotonic() > deadline or self._stopping.is_set():
                break
            if key is None:  # a copy of a dispute's new revision, or a command of another campaign's key
                lane = self.outbox.update(lane, cursor=position)
                continue
            message = told(self.store, key, record, position, settings.proof_base, self._figures)
            again = lane.sending == position
            lane = self.outbox.update(lane, sending=position)
            try:
                created = send(message, lane)
            except Stop:
                lane = self.outbox.update(lane, sending=lane.sending if again else None)
                break
            except RateLimited as limited:
                self._failed(lane, limited, again, retry_after=limited.retry_after)
                if limited.is_global:
                    self._paused_until = time.time() + limited.retry_after
                break
            except (DiscordError, WebhookError, Unsent) as error:
                if error.status == 400 and lane.attempts >= 2:  # refused as it is, three times: never deliverable
                    lane = self.outbox.update(lane, cursor=position, sending=None, dropped=lane.dropped + 1,
                                              attempts=0, last_error=str(error), last_error_at=_now())
                    log.error("mirror.dropped", target=lane.target, campaign=lane.campaign, position=position,
                              problem=str(error))
                    continue
                self._failed(lane, error, again)
                break
            lane = self.outbox.update(lane, cursor=position, sending=None, attempts=0, next_at=0.0,
                                      delivered=lane.delivered + 1, resent=lane.resent + (1 if again and created else 0))
            delivered = True
        else:  # all sent: what follows in the log is other campaigns', not read again at the next pass
            if head > lane.cursor:
                self.outbox.update(lane, cursor=head)
        return delivered

    def _failed(self, lane: Lane, error: DiscordError | WebhookError | Unsent, again: bool,
                retry_after: float | None = None) -> None:
        wait = retry_after if retry_after is not None else min(self.max_backoff, self.backoff * 2 ** lane.attempts)
        # Discord answered: the message was not taken. A transport error leaves that open: sent again, it is counted.
        sending = lane.sending if (error.status is None or again) else None
        self.outbox.update(lane, sending=sending, attempts=lane.attempts + 1, next_at=time.time() + wait,
                           last_error=str(error), last_error_at=_now())
        log.info("mirror.retry", target=lane.target, campaign=lane.campaign, attempt=lane.attempts + 1,
                 wait=round(wait, 3), problem=str(error))

    # --- the outbox's entries: the campaign's records in the log ------------------------------

    def entries(self, campaign: str, after: int) -> Any:
        """(position, revision key or None for one not to send, CommandApplied) of `campaign` after `after`."""
        for position, originator, _, record in logged(self.store, start=after, page=PAGE, topics=(APPLIED,)):
            if record.command.get("campaign") != campaign:  # every record names its campaign (copies too)
                continue
            key, revision = self._key_of(originator, campaign)
            copy = key is None or (revision > 1 and position < self._adopted_at(campaign, revision))
            yield position, (None if copy else key), record

    def _key_of(self, originator: Any, campaign: str) -> tuple[str | None, int]:
        """Which revision of `campaign` a record of it is in: its key and number."""
        if originator not in self._keys:
            self._keys[originator] = next(
                ((revision_key(campaign, n), n) for n in range(1, MAX_REVISIONS + 1)
                 if campaign_id(revision_key(campaign, n)) == originator), (None, 0))  # another aggregate's: not sent
        return self._keys[originator]

    def _adopted_at(self, campaign: str, revision: int) -> int:
        """The position where `campaign` adopted `revision` (its copies are stored before it, in the ruling's transaction)."""
        if (campaign, revision) not in self._adoptions:
            root = campaign_id(campaign)
            for adopted in latest_first(self.store, root, ADOPTED, page=None):
                if adopted.revision == revision:
                    self._adoptions[(campaign, revision)] = int(position_of(self.store, root, adopted.originator_version) or 0)
                    break
            else:
                return 0
        return self._adoptions[(campaign, revision)]

    # --- Discord ----------------------------------------------------------------------------

    def _api(self, settings: Settings) -> DiscordAPI:
        key = (settings.api, settings.bot_token)
        if key not in self._apis:
            self._apis[key] = DiscordAPI(settings.api, settings.bot_token)
        return self._apis[key]

    def _to_discord(self, settings: Settings, channel: str) -> Callable[[Told, Lane], bool]:
        api = self._api(settings)

        def send(message: Told, lane: Lane) -> bool:
            content = discord_message(message)
            interaction = interaction_of(message.command_id, message.via)
            if interaction is not None and self._as_answer(api, lane, message, interaction, content):
                return False
            api.create_message(channel, content, nonce=_nonce(lane.campaign, message))
            return True

        return send

    def _as_answer(self, api: DiscordAPI, lane: Lane, message: Told, interaction: str, content: str) -> bool:
        """Deliver a Discord-posted command as its interaction's answer; False if it must be posted instead."""
        how = self.outbox.mark_of(lane.campaign, message.command_id)
        if how == "answered":
            return True
        if how is None and _age(message) < self.grace:
            raise Stop  # its answer may be on its way: wait for it to be recorded
        signed = self._signed(interaction)
        if signed is None:
            return False
        try:
            api.edit_original(str(signed.get("application_id")), str(signed.get("token")), content)
        except RateLimited:
            raise
        except DiscordError as error:
            if error.status in (401, 403, 404):  # the token expired (15 minutes): post it as a message
                return False
            raise
        return True

    def _signed(self, interaction: str) -> dict[str, Any] | None:
        aggregate = None
        for event in events_of(self.store, signed_interaction_id(interaction)):
            aggregate = event.mutate(aggregate)
        return json.loads(aggregate.body) if aggregate is not None else None


def _nonce(campaign: str, message: Told) -> str:
    import hashlib

    return "rb" + hashlib.sha256(f"{campaign}:{message.position}:{message.command_id}".encode()).hexdigest()[:23]


def _age(message: Told) -> float:
    try:
        return time.time() - datetime.fromisoformat(message.at).timestamp()
    except ValueError:
        return float("inf")


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def status(store: Store, keeper: Keeper, campaign: str, platform: str = DISCORD) -> dict[str, Any]:
    """What `rollbook discord status` (or `telegram status`) shows: each target's backlog, counts and last error."""
    mirror = Mirror(store, keeper_for(store))
    binding = (mirror.members if platform == DISCORD else mirror.telegram).binding(campaign)
    settings = keeper.load()
    starts = {f"webhook:{w.id}": w.since for w in getattr(settings, "webhooks", ()) if w.campaign == campaign}
    if binding is not None:
        starts[platform] = binding.since
    held = {lane.target: lane for lane in mirror.outbox.lanes() if lane.campaign == campaign}
    targets = []
    for target, since in sorted(starts.items()):
        lane = held.get(target) or Lane(target, campaign, since)
        cursor = max(lane.cursor, since) if target == platform else lane.cursor
        waiting = sum(1 for _, key, _ in mirror.entries(campaign, cursor) if key is not None)
        targets.append({**lane.as_dict(), "cursor": cursor, "backlog": waiting})
    errors = [t for t in targets if t["last_error"]]
    latest = max(errors, key=lambda t: t["last_error_at"] or "") if errors else None
    return {"campaign": campaign, "channel": binding.channel if binding else None,
            "since": binding.since if binding else None, "targets": targets,
            "backlog": sum(t["backlog"] for t in targets),
            "last_error": latest["last_error"] if latest else None,
            "last_error_at": latest["last_error_at"] if latest else None}


def without_errors(shown: dict[str, Any]) -> dict[str, Any]:
    """`status` as a member who is not the GM reads it: a failure's words (they may name the GM's receivers and
    what they answered) are the GM's."""
    hidden = {"last_error": None, "last_error_at": None}
    return {**shown, **hidden, "targets": [{**target, **hidden} for target in shown["targets"]]}
