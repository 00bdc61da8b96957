"""How often one address may ask for something that sends a mail (a sign-up, a
password reset): a count per address in the shared cache, over a window."""

import logging

from django.conf import settings
from django.core.cache import cache

from web.client import client_address

log = logging.getLogger(__name__)


def too_often(request, *, what: str, by: str | None = None) -> bool:
    """Counts this request against its address's allowance for ``what`` and answers
    whether it is past ``ACCOUNT_MAIL_LIMIT`` within ``ACCOUNT_MAIL_WINDOW`` seconds.
    Each sign-up or reset sends a mail to an address someone typed: without a
    limit, one script could fill a stranger's mailbox through us. When the cache is
    down the count steps aside, as the seat-link guard does. ``by`` counts by
    something else than the client's address (the address a mail goes to)."""
    key = f"throttle:{what}:{by if by is not None else client_address(request)}"
    try:
        cache.add(key, 0, settings.ACCOUNT_MAIL_WINDOW)
        return cache.incr(key) > settings.ACCOUNT_MAIL_LIMIT
    except Exception:  # a lost count is better than a refused sign-up
        log.warning("throttle: cache unavailable", exc_info=True)
        return False
