"""Where a webhook may send: public addresses over https, and only the ranges the server's operator allowed besides.

A GM over HTTP is any signed-in user who made a campaign, so a webhook's URL is a request the server makes for
someone it half knows. The URL is https (http only to an allowed range) and carries no credentials; its host is
resolved, at `webhook add` and again at every delivery, and every address it resolves to is checked with the
standard library's `ipaddress` properties: loopback, private, link-local, unique-local, multicast, unspecified,
reserved and any other address not global are refused, IPv4 inside IPv6 (mapped, 6to4, Teredo) as what it holds,
and a host spelled as a number (`2130706433`, `0x7f.1`, `0177.1`) as the address the system reads in it. The
delivery connects to the address that was checked (`PinnedTransport`: no second lookup between check and connect,
the name kept for Host and TLS), and follows no redirect.

`rollbook serve --allow-webhook-network CIDR` (and `webhook add`'s) allows a range: a GM's own receiver on
127.0.0.1, the tests' receivers.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from urllib.parse import SplitResult, urlsplit

import httpx

from ..domain.errors import CommandRejected

Address = ipaddress.IPv4Address | ipaddress.IPv6Address
Network = ipaddress.IPv4Network | ipaddress.IPv6Network
#: A host and port to the addresses they resolve to (as text); tests give one that asks no DNS.
Resolver = Callable[[str, int], list[str]]


def system_resolver(host: str, port: int) -> list[str]:
    return [str(info[4][0]) for info in socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)]


def networks(ranges: Iterable[str]) -> tuple[Network, ...]:
    """The operator's `--allow-webhook-network` ranges, each refused by name if it is not a CIDR."""
    allowed = []
    for text in ranges:
        try:
            allowed.append(ipaddress.ip_network(text.strip(), strict=False))
        except ValueError:
            raise CommandRejected("--allow-webhook-network {text!r} is not a network (e.g. 127.0.0.0/8, ::1/128)",
                                  text=text[:100]) from None
    return tuple(allowed)


def why_not_public(address: Address) -> str | None:
    """Why a webhook may not send to `address` unless its range is allowed, or None for a public one."""
    if isinstance(address, ipaddress.IPv6Address):
        held = address.ipv4_mapped or address.sixtofour or (address.teredo[1] if address.teredo else None)
        if held is not None:
            inner = why_not_public(held)
            return f"{held}, {inner}" if inner else None
    for reason in ("loopback", "link_local", "multicast", "unspecified", "reserved", "site_local", "private"):
        if getattr(address, f"is_{reason}", False):
            return reason.replace("_", "-")
    return None if address.is_global else "not global"


def literal_address(host: str) -> Address | None:
    """The address a host names by itself: written as one, or as a number the system reads as one (`0x7f.1`)."""
    try:
        return ipaddress.ip_address(host)
    except ValueError:
        pass
    try:
        return ipaddress.IPv4Address(socket.inet_aton(host))
    except (OSError, UnicodeError, ValueError):
        return None


@dataclass(frozen=True)
class Reach:
    """The ranges a webhook may reach beyond the public internet, and how names are resolved."""

    allowed: tuple[Network, ...] = ()
    #: None: the system's resolver (`system_resolver`, looked up when used).
    resolve: Resolver | None = field(default=None, compare=False)

    def allows(self, address: Address) -> bool:
        return any(address.version == network.version and address in network for network in self.allowed)

    def url(self, url: str) -> SplitResult:
        """The URL's parts, if its form may be a webhook's (https, a host, no credentials); refused by name if not."""
        try:
            parts = urlsplit(url)
            parts.port  # noqa: B018 - a port that is not a number is refused here
        except ValueError as error:
            raise CommandRejected("a webhook's URL cannot be read ({error}): {url!r}", field="url", error=str(error),
                                  url=_shown(url)) from None
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise CommandRejected("a webhook's URL is https://, with a host (got {url!r})", field="url", url=_shown(url))
        if "@" in parts.netloc:
            raise CommandRejected("a webhook's URL carries no user or password (got {url!r}): the receiver checks the "
                                  "X-Rollbook-Signature instead", field="url", url=_shown(url))
        return parts

    def addresses(self, url: str) -> tuple[SplitResult, list[Address]]:
        """The URL's parts and every address its host resolves to, each checked; refused by name if one is not
        public and not in an allowed range, or if it is http:// to anything but an allowed range."""
        parts = self.url(url)
        host = parts.hostname or ""
        port = parts.port or (443 if parts.scheme == "https" else 80)
        literal = literal_address(host)
        if literal is not None:
            found = [literal]
        else:
            try:
                resolved = (self.resolve or system_resolver)(host, port)
                found = [ipaddress.ip_address(a.split("%", 1)[0]) for a in resolved]
            except (OSError, UnicodeError, ValueError) as error:
                raise CommandRejected(f"a webhook's host {host[:100]!r} cannot be resolved ({error})",
                                      field="url") from None
            if not found:
                raise CommandRejected(f"a webhook's host {host[:100]!r} resolves to no address", field="url")
        for address in found:
            reason = why_not_public(address)
            if reason is not None and not self.allows(address):
                if literal is not None and str(literal) == host:
                    raise CommandRejected("a webhook may not send to {address} ({reason}); the server's operator may "
                                          "allow its range (rollbook serve --allow-webhook-network CIDR)", field="url",
                                          address=str(address), reason=reason)
                raise CommandRejected("a webhook may not send to {host}, which is {address} ({reason}); the server's "
                                      "operator may allow its range (rollbook serve --allow-webhook-network CIDR)",
                                      field="url", host=host[:100], address=str(address), reason=reason)
        if parts.scheme == "http" and not all(self.allows(address) for address in found):
            raise CommandRejected("a webhook's URL is https:// (http:// only to a range the server's operator "
                                  "allowed); got {url!r}", field="url", url=_shown(url))
        return parts, found


def without_credentials(url: str) -> str:
    """A URL as it may be printed: a user or password in it (kept by older versions) is not."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return url.rsplit("@", 1)[-1]
    if "@" not in parts.netloc:
        return url
    return parts._replace(netloc="…@" + parts.netloc.rsplit("@", 1)[1]).geturl()


def _shown(url: str) -> str:
    return without_credentials(url)[:200]


class PinnedTransport(httpx.BaseTransport):
    """Each request checked by `reach` and sent to the address that was checked, its name kept for Host and TLS."""

    def __init__(self, reach: Reach) -> None:
        self.reach = reach
        self._inner = httpx.HTTPTransport(retries=0)

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        _, found = self.reach.addresses(str(request.url))
        name = request.url.raw_host.decode("ascii")
        request.url = request.url.copy_with(host=str(found[0]))
        request.extensions = {**request.extensions, "sni_hostname": name}
        return self._inner.handle_request(request)

    def close(self) -> None:
        self._inner.close()
