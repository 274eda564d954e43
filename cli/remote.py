"""The CLI talking to `rollbook serve` instead of opening a store: `--server URL` with `--token` (or
`ROLLBOOK_TOKEN`), or the server and token `rollbook login` kept (saved.py).

Every verb that reads or writes a campaign then sends what it would have done to the server
(`verify` fetches the export and checks it here, `exported_copy`), signed in as the token's
user: the server takes the actor from the token and answers with the same JSON, so every verb prints what it prints on a local store. A
refusal is the server's, with its field and reason; a command file's refusal names the
line. Each command's id is its Idempotency-Key, derived as `run` derives it, so rerunning a
file against a server skips what it already stored, as it does locally; a command without an id
(a `post` without --id, a line from standard input) gets a fresh key and an id from the server.

A one-command `post --server` imports no rules, no command models and no event store: the
server validates and decides.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

import httpx

from ..commands.lines import CommandError, derived_id, read_lines
from ..domain.errors import CommandRejected

if TYPE_CHECKING:
    from ..commands.runner import RunReport, Skip

#: How long one request may take: a dispute re-executes the whole campaign on the server.
TIMEOUT = 600.0
#: Answers that say the server (or the proxy before it) could not answer now: asked again, with backoff.
RETRIED = (502, 503, 504)
#: Tries of one request, and how long they may take in all (stamina's backoff: 0.1 s doubling, at most 3 s).
ATTEMPTS = 6
RETRY_SECONDS = 60.0


class _NotNow(Exception):
    """An answer in RETRIED, to be asked again."""

    def __init__(self, answer: httpx.Response) -> None:
        super().__init__(answer.status_code)
        self.answer = answer


class Remote:
    def __init__(self, server: str, token: str | None, *, say_retry: Callable[[str], None] | None = None) -> None:
        """`say_retry` is given each retry's line (the CLI's -v passes its printer); without it retries are silent."""
        if not token:
            raise CommandRejected("{server} needs a token: `rollbook login {server}`, or --token TOKEN or ROLLBOOK_TOKEN "
                                  "(the GM makes one with `rollbook users add NAME`)", field="token", server=server)
        self.base = server.rstrip("/")
        self.http = httpx.Client(timeout=TIMEOUT, headers={"Authorization": f"Bearer {token}"})
        #: How many tries the last request took: a repeat of a POST whose first answer was lost is not a skip.
        self.attempts = 0
        self.say_retry = say_retry

    def request(self, method: str, path: str, *, body: Any = None, key: str | None = None,
                params: dict[str, Any] | None = None, headers: dict[str, str] | None = None) -> httpx.Response:
        """One request, asked again with backoff on a connection error or a 502/503/504: safe for a
        POST too, whose Idempotency-Key makes a repeat get the first answer instead of a second command."""
        import stamina
        from stamina.instrumentation import set_on_retry_hooks

        # stamina would log each retry through structlog, on standard output: a retry is said only with -v.
        set_on_retry_hooks([self._said_on_retry])
        sent = {**({"Idempotency-Key": key} if key else {}), **(headers or {})}
        given = {k: v for k, v in (params or {}).items() if v is not None}
        try:
            for attempt in stamina.retry_context(on=(httpx.TransportError, _NotNow), attempts=ATTEMPTS,
                                                 timeout=RETRY_SECONDS, wait_initial=0.1, wait_max=3.0):
                self.attempts = attempt.num
                with attempt:
                    answer = self.http.request(method, self.base + path, json=body, headers=sent, params=given)
                    if answer.status_code in RETRIED:
                        raise _NotNow(answer)
        except _NotNow as busy:
            return busy.answer
        except httpx.HTTPError as error:
            raise CommandRejected(f"cannot reach {self.base}: {error}", field="server") from None
        return answer

    def get(self, path: str, **params: Any) -> httpx.Response:
        answer = self.request("GET", path, params=params)
        if answer.status_code >= 400:
            raise refusal(answer)
        return answer

    def campaign_path(self, campaign: str, rest: str) -> str:
        return f"/campaigns/{quote(campaign, safe='')}{rest}"

    def campaign_get(self, campaign: str, rest: str, **params: Any) -> httpx.Response:
        """A GET of one of the campaign's routes; an unknown campaign refused naming the user's own look-alike."""
        try:
            return self.get(self.campaign_path(campaign, rest), **params)
        except CommandRejected as refused:
            if refused.field == "campaign":
                raise CommandRejected(refused.message + self._lookalike(campaign), field="campaign") from None
            raise

    def _said_on_retry(self, details: Any) -> None:
        """Each retry, to `say_retry` if there is one (the answer that comes in the end is what counts)."""
        if self.say_retry is not None:
            self.say_retry(f"rollbook: retrying in {details.wait_for:.1f} s (try {details.retry_num + 1} of {ATTEMPTS}): "
                           f"{details.caused_by!r}"[:300])

    def _lookalike(self, campaign: str) -> str:
        from ..domain.names import lookalike_hint

        try:
            yours = [row["campaign"] for row in self.get("/campaigns").json()]
        except CommandRejected:
            return ""
        return lookalike_hint(campaign, yours)




def refusal(answer: httpx.Response) -> CommandRejected:
    """The server's refusal as the CLI shows a local one: field and reason."""
    try:
        error = answer.json()["error"]
    except (ValueError, KeyError, TypeError):
        return CommandRejected(f"the server answered {answer.status_code}: {answer.text[:300]}", field="server")
    return CommandRejected(str(error.get("reason")), field=error.get("field"))


class RemoteView:
    """What `view_for` gives the read verbs, read from the server (now, at a point, in a revision)."""

    def __init__(self, remote: Remote, campaign: str, *, at: str | None, revision: int | None) -> None:
        self.remote, self.campaign, self.params = remote, campaign, {"at": at, "revision": revision}
        self._timeline: dict[str, Any] | None = None
        #: What the server says about the point besides (a unit still open), once an answer came.
        self.note: str | None = None

    def _answer(self, rest: str) -> httpx.Response:
        answer = self.remote.campaign_get(self.campaign, rest, **self.params)
        self.note = answer.headers.get("Rollbook-Note") or self.note
        return answer

    def _get(self, rest: str) -> Any:
        return self._answer(rest).json()

    def _whole_timeline(self) -> dict[str, Any]:
        if self._timeline is None:
            self._timeline = self._get("/timeline")
        return self._timeline

    def campaign_doc(self) -> dict[str, Any]:
        return {k: v for k, v in self._whole_timeline().items() if k != "timeline"}

    def timeline(self) -> list[dict[str, Any]]:
        return list(self._whole_timeline()["timeline"])

    def sheet(self, name: str) -> tuple[str, dict[str, Any]]:
        answer = self._answer(f"/sheets/{quote(name, safe='')}")
        return answer.headers.get("Rollbook-Kind", "character"), answer.json()

    def limits(self) -> list[dict[str, Any]]:
        return list(self._get("/limits"))

    def rolls(self) -> list[dict[str, Any]]:
        return list(self._get("/rolls"))

    def struck(self) -> list[dict[str, Any]]:
        """The rolls rulings struck before the revision shown (replay/struck.py), from the server's revisions."""
        from ..replay.struck import struck_rolls

        shown = int(self.campaign_doc()["revision"])
        rulings = self.remote.campaign_get(self.campaign, "/revisions").json()
        return struck_rolls(rulings, lambda number: list(
            self.remote.campaign_get(self.campaign, "/rolls", revision=number).json()), shown)

    def log(self) -> list[dict[str, Any]]:
        return list(self._get("/log"))


def post(remote: Remote, data: dict[str, Any], *, line: int | None = None,
         if_match: str | None = None) -> dict[str, Any]:
    """POST one command, with If-Match only if given; the server's answer, or a CommandError. Its `id` is the
    key; without one, a fresh key, and the server gives the command an id a person can say (`anna-7`)."""
    campaign = data.get("campaign")
    if not isinstance(campaign, str):
        raise CommandError("no campaign: give `campaign` in the command or --campaign", line=line, field="campaign")
    given = data.get("id") if isinstance(data.get("id"), str) else None
    key = given or f"c-{uuid.uuid4().hex[:12]}"  # without an id the server gives one a person can say
    headers = {**({"If-Match": if_match} if if_match is not None else {}),
               **({"Rollbook-Short-Id": "true"} if given is None else {})}
    body = {k: v for k, v in data.items() if k not in ("campaign", "id")}
    answer = remote.request("POST", remote.campaign_path(campaign, "/commands"), body=body, key=key, headers=headers)
    if answer.status_code == 201:
        # Replayed on a retry: this very request stored it on its first try, whose answer was lost.
        replayed = answer.headers.get("Idempotent-Replayed") == "true" and remote.attempts == 1
        return {**answer.json(), "replayed": replayed}
    refused = refusal(answer)
    raise CommandError(refused.message, line=line, command_type=data.get("type"), command_id=given, field=refused.field)


def run(
    remote: Remote, source_lines: bytes | Iterable[bytes], *, source: str | None, default_campaign: str | None,
    on_answer: Callable[[Skip | None, dict[str, Any]], None] | None = None, kept: bool = True,
) -> RunReport:
    """`rollbook run` against a server: each line POSTed in order, stopping at the first refusal.

    Ids are derived as `run_file` derives them (from the file's path and lines; none from
    standard input, whose lines each get a fresh key). `on_answer` is shown each answer as
    it comes (with its skip, for a command the server had already), and none is kept: the
    report counts, as `run_file`'s does (`kept`: and lists skips and checkpoints)."""
    # Here, not at the top: a one-command `post --server` needs neither the service nor the parser.
    from ..commands.runner import RunReport, Skip
    from ..commands.service import Applied

    report, previous = RunReport(kept=kept), source or ""
    try:
        for line in read_lines(source_lines):
            data = line.data if isinstance(line.data, dict) else {"type": None}
            if source is not None:
                previous = data["id"] if isinstance(data.get("id"), str) else derived_id(previous, line.text)
                data = {**data, "id": previous}
            if data.get("campaign") is None and default_campaign is not None:
                data = {**data, "campaign": default_campaign}
            answer = post(remote, data, line=line.number)
            applied = Applied(answer["command_id"], "skipped" if answer["replayed"] else "applied",
                              events=len(answer["events"]), rolls=[r["id"] for r in answer["rolls"]],
                              position=answer["position"])
            report.count(line.number, str(data.get("type")), applied)
            if on_answer is not None:
                skip = Skip.of(line.number, str(data.get("type")), applied) if answer["replayed"] else None
                on_answer(skip, answer)
    except CommandError as error:
        report.error = error
    return report


def dispute(remote: Remote, campaign: str, options: dict[str, Any]) -> dict[str, Any]:
    answer = remote.request("POST", remote.campaign_path(campaign, "/disputes"), body=options,
                            key=f"dispute-{uuid.uuid4().hex[:12]}")
    if answer.status_code >= 400:
        raise refusal(answer)
    return dict(answer.json())


def undo(remote: Remote, campaign: str, command: str | None, *, reason: str, dry_run: bool) -> dict[str, Any]:
    """`undo` on the server: the signed-in user's own last command unless one is named (a player's own only)."""
    answer = remote.request("POST", remote.campaign_path(campaign, "/undo"),
                            body={"command": command, "reason": reason, "dry_run": dry_run},
                            key=f"undo-{uuid.uuid4().hex[:12]}")
    if answer.status_code >= 400:
        raise refusal(answer)
    return dict(answer.json())


def exported_copy(remote: Any, campaign: str) -> Any:
    """The campaign as the server exports it, imported into a store in memory here: `verify` then checks
    it on this machine (every event against its command's fingerprint, the hash chain, the revealed seeds'
    rolls, the checkpoints given), trusting nothing the server says about it."""
    from ..bootstrap import open_store
    from ..replay.transfer import import_history

    exported = remote.campaign_get(campaign, "/export").content
    copy = open_store("memory://")
    try:
        import_history(copy, lambda: iter(exported.splitlines(keepends=True)))
    except CommandRejected as refused:
        raise CommandRejected(f"the export {remote.base} gives of {campaign} does not hold: {refused}",
                              field="server") from None
    return copy
