"""Who sent a request: the one place that reads the client's address."""

import ipaddress

from django.conf import settings


def client_address(request) -> str | None:
    """The address of the phone or browser that sent ``request``.

    Behind the proxy (``BEHIND_PROXY``), REMOTE_ADDR is the proxy's own address and
    the client's is the last entry of X-Forwarded-For: the one the proxy added.
    Entries before it came from the client and prove nothing. Without the proxy the
    header is anyone's to write, so it is ignored."""
    if settings.BEHIND_PROXY:
        forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
        last = forwarded.rsplit(",", 1)[-1].strip()
        try:
            return str(ipaddress.ip_address(last))
        except ValueError:
            pass  # no header, or not an address: the proxy did not add one
    return request.META.get("REMOTE_ADDR") or None
