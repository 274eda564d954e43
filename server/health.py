"""`GET /health`: whether the store answers, for a proxy or a monitor; no sign-in."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from .state import CurrentState

router = APIRouter(tags=["health"])


@router.get("/health")
def health(state: CurrentState) -> dict[str, Any]:
    """Whether the store answers, and its last position.

    It asks the store itself, behind no lock: a command waiting on a store that went away
    holds its campaign's lock, and the health check must say so (503) rather than wait.
    """
    return {"status": "ok", "store": state.store.kind, "position": state.store.head()}
