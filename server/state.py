"""The host (hosting/host.py: the store, the service, the accounts, the locks) as a route's dependency."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from ..hosting.host import Host


async def state_of(request: Request) -> Host:
    """The server's host, as a dependency (`CurrentState`): async, since it does no I/O and so needs no thread."""
    return request.app.state.rollbook


#: A route's parameter for the server's host (the store, its service, reader, accounts and limits).
CurrentState = Annotated[Host, Depends(state_of)]
