"""How often each user may post: a token bucket per user, the same over the API, the pages and the chats."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from .refusals import Refusal

#: Posts a minute each user may make (a burst of BURST at once), unless the host is told otherwise.
POSTS_PER_MINUTE = 600
BURST = 60


@dataclass
class RateLimit:
    """Each user may post `per_minute` times a minute, in bursts of up to `burst` (a token bucket).

    It keeps one looping client from filling the single writer's queue; the others go on.
    """

    per_minute: float
    burst: int
    clock: Callable[[], float] = time.monotonic
    _buckets: dict[str, tuple[float, float]] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def take(self, user: str) -> None:
        if self.per_minute <= 0:
            return
        now = self.clock()
        with self._lock:
            tokens, since = self._buckets.get(user, (float(self.burst), now))
            tokens = min(float(self.burst), tokens + (now - since) * self.per_minute / 60)
            if tokens < 1:
                wait = (1 - tokens) * 60 / self.per_minute
                self._buckets[user] = (tokens, now)
                raise Refusal("too_fast", "Authorization header",
                              f"{user} posts more than {self.per_minute:g} times a minute; retry in {wait:.1f} s",
                              retry_after=max(1, round(wait)))
            self._buckets[user] = (tokens - 1, now)
