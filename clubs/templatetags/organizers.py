"""``user|organizer_name``: who did something, as the other organizers of a club see
it. A login's name is its e-mail address (sign-up), which the co-organizers are not
to learn from a record: they read the name of the player the login belongs to.
The page's query reads that player with the user (``select_related("user__player")``)."""

from django import template
from django.core.exceptions import ObjectDoesNotExist
from django.utils.translation import gettext

register = template.Library()


@register.filter
def organizer_name(user) -> str:
    """The player's name of the login; without a player (a site administrator), its
    full name, or its login name unless that is an e-mail address."""
    if user is None:
        return "–"
    try:
        player = user.player
    except ObjectDoesNotExist:
        player = None
    if player is not None and player.name:
        return player.name
    name = user.get_full_name() or user.get_username()
    return gettext("an organizer") if "@" in name else name
