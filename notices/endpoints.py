"""Where Knock may post a web push: the address a phone's browser gave, which
anyone with a seat or a player's link can choose. The server posts there at
every notice and every retry, so an address inside the site's own network would
make it a scanner of that network. An address is taken only over HTTPS, by name,
on the standard port, and only when every address its name resolves to is on
the public internet; it is checked when the phone subscribes and again before
each send (a name can be pointed elsewhere after it was taken)."""

from __future__ import annotations

import ipaddress
import re
import socket
from enum import Enum
from urllib.parse import urlsplit

from django.conf import settings

#: A label of a host name: letters, digits and inner hyphens (IDNs in punycode).
LABEL = re.compile(r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?")
NAT64 = ipaddress.ip_network("64:ff9b::/96")


class Verdict(Enum):
    ALLOWED = "allowed"
    REFUSED = "refused"  # for good: not a push service's address
    UNKNOWN = "unknown"  # the name not found now: maybe later


def addresses(host: str) -> list[str]:
    """The addresses a host name resolves to (OSError when it resolves to none)."""
    found = socket.getaddrinfo(host, 443, type=socket.SOCK_STREAM)
    return [entry[4][0] for entry in found]


def public(address: str) -> bool:
    """Whether one resolved address is on the public internet: not loopback,
    private, link-local, multicast, reserved or unspecified (an IPv4 address
    written inside an IPv6 one is judged as itself)."""
    try:
        ip = ipaddress.ip_address(address.split("%")[0])
    except ValueError:
        return False
    if ip.version == 6:
        # IPv4 carried inside IPv6 (mapped, 6to4, NAT64) reaches that IPv4 address.
        inner = ip.ipv4_mapped or ip.sixtofour
        if inner is None and ip in NAT64:
            inner = ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
        if inner is not None:
            return public(str(inner))
    return ip.is_global and not (
        ip.is_loopback
        or ip.is_private
        or ip.is_link_local
        or ip.is_multicast
        or ip.is_reserved
        or ip.is_unspecified
    )


def _name(endpoint: str) -> str | None:
    """The host name of an HTTPS address as a push service's is written, or None:
    no user part, no port but 443, and a name whose last label is letters (so
    none of the forms a resolver reads as a number: 127.1, 0x7f.0.0.1,
    0177.0.0.1, 169.254.43518)."""
    try:
        parts = urlsplit(endpoint)
        port = parts.port
    except ValueError:
        return None
    if parts.scheme != "https" or "@" in parts.netloc or port not in (None, 443):
        return None
    host = (parts.hostname or "").rstrip(".")
    labels = host.split(".")
    top = labels[-1]
    if len(labels) < 2 or not all(LABEL.fullmatch(label) for label in labels):
        return None
    if not (top.isalpha() or top.startswith("xn--")):
        return None
    if top in ("localhost", "localdomain", "local", "internal", "lan", "home", "arpa"):
        return None
    return host


def endpoint_verdict(endpoint: str) -> Verdict:
    """Whether Knock may post to this push address now. Plain HTTP and any host
    only where the settings allow it (`PUSH_ENDPOINTS_HTTPS_ONLY` off: a push
    service on this machine, the tests')."""
    if not settings.PUSH_ENDPOINTS_HTTPS_ONLY:
        try:
            parts = urlsplit(endpoint)
        except ValueError:
            return Verdict.REFUSED
        ok = parts.scheme in ("http", "https") and bool(parts.hostname)
        return Verdict.ALLOWED if ok else Verdict.REFUSED
    host = _name(endpoint)
    if host is None:
        return Verdict.REFUSED
    try:
        found = addresses(host)
    except (OSError, UnicodeError):
        return Verdict.UNKNOWN
    if not found:
        return Verdict.UNKNOWN
    return Verdict.ALLOWED if all(public(a) for a in found) else Verdict.REFUSED


def push_endpoint_allowed(endpoint: str) -> bool:
    return endpoint_verdict(endpoint) is Verdict.ALLOWED
