"""A new club, made by a person who signed up: its name, the address of its pages,
the language of its mails and the clock of its pages. Its maker owns it."""

import zoneinfo
from functools import cache

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils.text import slugify
from django.utils.translation import gettext

from clubs.accounts import player_for
from clubs.models import Club, ClubRecord, Membership
from clubs.services import club_record_add

SLUG_LENGTH = Club._meta.get_field("slug").max_length


class ClubRefused(ValueError):
    """A club that cannot be made as asked; the message says why, ``field`` which
    of the form's fields it is about, ``free`` an address to offer instead."""

    def __init__(self, message: str, field: str | None = None, free: str = ""):
        super().__init__(message)
        self.field, self.free = field, free


@cache
def time_zones() -> list[str]:
    """The time zones a club may choose: the IANA names, in order."""
    return sorted(zoneinfo.available_timezones())


def slug_suggestion(name: str) -> str:
    """An address for a club's pages, made from its name and not yet taken
    ("Café Pik" → "cafe-pik", then "cafe-pik-2" …)."""
    base = slugify(name)[: SLUG_LENGTH - 4].strip("-") or "club"
    taken = set(Club.objects.filter(slug__startswith=base).values_list("slug", flat=True))
    slug, number = base, 1
    while slug in taken:
        number += 1
        slug = f"{base}-{number}"
    return slug


@transaction.atomic
def club_create(*, name: str, slug: str, language: str, time_zone: str, by) -> Club:
    """Makes a club and its owner: the login ``by``, as the player it plays as
    (`player_for`). Recorded in the new club's record."""
    name, slug = name.strip(), slug.strip().lower()
    if not name:
        raise ClubRefused(gettext("Give the club's name."), "name")
    if language not in dict(settings.LANGUAGES):
        raise ClubRefused(gettext("Choose English or German."))
    if time_zone not in time_zones():
        raise ClubRefused(gettext("Choose a time zone from the list."))
    if slugify(slug) != slug or not slug:
        raise ClubRefused(
            gettext("The address takes small letters, digits and dashes only."), "slug"
        )
    try:
        with transaction.atomic():
            club = Club.objects.create(name=name, slug=slug, language=language, time_zone=time_zone)
    except IntegrityError:
        free = slug_suggestion(slug)
        raise ClubRefused(
            gettext("The address %(slug)s is taken; %(free)s is free.")
            % {"slug": slug, "free": free},
            "slug",
            free,
        ) from None
    player = player_for(by)
    Membership.objects.create(player=player, club=club, role=Membership.Role.OWNER)
    club_record_add(
        ClubRecord.Action.FOUNDED,
        club=club,
        user=by,
        name=name,
        slug=slug,
        language=language,
        time_zone=time_zone,
    )
    club_record_add(
        ClubRecord.Action.MEMBER, club=club, user=by, player=player.name, role=Membership.Role.OWNER
    )
    return club
