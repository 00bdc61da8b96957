"""The one-click unsubscribe link: a player and a kind of notice, signed, so the
link turns that kind off without a login and cannot be made up for another. It
works for a year after its message was written (`MAX_AGE`): a message found in
an old mailbox, or a link passed on, stops working, and the player's own page
still has every choice."""

from datetime import timedelta

from django.conf import settings
from django.core import signing
from django.urls import reverse

SALT = "notices.unsubscribe"
#: How long an unsubscribe link works after its message was written.
MAX_AGE = timedelta(days=365)


def unsubscribe_token(player_id: int, kind: str) -> str:
    return signing.dumps([player_id, kind], salt=SALT, compress=True)


class Expired(Exception):
    """A link made here, older than `MAX_AGE`."""


def read_unsubscribe_token(token: str) -> tuple[int, str] | None:
    """The player and kind the token was made for; None for a token not made here,
    `Expired` for one past its time."""
    try:
        player_id, kind = signing.loads(token, salt=SALT, max_age=MAX_AGE)
    except signing.SignatureExpired:
        raise Expired from None
    except (signing.BadSignature, ValueError, TypeError):
        return None
    return int(player_id), str(kind)


def absolute(path: str) -> str:
    """A link in a message is read away from any request: the site's address first."""
    return settings.SITE_URL + path


def unsubscribe_url(player_id: int, kind: str) -> str:
    return absolute(reverse("public:notices-off", args=[unsubscribe_token(player_id, kind)]))
