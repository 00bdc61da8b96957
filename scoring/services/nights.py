"""A club night opened, closed and given its stake."""

import datetime
from decimal import Decimal, InvalidOperation

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, ngettext

from clubs.models import Club, ClubNight, ClubRecord
from clubs.services import club_record_add
from scoring import changes, errors
from scoring.engine.rules import RULESETS
from scoring.models import Party


@transaction.atomic
def night_create(
    *,
    club: Club,
    name: str,
    date: datetime.date,
    ruleset: str = "classic",
    confirmation_required: bool = True,
    user=None,
    address=None,
) -> ClubNight:
    """Opens a club night. Its rules and confirmation setting are copied onto every
    party started in it, so they are checked here, once, before any party needs them."""
    name = (name or "").strip()
    if not name:
        raise errors.EntryError(gettext("Give the club night a name."))
    if len(name) > ClubNight._meta.get_field("name").max_length:
        raise errors.EntryError(gettext("The club night's name is too long."))
    if not isinstance(date, datetime.date):
        raise errors.EntryError(gettext("Give the club night a date."))
    if ruleset not in RULESETS:
        raise errors.EntryError(
            gettext("There are no rules called “%(name)s”.") % {"name": ruleset}
        )
    night = ClubNight.objects.create(
        club=club,
        name=name,
        date=date,
        ruleset=ruleset,
        confirmation_required=confirmation_required,
    )
    club_record_add(
        ClubRecord.Action.NIGHT,
        club=club,
        user=user,
        address=address,
        night=name,
        date=date.isoformat(),
        ruleset=ruleset,
        confirmation_required=confirmation_required,
    )
    return night


@transaction.atomic
def night_close(*, night: ClubNight, user, address=None) -> ClubNight:
    """Closes a club night: no new parties, and its results are final. Every party
    must be over or cancelled first, so nothing is left half-played."""
    night = ClubNight.objects.select_for_update().get(pk=night.pk)
    if night.closed_at is not None:
        raise errors.NightClosed(gettext("This club night is already closed."))
    running = night.parties.filter(status=Party.Status.RUNNING).count()
    if running:
        # The night's state refuses it now (a 409 in the API), as a rematch of a
        # running party is refused.
        raise errors.WrongDecision(
            ngettext(
                "%(count)d party is still running: finish or cancel it first.",
                "%(count)d parties are still running: finish or cancel them first.",
                running,
            )
            % {"count": running}
        )
    night.closed_at = timezone.now()
    night.closed_by = user
    night.save(update_fields=["closed_at", "closed_by"])
    changes.night_changed(night.pk)
    club_record_add(
        ClubRecord.Action.CLOSED,
        club=night.club,
        user=user,
        address=address,
        night=night.name,
        date=night.date.isoformat(),
    )
    return night


@transaction.atomic
def night_set_stake(*, night: ClubNight, stake, user=None, address=None) -> ClubNight:
    """Sets what a point is worth at this night (seed 000: the winner is paid the
    difference "nach dem vereinbarten Schlüssel"); None or 0: not played for money.
    A closed night's results are final, its stake too."""
    night = ClubNight.objects.select_for_update().get(pk=night.pk)
    if night.closed_at is not None:
        raise errors.NightClosed(
            gettext("%(night)s is closed: its results are final.") % {"night": night.name}
        )
    if stake is not None:
        try:
            stake = Decimal(str(stake))
        except InvalidOperation:
            raise errors.EntryError(gettext("Give the stake as an amount, e.g. 0.05.")) from None
        if not stake.is_finite() or stake < 0 or stake != stake.quantize(Decimal("0.01")):
            raise errors.EntryError(
                gettext("Give the stake as an amount of 0 or more, in cents at most, e.g. 0.05.")
            )
        if stake >= Decimal("100000"):
            raise errors.EntryError(gettext("That stake is too high."))
    before = night.stake
    night.stake = stake or None
    night.save(update_fields=["stake"])
    changes.night_changed(night.pk)
    if night.stake != before:
        club_record_add(
            ClubRecord.Action.STAKE,
            club=night.club,
            user=user,
            address=address,
            night=night.name,
            date=night.date.isoformat(),
            stake=None if night.stake is None else str(night.stake),
            was=None if before is None else str(before),
        )
    return night
