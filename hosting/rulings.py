"""Ruling on a roll as the GM or an auditor (a dispute, an undo): idempotent by key, its answer kept.
The API's disputes and undo, the disputes page and the chats' undo all rule through `rule`.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field

from ..domain.accounts import KeptAnswer
from .accounts import Membership
from .answers import jsonable
from .host import Host
from .refusals import Refusal


class DisputeRequest(BaseModel):
    """`rollbook dispute`'s options: exactly one of reroll, faces or drop."""

    model_config = ConfigDict(extra="forbid", strict=True)
    roll: str = Field(min_length=1, max_length=200, description="The roll's id (see /rolls).")
    reason: str = Field(min_length=1, max_length=10_000)
    reroll: bool = False
    faces: list[Annotated[int, Field(ge=1, le=1000)]] | None = Field(default=None, max_length=1000)
    drop: bool = False
    and_drop: list[Annotated[str, Field(min_length=1, max_length=200)]] = Field(default_factory=list, max_length=1000)
    dry_run: bool = False


def rule(state: Host, member: Membership, key: str, ruled: DisputeRequest) -> dict[str, Any]:
    """Rule (or dry-run) as `member`, under the key: what it changed (a repeated key: its kept answer)."""
    from ..replay.dispute import Ruling
    from ..replay.dispute import dispute as run_dispute
    from ..replay.revisions import revisions as list_revisions

    from ..store.logs import silenced

    asked = ruled.model_dump(mode="json")
    ruling = Ruling(roll=ruled.roll, reason=ruled.reason, actor=member.actor, reroll=ruled.reroll, faces=ruled.faces,
                    drop=ruled.drop, also_drop=list(ruled.and_drop))
    if ruled.dry_run:
        # The history re-executed is not news (silenced): one line after says what was ruled.
        with state.writing(member.campaign), silenced():
            shown = jsonable(run_dispute(state.store, member.campaign, ruling, dry_run=True).as_dict())
        return _logged("dispute.dry_run", member, shown)
    with state.writing(member.campaign), silenced():
        kept = state.accounts.fresh(KeptAnswer.create_id(member.campaign, key))
        if kept is not None:
            if kept.request != asked:
                raise Refusal("invalid", "Idempotency-Key header", f"the key {key!r} was used for another ruling")
            return kept.answer
        if state.service.is_recorded(member.campaign, key):
            if any(row.get("dispute") == key for row in list_revisions(state.store, member.campaign)):
                raise Refusal("conflict", "Idempotency-Key header", f"the ruling {key!r} was made but its answer "
                                                                    "was lost (the server stopped); GET /revisions shows it")
            raise Refusal("invalid", "Idempotency-Key header",
                          f"the key {key!r} is already the id of a command in {member.campaign}; use a new key")
        result = run_dispute(state.store, member.campaign, ruling, dry_run=False, dispute_id=key)
        answer = jsonable(result.as_dict())
        state.store.save(KeptAnswer(campaign=member.campaign, key=key, request=asked, answer=answer))
    return _logged("dispute.ruled", member, answer)


def _logged(event: str, member: Membership, shown: dict[str, Any]) -> dict[str, Any]:
    """The one line a ruling logs (outside `silenced`): who ruled on what, and how much it changed."""
    from ..store.logs import Log

    # Logged under the server's name, as it always was: log readers filter on it.
    Log("rollbook.server").info(event, campaign=member.campaign, actor=member.actor, dispute=shown["dispute"],
                                roll=shown["roll"], differences=len(shown["differences"]),
                                not_applied=len(shown["not_applied"]))
    return shown
