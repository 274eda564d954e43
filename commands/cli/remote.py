"""The CLI talking to `rollbook serve` instead of opening a store: `--server URL` with `--token` (or `ROLLBOOK_TOKEN`).

`run`, `post`, the read verbs and `dispute` then send what they would have done to the
server, signed in as the token's user: the server takes the actor from the token and
answers with the same JSON, so every verb prints what it prints on a local store. A
refusal is the server's, with its field and reason; a command file's refusal names the
line. Each command's id is its Idempotency-Key, derived as `run` derives it, so rerunning a
file against a server skips what it already stored, as it does locally.

A one-command `post --server` imports no rules, no command models and no event store: the
server validates and decides.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

import httpx

from ...commands.lines import CommandError, derived_id, read_lines
from ...domain.errors import CommandRejected

if TYPE_CHECKING:
    from ...commands.runner import RunReport, Skip

#: How long one request may take: a dispute re-executes the whole campaign on the server.
TIMEOUT = 600.0


class Remote:
    def __init__(self, server: str, token: str | None) -> None:
        if not token:
            raise CommandRejected("--server needs a token: --token TOKEN or ROLLBOOK_TOKEN (from `rollbook users add`)",
                                  field="token")
        self.base = server.rstrip("/")
        self.http = httpx.Client(timeout=TIMEOUT, headers={"Authorization": f"Bearer {token}"})

    def request(self, method: str, path: str, *, body: Any = None, key: str | None = None,
                params: dict[str, Any] | None = None) -> httpx.Response:
        headers = {"Idempotency-Key": key} if key else {}
        given = {k: v for k, v in (params or {}).items() if v is not None}
        try:
            return self.http.request(method, self.base + path, json=body, headers=headers, params=given)
        except httpx.HTTPError as error:
            raise CommandRejected(f"cannot reach {self.base}: {error}", field="server") from None

    def get(self, path: str, **params: Any) -> httpx.Response:
        answer = self.request("GET", path, params=params)
        if answer.status_code >= 400:
            raise refusal(answer)
        return answer

    def campaign_path(self, campaign: str, rest: str) -> str:
        return f"/campaigns/{quote(campaign, safe='')}{rest}"


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
        answer = self.remote.get(self.remote.campaign_path(self.campaign, rest), **self.params)
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

    def log(self) -> list[dict[str, Any]]:
        return list(self._get("/log"))


def post(remote: Remote, data: dict[str, Any], *, line: int | None = None) -> dict[str, Any]:
    """POST one command (its `id` the key; a fresh one if it has none); the server's answer, or a CommandError."""
    campaign = data.get("campaign")
    if not isinstance(campaign, str):
        raise CommandError("no campaign: give `campaign` in the command or --campaign", line=line, field="campaign")
    key = data.get("id") if isinstance(data.get("id"), str) else f"c-{uuid.uuid4().hex[:12]}"
    body = {k: v for k, v in data.items() if k not in ("campaign", "id")}
    answer = remote.request("POST", remote.campaign_path(campaign, "/commands"), body=body, key=key)
    if answer.status_code == 201:
        return {**answer.json(), "replayed": answer.headers.get("Idempotent-Replayed") == "true"}
    refused = refusal(answer)
    raise CommandError(refused.message, line=line, command_type=data.get("type"), command_id=key, field=refused.field)


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
    from ...commands.runner import RunReport, Skip
    from ...commands.service import Applied

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
