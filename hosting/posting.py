"""Posting a command as a member: signed in, idempotent by key, optionally conditional on the campaign's version.
The API's `POST /campaigns/{c}/commands`, the post page and the chats all post through `post_command`.

The key (the API's Idempotency-Key, a chat's own id for the request) is the command's id. The service stores a
command's claim on its id in the same transaction as its events, and the answer is built from exactly what that
transaction stored (its events, its rolls, its position; answers.py), so a key that comes back
gets the same answer, byte for byte, whether the first request's reply was lost or not, and on
any server process. The same key with another command is refused: the key is taken.

A post holds its campaign's lock (host.py) while it is decided, and again while it is answered:
the cached campaign it is decided on, and answered from, is changed by no other thread meanwhile.
In between it lets the lock go and waits for its write to be committed (with the other posts'
that arrived meanwhile, store/grouped.py): it is answered only once stored. A write that failed
is applied again alone, as `rollbook run` applies a command whose commit failed.

Refusals are `Refusal`s and `CommandRefused` (refusals.py): each interface says them its own way.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from ..commands.clock import refuse_future
from ..commands.parse import CommandError, parse_command, rejected
from ..domain.accounts import KeptAnswer, actor_for
from ..domain.campaign import Campaign
from ..domain.revisions import REVISION_MARK, revision_key
from ..domain.errors import CommandRejected, PermissionDenied
from ..store.failures import IntegrityError
from .host import Host
from .refusals import CommandRefused, Refusal
from .said_ids import ATTEMPTS, KeyTaken
from .standing import Standing


class PreconditionFailed(CommandRejected):
    """If-Match named a version of the campaign that is no longer its latest."""


@dataclass(frozen=True)
class Version:
    """A campaign's version as an ETag shows it: its current revision and how many commands it holds."""

    revision: int
    commands: int

    def etag(self) -> str:
        return f'"r{self.revision}.{self.commands}"'

    @classmethod
    def parse(cls, text: str) -> Version:
        value = text.strip().removeprefix("W/").strip('"')
        revision, dot, commands = value.removeprefix("r").partition(".")
        if not value.startswith("r") or not dot or not revision.isdigit() or not commands.isdigit():
            raise Refusal("invalid", "If-Match header", f"expected an ETag like \"r1.42\" (as GET sends), got {text[:80]!r}")
        return cls(int(revision), int(commands))


def version_after(answer: dict[str, Any]) -> Version:
    """The campaign's version right after the answered command: its revision and its place in it."""
    key = str(answer["revision_key"])
    revision = int(key.rpartition(REVISION_MARK)[2]) if REVISION_MARK in key else 1
    return Version(revision, int(answer["seq"]))


def version_of(state: Host, campaign: str) -> Version:
    """The campaign's version in the projections (caught up by the caller)."""
    root = state.reader.campaign(campaign)
    current = state.reader.campaign(str(root["current_key"]))
    return Version(int(root["revision"]), int(current["commands"]))


def post_command(
    state: Host, campaign: str, user: str, key: str, if_match: str | None, body: dict[str, Any], *,
    short_id: bool = False, standing: Standing | None = None, via: str | None = None,
    delivered: Callable[[str], Any] | None = None,
) -> tuple[dict[str, Any], bool]:
    """Apply the body's command as `user`; (the answer, whether it is a repeat of an earlier request).
    `short_id`: a body without an `id` gets one a person can say (hosting/said_ids.py); else the key is its id.
    `standing`: the user's role and the key's command, if read already (else read here).
    `via`: a chat's post (`discord:<interaction id>`): recorded in the command, which gets an id a person can say;
    `delivered(its id)` is what the chat delivered (a new aggregate of one event), stored in its transaction."""
    expected = Version.parse(if_match) if if_match is not None else None
    precondition = None if expected is None else _holds(expected, campaign)
    if via is not None or (short_id and body.get("id") is None and body.get("type") != "create_campaign"):
        # Its id and the key's claim on it are stored in one transaction of its own, with the campaign's posts
        # in flight settled first: such a post commits alone (a campaign's creation keeps its key as its id;
        # a chat creates none: its place is bound to a campaign that exists).
        with state.writing(campaign):
            return _said(state, campaign, user, key, body, precondition, via, delivered)
    # Read before the campaign's lock: what the store says needs no lock, and a read under it made
    # the campaign's other posts wait for the disk (a key recorded meanwhile is refused at the write).
    standing = standing or state.standings.of_user(user, campaign, key)
    role, recorded = standing.role, standing.recorded
    with state.deciding(campaign):
        decided = _decided(state, campaign, user, key, body, precondition, role, recorded)
    if not isinstance(decided, Pending):
        return decided
    # Answered once stored: the campaign's lock is let go meanwhile, for the next post to be decided.
    if state.committed(decided.applied, decided.write):
        with state.deciding(campaign):
            return state.answers.decided(campaign, key, decided.applied), False
    with state.writing(campaign):
        applied = _executed(state.post_again, decided.command, precondition)
        if applied.status == "skipped":  # stored under its key by another request while this one's write failed
            return _repeat(state, campaign, key, decided.command, state.answers.recorded(campaign, key), key), True
        return state.answers.decided(campaign, key, applied), False


@dataclass
class Pending:
    """A post decided, its write not yet committed."""

    command: Any
    applied: Any
    write: Any


@dataclass
class Poster:
    """Who posts into the campaign, and whether the post creates it (or finishes its unfinished creation)."""

    role: str | None
    creating: bool
    unfinished: bool


def _member(state: Host, campaign: str, user: str, key: str, body: dict[str, Any], role: str | None) -> Poster:
    """The poster's membership, under the campaign's lock; refused if he may not post into it."""
    exists = state.service.campaign(campaign) is not None
    role = role if exists else None
    creating = body.get("type") == "create_campaign" and not exists
    unfinished = (body.get("type") == "create_campaign" and exists and not state.accounts.roster(campaign)
                  and _creator(state, campaign, key) == user)
    if exists and role is None and not unfinished:
        raise Refusal("forbidden", "campaign", f"{user} is not a member of {campaign}")
    if not exists and not creating:
        raise Refusal("not_found", "campaign", f"no campaign {campaign!r}")
    return Poster(role, creating, unfinished)


def _decided(
    state: Host, campaign: str, user: str, key: str, body: dict[str, Any], precondition: Any,
    role: str | None, recorded: dict[str, Any] | None,
) -> tuple[dict[str, Any], bool] | Pending:
    """Under the campaign's lock: the answer, or the post decided and its write in flight. `role`: the
    user's in the campaign; `recorded`: the command its key holds already, if any (read before the lock)."""
    member = _member(state, campaign, user, key, body, role)
    command = _command(state, campaign, body, key, actor_for(member.role or "gm", user))
    if recorded is not None:
        answer = _repeat(state, campaign, key, command, recorded, key)
        if member.unfinished:
            # The server stopped between creating the campaign and making its creator GM:
            # the creator's retry, with the creation's own key, finishes the work.
            state.accounts.grant(campaign, user, "gm", by=f"{user} (created the campaign)")
        return answer, True
    if member.creating and _creator(state, campaign, key, claim=user) != user:
        raise Refusal("forbidden", "Idempotency-Key header", f"another user is creating {campaign} under this key")
    if member.creating:  # stored at once: its creator is made GM right after
        applied, write = _executed(state.service.execute, command, precondition), None
    else:
        applied, write = _executed(state.post, command, precondition)
    if applied.status == "skipped":  # another server stored the same key a moment ago
        return _repeat(state, campaign, key, command, state.answers.recorded(campaign, key), key), True
    if write is not None:
        return Pending(command, applied, write)
    if member.creating:
        state.accounts.grant(campaign, user, "gm", by=f"{user} (created the campaign)")
    return state.answers.decided(campaign, key, applied), False


def _said(state: Host, campaign: str, user: str, key: str, body: dict[str, Any], precondition: Any,
          via: str | None = None, delivered: Callable[[str], Any] | None = None) -> tuple[dict[str, Any], bool]:
    """Under `writing` the campaign: a post under the id its key was given, or under the poster's next id a person
    can say (hosting/said_ids.py), stored with the key's claim on it; a number another process stored first is passed
    over, the same key stored first is a repeat."""
    member = _member(state, campaign, user, key, body, state.accounts.role_of(campaign, user))
    actor = actor_for(member.role or "gm", user)
    kept = state.said_ids.kept(campaign, key)
    if kept is None and via is not None and state.said_ids.taken(campaign, key):
        kept, via = key, None  # a chat's request stored before `via`, under its key as its id: delivered again
    if kept is not None:
        return _repeat(state, campaign, kept, _command(state, campaign, body, kept, actor, via),
                       state.answers.recorded(campaign, kept) or {}, key), True
    for _ in range(ATTEMPTS):
        said = state.said_ids.next_id(campaign, user)
        command = _command(state, campaign, body, said, actor, via)
        also = () if delivered is None else (delivered(said),)
        try:
            applied = _executed(state.said_ids.storing(campaign, key, said, also).execute, command, precondition)
        except KeyTaken:
            kept = str(state.said_ids.kept(campaign, key))
            return _repeat(state, campaign, kept, _command(state, campaign, body, kept, actor, via),
                           state.answers.recorded(campaign, kept) or {}, key), True
        except CommandRefused:
            if state.said_ids.taken(campaign, said):  # stored by another process meanwhile: the next number
                continue
            raise
        if applied.status == "applied":
            state.said_ids.stored(campaign, user, said)
            return state.answers.decided(campaign, said, applied), False
        # The very same command under the same number from another post a moment ago: it is not this one.
    raise Refusal("busy", "id", f"{ATTEMPTS} ids in a row were taken by other posts first; post again with the same key")


def _executed(execute: Any, command: Any, precondition: Any) -> Any:
    """`execute(command, precondition=...)`, its refusals as the answers they make."""
    try:
        return execute(command, precondition=precondition)
    except PreconditionFailed as error:
        raise Refusal("moved_on", "If-Match header", error.message) from None
    except CommandRejected as error:
        raise CommandRefused(rejected(error, None, command), error,
                             forbidden=isinstance(error, PermissionDenied)) from None


def _creator(state: Host, campaign: str, key: str, *, claim: str | None = None) -> str | None:
    """Who creates `campaign` over HTTP under `key`: kept before the creation is stored, so that a
    creator whose server stopped before making him GM finishes it by retrying; with `claim`, that
    user becomes the creator unless someone already is. ('#' is in no key: no ruling's answer is here.)"""
    marker_id = KeptAnswer.create_id(campaign, f"creator#{key}")
    marker = state.accounts.fresh(marker_id)
    if marker is None and claim is not None:
        try:
            state.store.save(KeptAnswer(campaign=campaign, key=f"creator#{key}", request={"creator": claim},
                                            answer={}))
        except IntegrityError:  # another request claimed it a moment ago
            pass
        marker = state.accounts.fresh(marker_id)
    return None if marker is None else str(marker.request["creator"])


def _command(state: Host, campaign: str, body: dict[str, Any], key: str, actor: str, via: str | None = None) -> Any:
    """The body as a command: of this campaign, with `key` as its id, the signed-in user as its actor and `via` the
    chat's request it came from (a poster never gives it: it would say a chat posted what no chat delivered)."""
    given_actor = body.get("actor")
    if given_actor is not None and given_actor != actor:
        given_type = body.get("type") if isinstance(body.get("type"), str) else None
        raise CommandRefused(CommandError(f"you are signed in as {actor}, not {given_actor!r}"[:300],
                                          command_type=given_type, command_id=key, field="actor"), forbidden=True)
    for name, value, meaning in (("campaign", campaign, "the campaign of the path"), ("id", key, "the Idempotency-Key")):
        if body.get(name) is not None and body[name] != value:
            raise Refusal("invalid", f"body.{name}", f"must be {meaning} ({value!r}) or left out")
    if body.get("via") is not None:
        raise Refusal("invalid", "body.via",
                      "is said by the chat a command is posted from, never by its poster: leave it out")
    try:
        command = parse_command({**body, "campaign": campaign, "id": key, "actor": actor,
                                 **({"via": via} if via is not None else {})}, ruleset_of=state.service.ruleset_of)
        _dated(command)
    except CommandError as error:
        raise CommandRefused(error) from None
    except CommandRejected as error:
        raise CommandRefused(rejected(error, None, command), error) from None
    return command


def _dated(command: Any) -> None:
    """A player's (or an auditor's) command is dated by the server: its time is when it arrived. A
    time it gave could set it after every later command, which would all be refused as earlier
    (commands/clock.py). The GM backdates a forum's posts: his `at` is taken up to a day ahead."""
    if command.at is None:
        return
    if command.actor != "gm":
        raise CommandRejected("{actor} cannot date a command: the server dates it when it arrives; leave `at` out",
                              field="at", actor=command.actor)
    refuse_future(command, how="leave `at` out and the server dates the command")


def _holds(expected: Version, campaign: str) -> Any:
    def check(decided_on: Campaign) -> None:
        if decided_on.campaign != revision_key(campaign, expected.revision) or decided_on.seq != expected.commands:
            raise PreconditionFailed(
                f"the campaign has moved on since {expected.etag()} ({decided_on.campaign} holds {decided_on.seq} "
                "commands now); look again and post again", field="If-Match")
    return check


def _repeat(state: Host, campaign: str, command_id: str, command: Any, recorded: dict[str, Any],
            key: str) -> dict[str, Any]:
    if not same_command(recorded, command.payload()):
        named = "" if command_id == key else f" ({command_id})"
        raise Refusal("invalid", "Idempotency-Key header", f"the key {key!r} was used for another command{named} in "
                                                       f"{campaign}; use a new key for a new command")
    return state.answers.answer(campaign, command_id)


def same_command(recorded: dict[str, Any], given: dict[str, Any]) -> bool:
    """Whether a request repeats the recorded command: the same fields, and the same time if it gave one."""
    stored = dict(recorded)
    stored_at = stored.pop("at", None)
    given = dict(given)
    given_at = given.pop("at", None)
    if given_at is not None and (stored_at is None or datetime.fromisoformat(stored_at) != datetime.fromisoformat(given_at)):
        return False
    return stored == given
