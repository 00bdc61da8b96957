"""The one-click unsubscribe link: a player and a kind of notice, signed, so the
link turns that kind off without a login and cannot be made up for another."""

from django.conf import settings
from django.core import signing
from django.urls import reverse

SALT = "notices.unsubscribe"


def unsubscribe_token(player_id: int, kind: str) -> str:
    return signing.dumps([player_id, kind], salt=SALT, compress=True)


def read_unsubscribe_token(token: str) -> tuple[int, str] | None:
    """The player and kind the token was made for; None for a token not made here."""
    try:
        player_id, kind = signing.loads(token, salt=SALT)
    except (signing.BadSignature, ValueError, TypeError):
        return None
    return int(player_id), str(kind)


def absolute(path: str) -> str:
    """A link in a message is read away from any request: the site's address first."""
    return settings.SITE_URL + path


def unsubscribe_url(player_id: int, kind: str) -> str:
    return absolute(reverse("public:notices-off", args=[unsubscribe_token(player_id, kind)]))
