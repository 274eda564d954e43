"""Where a witness gets a campaign's checkpoints and proofs, and sends its cosignatures: a `rollbook serve`
URL (its `/checkpoint` and `/proof` routes) or a store it can open itself (replay/witness.py)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Protocol
from urllib.parse import quote

from ..domain.errors import N_, CommandRejected


class Refusal(Exception):
    """A source (or the witness itself) said no: an HTTP-like status and why."""

    def __init__(self, status: int, reason: str | CommandRejected, body: str = "", *,
                 evidence: tuple[str, str, str] | None = None) -> None:
        super().__init__(f"{status}: {reason}")
        #: `reason` is the English (the protocol's body, --json); `said`, where the witness said it itself, its
        #: template and values, for `language.refusal` to say it in the reader's language (a source's own is as sent).
        self.status, self.reason, self.body = status, str(reason), body
        self.said = reason if isinstance(reason, CommandRejected) else None
        #: For a refusal that shows the log misbehaving: why, the checkpoint co-signed last, the one offered.
        self.evidence = evidence


class Source(Protocol):
    """Where a campaign's checkpoints come from: a `rollbook serve` URL, or a store."""

    where: str

    def vkey(self, campaign: str) -> str: ...

    def latest(self, campaign: str, revision: int | None) -> str:
        """The checkpoint now (of the current revision, or `revision`), as a signed note."""
        ...

    def consistency(self, campaign: str, revision: int, old: int, new: int) -> list[bytes]: ...

    def submit(self, campaign: str, submission: str) -> str:
        """Send `witness VKEY`, a blank line and the co-signed checkpoint; the published checkpoint."""
        ...


class StoreSource:
    """A store the witness can open itself (the GM's file on a shared disk, a PostgreSQL it may read)."""

    def __init__(self, url: str) -> None:
        self.where = url

    @contextmanager
    def _opened(self) -> Iterator[Any]:
        from ..store import Store

        store = Store.open(self.where)
        try:
            yield store
        finally:
            store.close()

    def vkey(self, campaign: str) -> str:
        from .transparency import open_log

        with self._opened() as store:
            return open_log(store, campaign).verifier.vkey

    def latest(self, campaign: str, revision: int | None) -> str:
        from .transparency import open_log

        with self._opened() as store:
            return str(open_log(store, campaign, revision).head().note)

    def consistency(self, campaign: str, revision: int, old: int, new: int) -> list[bytes]:
        from .transparency import open_log

        with self._opened() as store:
            return open_log(store, campaign, revision).tree.consistency(old, new)

    def submit(self, campaign: str, submission: str) -> str:
        from .transparency import Refused, accept_cosignature

        with self._opened() as store:
            try:
                return str(accept_cosignature(store, campaign, submission).note)
            except Refused as refused:
                raise Refusal(refused.status, refused.reason, refused.body or "") from None


class HttpSource:
    """A `rollbook serve` (`/campaigns/{c}/checkpoint/...`, `/proof/consistency`), signed in with a token."""

    def __init__(self, url: str, token: str | None) -> None:
        self.where, self.token = url.rstrip("/"), token

    def _request(self, method: str, path: str, *, headers: dict[str, str] | None = None, **options: Any) -> str:
        import httpx

        sent = {**({"Authorization": f"Bearer {self.token}"} if self.token else {}), **(headers or {})}
        try:
            answer = httpx.request(method, f"{self.where}/campaigns/{path}", headers=sent, timeout=30, **options)
        except httpx.HTTPError as error:
            raise Refusal(503, CommandRejected(N_("cannot reach {where}: {error}"), where=self.where,
                                               error=error)) from None
        if answer.status_code != 200:
            try:
                reason = answer.json()["error"]["reason"]
            except (ValueError, KeyError, TypeError):
                reason = answer.text.strip()[:300]
            raise Refusal(answer.status_code, reason, answer.text)
        return answer.text

    def vkey(self, campaign: str) -> str:
        return self._request("GET", f"{quote(campaign, safe='')}/checkpoint/vkey").strip()

    def latest(self, campaign: str, revision: int | None) -> str:
        return self._request("GET", f"{quote(campaign, safe='')}/checkpoint/note",
                             params={"revision": revision} if revision else {})

    def consistency(self, campaign: str, revision: int, old: int, new: int) -> list[bytes]:
        import json

        proof = json.loads(self._request("GET", f"{quote(campaign, safe='')}/proof/consistency",
                                         params={"from": old, "to": new, "revision": revision}))
        return [bytes.fromhex(h) for h in proof["path"]]

    def submit(self, campaign: str, submission: str) -> str:
        return self._request("POST", f"{quote(campaign, safe='')}/checkpoint/cosignatures", content=submission.encode(),
                             headers={"Content-Type": "text/plain; charset=utf-8"})


def source_for(text: str, token: str | None = None) -> Source:
    return HttpSource(text, token) if text.startswith(("http://", "https://")) else StoreSource(text)
