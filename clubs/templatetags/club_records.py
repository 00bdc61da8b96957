"""``record.details|record_words``: a club record's details (`ClubRecord.details`,
written by `clubs.services.club_record_add`) as a person reads them: each stored key
by its name, a role and a language by theirs, yes or no for a flag, a date and a
moment in the reader's language and the site's time zone, a dash for nothing.

Its rules are named by the scoring app, which clubs does not import: the words give
the stored ruleset key, and the template names it with ``cards``' ``ruleset``."""

import datetime
from decimal import Decimal, InvalidOperation

from django import template
from django.conf import settings
from django.utils import formats, timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from clubs.models import Membership
from web.money import money

register = template.Library()

LABELS = {
    "night": _("Club night"),
    "date": _("Date"),
    "ruleset": _("Rules"),
    "confirmation_required": _("Confirmation"),
    "stake": _("Stake per point"),
    "was": _("Before"),
    "player": _("Player"),
    "role": _("Role"),
    "before": _("Before"),
    "after": _("After"),
    "key": _("Key"),
    "prefix": _("Begins with"),
    "username": _("Username"),
    # A club founded (`clubs.founding.club_create`).
    "name": _("Club name"),
    "slug": _("Address of its pages"),
    "language": _("Language"),
    "time_zone": _("Time zone"),
    "currency": _("Currency"),
    # An organizer invited (`clubs.invitations`).
    "by_email": _("Sent by e-mail"),
    "expires": _("Valid until"),
    "made": _("Invitation made"),
    # A member list imported or exported (`clubs.services.roster_import`).
    "file": _("File"),
    "added": _("Added"),
    "changed": _("Changed"),
    "refused": _("Refused"),
    "kind": _("Format"),
}
_ROLES = {"role", "before", "after"}
_AMOUNTS = {"stake", "was"}
_DATES = {"date"}
_MOMENTS = {"expires", "made"}


@register.filter
def record_words(details: dict, currency: str = "") -> list[tuple[str, str, str]]:
    """(stored key, its name, its value in words) for each detail, in the order of
    `LABELS` (others after them, by key): the stored order is not kept everywhere
    (PostgreSQL's jsonb orders keys its own way), and a record reads the same on
    every database."""
    order = {key: n for n, key in enumerate(LABELS)}
    return [
        (
            key,
            str(LABELS.get(key, key.replace("_", " ").capitalize())),
            _shown(key, value, currency),
        )
        for key, value in sorted(
            (details or {}).items(), key=lambda item: (order.get(item[0], len(order)), item[0])
        )
    ]


def _shown(key: str, value, currency: str = "") -> str:
    if isinstance(value, bool):
        return gettext("yes") if value else gettext("no")
    if value is None or value == "":
        return "–"
    if key in _ROLES and value in Membership.Role.values:
        return str(Membership.Role(value).label)
    if key == "language":
        return str(dict(settings.LANGUAGES).get(value, value))
    if key in _AMOUNTS:
        try:
            amount = Decimal(value)
        except (InvalidOperation, TypeError):
            return str(value)
        # With the club's currency when the page names it (`record_words:club.currency`).
        return money(amount, currency) if currency else formats.number_format(amount, 2)
    if key in _DATES:
        try:
            return formats.date_format(datetime.date.fromisoformat(value), "DATE_FORMAT")
        except (TypeError, ValueError):
            return str(value)
    if key in _MOMENTS:
        try:
            moment = datetime.datetime.fromisoformat(value)
        except (TypeError, ValueError):
            return str(value)
        if timezone.is_aware(moment):
            moment = timezone.localtime(moment)
        day = formats.date_format(moment, "DATE_FORMAT")
        return f"{day} {formats.time_format(moment, 'TIME_FORMAT')}"
    return str(value)
